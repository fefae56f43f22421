"""Bounded scans of a file's bytes: its lines (and their lengths), quotes and UTF-8.

Each reads the file a block at a time into bounded memory, whatever it holds: the
reader runs them before a parser sees the file, so a huge line, a file of zeros or a
file of any size never makes a parser (or this scan) hold it whole.
"""

from __future__ import annotations

import codecs

import numpy as np

from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.file_reads import unreadable

#: Bytes read at a time when counting a file's lines.
SCAN_BLOCK_BYTES = 8 << 20
#: The longest line a file may hold: a row of these datasets is at most a few KiB, so a
#: longer line is refused (``FILE-LINE-TOO-LONG``) before any parser holds it whole. Room
#: is left for a header of a million columns, which is refused as too wide instead.
MAX_LINE_BYTES = 8 << 20


def count_lines(name: str) -> tuple[int, bool, int]:
    """The file's physical lines, whether any is blank (after the first), and its quotes.

    Read block by block into one reused buffer, so memory stays small whatever
    the file's size; a block starts with the previous one's last two bytes, so
    a blank line across a boundary is seen. A line longer than :data:`MAX_LINE_BYTES`
    raises ``FILE-LINE-TOO-LONG`` as soon as its length is known.
    """
    buffer = np.empty(SCAN_BLOCK_BYTES + 2, dtype=np.uint8)
    lines, blank, quotes, carried, last = 0, False, 0, 0, ord("\n")
    offset, previous_newline = 0, -1  # the file offset of block[carried]; of the last "\n"
    with open(name, "rb", buffering=0) as handle:
        while read := handle.readinto(memoryview(buffer)[carried : carried + SCAN_BLOCK_BYTES]):
            block = buffer[: carried + read]
            quotes += int(np.count_nonzero(block[carried:] == ord('"')))
            newlines = np.flatnonzero(block == ord("\n"))
            own = newlines[newlines >= carried] - carried + offset
            _check_line_lengths(name, own, previous_newline, lines)
            previous_newline = int(own[-1]) if len(own) else previous_newline
            offset += read
            lines += len(own)
            if not blank:
                gaps = np.diff(newlines)
                after = block[newlines[:-1] + 1]
                blank = bool((gaps == 1).any() or ((gaps == 2) & (after == ord("\r"))).any())
            last = int(block[-1])
            carried = min(2, len(block))
            buffer[:carried] = block[len(block) - carried :]
    if offset - previous_newline - 1 > MAX_LINE_BYTES:  # the last line, with no newline
        raise line_too_long(name, lines + 1, offset - previous_newline - 1)
    return lines + int(last != ord("\n")), blank, quotes


def _check_line_lengths(name: str, newlines: np.ndarray, previous: int, lines_before: int):
    """Raise ``FILE-LINE-TOO-LONG`` for the first line over :data:`MAX_LINE_BYTES` among
    those ending at ``newlines`` (file offsets), the first starting after ``previous``."""
    lengths = np.diff(np.concatenate([[previous], newlines])) - 1
    over = np.flatnonzero(lengths > MAX_LINE_BYTES)
    if len(over):
        raise line_too_long(name, lines_before + int(over[0]) + 1, int(lengths[over[0]]))


def line_too_long(name: str, line: int, length: int) -> InputError:
    from hatemoji_datasets.core.numbers import size

    message = (
        f"line {line:,} is {size(length)} long; a line may hold at most {size(MAX_LINE_BYTES)} "
        "(a row of these datasets is far shorter), so the file is not read further"
    )
    return unreadable(name, "FILE-LINE-TOO-LONG", message, line)


def first_non_utf8_line(name: str) -> int:
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1
    with open(name, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            try:
                decoder.decode(block)
            except UnicodeDecodeError as exc:
                return line + block.count(b"\n", 0, max(exc.start, 0))
            line += block.count(b"\n")
    return line


def unclosed_quote_offset(name: str, delimiter: str) -> int | None:
    """The file offset of a quoted value that opens and is never closed, if one does.

    A quote opens a value only at the start of a field; inside, ``""`` is a quote
    character and a lone ``"`` closes it (the rules of the csv module and pyarrow). Only
    the quotes are visited, block by block, so memory stays that of two blocks.
    """
    starts = {ord("\n"), ord("\r"), ord(delimiter)}
    opened: int | None = None
    skip, before, offset = -1, ord("\n"), 0
    with open(name, "rb") as handle:
        block = handle.read(SCAN_BLOCK_BYTES)
        while block:
            following = handle.read(SCAN_BLOCK_BYTES)  # a quote's next byte may be there
            raw = np.frombuffer(block, dtype=np.uint8)
            for quote in np.flatnonzero(raw == ord('"')).tolist():
                position = offset + quote
                if position == skip:
                    continue
                if opened is None:
                    if (int(raw[quote - 1]) if quote else before) in starts:
                        opened = position
                    continue
                after = int(raw[quote + 1]) if quote + 1 < len(raw) else following[:1]
                if after in (ord('"'), b'"'):
                    skip = position + 1  # an escaped quote inside the value
                else:
                    opened = None
            before, offset, block = int(raw[-1]), offset + len(block), following
    return opened


def line_of_offset(name: str, offset: int) -> int:
    """The 1-based line holding the byte at ``offset``, counted block by block."""
    line, done = 1, 0
    with open(name, "rb") as handle:
        while done < offset and (block := handle.read(min(SCAN_BLOCK_BYTES, offset - done))):
            line += block.count(b"\n")
            done += len(block)
    return line
