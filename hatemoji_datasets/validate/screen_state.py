"""What the streaming validator keeps of the release: compactly, never the rows.

:class:`Release` holds the released rows of a format (a few thousand) that the
release rules compare a contributed row with: their keys, cells and texts (the
unique columns' state is :mod:`hatemoji_datasets.raw.unique_values`).
:func:`released_table` is the released rows of one of a config's formats, its own
rows' or a join's, as the exact engine reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import booleans, numpy_of, strings
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, RawPart
from hatemoji_datasets.raw.files import SplitFiles, read_files
from hatemoji_datasets.raw.joins import stack_tables
from hatemoji_datasets.raw.plan_checks import all_true
from hatemoji_datasets.sources.fetch import fetch_released
from hatemoji_datasets.validate.prefilter import canonical_text, new_texts_keep


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
    table = released_table(spec, config, part, mirror, cache_dir)
    texts = table[text].cast(pyarrow.string()).to_pylist()
    canonical = [canonical_text(t) for t in texts]
    known = strings(sorted(set(texts) | set(canonical)))
    keys = table[part.key_column].combine_chunks()
    forms = sorted(set(canonical))
    return Release(table, keys, part.key_column, text, known, strings(forms), frozenset(forms))


@cache
def released_table(
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart,
    mirror: str | None,
    cache_dir: str | None,
) -> pyarrow.Table:
    """The released rows of one of the config's formats, split after split: its own rows'
    files (stacked), or the files of ``part``'s join, as the exact engine stacks them."""
    files = _released_files(spec, config, mirror, cache_dir)
    if part.join is None:
        return stack_tables([raw.table for split in files.values() for _, raw in split.sources])
    return stack_tables([split.joined[part.join.name].table for split in files.values()])


@cache
def _released_files(
    spec: DatasetSpec, config: ConfigSpec, mirror: str | None, cache_dir: str | None
) -> dict[str, SplitFiles]:
    """The config's released files of every format, fetched and read once."""
    return read_files(spec, config, fetch_released(spec, config, mirror, cache_dir))
