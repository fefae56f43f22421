"""Numbers for people, the same in every output: counts grouped by thousands (``3,570``),
and the floats of one column to the same number of decimals (``0.620`` beside ``0.573``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: Floats are shown to at most this many decimals.
DECIMALS = 3


def figure(value: Any) -> str:
    """Integers grouped (``3,930``), floats to at most three decimals, booleans lower case."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.{DECIMALS}f}".rstrip("0").rstrip(".") if value == value else "n/a"
    return str(value)


def column(values: Sequence[Any]) -> list[str]:
    """Each value as :func:`figure` shows it, except that a column whose values are all
    floats (blank cells ``""`` aside) shows each to the most decimals any of them needs."""
    shown = [figure(value) for value in values]
    floats = [value for value in values if value != ""]
    if not floats or not all(isinstance(v, float) and v == v for v in floats):
        return shown
    decimals = max(len(figure(value).partition(".")[2]) for value in floats)
    return [shown[i] if value == "" else f"{value:,.{decimals}f}" for i, value in enumerate(values)]


def size(count: int) -> str:
    """A byte count for people: ``341 KiB``, ``2.1 MiB`` (binary units)."""
    value = float(count)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:,.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")
