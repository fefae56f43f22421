"""Findings in bounded memory (issue 46): a contribution can break a rule on every row.

The streaming pass names the release rules' findings batch by batch into a spool on
disk (a temporary file with no name), keeping only the first few of each code in
memory; the report is written from the spool a finding at a time, and JSON still lists
every finding, with exact counts. The findings are the exact engine's, word for word.
Memory itself is measured by ``benchmarks/validate_findings.py`` (benchmarks/RESULTS.md).

They run on ``conftest.PLAIN``, as ``test_hostile_reports`` does.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from support.real import HATEMOJI_CHECK as PLAIN
from support.real import new_row, plain_file

from hatemoji_datasets.cli import main
from hatemoji_datasets.core.findings import Finding
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.validate import contributions, spool
from hatemoji_datasets.validate.contributions import Options, validate_contributions
from hatemoji_datasets.validate.report import ValidationReport, render
from hatemoji_datasets.validate.spool import FindingSpool

CONFIG = dataset_spec(PLAIN).config()
KEY, TEXT = CONFIG.key_column, CONFIG.text_column
#: Copies of the release in the flood: each of its rows a RELEASE-REPEATED-TEXT.
COPIES = 8


@pytest.fixture(scope="module")
def released(mirror: Path) -> list[dict[str, str]]:
    text = plain_file(mirror).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def _write(path: Path, rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    return str(path)


def _flood(released: list[dict[str, str]], folder: Path) -> str:
    """The release ``COPIES`` times over under new ids: every row repeats a released text."""
    rows = [
        {**row, KEY: str(90_000 + copy * len(released) + n)}
        for copy in range(COPIES)
        for n, row in enumerate(released)
    ]
    return _write(folder / "flood.csv", rows)


def _exact(paths: list[str], monkeypatch, options: Options = Options()) -> list[Finding]:  # noqa: B008
    with monkeypatch.context() as patch:
        patch.setattr(contributions, "_screened", lambda *args: False)
        return validate_contributions(paths, PLAIN, options=options).findings


def _mixed(released: list[dict[str, str]]) -> list[dict[str, str]]:
    """Every release rule broken at least twice, among clean new rows."""
    rows = [new_row(row, n) for n, row in enumerate(released[:40])]
    rows[3] = {**released[7], KEY: rows[3][KEY]}  # a released text under a new id
    rows[9] = {**released[8], KEY: rows[9][KEY]}
    rows[5] = {**released[5], TEXT: released[5][TEXT] + "?"}  # a released row, changed
    rows[12] = {**released[12], TEXT: released[12][TEXT] + "!"}
    rows[20][TEXT] = "control\x07 " + rows[20][TEXT]  # new text: a control character
    rows[21][TEXT] = unicodedata.normalize("NFD", "café ") + rows[21][TEXT]  # not NFC
    rows[22][TEXT] = rows[22][TEXT] + " "  # edge space: a warning
    rows[23][TEXT] = released[30][TEXT] + "\u200b"  # a near duplicate: a warning
    rows[24] = {**released[0], KEY: rows[24][KEY]}  # and the same released text again
    return rows


@pytest.mark.parametrize("allow_changes", [False, True])
def test_release_faults_are_named_streaming_as_the_exact_engine_names_them(
    workdir: Path, released, monkeypatch, allow_changes: bool
) -> None:
    path = _write(workdir / "mixed.csv", _mixed(released))
    options = Options(allow_changes=allow_changes)
    report = validate_contributions([path], PLAIN, options=options)
    assert report.spool is not None  # the streaming pass named them, not the exact engine
    found = list(report.every_finding())
    exact = _exact([path], monkeypatch, options)
    assert found == exact
    assert [f.severity for f in found] == [f.severity for f in exact]
    codes = Counter(f.code for f in found)
    assert codes["RELEASE-REPEATED-TEXT"] == 3 and codes["RELEASE-CHANGED"] == 2, codes
    assert {"TEXT-CONTROL", "TEXT-NOT-NFC", "TEXT-EDGE-SPACE"} <= set(codes), codes
    changed = "warning" if allow_changes else "error"
    assert {f.severity for f in found if f.code == "RELEASE-CHANGED"} == {changed}
    assert report.counts() == (
        sum(f.severity == "error" for f in exact),
        sum(f.severity == "warning" for f in exact),
    )


def test_memory_holds_the_first_of_each_code_and_json_lists_every_finding(
    workdir: Path, released, monkeypatch, capsys
) -> None:
    flood = _flood(released, workdir)
    total = COPIES * len(released)
    monkeypatch.setattr(spool, "KEPT_IN_MEMORY", 7)
    report = validate_contributions([flood], PLAIN)
    assert report.spool is not None and len(report.findings) == 7  # not every finding
    assert report.counts() == (total, 0) and report.exit_code == 1
    every = list(report.every_finding())
    assert len(every) == total and every[:7] == report.findings
    assert [f.line for f in every] == list(range(2, total + 2))  # report order: line order
    report.close()
    capsys.readouterr()
    assert main(["validate", flood, "--dataset", PLAIN, "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["errors"] == total and document["warnings"] == 0
    assert len(document["findings"]) == total and "omitted" not in document
    assert document["findings"][-1]["line"] == total + 1
    assert {f["code"] for f in document["findings"]} == {"RELEASE-REPEATED-TEXT"}
    assert main(["validate", flood, "--dataset", PLAIN, "--max-findings", "0"]) == 1
    text = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("error: ") for line in text) == total
    assert text[-1] == f"{total:,} error(s), 0 warning(s) in 1 file(s)"


def test_the_spool_leaves_no_file_behind(workdir: Path, released, monkeypatch, capsys) -> None:
    folder = workdir.parent / "spool-dir"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    spooled = FindingSpool()
    spooled.add(Finding("a.csv", 2, TEXT, "RELEASE-REPEATED-TEXT", "repeats"))
    assert os.listdir(folder) == []  # no name even while open: an interruption leaves none
    spooled.close()
    flood = _flood(released, workdir)
    assert main(["validate", flood, "--dataset", PLAIN, "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["errors"] == COPIES * len(released)
    assert os.listdir(folder) == []


def test_a_spool_gives_back_what_it_was_given() -> None:
    made = [
        Finding("caf\udce9.csv", 2, "text", "TEXT-CONTROL", "has \x07", "a\nb", None),
        Finding("x.csv", None, None, "COLUMN-MISSING", "missing", None, "é", "warning"),
        Finding("x.csv", 3, "text", "TEXT-CONTROL", "again", "", "", "error"),
    ]
    spooled = FindingSpool(keep=1)
    spooled.extend(made)
    assert list(spooled) == made and list(spooled) == made  # read twice, same
    assert [f.severity for f in spooled] == ["error", "warning", "error"]
    assert spooled.kept == made[:2] and len(spooled) == 3
    assert spooled.counts == {("TEXT-CONTROL", "error"): 2, ("COLUMN-MISSING", "warning"): 1}
    spooled.add(made[0])  # added after a read: appended
    assert list(spooled)[-1] == made[0] and len(spooled) == 4
    spooled.close()


@pytest.mark.parametrize("hints", [[], ["did you mean --dataset x?"]])
@pytest.mark.parametrize("count", [0, 1, 3])
def test_json_written_a_finding_at_a_time_is_one_json_document(hints, count: int) -> None:
    findings = [
        Finding(f"f{n}.csv", n + 2, "text", "TEXT-CONTROL", "has a control", "a\x07", None)
        for n in range(count)
    ]
    report = ValidationReport(files=["f0.csv"], findings=findings, hints=hints)
    expected = {
        "format": 1,
        "files": ["f0.csv"],
        "exit_code": 1 if count else 0,
        "errors": count,
        "warnings": 0,
        "findings": [
            {
                "code": "TEXT-CONTROL",
                "severity": "error",
                "file": f"f{n}.csv",
                "line": n + 2,
                "column": "text",
                "message": "has a control",
                "value": "a\\x07",
                "expected": None,
            }
            for n in range(count)
        ],
        **({"hints": hints} if hints else {}),
    }
    # Byte for byte what one json.dumps of the whole document gives.
    assert render(report, "json") == json.dumps(expected, ensure_ascii=False, indent=2)


def test_an_interruption_leaves_one_message_and_no_spool(
    workdir: Path, released, monkeypatch, capsys
) -> None:
    folder = workdir.parent / "spool-dir"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    flood = _flood(released, workdir)
    spools: list[FindingSpool] = []
    real_extend = FindingSpool.extend

    def interrupted(self, findings):
        spools.append(self)
        real_extend(self, findings)
        raise KeyboardInterrupt

    # While findings are made: the JSON document holds the error, and no spool is left.
    with monkeypatch.context() as patch:
        patch.setattr(FindingSpool, "extend", interrupted)
        assert main(["validate", flood, "--dataset", PLAIN, "--format", "json"]) == 130
    out, err = capsys.readouterr()
    assert json.loads(out)["error"]["code"] == "INTERRUPTED" and err == "interrupted\n"
    assert spools and spools[0]._file.closed and os.listdir(folder) == []
    # While the report is written: it is cut short, with one message and no second document.
    real_iter = FindingSpool.__iter__

    def cut(self):
        spools.append(self)
        for n, finding in enumerate(real_iter(self)):
            if n == 100:
                raise KeyboardInterrupt
            yield finding

    monkeypatch.setattr(FindingSpool, "__iter__", cut)
    assert main(["validate", flood, "--dataset", PLAIN, "--format", "json"]) == 130
    out, err = capsys.readouterr()
    assert out.count('"format": 1') == 1 and out.count('"code": ') == 100
    assert err == "interrupted\n"
    assert spools[-1]._file.closed and os.listdir(folder) == []


def test_a_released_id_reused_is_named_over_the_whole_file(
    workdir: Path, released, monkeypatch
) -> None:
    # ID-RELEASED names the next free id of the whole file, which a batch cannot see: the
    # findings are the exact engine's still (the streaming pass leaves them to it).
    rows = _mixed(released)
    rows[30] = {**rows[30], KEY: released[2][KEY]}  # a new row under a released id
    path = _write(workdir / "reused.csv", rows)
    report = validate_contributions([path], PLAIN)
    assert "ID-RELEASED" in {f.code for f in report.findings}
    assert list(report.every_finding()) == _exact([path], monkeypatch)
