"""Raw files of several formats or sources that make one split: stacking and joining.

A config's split may read several files of its own format (stacked in the
declared order) and, for each :class:`~hatemoji_datasets.core.spec.Join`, one file
of another format whose rows are joined to its rows on a key column. This
module does both on Arrow tables, and checks what a join promises, as coded
findings located in the files:

- ``JOIN-UNMATCHED``: a key with no row on the other side (for an indicator
  join, only a partner key that names no row);
- ``JOIN-MISMATCH``: a column both formats hold (one the join names) differs
  between the two rows.

Where a key is repeated (the schema's ``VALUE-DUPLICATE``), the first row with
it stands for it; callers drop findings on rows whose key the schema rejected.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.findings import Finding, preview
from hatemoji_datasets.core.spec import Join

if TYPE_CHECKING:
    import pandas as pd

#: ``place(position) -> (file, line)`` of a row of a side of a join.
Place = Callable[[int], tuple[str, int]]


def stack_tables(tables: Sequence[pyarrow.Table]) -> pyarrow.Table:
    """Tables of one format, one after the other.

    A column some files lack (an optional column of the format) is empty there,
    as an empty cell of a file that has it is; a column one file holds as integers
    and another as text (one bad value) is text in all.
    """
    if len(tables) == 1:
        return tables[0]
    columns: dict[str, pyarrow.DataType] = {}
    for table in tables:
        for field in table.schema:
            known = columns.setdefault(field.name, field.type)
            if known != field.type:
                columns[field.name] = pyarrow.string()
    aligned = []
    for table in tables:
        arrays = []
        for name, kind in columns.items():
            if name in table.column_names:
                arrays.append(table[name].cast(kind))
            elif kind == pyarrow.string():
                arrays.append(pyarrow.array([""] * table.num_rows, type=kind))
            else:
                arrays.append(pyarrow.nulls(table.num_rows, type=kind))
        aligned.append(pyarrow.table(arrays, names=list(columns)))
    return pyarrow.concat_tables(aligned)


def stack_frames(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """:func:`stack_tables` for pandas frames: a column some frames lack is empty there."""
    columns = list(dict.fromkeys(column for frame in frames for column in frame.columns))
    filled = [frame.reindex(columns=columns, fill_value="") for frame in frames]
    import pandas as pd

    return pd.concat(filled, ignore_index=True)


def _as_text(array: pyarrow.ChunkedArray | pyarrow.Array) -> pyarrow.Array:
    array = array.combine_chunks() if isinstance(array, pyarrow.ChunkedArray) else array
    return array.cast(pyarrow.string())


def attach(rows: pyarrow.Table, partner: pyarrow.Table, join: Join) -> pyarrow.Table:
    """``rows`` with the join's columns appended (validated files: every key matches)."""
    key = join.key_column
    keys, partner_keys = _as_text(rows[key]), _as_text(partner[key])
    if join.indicator:
        found = pc.is_in(keys, value_set=pc.unique(partner_keys))
        return rows.append_column(join.indicator, found.fill_null(False))
    positions = pc.index_in(keys, value_set=partner_keys)
    added = [name for name in partner.column_names if name not in rows.column_names]
    taken = partner.select(added).take(positions)
    for name in added:
        rows = rows.append_column(name, taken[name])
    return rows


def _unmatched(
    keys: pyarrow.Array, others: pyarrow.Array, place: Place, column: str, message: str
) -> list[Finding]:
    """JOIN-UNMATCHED for each of ``keys`` that ``others`` lacks, placed by ``place``."""
    missing = ~pc.is_in(keys, value_set=others).to_numpy(zero_copy_only=False)
    return [
        Finding(*place(int(p)), column, "JOIN-UNMATCHED", message, preview(keys[int(p)].as_py()))
        for p in np.flatnonzero(missing)
    ]


def join_findings(
    rows: pyarrow.Table,
    rows_place: Place,
    partner: pyarrow.Table,
    partner_place: Place,
    join: Join,
    *,
    rows_file: str,
    partner_file: str,
) -> list[Finding]:
    """Every broken promise of ``join`` between one split's rows and its partner file."""
    key = join.key_column
    if key not in rows.column_names or key not in partner.column_names:
        return []  # the schema names the missing key column
    keys, partner_keys = _as_text(rows[key]), _as_text(partner[key])
    found = _unmatched(
        partner_keys, keys, partner_place, key, f"no row of {rows_file} has this {key}"
    )
    if join.indicator:
        return found
    found += _unmatched(
        keys,
        partner_keys,
        rows_place,
        key,
        f"no {join.name} row has this {key} (in {partner_file})",
    )
    # Columns both formats hold: the partner's copy must say what the rows say.
    shared = [c for c in join.agree_on if c in partner.column_names and c in rows.column_names]
    if not shared:
        return found
    first_row = pc.index_in(partner_keys, value_set=keys)  # the row each partner row joins
    joined = pc.is_valid(first_row).to_numpy(zero_copy_only=False)
    positions = np.flatnonzero(joined)
    if len(positions) == 0:
        return found
    partners_at = pyarrow.array(positions)
    rows_at = pc.take(first_row, partners_at)
    for column in shared:
        theirs = pc.take(_as_text(partner[column]), partners_at)
        ours = pc.take(_as_text(rows[column]), rows_at)
        differs = pc.not_equal(theirs, ours).fill_null(True).to_numpy(zero_copy_only=False)
        for index in np.flatnonzero(differs):
            file, line = partner_place(int(positions[index]))
            found.append(
                Finding(
                    file,
                    line,
                    column,
                    "JOIN-MISMATCH",
                    f"differs from the row with the same {key} in {rows_file}",
                    preview(theirs[int(index)].as_py()),
                    preview(ours[int(index)].as_py()),
                )
            )
    return found
