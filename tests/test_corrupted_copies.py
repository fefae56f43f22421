"""The contribution gate on corrupted copies of the released files, through the CLI.

Each case changes one thing in a real upstream file (copied into a temporary
folder, never into the repository) and expects `validate` to exit 1 (or 2 when
the file cannot be read) naming the offending line, with no traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import upstream_path

from hatemoji_datasets.cli import main
from hatemoji_datasets.registry import builder_class

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

# (dataset, config, source), edit, expected exit, line that must be named, words in the message
CASES = {
    "wrong type": (CHECK, _field(5, 0, b"four"), 1, 5, "coerce_dtype"),
    "unknown functionality": (CHECK, _field(6, 5, b"verb_swapp"), 1, 6, "isin"),
    "unknown label": (CHECK, _field(7, 7, b"2"), 1, 7, "label_gold"),
    "duplicate id": (CHECK, _duplicate_id(9, 8), 1, 9, "field_uniqueness"),
    "label disagrees with cell": (CHECK, _field(2, 7, b"0"), 1, 2, "functionality x set cell"),
    "emoji rule": (CHECK, _replace_in(2, "🔪".encode(), b"knife"), 1, 2, "need an emoji"),
    "bad encoding": (CHECK, _replace_in(4, b"women", b"wom\xe9n"), 2, 4, "not UTF-8"),
    "truncated line": (CHECK, _truncate(10), 2, 10, "fields"),
    "unknown hate type": (
        BUILD,
        _replace_in(2, b",none,['none']", b",nothing,['none']"),
        1,
        2,
        "type",
    ),
    "malformed target literal": (BUILD, _replace_in(2, b"['", b"[`"), 1, 2, "target"),
    "unknown hate level": (BEEP, _replace_in(2, b"\tnone\n", b"\tmild\n"), 1, 2, "isin"),
}


def _corrupt(mirror: Path, tmp_path: Path, spec: tuple, edit: Edit) -> Path:
    dataset, _, source = spec
    url = builder_class(dataset).source_files()[source].url
    original = upstream_path(mirror, url).read_bytes().splitlines(keepends=True)
    target = tmp_path / Path(url).name
    target.write_bytes(b"".join(edit(original)))
    return target


@pytest.mark.parametrize("case", list(CASES))
def test_corrupted_copy(case: str, mirror: Path, tmp_path: Path, capsys) -> None:
    spec, edit, exit_code, line, words = CASES[case]
    path = _corrupt(mirror, tmp_path, spec, edit)
    dataset, config, _ = spec
    args = ["validate", str(path), "--dataset", dataset, "--mirror", str(mirror)]
    code = main(args + (["--config", config] if config else []))
    out, err = capsys.readouterr()
    assert code == exit_code, out + err
    assert "Traceback" not in out + err
    report = out if exit_code == 1 else out + err
    named = [
        row for row in report.splitlines() if f"{path}:{line}:" in row or f"line {line} " in row
    ]
    assert named, report
    assert any(words in row for row in named), named


def test_broken_pair(mirror: Path, tmp_path: Path, capsys) -> None:
    """A partner's matched_id pointing elsewhere breaks symmetry; both halves are named."""
    url = builder_class("hatemoji_build").source_files()["test"].url
    lines = upstream_path(mirror, url).read_bytes().splitlines(keepends=True)
    header = lines[0].decode().rstrip("\n").split(",")
    matched_at = header.index("matched_id")
    last = lines[1].decode().rstrip("\n").rsplit(",", 1)  # matched_id is the last column
    assert matched_at == len(header) - 1
    lines[1] = f"{last[0]},999999\n".encode()
    path = tmp_path / "test.csv"
    path.write_bytes(b"".join(lines))
    code = main(["validate", str(path), "--dataset", "hatemoji_build", "--mirror", str(mirror)])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err
    assert f"{path}:2:" in out and "matched_id" in out
