"""Pairs that straddle splits.

Every HatemojiBuild entry has a partner (an original and its minimal
perturbation), and upstream assigned splits per entry, not per pair: about a
third of the pairs have one member in one split and the other in another. A
model trained on one half of such a pair and tested on the other sees an
almost identical text at test time. :func:`cross_split_pairs` lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import datasets


class CrossSplitPair(NamedTuple):
    """An entry of one split whose partner lies elsewhere."""

    entry_id: int
    matched_id: int
    #: The split holding the partner, or None if no split given holds it.
    partner_split: str | None


def cross_split_pairs(data: Mapping[str, datasets.Dataset]) -> dict[str, list[CrossSplitPair]]:
    """For each split, its entries whose partner is not in the same split.

    ``data`` is a HatemojiBuild ``DatasetDict`` (any config) or any mapping of
    split names to datasets with ``entry_id`` and ``matched_id`` columns. A
    straddling pair appears twice, once under each of its splits; a partner
    that no given split holds (a split left out of ``data``) is reported with
    ``partner_split=None``. Entries are listed in ``entry_id`` order.

    >>> leaks = cross_split_pairs(load_dataset("hatemoji_build"))
    >>> leaks["test"][0]  # CrossSplitPair(entry_id=..., matched_id=..., partner_split='train')
    """
    ids = {split: _ints(dataset, "entry_id") for split, dataset in data.items()}
    split_of = {entry_id: split for split, entry_ids in ids.items() for entry_id in entry_ids}
    found: dict[str, list[CrossSplitPair]] = {}
    for split, dataset in data.items():
        found[split] = sorted(
            CrossSplitPair(entry_id, matched_id, split_of.get(matched_id))
            for entry_id, matched_id in zip(ids[split], _ints(dataset, "matched_id"), strict=True)
            if split_of.get(matched_id) != split
        )
    return found


def count_cross_split_pairs(data: Mapping[str, datasets.Dataset]) -> int:
    """How many pairs have their two entries in different splits (each pair counted once)."""
    return distinct_pairs(cross_split_pairs(data))


def distinct_pairs(leaks: Mapping[str, list[CrossSplitPair]]) -> int:
    """How many pairs :func:`cross_split_pairs`' answer holds (each appears under both splits)."""
    return len({frozenset((p.entry_id, p.matched_id)) for pairs in leaks.values() for p in pairs})


def _ints(dataset: datasets.Dataset, column: str) -> list[int]:
    # A whole-column slice is one Arrow read; iterating the column reads row by row.
    return [int(value) for value in dataset[column][:]]
