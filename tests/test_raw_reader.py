"""The raw reader: one parse of a file that fits one block, exact rows over several blocks.

Expected rows come from the standard library's csv module; the files are neutral,
written here.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hatemoji_datasets.core.spec import CSV
from hatemoji_datasets.raw import byte_scan, reader


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


# -- bounded memory whatever a line holds ---------------------------------------------------
# A 300 MB one-cell contribution peaked at 2.3 GB, 200 MB of zeros at 1.2 GB, and a 2 GiB
# sparse file ended in an int32 OverflowError from the block size. Now a line over the limit
# is refused, named with its line and size, before any parser holds it (memory:
# benchmarks/RESULTS.md). The limits are made small here so the files stay small.


def _refused(path: Path) -> tuple[str, int | None, str]:
    with pytest.raises(reader.InputError) as raised:
        reader.read_raw(path, CSV)
    finding = raised.value.finding
    return finding.code, finding.line, finding.message


@pytest.mark.parametrize("block", [7, 64, 1 << 20])  # the long line across blocks, or not
def test_a_line_over_the_limit_is_named_with_its_size(tmp_path: Path, monkeypatch, block):
    monkeypatch.setattr(byte_scan, "MAX_LINE_BYTES", 100)
    monkeypatch.setattr(byte_scan, "SCAN_BLOCK_BYTES", block)
    path = tmp_path / "long.csv"
    path.write_text("id,text\n1,short\n2," + "x" * 150 + "\n3,short\n", encoding="utf-8")
    code, line, message = _refused(path)
    assert (code, line) == ("FILE-LINE-TOO-LONG", 3)
    assert message.startswith("line 3 is 152 B long; a line may hold at most 100 B")
    path.write_text("id,text\n1,short\n2," + "x" * 150, encoding="utf-8")  # the last, no newline
    assert _refused(path)[:2] == ("FILE-LINE-TOO-LONG", 3)


def test_a_header_over_the_limit_is_refused_unread(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(byte_scan, "MAX_LINE_BYTES", 100)
    path = tmp_path / "zeros.csv"
    path.write_bytes(b"\0" * 1000)
    code, line, message = _refused(path)
    assert (code, line) == ("FILE-LINE-TOO-LONG", 1)
    assert message.startswith("line 1 is 1000 B long")
    with pytest.raises(reader.InputError) as raised:  # the streamed read says the same
        reader.scan_raw(path, CSV)
    assert raised.value.finding.code == "FILE-LINE-TOO-LONG"


def test_a_row_spanning_lines_past_the_largest_block_is_refused(tmp_path, monkeypatch) -> None:
    # Each line is short, but one quoted value spans many: parsed in blocks up to a cap.
    monkeypatch.setattr(reader, "READ_BLOCK_BYTES", 64)
    monkeypatch.setattr(reader, "MAX_PARSE_BLOCK_BYTES", 256)
    path = tmp_path / "spanning.csv"
    value = "\n".join(["a short line"] * 40)  # about 520 bytes
    _write(path, [["id", "text"], ["1", "x"], ["2", value], ["3", "y"]])
    code, _, message = _refused(path)
    assert code == "FILE-LINE-TOO-LONG" and "span lines is longer than" in message
    monkeypatch.setattr(reader, "MAX_PARSE_BLOCK_BYTES", 4096)  # within the cap: read exactly
    assert _read(path) == _rows(path)


@pytest.mark.parametrize("block", [1, 2, 3, 5, 1 << 20])
def test_an_unclosed_quote_is_found_block_by_block(tmp_path: Path, monkeypatch, block) -> None:
    # An escaped quote ("") and the opening quote fall across block boundaries.
    monkeypatch.setattr(byte_scan, "SCAN_BLOCK_BYTES", block)
    path = tmp_path / "open.csv"
    path.write_bytes(b'id,text\n1,"x""y"\n2,"open\n3,z\n4,done\n')
    assert byte_scan.unclosed_quote_offset(str(path), ",") == 19  # the quote before "open"
    code, line, message = _refused(path)
    assert (code, line) == ("FILE-UNCLOSED-QUOTE", 3)
    assert message == 'the quoted value opened on line 3 is never closed (a " is missing)'
    path.write_bytes(b'id,text\n1,"x""y"\n2,"fine"\n')
    assert byte_scan.unclosed_quote_offset(str(path), ",") is None
