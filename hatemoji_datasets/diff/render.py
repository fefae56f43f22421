"""A diff as tables (:func:`sections`), as markdown, and as JSON.

The command line sets :func:`sections` as aligned text tables. Every figure
appears once; counts are always shown, zeros included. Names and values are
escaped (:func:`~hatemoji_datasets.core.findings.safe`), and examples are already
cut short by the comparison, so no cell can break a line or a table.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hatemoji_datasets.core.columns import TEXT_COLUMN
from hatemoji_datasets.core.findings import markdown_text
from hatemoji_datasets.diff.model import DatasetDiff

SPLIT_COLUMNS = ("split", "old rows", "new rows", "added", "removed", "moved in", "moved out")


#: ``(title, headers, rows, right-aligned column positions)``
Section = tuple[str, list[str], list[list[Any]], list[int]]


def sections(found: DatasetDiff) -> list[Section]:
    """``(title, headers, rows, right-aligned columns)`` of each table a diff shows."""
    sections = []
    if found.columns:
        sections.append(
            (
                "Columns",
                ["column", "change", "old type", "new type"],
                [[c.column, c.change, c.old or "", c.new or ""] for c in found.columns],
                [],
            )
        )
    if found.names:
        sections.append(
            (
                "ClassLabel names (matched by id)",
                ["column", "id", "change", "old name", "new name"],
                [[n.column, n.id, n.change, n.old or "", n.new or ""] for n in found.names],
                [1],
            )
        )
    sections.append(
        (
            "Rows per split",
            [*SPLIT_COLUMNS, "changed"],
            [
                [
                    s.split,
                    "-" if s.rows_old is None else s.rows_old,
                    "-" if s.rows_new is None else s.rows_new,
                    s.added,
                    s.removed,
                    s.moved_in,
                    s.moved_out,
                    s.changed,
                ]
                for s in found.splits
            ],
            [1, 2, 3, 4, 5, 6, 7],
        )
    )
    if found.moves:
        sections.append(
            (
                "Rows moved between splits",
                ["from", "to", "rows"],
                [[m.source, m.target, m.rows] for m in found.moves],
                [2],
            )
        )
    changed = [
        [s.split, column, rows] for s in found.splits for column, rows in s.changed_columns.items()
    ]
    if changed:
        sections.append(("Changed columns", ["split", "column", "rows"], changed, [2]))
    shown = [[s.split, e.key, e.column, e.old, e.new] for s in found.splits for e in s.examples]
    if shown:
        # Rows matched by their text are named by position: an example never shows a text key.
        key = "row" if found.key == TEXT_COLUMN else found.key
        sections.append(
            (
                "Examples of changed cells (values cut to a few characters)",
                ["split", key, "column", "old", "new"],
                shown,
                [],
            )
        )
    return sections


def summary(found: DatasetDiff) -> list[str]:
    """The diff in a few lines: what was compared, how, and the totals."""
    lines = [
        f"{found.old.reference} -> {found.new.reference}",
        f"rows matched by {found.key}; ClassLabel cells compared by {found.labels}",
    ]
    if found.repeated_keys:
        lines.append(
            f"{found.repeated_keys:,} rows repeat a {found.key} of their side: the n-th row "
            "with a key is matched with the other side's n-th"
        )
    what = "identical" if found.identical else "differs"
    lines.append(
        f"{what}: {len(found.columns):,} column(s) and {len(found.names):,} ClassLabel name(s) "
        f"changed; {found.rows_phrase()}"
    )
    return lines


def markdown(found: DatasetDiff) -> str:
    """The diff as markdown: its summary, then one table per section."""
    compared, *rest = summary(found)
    parts = [f"### {markdown_text(compared)}", "\n".join(markdown_text(line) for line in rest)]
    for title, headers, rows, right in sections(found):
        parts.append(f"#### {title}\n\n{markdown_table(headers, rows, right)}")
    return "\n\n".join(parts) + "\n"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], right=()) -> str:
    """A markdown table; cells escaped, ``|`` included, numbers grouped by thousands."""
    rule = ["---:" if i in right else "---" for i in range(len(headers))]
    lines = [_row(headers), _row(rule, escape=False)]
    lines += [_row([_number(value) for value in row]) for row in rows]
    return "\n".join(lines)


def _row(cells: Sequence[Any], *, escape: bool = True) -> str:
    shown = [markdown_text(str(cell)) if escape else str(cell) for cell in cells]
    return "| " + " | ".join(shown) + " |"


def _number(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def as_json(found: DatasetDiff) -> str:
    """The diff's JSON form (:meth:`DatasetDiff.to_dict`), indented."""
    return json.dumps(found.to_dict(), ensure_ascii=False, indent=2) + "\n"
