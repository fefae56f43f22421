"""`hatemoji-datasets validate`: contributions checked against schema and released data."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli, source_url, upstream_path

from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.validate.contributions import Options, validate_contributions
from hatemoji_datasets.validate.report import REPORT_FORMAT

CONTRIBUTION = FIXTURES / "hatemoji_check_contribution.csv"


def released_path(mirror: Path, dataset: str, source: str) -> Path:
    return upstream_path(mirror, source_url(dataset, source))


def check(paths, dataset="hatemoji_check", config=None, mirror=None, **options):
    return validate_contributions(
        [str(p) for p in paths], dataset, config, options=Options(**options), mirror=str(mirror)
    )


def write_variant(tmp_path: Path, source: Path, edit, name: str = "variant.csv") -> Path:
    """A copy of ``source`` with ``edit`` applied to its list of lines."""
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    target = tmp_path / name
    target.write_text("".join(edit(lines)), encoding="utf-8")
    return target


def _pinned(config) -> list[str]:
    return list(
        dict.fromkeys(s for split in config.split_names for s in config.split_sources(split))
    )


#: Configs of one format (a contribution is a file of it), in declared order.
ONE_FORMAT = [(s, c) for s in specs().values() for c in s.configs if len(c.parts) == 1]
#: ``(dataset, config, sources, full)``: the first such config of each dataset, with every
#: file; the first of several files; one file alone of such a config whose rules look
#: across rows (the released rows of the other files are its context, so it is not full).
RELEASED = [
    *{s.name: (s.name, c.name, _pinned(c), True) for s, c in reversed(ONE_FORMAT)}.values(),
    next((s.name, c.name, _pinned(c), True) for s, c in ONE_FORMAT if len(_pinned(c)) > 1),
    next(
        (s.name, c.name, _pinned(c)[:1], False)
        for s, c in ONE_FORMAT
        if c.cross_row_rules and len(_pinned(c)) > 1
    ),
]


@pytest.mark.parametrize(
    ("dataset", "config", "sources", "full"),
    RELEASED,
    ids=[f"{d}/{c}, {len(f)} file(s)" for d, c, f, _ in RELEASED],
)
def test_released_files_validate_clean(mirror: Path, dataset, config, sources, full) -> None:
    paths = [released_path(mirror, dataset, s) for s in sources]
    report = check(paths, dataset, config, mirror, full=full, strict=True)
    assert report.findings == [] and report.unreadable == []
    assert report.exit_code == 0


def test_clean_contribution(mirror: Path) -> None:
    report = check([CONTRIBUTION], mirror=mirror, strict=True)
    assert report.findings == []
    assert report.exit_code == 0


def _codes(report) -> set[tuple[int | None, str | None, str]]:
    return {(f.line, f.column, f.code) for f in report.findings}


def test_contribution_rules(mirror: Path, tmp_path: Path) -> None:
    def edit(lines):
        lines[2] = lines[2].replace("10001", "10000")  # duplicate id
        lines[3] = lines[3].replace(",0,0,1", ",1,0,1")  # polarity perturbation labelled hateful
        lines[4] = lines[4].replace("plant flowers for", "🌼")  # emoji in a no-emoji case
        lines.append("10004,91.0,91,I want to 🌻 all women to\x07day,women,verb_swap,orig,1,0,1\n")
        lines.append("10005,91.0,91,Cafe\u0301 🌻 for women,women,verb_swap,orig,1,0,1\n")
        lines.append("10006,91.0,91, I want to 🌻 all women again,women,verb_swap,orig,1,0,1\n")
        lines.append("10007,1.0,1,I want to 🔪 all women,women,verb_swap,orig,1,0,1\n")
        lines.append("10008,91.0,91,,women,verb_swap,orig,1,0,1\n")
        return lines

    report = check([write_variant(tmp_path, CONTRIBUTION, edit)], mirror=mirror)
    assert _codes(report) == {
        (2, "case_id", "VALUE-DUPLICATE"),
        (3, "case_id", "VALUE-DUPLICATE"),
        (4, "label_gold", "HC-LABEL-CELL"),
        (5, "text", "HC-EMOJI"),
        (6, "text", "TEXT-CONTROL"),
        (7, "text", "TEXT-NOT-NFC"),
        (8, "text", "TEXT-EDGE-SPACE"),
        (9, "text", "RELEASE-REPEATED-TEXT"),
        (10, "text", "TEXT-EMPTY"),  # one finding, though it also repeats no text
    }
    label = next(f for f in report.findings if f.code == "HC-LABEL-CELL")
    assert (label.value, label.expected) == ("1", "0")
    assert (
        next(f for f in report.findings if f.line == 6).value == "I want to 🌻 all women to\x07day"
    )
    warning = next(f for f in report.findings if f.line == 8)
    assert warning.severity == "warning"
    assert all(f.severity == "error" for f in report.findings if f.line != 8)
    assert report.exit_code == 1


def test_warnings_pass_unless_strict(mirror: Path, tmp_path: Path) -> None:
    spaced = write_variant(
        tmp_path, CONTRIBUTION, lambda lines: [lines[0], lines[1].replace("today", "today ")]
    )
    assert check([spaced], mirror=mirror).exit_code == 0
    assert check([spaced], mirror=mirror, strict=True).exit_code == 1


def test_changed_released_row(mirror: Path, tmp_path: Path) -> None:
    released = released_path(mirror, "hatemoji_check", "test")
    changed = write_variant(
        tmp_path, released, lambda lines: [lines[0], lines[1].replace(",1,0,1\n", ",1,2,1\n")]
    )  # unrealistic_flags 0 -> 2
    report = check([changed], mirror=mirror)
    [finding] = report.findings
    place = (finding.line, finding.column, finding.code)
    assert place == (2, "unrealistic_flags", "RELEASE-CHANGED")
    assert (finding.value, finding.expected) == ("2", "0")
    assert report.exit_code == 1
    allowed = check([changed], mirror=mirror, allow_changes=True)
    assert allowed.exit_code == 0 and [f.severity for f in allowed.findings] == ["warning"]


def test_full_reports_every_lost_row(mirror: Path, tmp_path: Path) -> None:
    released = released_path(mirror, "hatemoji_check", "test")
    shortened = write_variant(tmp_path, released, lambda lines: lines[:-3])
    report = check([shortened], mirror=mirror, full=True)
    lost = [f.value for f in report.findings]
    assert lost == ["3927", "3928", "3929"]
    assert {(f.file, f.column, f.code) for f in report.findings} == {
        (str(shortened), "case_id", "RELEASE-MISSING")
    }
    assert check([shortened], mirror=mirror).exit_code == 0  # without --full a subset is fine


@pytest.mark.parametrize(
    ("content", "code", "line"),
    [
        (b"", "FILE-EMPTY", None),
        (b"case_id\ttempl_id\ttext\n1\t1.0\tx\n", "FILE-DELIMITER", 1),
        ("case_id,templ_id\n1,caf\xe9\n".encode("latin-1"), "FILE-NOT-UTF8", 2),
        (None, "FILE-NOT-FOUND", None),
        (b"case_id,templ_id\n1,1.0\n\n2,1.0\n", "FILE-BLANK-LINE", 3),
        (b"case_id,case_id\n1,2\n", "FILE-HEADER-REPEATED", 1),
        # Past the header's first read, a byte that is not UTF-8 where a delimiter was:
        # a short row, but not UTF-8 first.
        (b"case_id,templ_id\n" + b"1,1.0\n" * 5000 + b"2\xff1.0\n", "FILE-NOT-UTF8", 5002),
    ],
)
def test_unreadable_files_exit_2(mirror: Path, tmp_path: Path, content, code, line) -> None:
    path = tmp_path / "input.csv"
    if content is not None:
        path.write_bytes(content)
    report = check([path], mirror=mirror)
    assert report.exit_code == 2
    [finding] = report.unreadable
    assert (finding.file, finding.line, finding.code) == (str(path), line, code)


def test_unreadable_needs_no_mirror(tmp_path: Path) -> None:
    """Nothing is fetched when no file can be read."""
    report = check([tmp_path / "missing.csv"], mirror=tmp_path / "no-mirror")
    assert report.exit_code == 2 and report.unreadable[0].code == "FILE-NOT-FOUND"


def test_truncated_line_is_named(mirror: Path, tmp_path: Path) -> None:
    truncated = write_variant(tmp_path, CONTRIBUTION, lambda lines: [*lines[:3], lines[3][:20]])
    report = check([truncated], mirror=mirror)
    assert report.exit_code == 2
    [finding] = report.unreadable
    assert (finding.line, finding.code) == (4, "FILE-FIELD-COUNT")  # "10002,90.2,90,I want"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return run_cli("validate", *args)


def test_cli_formats(mirror: Path, tmp_path: Path) -> None:
    broken = write_variant(
        tmp_path, CONTRIBUTION, lambda ls: [*ls[:2], ls[2].replace(",0,0,1", ",1,0,1")]
    )
    common = ["--dataset", "hatemoji_check", "--mirror", str(mirror), str(broken)]
    text = _cli(*common)
    assert text.returncode == 1 and "Traceback" not in text.stderr
    assert f"error: {broken}:3: HC-LABEL-CELL column 'label_gold':" in text.stdout
    assert len(text.stdout.strip().splitlines()) == 2  # the finding and the summary
    report = json.loads(_cli(*common, "--format", "json").stdout)
    assert report["format"] == REPORT_FORMAT == 1
    assert report["exit_code"] == 1 and (report["errors"], report["warnings"]) == (1, 0)
    [finding] = report["findings"]
    assert {k: finding[k] for k in ("code", "file", "line", "column", "value", "expected")} == {
        "code": "HC-LABEL-CELL",
        "file": str(broken),
        "line": 3,
        "column": "label_gold",
        "value": "1",
        "expected": "0",
    }
    assert finding["severity"] == "error" and finding["message"]
    github = _cli(*common, "--format", "github").stdout.splitlines()
    assert github[0].startswith(f"::error file={broken},line=3,title=HC-LABEL-CELL::")
    unreadable = _cli(
        "--dataset", "hatemoji_check", "--mirror", str(mirror), str(tmp_path / "x.csv")
    )
    assert unreadable.returncode == 2 and "Traceback" not in unreadable.stderr
    unknown = _cli("--dataset", "nope", str(broken))
    assert unknown.returncode == 1 and unknown.stderr.startswith("error: unknown dataset 'nope'")


def test_parquet_in_the_built_format(mirror: Path, session_cache: Path, tmp_path: Path) -> None:
    from hatemoji_datasets import load_dataset

    built = load_dataset(
        "hatemoji_check", split="test", cache_dir=str(session_cache), mirror=str(mirror)
    )
    clean = tmp_path / "test.parquet"
    built.to_parquet(clean)
    options = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    assert (
        validate_contributions(
            [str(clean)], "hatemoji_check", options=Options(full=True), **options
        ).findings
        == []
    )

    rows = built.to_pandas()
    rows.loc[0, "label"] = 7  # not a class id
    rows.loc[1, "case_id"] = rows.loc[2, "case_id"]  # duplicate id
    rows = rows.drop(index=[5])  # a released row lost
    broken = tmp_path / "broken.parquet"
    rows.to_parquet(broken)
    report = validate_contributions(
        [str(broken)], "hatemoji_check", options=Options(full=True), **options
    )
    found = _codes(report)
    assert (1, "label", "VALUE-NOT-ALLOWED") in found  # Parquet rows are numbered from 1
    assert (2, "case_id", "VALUE-DUPLICATE") in found
    assert (3, "case_id", "VALUE-DUPLICATE") in found
    assert report.exit_code == 1
    not_parquet = validate_contributions(
        [str(FIXTURES / "apeach_valid.csv")[:-4] + ".parquet"], "hatemoji_check", **options
    )
    assert not_parquet.exit_code == 2


def test_parquet_full_names_lost_rows(mirror: Path, session_cache: Path, tmp_path: Path) -> None:
    from hatemoji_datasets import load_dataset

    built = load_dataset(
        "hatemoji_check", split="test", cache_dir=str(session_cache), mirror=str(mirror)
    )
    rows = built.to_pandas().drop(index=[1, 5])
    shortened = tmp_path / "shortened.parquet"
    rows.to_parquet(shortened)
    report = validate_contributions(
        [str(shortened)],
        "hatemoji_check",
        options=Options(full=True),
        cache_dir=str(session_cache),
        mirror=str(mirror),
    )
    lost = [f.value for f in report.findings if f.code == "RELEASE-MISSING"]
    assert lost == ["1", "5"]
