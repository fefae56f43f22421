"""What a diff of two built datasets holds: feature changes, row changes per split, moves.

Plain dataclasses with a JSON form (:meth:`DatasetDiff.to_dict`, versioned by
``DIFF_FORMAT``), so renderers and scripts read the same figures.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

#: Version of the JSON form; bumped when a key changes meaning.
DIFF_FORMAT = 1
#: How ClassLabel columns are compared: by id (the stored integer) or by name.
LabelMode = Literal["id", "name"]


@dataclass(frozen=True)
class Side:
    """One of the two datasets compared."""

    reference: str
    name: str
    config: str
    version: str
    #: ``{split: rows}``
    splits: dict[str, int]


@dataclass(frozen=True)
class ColumnChange:
    """A column only one side has, or one whose type differs."""

    column: str
    change: Literal["added", "removed", "retyped"]
    #: The column's type on each side (``describe_feature``), None where it is absent.
    old: str | None
    new: str | None


@dataclass(frozen=True)
class NameChange:
    """A ClassLabel name that differs between the sides, matched by id."""

    column: str
    id: int
    change: Literal["added", "removed", "renamed"]
    old: str | None
    new: str | None


@dataclass(frozen=True)
class Example:
    """One changed cell: the row's key, the column and both values, shortened and escaped."""

    key: str
    column: str
    old: str
    new: str


@dataclass
class SplitDiff:
    """How one split's rows differ. Rows are matched over the whole dataset by their key:
    a key on both sides in different splits is moved (out of one, into the other)."""

    split: str
    #: Rows on each side; None where that side has no such split.
    rows_old: int | None
    rows_new: int | None
    #: Keys of this split that the other side has nowhere.
    added: int = 0
    removed: int = 0
    #: Keys in this split on one side and in another split on the other.
    moved_in: int = 0
    moved_out: int = 0
    #: Rows (in this split on the new side) whose compared columns differ.
    changed: int = 0
    #: ``{column: changed rows}`` for the columns that differ.
    changed_columns: dict[str, int] = field(default_factory=dict)
    examples: list[Example] = field(default_factory=list)

    @property
    def unchanged(self) -> bool:
        counts = (self.added, self.removed, self.moved_in, self.moved_out, self.changed)
        return self.rows_old == self.rows_new and not any(counts)


@dataclass(frozen=True)
class Move:
    """Rows whose key is in split ``source`` on the old side and ``target`` on the new."""

    source: str
    target: str
    rows: int


@dataclass
class DatasetDiff:
    """Everything that differs between two built versions or configs of one dataset."""

    old: Side
    new: Side
    #: How rows are matched: the built column holding each row's key.
    key: str
    #: Where a key repeats within a side, its n-th row is matched with the other side's n-th.
    repeated_keys: int
    labels: LabelMode
    #: Columns both sides have, compared row by row.
    compared: list[str]
    columns: list[ColumnChange]
    names: list[NameChange]
    splits: list[SplitDiff]
    moves: list[Move]

    @property
    def identical(self) -> bool:
        """Same features and the same rows in the same splits (row order aside)."""
        return not self.columns and not self.names and all(s.unchanged for s in self.splits)

    def totals(self) -> dict[str, int]:
        """Rows added, removed, moved and changed over every split."""
        return {
            "added": sum(s.added for s in self.splits),
            "removed": sum(s.removed for s in self.splits),
            "moved": sum(m.rows for m in self.moves),
            "changed": sum(s.changed for s in self.splits),
        }

    def rows_phrase(self) -> str:
        """The row totals in words: ``rows 0 added, 0 removed, 0 moved between splits, ...``."""
        totals = self.totals()
        return (
            f"rows {totals['added']:,} added, {totals['removed']:,} removed, "
            f"{totals['moved']:,} moved between splits, {totals['changed']:,} changed"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": DIFF_FORMAT,
            "old": asdict(self.old),
            "new": asdict(self.new),
            "identical": self.identical,
            "rows_matched_by": self.key,
            "repeated_keys": self.repeated_keys,
            "labels_compared_by": self.labels,
            "compared_columns": self.compared,
            "features": {
                "columns": [asdict(change) for change in self.columns],
                "class_label_names": [asdict(change) for change in self.names],
            },
            "totals": self.totals(),
            "splits": [
                {**asdict(split), "examples": [asdict(e) for e in split.examples]}
                for split in self.splits
            ],
            "moves": [asdict(move) for move in self.moves],
        }
