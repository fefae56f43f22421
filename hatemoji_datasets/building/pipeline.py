"""Read, validate and transform one config's raw files: the path builds and ``validate`` share.

- :func:`read_files` reads each split's upstream file with the one reader;
- :func:`check_files` validates them as one table (rules such as pairs may
  span files), naming each row's own file and line;
- :func:`build_tables` runs the config's vectorised transform per split, then
  (for a config that re-splits its rows) the config's ``resplit`` over all splits;
- :func:`fetch_released` fetches a config's pinned files for the validator,
  through the same sources code the build uses.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

import pandas as pd
import pyarrow

from hatemoji_datasets.building.reader import RawTable, read_raw
from hatemoji_datasets.errors import SchemaViolationError
from hatemoji_datasets.findings import Finding
from hatemoji_datasets.schema import (
    Model,
    check_frame,
    compiled,
    integer_columns,
    with_source_splits,
)
from hatemoji_datasets.sources.fetch import fetch
from hatemoji_datasets.sources.settings import mirror_setting
from hatemoji_datasets.spec import ConfigSpec, DatasetSpec, RawFormat

log = logging.getLogger("hatemoji_datasets")


def read_for(model: Model, path: str, fmt: RawFormat) -> RawTable:
    """Read a raw file as ``model`` expects it: its integer columns typed, its width enforced."""
    return read_raw(path, fmt, integer_columns(model), max_columns=len(compiled(model).columns))


def read_files(
    spec: DatasetSpec, config: ConfigSpec, paths: Mapping[str, str]
) -> dict[str, RawTable]:
    """``{split: RawTable}`` for the config's files (``paths`` maps source name -> path)."""
    model = spec.load(config.schema)
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
    _, found = check_frame(spec.load(config.schema), frame, file=file, places=places)
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
    transform = spec.load(config.transform)
    tables = {split: transform(raw.table, config, version) for split, raw in raws.items()}
    return resplit_tables(spec, config, version, tables)


def resplit_tables(
    spec: DatasetSpec, config: ConfigSpec, version: str, tables: dict[str, pyarrow.Table]
) -> dict[str, pyarrow.Table]:
    """The transformed tables regrouped by the config's ``resplit`` (as they are without one)."""
    if config.resplit is None:
        return tables
    regrouped = spec.load(config.resplit)(tables, config, version)
    if list(regrouped) != config.split_names:
        raise ValueError(
            f"{spec.name}/{config.name}: resplit returned splits {list(regrouped)}, "
            f"not the declared {config.split_names}"
        )
    return regrouped


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
    mirror = mirror_setting(mirror)
    if mirror and "://" not in mirror:
        return fetch(pinned, None, mirror)  # read in place: no download manager
    return fetch(pinned, download_manager(spec.name, cache_dir), mirror)
