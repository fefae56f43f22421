"""Read, validate and transform one config's raw files: the path builds and ``validate`` share.

- :func:`read_files` reads each split's upstream file with the one reader;
- :func:`check_files` validates them as one table (rules such as pairs may
  span files), naming each row's own file and line;
- :func:`build_tables` runs the config's vectorised transform per split;
- :func:`fetch_released` fetches a config's pinned files for the validator,
  through the same sources code the build uses.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

import numpy as np
import pandas as pd
import pyarrow

from hatemoji_datasets import sources
from hatemoji_datasets.errors import SchemaViolationError
from hatemoji_datasets.findings import Finding
from hatemoji_datasets.reader import RawTable, read_raw
from hatemoji_datasets.schema import Model, check_frame, compiled, integer_columns
from hatemoji_datasets.spec import ConfigSpec, DatasetSpec, RawFormat

log = logging.getLogger("hatemoji_datasets")

#: ``DataFrame.attrs`` key: which split's file each row came from, as run lengths
#: ``((split, rows), ...)`` (small, so pandas copies it cheaply), for rules that
#: compare a row with its file.
SOURCE_SPLITS = "source_splits"


def source_splits(frame: pd.DataFrame) -> pd.Series | None:
    """The split each row of ``frame`` was read from, if the reader recorded it."""
    runs = frame.attrs.get(SOURCE_SPLITS)
    if runs is None:
        return None
    names = [name for name, _ in runs]
    values = np.repeat(np.array(names, dtype=object), [n for _, n in runs])
    return pd.Series(values, index=frame.index)


def split_runs(splits: pd.Series) -> list[tuple[str | None, int]]:
    """Per-row split names as ``[(split, rows), ...]`` runs (missing names are None)."""
    values = pd.Series(splits, dtype=object).fillna("").astype(str).to_numpy()
    if len(values) == 0:
        return []
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    lengths = np.diff(np.append(starts, len(values)))
    return [(values[start] or None, int(n)) for start, n in zip(starts, lengths, strict=True)]


def with_source_splits(frame: pd.DataFrame, runs: list[tuple[str | None, int]]) -> pd.DataFrame:
    """Record which split's file each row of ``frame`` came from, as ``(split, rows)`` runs."""
    frame.attrs[SOURCE_SPLITS] = tuple(runs)
    return frame


def read_for(model: Model, path: str, fmt: RawFormat) -> RawTable:
    """Read a raw file as ``model`` expects it: its integer columns typed, its width enforced."""
    return read_raw(path, fmt, integer_columns(model), max_columns=len(compiled(model).columns))


def read_files(
    spec: DatasetSpec, config: ConfigSpec, paths: Mapping[str, str]
) -> dict[str, RawTable]:
    """``{split: RawTable}`` for the config's files (``paths`` maps source name -> path)."""
    model = spec.resolve(config.schema)
    return {
        split: read_for(model, paths[source], config.raw_format) for split, source in config.splits
    }


def check_files(
    spec: DatasetSpec, config: ConfigSpec, raws: Mapping[str, RawTable]
) -> list[Finding]:
    """Every finding of the config's schema over its files, as one table."""
    frames = [raw.table.to_pandas() for raw in raws.values()]
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    with_source_splits(frame, [(split, raw.num_rows) for split, raw in raws.items()])
    log.info("validating %s", ", ".join(raw.path for raw in raws.values()))

    def places() -> list[tuple[str, int]]:
        return [place for raw in raws.values() for place in raw.places()]

    file = ", ".join(raw.path for raw in raws.values())
    _, found = check_frame(spec.resolve(config.schema), frame, file=file, places=places)
    return found


def check_file(model: Model, path: str, fmt: RawFormat) -> list[Finding]:
    """Every finding of one raw file against one schema (cross-file rules see only it)."""
    raw = read_for(model, path, fmt)
    _, found = check_frame(model, raw.table.to_pandas(), file=raw.path, places=raw.places)
    return found


def raise_for(findings: list[Finding]) -> None:
    errors = [f for f in findings if f.severity == "error"]
    if errors:
        raise SchemaViolationError(errors)


def build_tables(
    spec: DatasetSpec, config: ConfigSpec, version: str, paths: Mapping[str, str]
) -> dict[str, pyarrow.Table]:
    """Validated, transformed tables of the built dataset, ``{split: table}``.

    Raises SchemaViolationError with every finding if a file breaks the schema.
    """
    raws = read_files(spec, config, paths)
    raise_for(check_files(spec, config, raws))
    transform = spec.resolve(config.transform)
    return {split: transform(raw.table, config, version) for split, raw in raws.items()}


def download_manager(name: str, cache_dir: str | None):  # -> datasets.DownloadManager
    import datasets

    return datasets.DownloadManager(
        dataset_name=name,
        download_config=datasets.DownloadConfig(
            cache_dir=os.path.join(cache_dir, "downloads") if cache_dir else None
        ),
    )


def fetch_released(
    spec: DatasetSpec, config: ConfigSpec, mirror: str | None, cache_dir: str | None
) -> dict[str, str]:
    """The config's pinned upstream files, fetched and verified: ``{source: path}``.

    A local mirror is read in place, without importing ``datasets``.
    """
    pinned = spec.config_sources(config)
    mirror = sources.mirror_setting(mirror)
    if mirror and "://" not in mirror:
        return sources.fetch(pinned, None, mirror)  # read in place: no download manager
    return sources.fetch(pinned, download_manager(spec.name, cache_dir), mirror)
