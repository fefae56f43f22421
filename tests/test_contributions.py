"""`hatemoji-datasets validate`: contributions checked against schema and released data.

The contributions are to the tests' synthetic dataset (``tests/synthetic/README.md``): the
rows of its ``test.csv`` made new (another id, another text) are a clean one, and its
third line made no complaint (``support.synthetic.head_with_fault``) a broken one. Each
dataset's own rules are tested in its own module; the released files of every dataset's
first config of one format validate clean here.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest
from conftest import dummy_data_dir
from support.cli import run_cli
from support.paths import source_url, upstream_path
from support.synthetic import (
    FAULT_NAMED,
    FAULT_PLACE,
    KEY,
    LABEL,
    SYNTHETIC,
    TEXT,
    head_with_fault,
    mirror_file,
)

from hatemoji_datasets.core.edits import Truncate, edited
from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.validate.contributions import Options, validate_contributions
from hatemoji_datasets.validate.report import REPORT_FORMAT

pytestmark = pytest.mark.usefixtures("synthetic")
SOURCE, DELIMITER = "test", ","


def released_path(mirror: Path, dataset: str, source: str) -> Path:
    return upstream_path(mirror, source_url(dataset, source))


def check(paths, dataset=SYNTHETIC, config=None, mirror=None, **options):
    return validate_contributions(
        [str(p) for p in paths], dataset, config, options=Options(**options), mirror=str(mirror)
    )


def released_rows(mirror: Path) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the synthetic ``test.csv``, read with the csv module."""
    with mirror_file(SOURCE, mirror).open(encoding="utf-8", newline="") as handle:
        header, *rows = csv.reader(handle, delimiter=DELIMITER)
    return header, rows


def new_rows(mirror: Path, count: int) -> tuple[list[str], list[list[str]]]:
    """The header and the first ``count`` released rows made new: another id, another text."""
    header, rows = released_rows(mirror)
    made = [list(row) for row in rows[:count]]
    for number, row in enumerate(made):
        row[header.index(KEY)] = str(900_000 + number)
        row[header.index(TEXT)] += " again"
    return header, made


def write_rows(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    written = io.StringIO()
    csv.writer(written, delimiter=DELIMITER, lineterminator="\n").writerows([header, *rows])
    path.write_text(written.getvalue(), encoding="utf-8")
    return path


#: The first columns of the synthetic files, for files that cannot be read.
COLUMNS = ("sentence_id", "sentence", "topic")


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
    ("apeach", "beep", ["beep_train", "beep_dev"], True),  # a config of two TSV files
    ("hatemoji_build", "all", ["train"], False),  # whose rules pair rows across its files
]


@pytest.mark.parametrize(
    ("dataset", "config", "sources", "full"),
    RELEASED,
    ids=[f"{d}/{c}, {len(f)} file(s)" for d, c, f, _ in RELEASED],
)
def test_released_files_validate_clean(mirror: Path, dataset, config, sources, full) -> None:
    paths = [released_path(mirror, dataset, s) for s in sources]
    report = check(paths, dataset, config, mirror, full=full, strict=True)
    # A release may hold one thing by design: a text repeated where rows are keyed by position.
    assert {(f.code, f.severity) for f in report.findings} <= {("TEXT-REPEATED", "warning")}
    assert report.unreadable == [] and report.exit_code == (1 if report.findings else 0)  # strict


def test_clean_contribution(mirror: Path, tmp_path: Path) -> None:
    clean = write_rows(tmp_path / "new.csv", *new_rows(mirror, 40))
    report = check([clean], mirror=mirror, strict=True)
    assert report.findings == []
    assert report.exit_code == 0


def _codes(report) -> set[tuple[int | None, str | None, str]]:
    return {(f.line, f.column, f.code) for f in report.findings}


def test_contribution_rules(mirror: Path, tmp_path: Path) -> None:
    """The rules every text and id obey, on new rows: each broken row named once."""
    header, rows = new_rows(mirror, 9)
    key, text = header.index(KEY), header.index(TEXT)
    released = released_rows(mirror)[1][10][text]  # id 35's
    rows[1][key] = rows[0][key]  # duplicate key
    rows[2][text] = rows[2][text][: -len(" again")] + " to\x07day"
    rows[3][text] = "Cafe\u0301 " + rows[3][text]
    rows[4][text] = " " + rows[4][text]
    rows[5][text] = released
    rows[6][text] = ""
    rows[6][header.index(LABEL)] = "0"  # id 31 was a complaint; an empty text has no mark
    report = check([write_rows(tmp_path / "variant.csv", header, rows)], mirror=mirror)
    column = TEXT
    assert _codes(report) == {
        (2, KEY, "VALUE-DUPLICATE"),
        (3, KEY, "VALUE-DUPLICATE"),
        (4, column, "TEXT-CONTROL"),
        (5, column, "TEXT-NOT-NFC"),
        (6, column, "TEXT-EDGE-SPACE"),
        (7, column, "RELEASE-REPEATED-TEXT"),
        (8, column, "TEXT-EMPTY"),  # one finding, though it also repeats no text
    }
    assert next(f for f in report.findings if f.line == 4).value == rows[2][text]
    assert next(f for f in report.findings if f.line == 7).value == released
    warning = next(f for f in report.findings if f.line == 6)
    assert warning.severity == "warning"
    assert all(f.severity == "error" for f in report.findings if f.line != 6)
    assert report.exit_code == 1


def test_warnings_pass_unless_strict(mirror: Path, tmp_path: Path) -> None:
    header, rows = new_rows(mirror, 1)
    rows[0][header.index(TEXT)] += " "
    spaced = write_rows(tmp_path / "spaced.csv", header, rows)
    assert check([spaced], mirror=mirror).exit_code == 0
    assert check([spaced], mirror=mirror, strict=True).exit_code == 1


def test_changed_released_row(mirror: Path, tmp_path: Path) -> None:
    header, rows = released_rows(mirror)
    column = TEXT  # rows are keyed by their id: a changed text is a changed row
    before = rows[0][header.index(column)]
    assert before == "Oranges are juicy in winter"  # id 25
    rows[0][header.index(column)] = after = before + " again"
    changed = write_rows(tmp_path / "changed.csv", header, rows[:1])
    report = check([changed], mirror=mirror)
    [finding] = report.findings
    place = (finding.line, finding.column, finding.code)
    assert place == (2, column, "RELEASE-CHANGED")
    assert (finding.value, finding.expected) == (after, before)
    assert report.exit_code == 1
    allowed = check([changed], mirror=mirror, allow_changes=True)
    assert allowed.exit_code == 0 and [f.severity for f in allowed.findings] == ["warning"]


def test_full_reports_every_lost_row(mirror: Path, tmp_path: Path) -> None:
    header, rows = released_rows(mirror)
    shortened = write_rows(tmp_path / "shortened.csv", header, rows[:-3])
    train = mirror_file("train", mirror)  # the rest of the release, whole
    report = check([train, shortened], mirror=mirror, full=True)
    lost = [f.value for f in report.findings]
    assert lost == ["38", "39", "40"]
    assert {(f.file, f.column, f.code) for f in report.findings} == {
        (f"{train}, {shortened}", KEY, "RELEASE-MISSING")  # lost from the files together
    }
    assert check([shortened], mirror=mirror).exit_code == 0  # without --full a subset is fine


def _bytes(text: str) -> bytes:
    """``text`` with ``A``, ``B`` and ``C`` the plain dataset's first three columns."""
    return text.replace("A", COLUMNS[0]).replace("B", COLUMNS[1]).replace("C", COLUMNS[2]).encode()


@pytest.mark.parametrize(
    ("content", "code", "line"),
    [
        (b"", "FILE-EMPTY", None),
        (_bytes("A\tB\tC\n1\t1.0\tx\n"), "FILE-DELIMITER", 1),
        (_bytes("A,B\n") + "1,caf\xe9\n".encode("latin-1"), "FILE-NOT-UTF8", 2),
        (None, "FILE-NOT-FOUND", None),
        (_bytes("A,B\n1,1.0\n\n2,1.0\n"), "FILE-BLANK-LINE", 3),
        (_bytes("A,A\n1,2\n"), "FILE-HEADER-REPEATED", 1),
        # Past the header's first read, a byte that is not UTF-8 where a delimiter was:
        # a short row, but not UTF-8 first.
        (_bytes("A,B\n") + b"1,1.0\n" * 5000 + b"2\xff1.0\n", "FILE-NOT-UTF8", 5002),
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
    new = write_rows(tmp_path / "new.csv", *new_rows(mirror, 3))
    truncated = tmp_path / "truncated.csv"
    truncated.write_bytes(edited(new.read_bytes(), [Truncate(4)], DELIMITER))
    report = check([truncated], mirror=mirror)
    assert report.exit_code == 2
    [finding] = report.unreadable
    assert (finding.line, finding.code) == (4, "FILE-FIELD-COUNT")  # its first 12 bytes


def _cli(*args: str) -> subprocess.CompletedProcess:
    return run_cli("validate", *args)


def test_cli_formats(mirror: Path, tmp_path: Path) -> None:
    """Released rows with the synthetic fault (id 26 made no complaint): one finding, in each
    format."""
    data, (line, column, code) = head_with_fault(mirror), FAULT_PLACE
    (value, expected) = FAULT_NAMED
    broken = tmp_path / "broken.csv"
    broken.write_bytes(data)
    common = ["--dataset", SYNTHETIC, "--mirror", str(mirror), str(broken)]
    text = _cli(*common)
    assert text.returncode == 1 and "Traceback" not in text.stderr
    assert f"error: {broken}:{line}: {code} column '{column}':" in text.stdout
    assert len(text.stdout.strip().splitlines()) == 2  # the finding and the summary
    report = json.loads(_cli(*common, "--format", "json").stdout)
    assert report["format"] == REPORT_FORMAT == 1
    assert report["exit_code"] == 1 and (report["errors"], report["warnings"]) == (1, 0)
    [finding] = report["findings"]
    assert {k: finding[k] for k in ("code", "file", "line", "column", "value", "expected")} == {
        "code": code,
        "file": str(broken),
        "line": line,
        "column": column,
        "value": value,
        "expected": expected,
    }
    assert finding["severity"] == "error" and finding["message"]
    github = _cli(*common, "--format", "github").stdout.splitlines()
    assert github[0].startswith(f"::error file={broken},line={line},title={code}::")
    unreadable = _cli("--dataset", SYNTHETIC, "--mirror", str(mirror), str(tmp_path / "x.csv"))
    assert unreadable.returncode == 2 and "Traceback" not in unreadable.stderr
    unknown = _cli("--dataset", "nope", str(broken))
    assert unknown.returncode == 1 and unknown.stderr.startswith("error: unknown dataset 'nope'")


def test_parquet_in_the_built_format(mirror: Path, session_cache: Path, tmp_path: Path) -> None:
    from hatemoji_datasets import load_dataset

    data = load_dataset(SYNTHETIC, cache_dir=str(session_cache), mirror=str(mirror))
    for split in ("train", "test"):
        data[split].to_parquet(tmp_path / f"{split}.parquet")
    train, clean = str(tmp_path / "train.parquet"), str(tmp_path / "test.parquet")
    options = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    full = Options(full=True)
    assert validate_contributions([train, clean], SYNTHETIC, options=full, **options).findings == []
    built = data["test"]

    rows = built.to_pandas()
    labels = len(built.features["label"].names)
    rows.loc[0, "label"] = labels + 5  # not a class id
    rows.loc[1, "sentence_id"] = rows.loc[2, "sentence_id"]  # duplicate id
    rows = rows.drop(index=[5])  # a released row lost
    broken = tmp_path / "broken.parquet"
    rows.to_parquet(broken)
    report = validate_contributions([str(broken)], SYNTHETIC, options=Options(full=True), **options)
    found = _codes(report)
    assert (1, "label", "VALUE-NOT-ALLOWED") in found  # Parquet rows are numbered from 1
    assert (2, "sentence_id", "VALUE-DUPLICATE") in found
    assert (3, "sentence_id", "VALUE-DUPLICATE") in found
    assert report.exit_code == 1
    missing = validate_contributions([str(tmp_path / "missing.parquet")], SYNTHETIC, **options)
    assert missing.exit_code == 2
    not_parquet = tmp_path / "rows.parquet"  # comma-separated text
    not_parquet.write_bytes(
        upstream_path(dummy_data_dir(SYNTHETIC), source_url(SYNTHETIC, SOURCE)).read_bytes()
    )
    assert validate_contributions([str(not_parquet)], SYNTHETIC, **options).exit_code == 2


def test_parquet_full_names_lost_rows(mirror: Path, session_cache: Path, tmp_path: Path) -> None:
    from hatemoji_datasets import load_dataset

    data = load_dataset(SYNTHETIC, cache_dir=str(session_cache), mirror=str(mirror))
    data["train"].to_parquet(tmp_path / "train.parquet")
    whole = data["test"].to_pandas()
    rows = whole.drop(index=[1, 5])
    shortened = tmp_path / "shortened.parquet"
    rows.to_parquet(shortened)
    report = validate_contributions(
        [str(tmp_path / "train.parquet"), str(shortened)],
        SYNTHETIC,
        options=Options(full=True),
        cache_dir=str(session_cache),
        mirror=str(mirror),
    )
    lost = [f.value for f in report.findings if f.code == "RELEASE-MISSING"]
    assert lost == ["26", "30"]  # the test split's second and sixth rows
