"""Row changes between two built datasets, per split, with rows matched by a key column.

Rows are matched over the whole dataset, not split by split, so a row that
changed split is a move (out of one split, into another), not a removal and an
addition. Where a key repeats within one side (texts used as keys can), its
n-th row is matched with the other side's n-th row, in split and row order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from hatemoji_datasets.core.findings import preview
from hatemoji_datasets.diff.model import Example, LabelMode, Move, SplitDiff

#: Characters of a value (or a text key) an example shows; longer ones are cut with "…".
EXAMPLE_WIDTH = 24

#: ``{split: {column: values}}`` of one side.
Columns = dict[str, dict[str, list[Any]]]


def read_columns(data: Mapping[str, Any], columns: list[str]) -> Columns:
    """Each split's ``columns`` as Python lists (one Arrow read per split)."""
    found = {}
    for split, dataset in data.items():
        table = dataset.with_format("arrow")[:]  # honours any selection of rows
        found[split] = {column: table.column(column).to_pylist() for column in columns}
    return found


def as_names(columns: Columns, names: Mapping[str, list[str]]) -> Columns:
    """ClassLabel ids replaced by their names (the columns ``names`` lists)."""
    return {
        split: {
            column: [_named(value, names[column]) for value in values]
            if column in names
            else values
            for column, values in split_columns.items()
        }
        for split, split_columns in columns.items()
    }


def _named(value: Any, names: list[str]) -> Any:
    if isinstance(value, list):
        return [_named(item, names) for item in value]
    return names[value] if isinstance(value, int) and 0 <= value < len(names) else value


def _positions(columns: Columns, key: str) -> tuple[dict[tuple[Any, int], tuple[str, int]], int]:
    """``{(key, occurrence): (split, row)}`` of one side, and how many rows repeat a key."""
    seen: Counter[Any] = Counter()
    found = {}
    for split, split_columns in columns.items():
        for row, value in enumerate(split_columns[key]):
            marker = _hashable(value)
            found[marker, seen[marker]] = (split, row)
            seen[marker] += 1
    return found, sum(count - 1 for count in seen.values())


def _hashable(value: Any) -> Any:
    return tuple(_hashable(item) for item in value) if isinstance(value, list) else value


def row_changes(
    old: Columns,
    new: Columns,
    *,
    key: str,
    compared: list[str],
    labels: LabelMode,
    names: tuple[Mapping[str, list[str]], Mapping[str, list[str]]],
    examples: int,
    by_position: bool = False,
) -> tuple[list[SplitDiff], list[Move], int]:
    """Per split, rows added, removed, moved in and out, and changed; the moves; repeated keys.

    ``names`` holds each side's ClassLabel names by column: with ``labels="name"``
    cells are compared by name, otherwise by id; examples show both. With
    ``by_position`` (keys that are texts) an example names its row by its position in
    the new side's split (``row 12``), never by the text.
    """
    old_shown, new_shown = as_names(old, names[0]), as_names(new, names[1])
    old_cells, new_cells = (old_shown, new_shown) if labels == "name" else (old, new)
    old_rows, old_repeats = _positions(old, key)
    new_rows, new_repeats = _positions(new, key)
    splits = {
        split: SplitDiff(split, _rows(old, split), _rows(new, split))
        for split in [*old, *(s for s in new if s not in old)]
    }
    moves: Counter[tuple[str, str]] = Counter()
    for marker, (split, row) in new_rows.items():
        found = old_rows.get(marker)
        if found is None:
            splits[split].added += 1
            continue
        old_split, old_row = found
        if old_split != split:
            splits[old_split].moved_out += 1
            splits[split].moved_in += 1
            moves[old_split, split] += 1
        differing = [
            column
            for column in compared
            if old_cells[old_split][column][old_row] != new_cells[split][column][row]
        ]
        if not differing:
            continue
        diff = splits[split]
        diff.changed += 1
        for column in differing:
            diff.changed_columns[column] = diff.changed_columns.get(column, 0) + 1
            if len(diff.examples) < examples:
                diff.examples.append(
                    Example(
                        key=_example_key(new, split, key, row, by_position),
                        column=column,
                        old=_shown(old, old_shown, old_split, column, old_row),
                        new=_shown(new, new_shown, split, column, row),
                    )
                )
    for marker, (split, _) in old_rows.items():
        if marker not in new_rows:
            splits[split].removed += 1
    ordered = list(splits)
    order = {split: i for i, split in enumerate(ordered)}
    listed = [
        Move(source, target, rows)
        for (source, target), rows in sorted(
            moves.items(), key=lambda item: (order[item[0][0]], order[item[0][1]])
        )
    ]
    return list(splits.values()), listed, max(old_repeats, new_repeats)


def _example_key(columns: Columns, split: str, key: str, row: int, by_position: bool) -> str:
    return f"row {row:,}" if by_position else _short(columns[split][key][row])


def _rows(columns: Columns, split: str) -> int | None:
    if split not in columns:
        return None
    values = next(iter(columns[split].values()), [])
    return len(values)


def _shown(ids: Columns, named: Columns, split: str, column: str, row: int) -> str:
    """A cell for an example: the id and its name for a ClassLabel, the value otherwise."""
    value, name = ids[split][column][row], named[split][column][row]
    return _short(value if value == name else f"{value} ({_plain(name)})")


def _plain(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def _short(value: Any) -> str:
    """At most :data:`EXAMPLE_WIDTH` characters of ``value``; escaping is the renderer's."""
    return preview(str(value), EXAMPLE_WIDTH) or ""
