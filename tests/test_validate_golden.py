"""Every finding of ``validate`` on a broad set of broken and hostile inputs, as recorded.

A regression net for work on the validator's speed: the report (JSON format)
of each case below must equal the one recorded in
``tests/golden/validate-findings.json`` code for code, line for line, message
for message, value for value. The cases are the neutral fixtures and dummy
data, the real upstream files (clean, and corrupted by seeded random edits of
many kinds), synthetic contributions of several sizes made from the real rows,
unreadable files, and built-format Parquet.

The recording was made by the validator as it was before the speed work
(release 0.2.0's rules, commit 3eb3066) with::

    HATEMOJI_DATASETS_RECORD_GOLDEN=1 python -m pytest tests/test_validate_golden.py

Values and expected values come from third-party data, so the file keeps a
digest of each (the first 16 hex digits of its SHA-256) rather than the text.
Per case it keeps the report's summary, the count of each code, the first
findings in full and the SHA-256 of the whole list (some cases have thousands).

Re-recorded once on purpose since (issue 28, findings made independent): every change
was a finding that another one had hidden now appearing (a row rule where a cell it
reads was rejected, release findings of a row with a repeated id, a warning of such
a row), the two new contribution-wide codes (`KEY-REPEATED-ACROSS-FILES`: the two
Parquet copies in ``built parquet`` hold the same ids), and, in ``build corrupted
3``, seven cells whose error is now the dataset rule's rather than
``RELEASE-CHANGED``. No other finding was lost.

HateCheck's cases (``hatecheck ...``) were added when its contributions began to be
streamed (issue 26), recorded by the validator just before that change, whose
whole-file check alone saw them.

Some recorded findings are quirks of the validator, kept on purpose because
this file pins behaviour, not intent: one value that is not an integer in an
integer column leaves the whole column as text, and the row rules comparing it
with integers then fail on every row (``check corrupted 1``).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import FIXTURES, dummy_data_dir, source_url, upstream_path

from hatemoji_datasets.cli import main

GOLDEN = Path(__file__).resolve().parent / "golden" / "validate-findings.json"
RECORD = os.environ.get("HATEMOJI_DATASETS_RECORD_GOLDEN") == "1"
#: Findings kept in full per case; the rest are covered by the case's digest.
SHOWN = 40

#: Cells a random edit may write: plausible vocabulary of every dataset, numbers at and
#: past the edges, empty and white space, emoji, and Unicode that the text rules catch.
POOL = [
    "", " ", "x", "-1", "0", "1", "2", "3", "4", "9", "10", "1.5", "1e3", "007",
    "99999999999999999999", "nan", "NaN", "None", "NULL", "null", "True", "true", "False",
    "orig", "identity_perturb", "polarity_perturb", "no_emoji_perturb", "women", "muslims",
    "verb_swap", "append", "['none']", "['wom', 'wom']", "['zzz']", "[`wom`]", "['wom'",
    "none", "derogation", "threatening", "5a", "6b", "7b", "8c", "5", "6", "7", "8",
    "train", "dev", "test", "validation", "original", "perturbation", "🔪", "a 🌻 b",
    " lead", "trail ", "Cafe\u0301 🌻", "zero\u200bwidth 🌻", "bell\x07 🌻", "\ufb01ne 🌻",
    "\uff29 like 🌻", "여성", "남성", "gender", "others", "hate", "offensive", "Spoiled",
    "Default", "1.0", "12.3", "20", "25", "15", "100", "Female", "Male",
]  # fmt: skip


def digest(value: str | None) -> str | None:
    return None if value is None else hashlib.sha256(value.encode("utf-8")).hexdigest()[:16]


# -- inputs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Format:
    delimiter: str = ","
    quoted: bool = True


CSV, TSV = Format(), Format("\t", False)


def parse(data: bytes, fmt: Format) -> list[list[str]]:
    text = data.decode("utf-8")
    if not fmt.quoted:
        return [line.split(fmt.delimiter) for line in text.split("\n") if line]
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=fmt.delimiter))


def unparse(rows: list[list[str]], fmt: Format) -> bytes:
    if not fmt.quoted:
        return "".join(fmt.delimiter.join(row) + "\n" for row in rows).encode("utf-8")
    out = io.StringIO()
    csv.writer(out, delimiter=fmt.delimiter, lineterminator="\n").writerows(rows)
    return out.getvalue().encode("utf-8")


def mutate(data: bytes, fmt: Format, seed: int, edits: int) -> bytes:
    """``edits`` seeded random edits: cells from the pool, from another row or column,
    rows repeated or dropped."""
    rng = random.Random(seed)
    header, *rows = parse(data, fmt)
    pool = [v for v in POOL if fmt.quoted or ("\t" not in v and "\n" not in v)]
    for _ in range(edits):
        kind = rng.choices(["pool", "swap", "cross", "repeat", "drop"], [10, 5, 2, 2, 1])[0]
        at = rng.randrange(len(rows))
        column = rng.randrange(len(header))
        row = rows[at]
        if column >= len(row):
            continue
        if kind == "pool":
            row[column] = rng.choice(pool)
        elif kind == "swap":
            other = rows[rng.randrange(len(rows))]
            row[column] = other[column] if column < len(other) else row[column]
        elif kind == "cross":
            row[column] = row[rng.randrange(len(row))]
        elif kind == "repeat":
            rows.insert(rng.randrange(len(rows) + 1), list(row))
        elif len(rows) > 2:
            del rows[at]
    return unparse([header, *rows], fmt)


def renew(data: bytes, fmt: Format, copies: int, change: Callable[[dict, int], None]) -> bytes:
    """A synthetic contribution: ``copies`` passes over the real rows, each row changed by
    ``change(row, copy)`` so that it is new (ids and texts no longer released)."""
    header, *rows = parse(data, fmt)
    out = [header]
    for copy in range(copies):
        for row in rows:
            cells = dict(zip(header, row))
            change(cells, copy)
            out.append([cells[c] for c in header])
    return unparse(out, fmt)


def _new_check_row(cells: dict, copy: int) -> None:
    cells["case_id"] = str(int(cells["case_id"]) + 100_000 * (copy + 1))
    cells["text"] = f"{cells['text']} (take {copy + 1})"


def _new_build_row(cells: dict, copy: int) -> None:
    offset = 1_000_000 * (copy + 1)
    cells["entry_id"] = str(int(cells["entry_id"]) + offset)
    cells["matched_id"] = str(int(cells["matched_id"]) + offset)
    cells["text"] = f"{cells['text']} (take {copy + 1})"
    cells["matched_text"] = f"{cells['matched_text']} (take {copy + 1})"


def _new_hatecheck_row(cells: dict, copy: int) -> None:
    """A HateCheck case or its annotations made new alike (both files restate the text)."""
    cells["case_id"] = str(int(cells["case_id"]) + 100_000 * (copy + 1))
    cells["test_case"] = f"{cells['test_case']} (take {copy + 1})"


def _new_text(column: str) -> Callable[[dict, int], None]:
    def change(cells: dict, copy: int) -> None:
        cells[column] = f"{cells[column]} (take {copy + 1})"

    return change


@dataclass
class Case:
    dataset: str
    #: file name -> bytes (None: the name is a folder; missing: nothing is written)
    files: dict[str, Callable[[Path], bytes | None]]
    config: str | None = None
    options: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    parquet: bool = field(default=False)


def released(dataset: str, source: str) -> Callable[[Path], bytes]:
    return lambda mirror: upstream_path(mirror, source_url(dataset, source)).read_bytes()


def fixture(name: str) -> Callable[[Path], bytes]:
    return lambda _: (FIXTURES / name).read_bytes()


def dummy(dataset: str, source: str) -> Callable[[Path], bytes]:
    return lambda _: upstream_path(
        dummy_data_dir(dataset), source_url(dataset, source)
    ).read_bytes()


def then(make: Callable[[Path], bytes], edit: Callable[[bytes], bytes]) -> Callable:
    return lambda mirror: edit(make(mirror))


def raw(data: bytes) -> Callable[[Path], bytes]:
    return lambda _: data


CHECK, BUILD, APEACH, HATECHECK = "hatemoji_check", "hatemoji_build", "apeach", "hatecheck"
BUILD_FILES = {"train.csv": "train", "validation.csv": "validation", "test.csv": "test"}
#: HateCheck's files of each config, named like upstream's (the name says the format).
HATECHECK_FILES = {
    "default": {
        "test_suite_cases.csv": "suite_cases",
        "test_suite_annotations.csv": "suite_annotations",
    },
    "all": {
        "all_cases.csv": "all_cases",
        "all_annotations.csv": "all_annotations",
        "test_suite_cases.csv": "suite_cases",
    },
}
CHECK_HEADER = (
    b"case_id,templ_id,test_group_id,text,target,functionality,set,label_gold,"
    b"unrealistic_flags,included_in_test_suite\n"
)


def _cases() -> dict[str, Case]:
    check = released(CHECK, "test")
    cases: dict[str, Case] = {
        # The released files, whole: clean.
        "check released": Case(CHECK, {"test.csv": check}, options=("--full", "--strict")),
        "build released": Case(
            BUILD, {n: released(BUILD, s) for n, s in BUILD_FILES.items()}, options=("--full",)
        ),
        "build r6 train": Case(BUILD, {"train.csv": released(BUILD, "train")}, config="r6"),
        "apeach released": Case(APEACH, {"test.csv": released(APEACH, "apeach_test")}),
        "beep released": Case(
            APEACH,
            {"train.tsv": released(APEACH, "beep_train"), "dev.tsv": released(APEACH, "beep_dev")},
            config="beep",
            options=("--full",),
        ),
        # Neutral fixtures and dummy data.
        "check fixtures": Case(
            CHECK,
            {
                f"{n}.csv": fixture(f"hatemoji_check_{n}.csv")
                for n in ("valid", "broken", "contribution")
            },
        ),
        "build fixtures": Case(
            BUILD, {n: fixture(f"hatemoji_build_{s}.csv") for n, s in BUILD_FILES.items()}
        ),
        "build fixture contribution": Case(
            BUILD, {"contribution.csv": fixture("hatemoji_build_contribution.csv")}
        ),
        "apeach fixtures": Case(
            APEACH, {f"{n}.csv": fixture(f"apeach_{n}.csv") for n in ("valid", "broken")}
        ),
        "beep fixtures": Case(
            APEACH, {f"{n}.tsv": fixture(f"beep_{n}.tsv") for n in ("valid", "broken")}, "beep"
        ),
        "check dummy data": Case(CHECK, {"test.csv": dummy(CHECK, "test")}),
        "build dummy data": Case(BUILD, {n: dummy(BUILD, s) for n, s in BUILD_FILES.items()}),
        "apeach dummy data": Case(APEACH, {"test.csv": dummy(APEACH, "apeach_test")}),
        "beep dummy data": Case(
            APEACH,
            {"train.tsv": dummy(APEACH, "beep_train"), "dev.tsv": dummy(APEACH, "beep_dev")},
            "beep",
        ),
    }
    # Corrupted copies of the real files: seeded random edits, light and heavy.
    for seed, edits in ((1, 30), (2, 30), (3, 400)):
        cases[f"check corrupted {seed}"] = Case(
            CHECK, {"test.csv": then(check, lambda d, s=seed, e=edits: mutate(d, CSV, s, e))}
        )
        cases[f"build corrupted {seed}"] = Case(
            BUILD,
            {
                n: then(released(BUILD, s), lambda d, k=seed, e=edits: mutate(d, CSV, k, e))
                for n, s in BUILD_FILES.items()
            },
            options=("--full",) if seed == 1 else (),
        )
        cases[f"apeach corrupted {seed}"] = Case(
            APEACH,
            {"test.csv": then(released(APEACH, "apeach_test"), lambda d, k=seed, e=edits: mutate(
                d, CSV, k, e))},
        )  # fmt: skip
        cases[f"beep corrupted {seed}"] = Case(
            APEACH,
            {
                "train.tsv": then(
                    released(APEACH, "beep_train"), lambda d, k=seed, e=edits: mutate(d, TSV, k, e)
                ),
                "dev.tsv": then(
                    released(APEACH, "beep_dev"), lambda d, k=seed, e=edits: mutate(d, TSV, k, e)
                ),
            },
            "beep",
        )
    cases["check corrupted, changes allowed"] = Case(
        CHECK,
        {"test.csv": then(check, lambda d: mutate(d, CSV, 1, 30))},
        options=("--allow-changes", "--full"),
    )
    cases["build train corrupted as a contribution"] = Case(
        BUILD, {"contribution.csv": then(released(BUILD, "train"), lambda d: mutate(d, CSV, 4, 60))}
    )
    cases["build r7 validation corrupted"] = Case(
        BUILD,
        {"validation.csv": then(released(BUILD, "validation"), lambda d: mutate(d, CSV, 5, 40))},
        config="r7",
    )
    # Synthetic contributions of several sizes: new rows made from the real ones.
    for copies, edits in ((1, 0), (1, 60), (5, 300)):
        tag = f"{copies}x, {edits} edits"
        cases[f"check synthetic {tag}"] = Case(
            CHECK,
            {"new.csv": then(check, lambda d, c=copies, e=edits: mutate(
                renew(d, CSV, c, _new_check_row), CSV, 10 + c, e) if e else renew(
                d, CSV, c, _new_check_row))},
            options=("--strict",),
        )  # fmt: skip
    for copies, edits in ((1, 0), (2, 120)):
        tag = f"{copies}x, {edits} edits"
        cases[f"build synthetic {tag}"] = Case(
            BUILD,
            {"train.csv": then(released(BUILD, "train"), lambda d, c=copies, e=edits: mutate(
                renew(d, CSV, c, _new_build_row), CSV, 20 + c, e))},
        )  # fmt: skip
        cases[f"apeach synthetic {tag}"] = Case(
            APEACH,
            {"new.csv": then(released(APEACH, "apeach_test"), lambda d, c=copies, e=edits: mutate(
                renew(d, CSV, c, _new_text("text")), CSV, 30 + c, e))},
        )  # fmt: skip
        cases[f"beep synthetic {tag}"] = Case(
            APEACH,
            {"new.tsv": then(released(APEACH, "beep_train"), lambda d, c=copies, e=edits: mutate(
                renew(d, TSV, c, _new_text("comments")), TSV, 40 + c, e))},
            "beep",
        )  # fmt: skip
    # HateCheck: cases joined with their annotations (and, in all, the suite's cases).
    for config, files in HATECHECK_FILES.items():
        made = {name: released(HATECHECK, source) for name, source in files.items()}
        cases[f"hatecheck {config} released"] = Case(HATECHECK, made, config=config)
        corrupted = {
            name: then(make, lambda d, k=i: mutate(d, CSV, 50 + k, 30))
            for i, (name, make) in enumerate(made.items())
        }
        cases[f"hatecheck {config} corrupted"] = Case(HATECHECK, corrupted, config=config)
    suite = HATECHECK_FILES["default"]
    for name, source in suite.items():  # one format alone: its partners are released
        cases[f"hatecheck {source} alone"] = Case(HATECHECK, {name: released(HATECHECK, source)})
        cases[f"hatecheck {source} alone, corrupted"] = Case(
            HATECHECK, {name: then(released(HATECHECK, source), lambda d: mutate(d, CSV, 60, 40))}
        )
        cases[f"hatecheck {source} alone, a row repeated"] = Case(
            HATECHECK, {name: then(released(HATECHECK, source), _first_row_again)}
        )
    for copies, edits in ((1, 0), (2, 120)):
        cases[f"hatecheck synthetic {copies}x, {edits} edits"] = Case(
            HATECHECK,
            {f"new_{n}": then(released(HATECHECK, s), lambda d, c=copies, e=edits, k=i: mutate(
                renew(d, CSV, c, _new_hatecheck_row), CSV, 70 + k, e))
             for i, (n, s) in enumerate(suite.items())},
        )  # fmt: skip
    # Files that cannot be read, or hardly.
    latin1 = CHECK_HEADER + "1,1.0,1,caf\xe9,women,verb_swap,orig,1,0,1\n".encode("latin-1")
    cases["unreadable"] = Case(
        CHECK,
        {
            "empty.csv": raw(b""),
            "latin1.csv": raw(latin1),
            "blank.csv": raw(b"case_id,templ_id\n1,1.0\n\n2,1.0\n"),
            "short.csv": raw(CHECK_HEADER + b"1,1.0,1\n"),
            "tabs.csv": raw(b"case_id\ttempl_id\ttext\n1\t1.0\tx\n"),
            "repeated.csv": raw(b"case_id,case_id\n1,2\n"),
            "wide.csv": raw(",".join(f"c{i}" for i in range(500)).encode() + b"\n1\n"),
            "folder.csv": lambda _: None,
        },
        missing=("missing.csv",),
    )
    cases["late bad byte"] = Case(
        CHECK, {"late.csv": then(check, lambda d: d[:-200] + b"\xff" + d[-199:])}
    )
    cases["late short row"] = Case(CHECK, {"late.csv": then(check, lambda d: d + b"5000,1.0,1\n")})
    cases["late bad byte in a text"] = Case(
        CHECK, {"late.csv": then(check, lambda d: _on_last_row(d, b" in ", b" \xe9n "))}
    )
    cases["late multi-line value"] = Case(
        CHECK, {"late.csv": then(check, lambda d: _on_last_row(d, b",Too many ", b',"Too\nmany '))}
    )
    cases["late value spanning lines"] = Case(
        CHECK, {"late.csv": then(check, _late_quoted_newline)}
    )
    cases["a cell longer than a read block"] = Case(
        CHECK,
        {"long.csv": raw(
            CHECK_HEADER
            + b'30000,1.0,1,"I like \xf0\x9f\x8c\xbb' + b" a lot" * 900_000
            + b'",women,verb_swap,orig,7,0,1\n30001,1.0,1,x,women,verb_swap,orig,1,0,1\n'
        )},
    )  # fmt: skip
    cases["crlf fixture"] = Case(
        CHECK, {"crlf.csv": then(fixture("hatemoji_check_broken.csv"), _crlf)}
    )
    cases["multi-line texts"] = Case(
        CHECK,
        {"lines.csv": raw(
            CHECK_HEADER
            + b'20000,1.0,1,"I like \xf0\x9f\x8c\xbb\nover two lines",women,verb_swap,orig,1,0,1\n'
            + b'20001,1.0,1,"no emoji\nhere",women,verb_swap,orig,1,0,1\n'
            + b'20002,1.3,1,"\n\xf0\x9f\x8c\xbb",women,verb_swap,no_emoji_perturb,1,0,1\n'
        )},
    )  # fmt: skip
    cases["columns missing and unexpected"] = Case(
        CHECK,
        {
            "fewer.csv": raw(b"case_id,text\n1,I like \xf0\x9f\x8c\xbb\n"),
            "more.csv": then(check, lambda d: _extra_column(d)),
        },
    )
    cases["integers that are not"] = Case(
        BUILD,
        {"test.csv": then(released(BUILD, "test"), lambda d: d.replace(b",6,6a,", b",6.0,6a,", 3))},
    )
    cases["text rules and near-duplicates"] = Case(
        CHECK, {"disguised.csv": then(check, _disguised)}, options=("--strict",)
    )
    cases["built parquet"] = Case(CHECK, {}, options=("--full",), parquet=True)
    return cases


#: Ways to disguise a released text, or to make a new one break a text rule.
DISGUISES: tuple[Callable[[str], str], ...] = (
    lambda t: t.replace(" ", "\u200b ", 1),
    lambda t: t.replace(" ", "\u00a0", 1),
    lambda t: t.replace(" ", " \u202e", 1),
    lambda t: t.replace("I", "\uff29", 1),
    lambda t: t + "\x07",
    lambda t: t + " cafe\u0301",
    lambda t: t + " ",
    lambda t: " " + t,
    lambda t: "\u3000" + t,
    lambda t: t.replace("a", "\u00e4", 1),
    lambda t: t + "\u0308",
    lambda t: t.replace("e", "\ufb01", 1),
)


def _disguised(data: bytes) -> bytes:
    """The first released rows under new ids, each text disguised one way or another."""
    header, *rows = parse(data, CSV)
    text_at, id_at = header.index("text"), header.index("case_id")
    out = [header]
    for position, row in enumerate(rows[:96]):
        row = list(row)
        row[id_at] = str(50_000 + position)
        row[text_at] = DISGUISES[position % len(DISGUISES)](row[text_at])
        out.append(row)
    return unparse(out, CSV)


def _on_last_row(data: bytes, old: bytes, new: bytes) -> bytes:
    lines = data.split(b"\n")
    at = max(i for i, line in enumerate(lines) if old in line)
    lines[at] = lines[at].replace(old, new, 1)
    return b"\n".join(lines)


def _late_quoted_newline(data: bytes) -> bytes:
    """The last row's text quoted, with a line break in it: valid, two physical lines."""
    header, *rows = parse(data, CSV)
    rows[-1][header.index("text")] = rows[-1][header.index("text")].replace(" ", "\n", 1)
    return unparse([header, *rows], CSV)


def _first_row_again(data: bytes) -> bytes:
    """The first row repeated at the end (its key, too: a unique value repeated)."""
    ended = data if data.endswith(b"\n") else data + b"\n"
    return ended + data.split(b"\n", 2)[1] + b"\n"


def _crlf(data: bytes) -> bytes:
    return data.replace(b"\n", b"\r\n")


def _extra_column(data: bytes) -> bytes:
    lines = data.split(b"\n")
    return (
        b"\n".join([lines[0] + b",extra", *(line + b",x" for line in lines[1:50] if line)]) + b"\n"
    )


CASES = _cases()


def _write_parquet(folder: Path, cache: Path, mirror: Path) -> list[str]:
    from hatemoji_datasets import load_dataset

    built = load_dataset(CHECK, split="test", cache_dir=str(cache), mirror=str(mirror))
    built.to_parquet(folder / "clean.parquet")
    rows = built.to_pandas()
    rows.loc[0, "label"] = 7
    rows.loc[1, "case_id"] = rows.loc[2, "case_id"]
    rows.loc[3, "text"] = ""
    rows = rows.drop(index=[5, 6])
    rows.to_parquet(folder / "broken.parquet")
    (folder / "fake.parquet").write_bytes(b"PAR1 not really")
    return ["clean.parquet", "broken.parquet", "fake.parquet"]


def run_case(case: Case, folder: Path, mirror: Path, cache: Path, capsys) -> dict:
    names = []
    for name, make in case.files.items():
        data = make(mirror)
        if data is None:
            (folder / name).mkdir()
        else:
            (folder / name).write_bytes(data)
        names.append(name)
    if case.parquet:
        names += _write_parquet(folder, cache, mirror)
    names += list(case.missing)
    argv = ["validate", *names, "--dataset", case.dataset, "--format", "json"]
    argv += ["--config", case.config] if case.config else []
    argv += ["--mirror", str(mirror), "--cache-dir", str(cache), *case.options]
    capsys.readouterr()
    status = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    report = json.loads(out)
    for finding in report["findings"]:
        finding["value"] = digest(finding["value"])
        finding["expected"] = digest(finding["expected"])
    findings = report.pop("findings")
    whole = json.dumps(findings, ensure_ascii=False, sort_keys=True).encode("utf-8")
    return {
        "status": status,
        "report": report,
        "count": len(findings),
        "codes": dict(sorted(Counter(f["code"] for f in findings).items())),
        "sha256": hashlib.sha256(whole).hexdigest(),
        # The first findings in full (the digest covers them all): enough to see what moved.
        "first": findings[:SHOWN],
    }


def _load_golden() -> dict:
    if not GOLDEN.exists():
        return {}
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", list(CASES))
def test_findings_are_as_recorded(
    name: str, mirror: Path, session_cache: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    found = run_case(CASES[name], tmp_path, mirror, session_cache, capsys)
    if RECORD:
        golden = _load_golden()
        golden[name] = found
        text = json.dumps(dict(sorted(golden.items())), indent=1, ensure_ascii=False)
        GOLDEN.write_text(text + "\n", encoding="utf-8")
        return
    golden = _load_golden()
    assert name in golden, f"no recording for {name!r}: see this module's docstring"
    expected = golden[name]
    assert (found["status"], found["report"]) == (expected["status"], expected["report"])
    assert found["codes"] == expected["codes"]
    assert found["first"] == expected["first"]
    assert (found["count"], found["sha256"]) == (expected["count"], expected["sha256"])


def test_the_recording_is_broad() -> None:
    """The recorded findings cover every code the validator and the schemas can give
    on these inputs: most of the documented ones, none unknown."""
    golden = _load_golden()
    assert set(golden) == set(CASES)
    codes = {code for case in golden.values() for code in case["codes"]}
    from test_corrupted_copies import documented_codes

    assert codes <= documented_codes()
    wanted = {
        "VALUE-TYPE", "VALUE-NOT-ALLOWED", "VALUE-OUT-OF-RANGE", "VALUE-PATTERN",
        "VALUE-DUPLICATE", "TEXT-EMPTY", "TEXT-CONTROL", "TEXT-NOT-NFC", "TEXT-EDGE-SPACE",
        "RELEASE-CHANGED", "RELEASE-REPEATED-TEXT", "RELEASE-NEAR-DUPLICATE", "RELEASE-MISSING",
        "COLUMN-MISSING", "COLUMN-UNEXPECTED", "FILE-EMPTY", "FILE-NOT-UTF8", "FILE-BLANK-LINE",
        "FILE-FIELD-COUNT", "FILE-DELIMITER", "FILE-HEADER-REPEATED", "FILE-TOO-WIDE",
        "FILE-NOT-FOUND", "FILE-NOT-REGULAR", "FILE-UNPARSEABLE",
        "HC-TEMPLATE-ID", "HC-NO-TARGET", "HC-LABEL-CELL", "HC-EMOJI",
        "HB-TARGET-LITERAL", "HB-TARGET-UNKNOWN", "HB-TARGET-REPEATED", "HB-TYPE-LABEL",
        "HB-TARGET-TYPE", "HB-ROUND-SET", "HB-SPLIT-FILE", "HB-PAIR-MISSING",
        "HB-PAIR-ASYMMETRIC", "HB-PAIR-ROUND", "HB-PAIR-TEXT", "HB-PAIR-SET",
        "AP-AGE-GROUP", "AP-TOPIC-NAMES", "BP-GENDER-FLAG",
    }  # fmt: skip
    assert sorted(wanted - codes) == []
