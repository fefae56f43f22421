"""Output for people: aligned tables, grouped numbers, human sizes, quiet progress.

Every command prints through these helpers, so numbers are grouped the same way
everywhere (``3,930``) and tables line up under their headers.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from hatemoji_datasets.core.findings import safe
from hatemoji_datasets.core.numbers import column as number_column
from hatemoji_datasets.core.numbers import figure, size


def number(value: Any) -> str:
    """Integers grouped by thousands (``3,930``), floats to three decimals, the rest as text."""
    return figure(value)


def whole_number(text: str) -> int:
    """An option's whole number, 0 or more (argparse reports anything else as usage)."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def human_size(count: int) -> str:
    """A byte count for people: ``341 KiB``, ``2.1 MiB`` (binary units)."""
    return size(count)


#: Tables and wrapped lists fit this many columns.
WIDTH = 100
_GAP = "  "


def wrap_list(text: str, width: int, separator: str = ", ") -> list[str]:
    """``text``, a list of entries joined by ``separator``, in lines of at most ``width``
    characters broken only between entries (``0 none, 1 women, ...``); an entry longer than
    a line has a line of its own."""
    entries = text.split(separator)
    lines: list[str] = []
    current = ""
    for position, entry in enumerate(entries):
        piece = entry + (separator.rstrip() if position < len(entries) - 1 else "")
        candidate = f"{current} {piece}" if current else piece
        if current and len(candidate) > width:
            lines.append(current)
            candidate = piece
        current = candidate
    return [*lines, current] if current or not lines else lines


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    right: Sequence[int] = (),
    width: int = WIDTH,
    at_most: Mapping[int, int] | None = None,
) -> str:
    """Rows under headers, each column as wide as its widest cell; ``right`` columns align right.

    ``at_most`` caps some text columns first (column -> characters), wrapped as below, so
    the room left goes to the columns that need it (a list of configs beside a title).

    Cells are shown with :func:`number` and escaped, so no cell can break a line; the floats
    of a column share their decimals. A table wider than ``width`` wraps its widest text
    columns onto continuation lines (lists between entries) and its headers between words,
    and if that is not enough, continues its columns in further blocks, each led by the
    first column.
    """
    cells = _cells(rows, len(headers))
    for column, most in (at_most or {}).items():
        cells = _wrap_column(cells, column, most)
    headers = [safe(header) for header in headers]
    widths = _widths(headers, cells, header_words=False)
    if _span(widths) <= width:
        return _block(headers, _lines(cells), range(len(headers)), widths, right)
    cells = _wrap_widest_text(headers, cells, right, width)
    narrow = _widths(headers, cells, header_words=True)
    blocks, current = [], [0]
    for column in range(1, len(headers)):
        if len(current) > 1 and _span([narrow[c] for c in [*current, column]]) > width:
            blocks.append(current)
            current = [0]
        current.append(column)
    blocks.append(current)
    lines = _lines(cells)
    shown = [_block(headers, lines, b, _widen(headers, b, narrow, width), right) for b in blocks]
    return "\n\n".join(shown)


#: A table's cells: per row, per column, the lines the cell is shown on (one until wrapped).
Cells = list[list[list[str]]]


def _widths(headers: Sequence[str], cells: Cells, *, header_words: bool) -> list[int]:
    """Each column's width: its widest line, and its header (or, where headers may wrap,
    the header's longest word)."""
    return [
        max(
            [len(w) for w in (header.split() if header_words else [header])]
            + [len(line) for row in cells for line in row[c]]
            + [1]
        )
        for c, header in enumerate(headers)
    ]


def _lines(cells: Cells) -> list[list[str]]:
    """The rows as printed: a row whose cells wrap continues on lines of its own."""
    printed = []
    for row in cells:
        depth = max(len(lines) for lines in row)
        printed += [[lines[i] if i < len(lines) else "" for lines in row] for i in range(depth)]
    return printed


def _widen(headers: Sequence[str], columns: Sequence[int], narrow: list[int], width: int):
    """``narrow`` widths with the room left under ``width`` given, a character at a time, to
    the columns whose headers wrap onto the most lines."""
    import textwrap

    widths = list(narrow)
    room = width - _span([widths[c] for c in columns])
    while room > 0:
        depth = {c: len(textwrap.wrap(headers[c], widths[c])) for c in columns}
        deepest = max(depth.values(), default=1)
        if deepest <= 1:
            break
        column = next(c for c in columns if depth[c] == deepest)
        widths[column] += 1
        room -= 1
    return widths


#: A text column is not wrapped narrower than this.
NARROWEST = 12


def _wrap_widest_text(
    headers: Sequence[str], cells: Cells, right: Sequence[int], width: int
) -> Cells:
    """The rows with their widest left-aligned columns broken onto continuation lines, widest
    first, until the table fits ``width``: lists between entries, other text between words
    (an entry or word is never broken)."""
    for _ in range(len(headers)):
        widths = _widths(headers, cells, header_words=True)
        if _span(widths) <= width:
            break
        column = max(
            (c for c in range(len(headers)) if c not in right), key=widths.__getitem__, default=None
        )
        if column is None:
            break
        others = _span([w for c, w in enumerate(widths) if c != column]) + len(_GAP)
        target = max(width - others, NARROWEST)
        if target >= widths[column]:
            break
        wrapped = _wrap_column(cells, column, target)
        if wrapped == cells:  # nothing could be broken
            break
        cells = wrapped
    return cells


def _wrap_column(cells: Cells, column: int, target: int) -> Cells:
    """The rows with ``column`` broken onto lines of at most ``target`` characters: lists
    between entries, other text between words (never inside one)."""
    import textwrap

    wrapped = []
    for row in cells:
        text = " ".join(row[column])  # a cell wrapped before is whole again
        lines = (
            wrap_list(text, target)
            if ", " in text
            else textwrap.wrap(text, target, break_long_words=False, break_on_hyphens=False)
        )
        wrapped.append([lines or [""] if c == column else row[c] for c in range(len(row))])
    return wrapped


def _span(widths: Sequence[int]) -> int:
    return sum(widths) + len(_GAP) * (len(widths) - 1)


def _cells(rows: Sequence[Sequence[Any]], columns: int) -> Cells:
    """Each cell as text, escaped; a column of floats to the most decimals any of them needs."""
    shown = [number_column([row[c] for row in rows]) for c in range(columns)]
    return [[[safe(shown[c][r])] for c in range(columns)] for r in range(len(rows))]


def _block(
    headers: Sequence[str],
    cells: Sequence[Sequence[str]],
    columns: Sequence[int],
    widths: Sequence[int],
    right: Sequence[int],
) -> str:
    """The ``columns`` of a table; a header wider than its column is broken between words."""
    import textwrap

    def line(values: Sequence[str]) -> str:
        parts = [
            value.rjust(widths[column]) if column in right else value.ljust(widths[column])
            for column, value in zip(columns, values, strict=True)
        ]
        return _GAP.join(parts).rstrip()

    wrapped = [textwrap.wrap(headers[c], widths[c]) or [""] for c in columns]
    depth = max(len(lines) for lines in wrapped)
    wrapped = [[""] * (depth - len(lines)) + lines for lines in wrapped]  # next to the rule
    header_lines = [line([lines[i] for lines in wrapped]) for i in range(depth)]
    rule = line(["-" * widths[c] for c in columns])
    body = [line([row[c] for c in columns]) for row in cells]
    return "\n".join([*header_lines, rule, *body])


class WrappedMessages(logging.Formatter):
    """A message escaped and in lines of :data:`WIDTH`: a list (of files, say) breaks between
    its entries, and each continuation line is indented under the first."""

    def format(self, record: logging.LogRecord) -> str:
        import textwrap

        text = safe(record.getMessage())
        if len(text) <= WIDTH:
            return text
        lines = (
            wrap_list(text, WIDTH - 2)
            if ", " in text
            else textwrap.wrap(text, WIDTH - 2, break_long_words=False, break_on_hyphens=False)
        )
        return "\n  ".join(lines)


def configure_logging(verbose: bool) -> None:
    """The package's messages on standard error, wrapped: warnings always, progress
    messages only with ``-v``. The command's own handler writes to the standard error of
    this run (not whatever stream a handler configured earlier holds)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(WrappedMessages())
    logger = logging.getLogger("hatemoji_datasets")
    logger.handlers = [handler]
    logger.propagate = False  # said once, here, whatever the root logger does
    logger.setLevel(logging.INFO if verbose else logging.WARNING)


def show_progress() -> None:
    """``datasets``' own progress bars off: the package shows its own progress, one line per
    file and split, where a person watches (:mod:`hatemoji_datasets.core.progress`)."""
    import datasets

    datasets.disable_progress_bars()
