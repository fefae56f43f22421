"""Keys of rows that have no id: ``<source>:<line>``, their place in their pinned file.

A config keyed by :data:`~hatemoji_datasets.core.spec.ROW_ID` states no key column;
builds, ``validate`` and its release rules all name rows by these keys, derived
here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow

from hatemoji_datasets.core.spec import ROW_ID
from hatemoji_datasets.raw.reader import RawTable


def position_keys(source: str | None, raw: RawTable) -> pyarrow.Array:
    """Each row's key: its pinned source (else the file's own name, which no released row
    has) and the line it starts on."""
    prefix = source if source is not None else Path(raw.path).name
    return pyarrow.array([f"{prefix}:{line}" for line in raw.lines()], pyarrow.string())


def with_position_keys(
    table: pyarrow.Table, files: Sequence[tuple[str | None, RawTable]]
) -> pyarrow.Table:
    """``table`` (the rows of ``(source, file)`` files, stacked) with their keys appended
    as :data:`ROW_ID`."""
    keys = pyarrow.chunked_array(
        [position_keys(source, raw) for source, raw in files], pyarrow.string()
    )
    return table.append_column(ROW_ID, keys)


def file_keys(raw: RawTable, key_column: str, source: str | None) -> pyarrow.Array | None:
    """The keys of a file's rows: its key column, or for :data:`ROW_ID` their positions in
    ``source``'s pinned file (None when the file lacks its key column)."""
    if key_column == ROW_ID:
        return position_keys(source, raw)
    if key_column in raw.table.column_names:
        return raw.table[key_column].combine_chunks()
    return None
