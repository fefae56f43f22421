"""A built split's rows as Arrow: from the files ``datasets`` writes, or from a ``Dataset``."""

from __future__ import annotations

import glob
import os
from typing import TYPE_CHECKING

import pyarrow
import pyarrow.parquet as pq

if TYPE_CHECKING:
    import datasets


def split_table(dataset: datasets.Dataset) -> pyarrow.Table:
    """The rows of a split as one Arrow table, in order (a selection's indices applied)."""
    if dataset._indices is not None:
        return dataset.with_format("arrow")[:]
    return dataset.data.table


def split_files(folder: str | os.PathLike[str], dataset_name: str, split: str) -> list[str]:
    """The data files of ``split`` (one file, or shards ``-NNNNN-of-NNNNN``), Arrow or Parquet."""
    prefix = os.path.join(glob.escape(os.fspath(folder)), glob.escape(f"{dataset_name}-{split}"))
    for suffix in ("arrow", "parquet"):
        files = sorted(glob.glob(f"{prefix}.{suffix}")) or sorted(
            glob.glob(f"{prefix}-*-of-*.{suffix}")
        )
        if files:
            return files
    return []


def read_split(folder: str | os.PathLike[str], dataset_name: str, split: str) -> pyarrow.Table:
    """The rows of ``split`` as ``datasets`` wrote them into ``folder``."""
    files = split_files(folder, dataset_name, split)
    if not files:
        raise FileNotFoundError(f"no data files of split {split} in {folder}")
    if files[0].endswith(".parquet"):
        return pyarrow.concat_tables(pq.read_table(path) for path in files)
    tables = []
    for path in files:
        with pyarrow.memory_map(path) as source:
            tables.append(pyarrow.ipc.open_stream(source).read_all())
    return pyarrow.concat_tables(tables)
