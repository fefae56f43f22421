"""The raw reader: one parse of a file that fits one block, exact rows over several blocks.

Expected rows come from the standard library's csv module; the files are neutral,
written here.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hatemoji_datasets.core.spec import CSV
from hatemoji_datasets.raw import reader


def _write(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    return path


def _rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))[1:]


def _read(path: Path) -> list[list[str]]:
    table = reader.read_raw(path, CSV).table
    return [list(row) for row in zip(*table.to_pydict().values(), strict=True)]


def _file(tmp_path: Path, *, newlines: bool) -> Path:
    text = "a text\nover two lines" if newlines else "a text on one line"
    rows = [["id", "text", "note"]]
    rows += [[str(i), f"{text} {i}", "quoted, with a comma" if i % 3 else ""] for i in range(200)]
    return _write(tmp_path / "cases.csv", rows)


@pytest.fixture
def parses(monkeypatch) -> list[bool]:
    """The ``newlines_in_values`` of each parse the reader makes."""
    made: list[bool] = []
    parse = reader._parse

    def counted(*args, newlines_in_values: bool):
        made.append(newlines_in_values)
        return parse(*args, newlines_in_values=newlines_in_values)

    monkeypatch.setattr(reader, "_parse", counted)
    return made


@pytest.mark.parametrize("newlines", [True, False])
def test_a_file_of_one_block_is_parsed_once(tmp_path: Path, parses: list[bool], newlines) -> None:
    path = _file(tmp_path, newlines=newlines)
    assert _read(path) == _rows(path)
    assert parses == [True]  # values may span lines: nothing can cut them


@pytest.mark.parametrize("newlines", [True, False])
def test_rows_are_exact_over_several_blocks(
    tmp_path: Path, parses: list[bool], monkeypatch, newlines: bool
) -> None:
    path = _file(tmp_path, newlines=newlines)
    monkeypatch.setattr(reader, "READ_BLOCK_BYTES", 512)  # the file is ~8 KB
    assert _read(path) == _rows(path)
    # Without values over two lines the fast parse is exact and kept; with them, the
    # file is parsed again, allowing them.
    assert parses == ([False, True] if newlines else [False])
