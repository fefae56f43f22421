"""Edits to a raw file, by name: how a dataset's ``testing.py`` states a copy of its files
with a fault put in by hand, and the cases the tests make of them.

Lines count from 1, the header's included. Values are ``str``, or ``bytes`` where they
are no UTF-8 (an encoding fault).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Raw = str | bytes | int


def _raw(value: Raw) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode()


# -- edits of a line ----------------------------------------------------------------------


@dataclass(frozen=True)
class SetField:
    """Sets a delimited field of a line (no quoted delimiter before it; a negative index
    counts from the end)."""

    line: int
    index: int
    value: Raw


@dataclass(frozen=True)
class Replace:
    """Replaces the line's first ``old``."""

    line: int
    old: Raw
    new: Raw


@dataclass(frozen=True)
class SameId:
    """Gives the line another line's first field (its id, where the id comes first)."""

    line: int
    as_line: int


@dataclass(frozen=True)
class Truncate:
    """Cuts the line after its first 12 bytes."""

    line: int


LineEdit = SetField | Replace | SameId | Truncate


def edited(data: bytes, edits: Iterable[LineEdit], delimiter: str = ",") -> bytes:
    """``data`` with each edit applied in turn."""
    lines = data.splitlines(keepends=True)
    sep = delimiter.encode()
    for edit in edits:
        text = lines[edit.line - 1]
        body = text.rstrip(b"\r\n")
        if isinstance(edit, SetField):
            fields = body.split(sep)
            fields[edit.index] = _raw(edit.value)
            text = sep.join(fields) + text[len(body) :]
        elif isinstance(edit, Replace):
            old = _raw(edit.old)
            if old not in text:
                raise ValueError(f"line {edit.line} has no {old!r} to replace")
            text = text.replace(old, _raw(edit.new), 1)
        elif isinstance(edit, SameId):
            text = lines[edit.as_line - 1].split(sep, 1)[0] + sep + text.split(sep, 1)[1]
        elif isinstance(edit, Truncate):
            text = text[:12] + b"\n"
        else:
            raise TypeError(f"not an edit of a line: {edit!r}")
        lines[edit.line - 1] = text
    return b"".join(lines)


@dataclass(frozen=True)
class CorruptedCopy:
    """A pinned file with one fault, which ``validate`` rejects."""

    source: str
    edit: LineEdit
    exit_status: int
    #: (line, column, code) of the finding that names the fault (column None: the file
    #: cannot be read).
    finding: tuple[int, str | None, str]
    #: (value, expected) the finding names, or None.
    names: tuple[str, str | None] | None


# -- edits of a cell, in a row read by its header -----------------------------------------


@dataclass(frozen=True)
class SetCell:
    value: str


@dataclass(frozen=True)
class Prefix:
    text: str


@dataclass(frozen=True)
class Suffix:
    text: str


CellEdit = SetCell | Prefix | Suffix


def edited_cell(value: str, edit: CellEdit) -> str:
    """The cell's ``value`` after ``edit``."""
    if isinstance(edit, SetCell):
        return edit.value
    if isinstance(edit, Prefix):
        return edit.text + value
    if isinstance(edit, Suffix):
        return value + edit.text
    raise TypeError(f"not an edit of a cell: {edit!r}")


@dataclass(frozen=True)
class CellFault:
    """A fault put into one cell of a released row: in ``column``, or in the first of
    several that the row fills."""

    source: str
    column: str | tuple[str, ...]
    edit: CellEdit


# -- the inputs of a recorded validate case -------------------------------------------------


@dataclass(frozen=True)
class Mutate:
    """Seeded random edits: cells from a pool, from another row or column, rows repeated
    or dropped."""

    seed: int
    edits: int


@dataclass(frozen=True)
class Renew:
    """The rows made new, ``copies`` times (a synthetic contribution): ids moved by
    ``id_step`` per copy where rows have an id besides their text, texts changed."""

    copies: int
    id_step: int | None = None


@dataclass(frozen=True)
class ReplaceFirst:
    """The file's first ``count`` occurrences of ``old`` replaced."""

    count: int
    old: str
    new: str


@dataclass(frozen=True)
class Crlf:
    """Every line ended in CRLF."""


@dataclass(frozen=True)
class FirstRowAgain:
    """The first row repeated at the end (its key too)."""


FileEdit = Mutate | Renew | ReplaceFirst | Crlf | FirstRowAgain


@dataclass(frozen=True, init=False)
class _File:
    """A file, then edits in turn: ``Released(source, Mutate(1, 30))``."""

    name: str
    edits: tuple[FileEdit, ...] = ()

    def __init__(self, name: str, *edits: FileEdit) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "edits", edits)


class Released(_File):
    """A pinned source (by its name) as the mirror holds it."""


class Dummy(_File):
    """A pinned source's (by its name) dummy data."""


class Fixture(_File):
    """A neutral file of tests/fixtures/ (by its file name)."""


Recipe = Released | Dummy | Fixture


@dataclass(frozen=True)
class GoldenCase:
    """A recorded ``validate`` case: its config (None for the default), options, and the
    files it writes (file name -> recipe)."""

    config: str | None
    options: tuple[str, ...]
    files: dict[str, Recipe]
