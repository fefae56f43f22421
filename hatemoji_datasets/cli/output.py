"""Output for people: aligned tables, grouped numbers, human sizes, quiet progress.

Every command prints through these helpers, so numbers are grouped the same way
everywhere (``3,930``) and tables line up under their headers.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from hatemoji_datasets.core.findings import safe


def number(value: Any) -> str:
    """Integers grouped by thousands (``3,930``), floats to three decimals, the rest as text."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.3f}".rstrip("0").rstrip(".") if value == value else "n/a"
    return str(value)


def human_size(size: int) -> str:
    """A byte count for people: ``341 KiB``, ``2.1 MiB`` (binary units)."""
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:,.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    right: Sequence[int] = (),
) -> str:
    """Rows under headers, each column as wide as its widest cell; ``right`` columns align right.

    Cells are shown with :func:`number` and escaped, so no cell can break a line.
    """
    cells = [[safe(number(value)) for value in row] for row in rows]
    widths = [len(header) for header in headers]
    for row in cells:
        widths = [max(width, len(cell)) for width, cell in zip(widths, row, strict=True)]

    def line(values: Sequence[str]) -> str:
        parts = [
            value.rjust(width) if column in right else value.ljust(width)
            for column, (value, width) in enumerate(zip(values, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    rule = ["-" * width for width in widths]
    return "\n".join([line(list(headers)), line(rule), *(line(row) for row in cells)])


def configure_logging(verbose: bool) -> None:
    """The package's progress messages on standard error only with ``-v``."""
    logging.basicConfig(format="%(message)s", stream=sys.stderr)
    logging.getLogger("hatemoji_datasets").setLevel(logging.INFO if verbose else logging.WARNING)


def show_progress(verbose: bool, stream: TextIO | None = None) -> None:
    """``datasets``' progress bars only on an interactive terminal, or with ``-v``.

    Commands that build or load data call this once ``datasets`` is needed anyway.
    """
    import datasets

    stream = stream or sys.stderr
    if verbose or bool(getattr(stream, "isatty", lambda: False)()):
        datasets.enable_progress_bars()
    else:
        datasets.disable_progress_bars()
