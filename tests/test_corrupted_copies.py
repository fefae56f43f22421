"""The contribution gate on corrupted copies of the released files, through the CLI.

Each case changes one thing in a real upstream file (copied into a temporary
folder, never into the repository) and expects `validate` to exit 1 (or 2 when
the file cannot be read) naming the offending line, column and code, with no
traceback. Every finding carries a documented code, and no place is reported twice.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, source_url, upstream_path

from hatemoji_datasets.cli import main
from hatemoji_datasets.core.findings import CODES
from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.schema.model import rules_of

Edit = Callable[[list[bytes]], list[bytes]]


def _replace_in(line: int, old: bytes, new: bytes) -> Edit:
    """Change the first ``old`` on (1-based) ``line``."""

    def edit(lines: list[bytes]) -> list[bytes]:
        assert old in lines[line - 1], (line, old)
        lines[line - 1] = lines[line - 1].replace(old, new, 1)
        return lines

    return edit


def _field(line: int, column: int, value: bytes) -> Edit:
    """Set a comma-separated field of a line with no quoted commas before it."""

    def edit(lines: list[bytes]) -> list[bytes]:
        fields = lines[line - 1].split(b",")
        fields[column] = value
        lines[line - 1] = b",".join(fields)
        return lines

    return edit


def _duplicate_id(line: int, of_line: int) -> Edit:
    def edit(lines: list[bytes]) -> list[bytes]:
        wanted = lines[of_line - 1].split(b",", 1)[0]
        lines[line - 1] = wanted + b"," + lines[line - 1].split(b",", 1)[1]
        return lines

    return edit


def _truncate(line: int) -> Edit:
    def edit(lines: list[bytes]) -> list[bytes]:
        lines[line - 1] = lines[line - 1][:12] + b"\n"
        return lines

    return edit


CHECK = ("hatemoji_check", None, "test")
BUILD = ("hatemoji_build", None, "test")
BEEP = ("apeach", "beep", "beep_dev")

# (dataset, config, source), edit, expected exit, and the (line, column, code) that must
# be named (column None for a file that cannot be read).
CASES = {
    "wrong type": (CHECK, _field(5, 0, b"four"), 1, (5, "case_id", "VALUE-TYPE")),
    "unknown functionality": (
        CHECK, _field(6, 5, b"verb_swapp"), 1, (6, "functionality", "VALUE-NOT-ALLOWED"),
    ),
    "unknown label": (CHECK, _field(7, 7, b"2"), 1, (7, "label_gold", "VALUE-NOT-ALLOWED")),
    "duplicate id": (CHECK, _duplicate_id(9, 8), 1, (9, "case_id", "VALUE-DUPLICATE")),
    "label disagrees with cell": (
        CHECK, _field(2, 7, b"0"), 1, (2, "label_gold", "HC-LABEL-CELL"),
    ),
    "emoji rule": (
        CHECK, _replace_in(2, "🔪".encode(), b"knife"), 1, (2, "text", "HC-EMOJI"),
    ),
    "bad encoding": (
        CHECK, _replace_in(4, b"women", b"wom\xe9n"), 2, (4, None, "FILE-NOT-UTF8"),
    ),
    "truncated line": (CHECK, _truncate(10), 2, (10, None, "FILE-FIELD-COUNT")),
    "unknown hate type": (
        BUILD, _replace_in(2, b",none,['none']", b",nothing,['none']"), 1,
        (2, "type", "VALUE-NOT-ALLOWED"),
    ),
    "malformed target literal": (
        BUILD, _replace_in(2, b"['", b"[`"), 1, (2, "target", "HB-TARGET-LITERAL"),
    ),
    "unknown hate level": (
        BEEP, _replace_in(2, b"\tnone\n", b"\tmild\n"), 1, (2, "hate", "VALUE-NOT-ALLOWED"),
    ),
}  # fmt: skip
# The value and expected value named, where the case fixes them.
VALUES = {
    "wrong type": ("four", None),
    "unknown label": ("2", "one of 0, 1"),
    "label disagrees with cell": ("0", "1"),
    "unknown hate level": ("mild", "one of none, offensive, hate"),
}


def documented_codes() -> set[str]:
    """The shared codes and every dataset rule's code."""
    codes = set(CODES)
    for spec in specs().values():
        for config in spec.configs:
            for schema in config.schemas:  # the config's own format and its joins'
                codes |= {info.code for info in rules_of(spec.load(schema)).values()}
    return codes


def _corrupt(mirror: Path, tmp_path: Path, spec: tuple, edit: Edit) -> Path:
    dataset, _, source = spec
    url = source_url(dataset, source)
    original = upstream_path(mirror, url).read_bytes().splitlines(keepends=True)
    target = tmp_path / Path(url).name
    target.write_bytes(b"".join(edit(original)))
    return target


def _validate(path: Path, dataset: str, config: str | None, mirror: Path, capsys, fmt: str):
    args = ["validate", str(path), "--dataset", dataset, "--mirror", str(mirror)]
    code = main(args + (["--config", config] if config else []) + ["--format", fmt])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture(scope="module")
def reports(mirror: Path, tmp_path_factory: pytest.TempPathFactory):
    """Each case's JSON report, validated once."""
    found: dict[str, tuple[int, Path, dict]] = {}

    def report(case: str, capsys) -> tuple[int, Path, dict]:
        if case not in found:
            spec, edit, *_ = CASES[case]
            path = _corrupt(mirror, tmp_path_factory.mktemp("corrupt"), spec, edit)
            code, out, _ = _validate(path, spec[0], spec[1], mirror, capsys, "json")
            found[case] = (code, path, json.loads(out))
        return found[case]

    return report


@pytest.mark.parametrize("case", list(CASES))
def test_corrupted_copy(case: str, reports, capsys) -> None:
    _, _, exit_code, (line, column, code) = CASES[case]
    status, path, report = reports(case, capsys)
    assert status == exit_code == report["exit_code"], report
    assert report["format"] == 1
    named = [
        f
        for f in report["findings"]
        if (f["file"], f["line"], f["column"], f["code"]) == (str(path), line, column, code)
    ]
    assert len(named) == 1, report["findings"]
    if case in VALUES:
        assert (named[0]["value"], named[0]["expected"]) == VALUES[case]
    documented = documented_codes()
    assert all(f["code"] in documented for f in report["findings"]), report["findings"]
    assert all(f["file"] == str(path) for f in report["findings"])


@pytest.mark.parametrize("case", list(CASES))
def test_no_problem_is_reported_twice(case: str, reports, capsys) -> None:
    _, _, report = reports(case, capsys)
    places = [(f["file"], f["line"], f["column"]) for f in report["findings"]]
    assert len(places) == len(set(places)), report["findings"]


@pytest.mark.parametrize("case", ["label disagrees with cell", "unknown hate level"])
def test_text_report_names_the_place(case: str, mirror: Path, tmp_path: Path, capsys) -> None:
    spec, edit, exit_code, (line, column, code) = CASES[case]
    path = _corrupt(mirror, tmp_path, spec, edit)
    status, out, _ = _validate(path, spec[0], spec[1], mirror, capsys, "text")
    assert status == exit_code
    assert f"error: {path}:{line}: {code} column {column!r}:" in out


def test_broken_pair(mirror: Path, tmp_path: Path, capsys) -> None:
    """A partner's matched_id pointing elsewhere breaks symmetry; both halves are named."""
    url = source_url("hatemoji_build", "test")
    lines = upstream_path(mirror, url).read_bytes().splitlines(keepends=True)
    header = lines[0].decode().rstrip("\n").split(",")
    matched_at = header.index("matched_id")
    last = lines[1].decode().rstrip("\n").rsplit(",", 1)  # matched_id is the last column
    assert matched_at == len(header) - 1
    lines[1] = f"{last[0]},999999\n".encode()
    path = tmp_path / "test.csv"
    path.write_bytes(b"".join(lines))
    code, out, _ = _validate(path, "hatemoji_build", None, mirror, capsys, "json")
    report = json.loads(out)
    assert code == 1 == report["exit_code"]
    assert any(
        (f["file"], f["line"], f["column"], f["code"])
        == (str(path), 2, "matched_id", "HB-PAIR-MISSING")
        for f in report["findings"]
    ), report["findings"]
    assert all(f["code"] in documented_codes() for f in report["findings"])


def test_docs_document_every_code() -> None:
    from hatemoji_datasets.validate.codes import render

    page = (REPO / "docs" / "validation.md").read_text(encoding="utf-8")
    assert sorted(c for c in documented_codes() if f"`{c}`" not in page) == []
    assert render(page) == page  # the generated table is current
