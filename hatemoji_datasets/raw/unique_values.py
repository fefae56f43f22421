"""The values a unique column has held, kept compactly while a file is read batch by batch.

A byte per small integer id, else the distinct values, and which of them repeat:
the state the plan's checks (:mod:`.plan_checks`) keep for unique columns.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import array_of, int64s, numpy_of

#: Unique integers below this are tracked in a byte map (64 MiB at most); any other
#: unique value is kept as itself.
BITMAP_LIMIT = 1 << 26
#: Byte map states.
_SEEN, _REPEATED = 1, 2


class UniqueValues:
    """The values a unique column has held so far. ``add`` is False once any value has
    repeated (or is missing, which the exact engine judges); :meth:`repeated` then says
    which values of a batch repeat anywhere in the file."""

    def __init__(self) -> None:
        self.bitmap = np.zeros(0, dtype=np.uint8)
        self.seen: set[Any] = set()
        self.repeats: set[Any] = set()
        self.missing = False

    @property
    def clean(self) -> bool:
        return not self.missing and not self.repeats and not (self.bitmap == _REPEATED).any()

    def add(self, values: pyarrow.Array) -> bool:
        if values.null_count:
            self.missing = True
            return False
        if pyarrow.types.is_integer(values.type):
            numbers = numpy_of(values.cast(pyarrow.int64()))
            small = (numbers >= 0) & (numbers < BITMAP_LIMIT)
            fresh = self._add_small(numbers[small]) if small.any() else True
            rest = numbers[~small]
            return self._add_others(int64s(rest)) and fresh
        return self._add_others(values)

    def _add_small(self, numbers: np.ndarray) -> bool:
        high = int(numbers.max())
        if high >= len(self.bitmap):
            grown = np.zeros(max(high + 1, 2 * len(self.bitmap)), dtype=np.uint8)
            grown[: len(self.bitmap)] = self.bitmap
            self.bitmap = grown
        ordered = np.sort(numbers)
        if not self.bitmap[numbers].any() and not (ordered[1:] == ordered[:-1]).any():
            self.bitmap[numbers] = _SEEN  # the usual case: all new, all distinct
            return True
        distinct, counts = np.unique(numbers, return_counts=True)
        repeated = (self.bitmap[distinct] > 0) | (counts > 1)
        self.bitmap[distinct] = np.where(
            repeated, _REPEATED, np.maximum(self.bitmap[distinct], _SEEN)
        )
        return False

    def _add_others(self, values: pyarrow.Array) -> bool:
        if len(values) == 0:
            return True
        counted = pc.value_counts(values)
        distinct = counted.field("values").to_pylist()
        several = [
            v for v, n in zip(distinct, counted.field("counts").to_pylist(), strict=True) if n > 1
        ]
        again = self.seen.intersection(distinct)
        self.seen.update(distinct)
        self.repeats.update(several, again)
        return not several and not again

    def overlaps(self, other: UniqueValues) -> bool:
        """Whether the two hold a value in common (a value is kept the same way in both)."""
        n = min(len(self.bitmap), len(other.bitmap))
        if ((self.bitmap[:n] > 0) & (other.bitmap[:n] > 0)).any():
            return True
        return not self.seen.isdisjoint(other.seen)

    def repeated(self, values: pyarrow.Array) -> np.ndarray:
        """Per value of a batch: whether the file holds it more than once."""
        found = np.zeros(len(values), dtype=bool)
        if pyarrow.types.is_integer(values.type):
            numbers = numpy_of(values.cast(pyarrow.int64()))
            small = (numbers >= 0) & (numbers < len(self.bitmap))
            found[small] = self.bitmap[numbers[small]] == _REPEATED
        if self.repeats:
            pool = array_of(list(self.repeats), values.type)
            found |= numpy_of(pc.is_in(values, value_set=pool))
        return found
