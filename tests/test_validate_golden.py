"""Every finding of ``validate`` on a broad set of broken and hostile inputs, as recorded.

A regression net for work on the validator's speed: the report (JSON format)
of each case must equal the one recorded in
``tests/golden/validate-findings.json`` code for code, line for line, message
for message, value for value. The cases are the neutral fixtures and dummy
data, the real upstream files (clean, and corrupted by seeded random edits of
many kinds), synthetic contributions of several sizes made from the real rows,
unreadable files, and built-format Parquet.

Each dataset states its own cases as data, in its folder: ``GOLDEN`` in its ``testing.py``,
every case by the name it is recorded under, with its config, its options and, per file it
writes, a recipe (the named data of ``hatemoji_datasets.core.edits``): a file
(``Released(source)`` the mirror's pinned file, ``Dummy(source)`` its copy in
``dummy_data/``, ``Fixture(name)`` a neutral file of ``tests/fixtures/``), then edits in turn
(``Mutate(seed, edits)`` seeded random edits, ``Renew(copies[, id_step])`` the rows made new,
``ReplaceFirst(count, old, new)``, ``Crlf()``, ``FirstRowAgain()``). A file's format, and the
columns ``Renew`` changes, come from the declaration: the key column (plus ``id_step`` times
the copy's number) where rows have an id besides their text, the text column (`` (take N)``
added), and each column ``PARTNER_COPIES`` says copies one of them. ``GOLDEN_CODES`` names
the dataset's rule codes the recording must show. This module is the machinery (parse,
mutate, renew, the recipe interpreter, running and comparing) and the cases of a mechanism
rather than a dataset (unreadable files, late faults, a long cell, multi-line texts, missing
columns, the text rules, Parquet), run on ``conftest.PLAIN`` with its header and rows taken
from its file.

A case is recorded under its stated name where ``GOLDEN_RECORDED_FOR`` is the dataset's own
name. A folder copied from another dataset's keeps that dataset's name there, so its cases
are new, not the original's: they run as ``"<copy>: <name>"`` and are skipped, not recorded
yet, until recorded (the command below, with ``-k <copy>``). A case of a dataset's own with
no recording fails, and so does a recorded case that no dataset states any more.

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

Re-recorded once more on purpose (issue 45, messages that lead to the fix), 26 cases: a row
whose text and another cell differ from its id's released row is one ``ID-RELEASED`` (the
next free id expected) in place of its ``RELEASE-CHANGED`` cells, and of a join mismatch
with the released partner; a value not allowed suggests the closest allowed one; an
allowed empty value is listed as ``or empty`` (HateCheck's label columns). No exit status
changed.

The cases of joined files (cases with their annotations) were added when contributions of
joined files began to be streamed (issue 26), recorded by the validator just before that
change, whose whole-file check alone saw them.

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import dataset_facts, declaring, dummy_data_dir
from support.paths import FIXTURES, source_url, upstream_path
from support.real import HATEMOJI_CHECK as PLAIN  # the golden cases are recorded on its file

from hatemoji_datasets.cli import main
from hatemoji_datasets.core.columns import LABEL_COLUMN, TEXT_COLUMN
from hatemoji_datasets.core.edits import (
    Crlf,
    Dummy,
    FileEdit,
    FirstRowAgain,
    Fixture,
    Mutate,
    Recipe,
    Released,
    Renew,
    ReplaceFirst,
)
from hatemoji_datasets.core.registry import dataset_spec

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


def format_of(name: str, config: str | None) -> Format:
    """How the config's raw files are written (unquoted where its format never quotes)."""
    raw = dataset_spec(name).config(config).raw_format
    return Format(raw.delimiter, raw.quoting != csv.QUOTE_NONE)


def new_rows(
    name: str, config: str | None, source: str, step: int | None
) -> Callable[[dict, int], None]:
    """How a released row of ``source`` is made new in copy ``k`` (from 1): the key column of
    its format, where rows have one besides their text, plus ``k * step``; the config's text
    column with `` (take k)`` added; each column ``PARTNER_COPIES`` says copies one of them
    alike (a pair stays a pair)."""
    declared = dataset_spec(name).config(config)
    key = next(part.key_column for part in declared.parts if source in part.sources)
    ids = [] if key == declared.text_column else [key]
    texts = [declared.text_column]
    copies = getattr(dataset_facts(name), "PARTNER_COPIES", None) or {}
    ids += [column for column, copied in copies.items() if copied in ids]
    texts += [column for column, copied in copies.items() if copied in texts]
    if (step is None) != (not ids):
        raise ValueError(
            f"{name}: renewing {source} needs an id step exactly where its rows have an id "
            f"besides their text ({key})"
        )

    def change(cells: dict, copy: int) -> None:
        for column in ids:
            cells[column] = str(int(cells[column]) + step * (copy + 1))
        for column in texts:
            cells[column] = f"{cells[column]} (take {copy + 1})"

    return change


@dataclass(frozen=True)
class Origin:
    """Where a recipe's file comes from: the edits that need it read the declaration."""

    dataset: str
    config: str | None
    recipe: Recipe

    @property
    def format(self) -> Format:
        return format_of(self.dataset, self.config)

    def read(self, mirror: Path) -> bytes:
        """The recipe's file: the mirror's pinned file, its dummy data, or a neutral fixture."""
        if isinstance(self.recipe, Fixture):
            return (FIXTURES / self.recipe.name).read_bytes()
        url = source_url(self.dataset, self.recipe.name)
        folder = mirror if isinstance(self.recipe, Released) else dummy_data_dir(self.dataset)
        return upstream_path(folder, url).read_bytes()


def _first_row_again(data: bytes) -> bytes:
    """The first row repeated at the end (its key, too: a unique value repeated)."""
    ended = data if data.endswith(b"\n") else data + b"\n"
    return ended + data.split(b"\n", 2)[1] + b"\n"


def apply(data: bytes, at: Origin, edit: FileEdit) -> bytes:
    """``data`` after one of a recipe's edits."""
    if isinstance(edit, Mutate):
        return mutate(data, at.format, edit.seed, edit.edits)
    if isinstance(edit, Renew):
        if isinstance(at.recipe, Fixture):
            raise ValueError(
                f"{at.dataset}: renew makes a pinned source's rows new, not a fixture's"
            )
        change = new_rows(at.dataset, at.config, at.recipe.name, edit.id_step)
        return renew(data, at.format, edit.copies, change)
    if isinstance(edit, ReplaceFirst):
        return data.replace(edit.old.encode(), edit.new.encode(), edit.count)
    if isinstance(edit, Crlf):
        return data.replace(b"\n", b"\r\n")
    if isinstance(edit, FirstRowAgain):
        return _first_row_again(data)
    raise TypeError(f"{at.dataset}: not a recipe's edit: {edit!r}")


def made(dataset: str, config: str | None, recipe: Recipe) -> Callable[[Path], bytes]:
    """The bytes a ``GOLDEN`` recipe makes: its file, then its edits in turn."""
    if not isinstance(recipe, (Released, Dummy, Fixture)):
        raise TypeError(f"{dataset}: not a recipe: {recipe!r}")
    at = Origin(dataset, config, recipe)

    def make(mirror: Path) -> bytes:
        data = at.read(mirror)
        for edit in recipe.edits:
            data = apply(data, at, edit)
        return data

    return make


@dataclass
class Case:
    dataset: str
    #: file name -> bytes (None: the name is a folder; missing: nothing is written)
    files: dict[str, Callable[[Path], bytes | None]]
    config: str | None = None
    options: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    parquet: bool = field(default=False)
    #: The dataset whose recorded cases the dataset's folder states, copied from its folder
    #: (None: the case is the dataset's own, recorded under its stated name).
    copied_from: str | None = None


def recorded_for(name: str) -> str:
    """The dataset ``name``'s ``GOLDEN`` states the recorded cases of."""
    stated = getattr(dataset_facts(name), "GOLDEN_RECORDED_FOR", None)
    if not isinstance(stated, str):
        raise ValueError(f"{name}'s testing.py states GOLDEN but not GOLDEN_RECORDED_FOR")
    return stated


def stated_cases() -> dict[str, Case]:
    """Every dataset's ``GOLDEN`` cases, by the name each is recorded under (a copied folder's
    prefixed by its dataset's name)."""
    cases: dict[str, Case] = {}
    for name in declaring("GOLDEN"):
        original = recorded_for(name)
        for case, stated in dataset_facts(name).GOLDEN.items():
            key = case if original == name else f"{name}: {case}"
            config = stated.config
            made_files = {file: made(name, config, r) for file, r in stated.files.items()}
            copied = None if original == name else original
            _add(cases, key, Case(name, made_files, config, stated.options, copied_from=copied))
    return cases


def _add(cases: dict[str, Case], key: str, case: Case) -> None:
    if key in cases:
        raise ValueError(
            f"two cases are recorded as {key!r} ({cases[key].dataset}, {case.dataset})"
        )
    cases[key] = case


# -- the cases of a mechanism, on the plain dataset ---------------------------------------


class Plain:
    """What the mechanism cases take from ``PLAIN``'s pinned file (its default config reads
    one, comma-separated): its bytes and header line, its rows, its key and text columns.
    ``row(1)``, the second released row, stands for a released row."""

    def __init__(self, mirror: Path) -> None:
        config = dataset_spec(PLAIN).config()
        (source,) = config.source_names
        self.format = format_of(PLAIN, None)
        self.data = upstream_path(mirror, source_url(PLAIN, source)).read_bytes()
        self.header_line = self.data.splitlines(keepends=True)[0]
        self.header, *self.rows = parse(self.data, self.format)
        self.key, self.text = config.key_column, config.text_column

    def at(self, column: str) -> int:
        return self.header.index(column)

    def row(self, at: int, changes: Mapping[str, str] | None = None) -> list[str]:
        """Released row ``at`` (from 0), with ``changes`` (column -> cell) made."""
        row = list(self.rows[at])
        for column, cell in (changes or {}).items():
            row[self.at(column)] = cell
        return row

    def line(self, cells: list[str], delimiter: str | None = None) -> bytes:
        """The cells as one line, unquoted."""
        return ((delimiter or self.format.delimiter).join(cells) + "\n").encode("utf-8")


def on_plain(make: Callable[[Plain], bytes | None]) -> Callable[[Path], bytes | None]:
    return lambda mirror: make(Plain(mirror))


def _latin1(p: Plain) -> bytes:
    """A released row whose text is Latin-1, not UTF-8."""
    cells = [cell.encode("utf-8") for cell in p.row(1)]
    cells[p.at(p.text)] = "caf\xe9".encode("latin-1")
    return p.header_line + p.format.delimiter.encode().join(cells) + b"\n"


def _blank(p: Plain) -> bytes:
    """The first two columns of two released rows, a blank line between them."""
    return p.line(p.header[:2]) + p.line(p.row(1)[:2]) + b"\n" + p.line(p.row(2)[:2])


def _tabs(p: Plain) -> bytes:
    """The first two columns and the text, split by tabs."""
    columns = [*p.header[:2], p.text]
    return p.line(columns, "\t") + p.line([*p.row(1)[:2], "x"], "\t")


def _repeated(p: Plain) -> bytes:
    """The key column twice."""
    return p.line([p.key, p.key]) + p.line([p.row(1)[p.at(p.key)], p.row(2)[p.at(p.key)]])


def _wide(p: Plain) -> bytes:
    return p.line([f"c{i}" for i in range(500)]) + b"1\n"


def _on_last_row(data: bytes, old: bytes, new: bytes) -> bytes:
    """``data`` with the first ``old`` of the last line holding one made ``new``."""
    lines = data.split(b"\n")
    at = max(i for i, line in enumerate(lines) if old in line)
    lines[at] = lines[at].replace(old, new, 1)
    return b"\n".join(lines)


def _late_latin1_letter(p: Plain) -> bytes:
    """The last row's text with the first letter of its first two-letter word (inside it)
    written as a Latin-1 e acute, a byte that is no UTF-8."""
    words = p.rows[-1][p.at(p.text)].split(" ")
    word = next(word for word in words[1:-1] if len(word) == 2).encode("utf-8")
    return _on_last_row(p.data, b" " + word + b" ", b" \xe9" + word[1:] + b" ")


def _late_quote_unclosed(p: Plain) -> bytes:
    """The last row's text opened by a quote never closed, its first space a line break."""
    text = p.rows[-1][p.at(p.text)].encode("utf-8")
    comma = p.format.delimiter.encode()
    return _on_last_row(p.data, comma + text, comma + b'"' + text.replace(b" ", b"\n", 1))


def _late_quoted_newline(p: Plain) -> bytes:
    """The last row's text quoted, with a line break in it: valid, two physical lines."""
    rows = [list(row) for row in p.rows]
    rows[-1][p.at(p.text)] = rows[-1][p.at(p.text)].replace(" ", "\n", 1)
    return unparse([p.header, *rows], p.format)


def _raw_label_column() -> str:
    """``PLAIN``'s raw column whose values are the label's ids (``LABEL_NAMES``)."""
    spec = dataset_spec(PLAIN)
    ids = list(range(len(dataset_facts(PLAIN).LABEL_NAMES)))
    (column,) = (
        name
        for name, declared in spec.load(spec.config().schema).to_schema().columns.items()
        for check in declared.checks
        if check.name == "isin" and list(check.statistics["allowed_values"]) == ids
    )
    return column


def _long_cell(p: Plain) -> bytes:
    """A row whose quoted text is longer than a read block, its label no class id, then a
    row whose text is x."""
    label = str(len(dataset_facts(PLAIN).LABEL_NAMES) + 5)  # not a class id
    text = '"I like \N{SUNFLOWER}' + " a lot" * 900_000 + '"'
    long = p.row(1, {p.key: "30000", p.text: text, _raw_label_column(): label})
    return p.header_line + p.line(long) + p.line(p.row(1, {p.key: "30001", p.text: "x"}))


def _multi_line(p: Plain) -> bytes:
    """Texts over two lines: with an emoji, without one, and an emoji alone on the second
    line of the first released row whose text has none."""
    import emoji

    plain = next(at for at, row in enumerate(p.rows) if not emoji.emoji_count(row[p.at(p.text)]))
    rows = [
        p.row(1, {p.key: "20000", p.text: "I like \N{SUNFLOWER}\nover two lines"}),
        p.row(1, {p.key: "20001", p.text: "no emoji\nhere"}),
        p.row(plain, {p.key: "20002", p.text: "\n\N{SUNFLOWER}"}),
    ]
    return p.header_line + unparse(rows, p.format)


def _fewer(p: Plain) -> bytes:
    """The key and the text alone."""
    return p.line([p.key, p.text]) + p.line([p.row(1)[p.at(p.key)], "I like \N{SUNFLOWER}"])


def _extra_column(p: Plain) -> bytes:
    """The header and the first released rows, with a column more."""
    lines, sep = p.data.split(b"\n"), p.format.delimiter.encode()
    more = [lines[0] + sep + b"extra", *(line + sep + b"x" for line in lines[1:50] if line)]
    return b"\n".join(more) + b"\n"


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


def _disguised(p: Plain) -> bytes:
    """The first released rows under new ids, each text disguised one way or another."""
    out = [p.header]
    for position, row in enumerate(p.rows[:96]):
        row = list(row)
        row[p.at(p.key)] = str(50_000 + position)
        row[p.at(p.text)] = DISGUISES[position % len(DISGUISES)](row[p.at(p.text)])
        out.append(row)
    return unparse(out, p.format)


def mechanism_cases() -> dict[str, Case]:
    """Cases of the validator's mechanisms, on ``PLAIN`` (its default config)."""

    def case(files: dict[str, Callable[[Plain], bytes | None]], **settings) -> Case:
        return Case(PLAIN, {name: on_plain(make) for name, make in files.items()}, **settings)

    return {
        # Files that cannot be read, or hardly.
        "unreadable": case(
            {
                "empty.csv": lambda _: b"",
                "latin1.csv": _latin1,
                "blank.csv": _blank,
                "short.csv": lambda p: p.header_line + p.line(p.row(1)[:3]),
                "tabs.csv": _tabs,
                "repeated.csv": _repeated,
                "wide.csv": _wide,
                "folder.csv": lambda _: None,
            },
            missing=("missing.csv",),
        ),
        "late bad byte": case({"late.csv": lambda p: p.data[:-200] + b"\xff" + p.data[-199:]}),
        "late short row": case(
            {"late.csv": lambda p: p.data + p.line(p.row(1, {p.key: "5000"})[:3])}
        ),
        "late bad byte in a text": case({"late.csv": _late_latin1_letter}),
        "late multi-line value": case({"late.csv": _late_quote_unclosed}),
        "late value spanning lines": case({"late.csv": _late_quoted_newline}),
        "a cell longer than a read block": case({"long.csv": _long_cell}),
        "multi-line texts": case({"lines.csv": _multi_line}),
        "columns missing and unexpected": case({"fewer.csv": _fewer, "more.csv": _extra_column}),
        "text rules and near-duplicates": case(
            {"disguised.csv": _disguised}, options=("--strict",)
        ),
        "built parquet": Case(PLAIN, {}, options=("--full",), parquet=True),
    }


def _cases() -> dict[str, Case]:
    cases = stated_cases()
    for key, case in mechanism_cases().items():
        _add(cases, key, case)
    return cases


CASES = _cases()


def _write_parquet(folder: Path, cache: Path, mirror: Path) -> list[str]:
    from hatemoji_datasets import load_dataset

    config = dataset_spec(PLAIN).config()
    split = config.eval_split
    built = load_dataset(PLAIN, split=split, cache_dir=str(cache), mirror=str(mirror))
    built.to_parquet(folder / "clean.parquet")
    rows = built.to_pandas()
    rows.loc[0, LABEL_COLUMN] = len(built.features[LABEL_COLUMN].names) + 5  # not a class id
    rows.loc[1, config.id_column] = rows.loc[2, config.id_column]
    rows.loc[3, TEXT_COLUMN] = ""
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
    case = CASES[name]
    if not RECORD and case.copied_from and name not in _load_golden():
        pytest.skip(
            f"not recorded yet: {case.dataset}'s GOLDEN states {case.copied_from}'s recorded "
            f"cases (GOLDEN_RECORDED_FOR: its folder is a copy); record them with "
            f"HATEMOJI_DATASETS_RECORD_GOLDEN=1 python -m pytest tests/test_validate_golden.py "
            f"-k {case.dataset}"
        )
    monkeypatch.chdir(tmp_path)
    found = run_case(case, tmp_path, mirror, session_cache, capsys)
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


#: The shared codes the recorded findings show (each dataset's own: its ``GOLDEN_CODES``).
SHARED_CODES = {
    "VALUE-TYPE", "VALUE-NOT-ALLOWED", "VALUE-OUT-OF-RANGE", "VALUE-PATTERN",
    "VALUE-DUPLICATE", "TEXT-EMPTY", "TEXT-CONTROL", "TEXT-NOT-NFC", "TEXT-EDGE-SPACE",
    "RELEASE-CHANGED", "RELEASE-REPEATED-TEXT", "RELEASE-NEAR-DUPLICATE", "RELEASE-MISSING",
    "COLUMN-MISSING", "COLUMN-UNEXPECTED", "FILE-EMPTY", "FILE-NOT-UTF8", "FILE-BLANK-LINE",
    "FILE-FIELD-COUNT", "FILE-DELIMITER", "FILE-HEADER-REPEATED", "FILE-TOO-WIDE",
    "FILE-NOT-FOUND", "FILE-NOT-REGULAR", "FILE-UNPARSEABLE",
}  # fmt: skip


def test_the_recording_is_broad() -> None:
    """Every recorded case is still made and every case of a dataset's own is recorded; the
    recorded findings cover every code the validator and the schemas can give on these
    inputs: most of the documented ones, none unknown."""
    golden = _load_golden()
    assert sorted(set(golden) - set(CASES)) == []
    assert sorted(n for n, case in CASES.items() if not case.copied_from and n not in golden) == []
    codes = {code for case in golden.values() for code in case["codes"]}
    from test_corrupted_copies import documented_codes

    assert codes <= documented_codes()
    own = [name for name in declaring("GOLDEN") if recorded_for(name) == name]
    wanted = SHARED_CODES.union(*(getattr(dataset_facts(n), "GOLDEN_CODES", ()) for n in own))
    assert sorted(wanted - codes) == []
