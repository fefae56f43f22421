"""Build one config's tables: its raw files read and checked (:mod:`hatemoji_datasets.raw.files`),
joined, then the config's vectorised transform per split and, for a config that
re-splits its rows, its ``resplit`` over all splits; or check its pinned files alone,
fetched (:mod:`hatemoji_datasets.sources.fetch`) and read.
"""

from __future__ import annotations

from collections.abc import Mapping

import pyarrow

from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec
from hatemoji_datasets.raw.files import check_files, raise_for, read_files
from hatemoji_datasets.raw.joins import attach
from hatemoji_datasets.raw.positions import with_position_keys
from hatemoji_datasets.sources.fetch import fetch_released


def build_tables(
    spec: DatasetSpec,
    config: ConfigSpec,
    version: str,
    paths: Mapping[str, str],
    *,
    validate: bool = True,
) -> dict[str, pyarrow.Table]:
    """Transformed tables of the built dataset, ``{split: table}``, validated first.

    Raises SchemaViolationError with every finding if a file breaks the schema.
    ``validate=False`` skips the schemas and the joins' checks: only for files
    already validated byte for byte (see
    :class:`~hatemoji_datasets.building.builder.DeclaredBuilder`).
    """
    files = read_files(spec, config, paths)
    if validate:
        raise_for(check_files(spec, config, files))
    transform = spec.load(config.transform)
    tables = {}
    for split, split_files in files.items():
        table = split_files.table
        if config.by_position:
            table = with_position_keys(table, split_files.sources)
        for join in config.joins:
            table = attach(table, split_files.joined[join.name].table, join)
        tables[split] = transform(table, config, version)
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


def check_released(
    spec: DatasetSpec, config: ConfigSpec, mirror: str | None, cache_dir: str | None
) -> None:
    """Fetch and verify the config's pinned files and validate them against the schema.

    Raises SchemaViolationError with every finding if a file breaks it.
    """
    paths = fetch_released(spec, config, mirror, cache_dir)
    raise_for(check_files(spec, config, read_files(spec, config, paths)))
