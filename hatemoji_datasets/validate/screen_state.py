"""What the streaming validator keeps across batches: compactly, never the rows.

- :class:`UniqueValues`: the values a unique column has held (a byte per small
  integer, else the distinct values), and which of them repeat;
- :class:`Release`: the released rows of a format (a few thousand) that the
  release rules compare a contributed row with: their keys, cells and texts.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import array_of, booleans, int64s, numpy_of, strings
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, RawPart
from hatemoji_datasets.raw.files import read_files
from hatemoji_datasets.raw.joins import stack_tables
from hatemoji_datasets.sources.fetch import fetch_released
from hatemoji_datasets.validate.prefilter import canonical_text, new_texts_keep

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


@dataclass(frozen=True)
class Release:
    """What the release rules compare a contributed row with: the released rows of its
    format (a few thousand), their keys, and their texts with their canonical forms."""

    table: pyarrow.Table
    keys: pyarrow.Array
    key: str
    text: str
    known_texts: pyarrow.Array
    canonical: pyarrow.Array
    canonical_texts: frozenset[str]

    def keeps(self, batch: pyarrow.RecordBatch) -> bool:
        keys, released_keys = batch[self.key], self.keys
        if keys.type != released_keys.type:
            return False
        released = numpy_of(pc.is_in(keys, value_set=released_keys))
        if released.any() and not self._unchanged(batch, released, released_keys):
            return False
        new = batch[self.text].filter(booleans(~released))
        return new_texts_keep(new, self.known_texts, self.canonical, self.canonical_texts)

    def _unchanged(
        self, batch: pyarrow.RecordBatch, released: np.ndarray, released_keys: pyarrow.Array
    ) -> bool:
        """Whether every released row of the batch holds its released cells (the first
        released row of its key, as the release rule compares)."""
        mask = booleans(released)
        at = pc.index_in(batch[self.key].filter(mask), value_set=released_keys)
        for name in batch.schema.names:
            if name not in self.table.column_names:
                continue
            theirs = self.table[name].combine_chunks().take(at)
            mine = batch[name].filter(mask)
            if theirs.type != mine.type or not all_true(pc.equal(mine, theirs)):
                return False
        return True


def all_true(result: Any) -> bool:
    """Whether every answer is True (a missing answer counts as False)."""
    if isinstance(result, (pyarrow.Array, pyarrow.ChunkedArray)):
        # Nulls count as False: where there is one, not all are True.
        return len(result) == 0 or (result.null_count == 0 and bool(pc.all(result).as_py()))
    return bool(np.all(result))


@cache
def released_context(
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart,
    text: str,
    mirror: str | None,
    cache_dir: str | None,
) -> Release:
    """The released rows of ``part``'s format in ``config`` (read once per process)."""
    files = read_files(spec, config, fetch_released(spec, config, mirror, cache_dir))
    table = stack_tables([raw.table for split in files.values() for _, raw in split.sources])
    texts = table[text].cast(pyarrow.string()).to_pylist()
    canonical = [canonical_text(t) for t in texts]
    known = strings(sorted(set(texts) | set(canonical)))
    keys = table[part.key_column].combine_chunks()
    forms = sorted(set(canonical))
    return Release(table, keys, part.key_column, text, known, strings(forms), frozenset(forms))
