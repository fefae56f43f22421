"""Read, validate and transform one config's raw files: the path builds and ``validate`` share.

- :func:`read_files` reads each split's upstream file(s) with the one reader:
  its own rows' (several files of one format are stacked) and each join's;
- :func:`check_files` validates each format's files as one table (rules such
  as pairs may span files), then what each join promises, naming each row's
  own file and line;
- :func:`build_tables` joins each split's files and runs the config's
  vectorised transform per split (after validating the files unless told they
  need not be), then (for a config that re-splits its rows) the config's
  ``resplit`` over all splits;
- :func:`fetch_released` fetches a config's pinned files for the validator,
  through the same sources code the build uses.

Files are read as the schemas' generated layouts say (:mod:`hatemoji_datasets.building.layout`),
so reading imports no pandera; the pandera side (:mod:`hatemoji_datasets.schema`)
is imported only by the functions that validate.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import pyarrow

from hatemoji_datasets.building.joins import (
    attach,
    join_findings,
    stack_tables,
)
from hatemoji_datasets.building.layout import layout_of
from hatemoji_datasets.building.reader import RawTable, read_raw
from hatemoji_datasets.errors import SchemaViolationError
from hatemoji_datasets.findings import Finding, not_yet_reported
from hatemoji_datasets.sources.fetch import fetch
from hatemoji_datasets.sources.settings import mirror_setting
from hatemoji_datasets.spec import ConfigSpec, DatasetSpec, RawFormat

if TYPE_CHECKING:
    import pandas as pd

    from hatemoji_datasets.schema import Model

log = logging.getLogger("hatemoji_datasets")


def read_for(model: Model, path: str, fmt: RawFormat) -> RawTable:
    """Read a raw file as ``model`` expects it: its integer columns typed, its width enforced."""
    from hatemoji_datasets.schema import compiled, integer_columns

    return read_raw(path, fmt, integer_columns(model), max_columns=len(compiled(model).columns))


def read_by_layout(spec: DatasetSpec, reference: str, path: str, fmt: RawFormat) -> RawTable:
    """Read a raw file as :func:`read_for` reads it, from the schema's generated layout
    (``reference`` is ``"schema:Model"``), without importing the schema."""
    layout = layout_of(spec, reference)
    return read_raw(path, fmt, layout.integers, max_columns=len(layout.columns))


@dataclass
class SplitFiles:
    """The raw files one split is built from: its own rows' (stacked) and each join's."""

    #: ``(source, file)`` of the split's own rows, in the declared order.
    sources: list[tuple[str, RawTable]]
    #: Join name -> the file joined to these rows.
    joined: dict[str, RawTable] = field(default_factory=dict)

    @cached_property
    def table(self) -> pyarrow.Table:
        """The split's own rows, every file's one after the other."""
        return stack_tables([raw.table for _, raw in self.sources])

    @property
    def num_rows(self) -> int:
        return sum(raw.num_rows for _, raw in self.sources)

    @property
    def path(self) -> str:
        return ", ".join(raw.path for _, raw in self.sources)

    @cached_property
    def places(self) -> list[tuple[str, int]]:
        """``(file, line)`` of each row of :attr:`table` (read only when a finding asks)."""
        return [place for _, raw in self.sources for place in raw.places()]

    def place(self, position: int) -> tuple[str, int]:
        return self.places[position]


def read_files(
    spec: DatasetSpec, config: ConfigSpec, paths: Mapping[str, str]
) -> dict[str, SplitFiles]:
    """``{split: SplitFiles}`` for the config's files (``paths`` maps source name -> path)."""
    found = {}
    for split in config.split_names:
        own = [
            (source, read_by_layout(spec, config.schema, paths[source], config.raw_format))
            for source in config.split_sources(split)
        ]
        joined = {
            join.name: read_by_layout(
                spec, join.schema, paths[dict(join.splits)[split]], config.raw_format
            )
            for join in config.joins
        }
        found[split] = SplitFiles(own, joined)
    return found


def _check_tables(
    model: Model, files: list[tuple[str | None, str | None, RawTable]]
) -> list[Finding]:
    """One model over ``(split, source, file)`` files as one table (rules may span files).

    Each file's header is checked on its own first: stacking fills a column a
    file lacks, which must not hide that it is missing.
    """
    from hatemoji_datasets.schema import check_frame, column_findings

    structural = [
        finding
        for _, _, raw in files
        for finding in column_findings(model, raw.table.column_names, raw.path)
    ]
    if structural:
        return structural
    stacked = SplitFiles([(source, raw) for _, source, raw in files])
    frame = stacked_frame(files)
    log.info("validating %s", stacked.path)
    _, found = check_frame(model, frame, file=stacked.path, places=lambda: stacked.places)
    return found


def stacked_frame(files: list[tuple[str | None, str | None, RawTable]]) -> pd.DataFrame:
    """``(split, source, file)`` files as one frame, each row knowing its split and source."""
    from hatemoji_datasets.schema import with_row_sources, with_source_splits

    frame = stack_tables([raw.table for _, _, raw in files]).to_pandas()
    with_source_splits(frame, [(split, raw.num_rows) for split, _, raw in files])
    return with_row_sources(frame, [(source, raw.num_rows) for _, source, raw in files])


def check_files(
    spec: DatasetSpec, config: ConfigSpec, splits: Mapping[str, SplitFiles]
) -> list[Finding]:
    """Every finding of the config's schemas over its files (:func:`read_files`), and of
    its joins."""
    own = [(split, source, raw) for split, f in splits.items() for source, raw in f.sources]
    found = _check_tables(spec.load(config.schema), own)
    for join in config.joins:
        files = [(split, None, f.joined[join.name]) for split, f in splits.items()]
        found += _check_tables(spec.load(join.schema), files)
    unreported = not_yet_reported(found)
    for files in splits.values():
        for join in config.joins:
            partner = files.joined[join.name]
            joined = join_findings(
                files.table,
                files.place,
                partner.table,
                lambda position, partner=partner: (partner.path, partner.lines()[position]),
                join,
                rows_file=files.path,
                partner_file=partner.path,
            )
            found += [f for f in joined if unreported(f)]
    return found


def raise_for(findings: list[Finding]) -> None:
    errors = [f for f in findings if f.severity == "error"]
    if errors:
        raise SchemaViolationError(errors)


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
    :class:`~hatemoji_datasets.building.builder.HatemojiBuilder`).
    """
    files = read_files(spec, config, paths)
    if validate:
        raise_for(check_files(spec, config, files))
    transform = spec.load(config.transform)
    tables = {}
    for split, split_files in files.items():
        table = split_files.table
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


def download_manager(name: str, cache_dir: str | None):  # -> datasets.DownloadManager
    import datasets

    return datasets.DownloadManager(
        dataset_name=name,
        download_config=datasets.DownloadConfig(
            cache_dir=os.path.join(cache_dir, "downloads") if cache_dir else None
        ),
    )


def check_pinned(
    spec: DatasetSpec, config: ConfigSpec, mirror: str | None, cache_dir: str | None
) -> None:
    """Fetch and verify the config's pinned files and validate them against the schema.

    Raises SchemaViolationError with every finding if a file breaks it.
    """
    paths = fetch_released(spec, config, mirror, cache_dir)
    raise_for(check_files(spec, config, read_files(spec, config, paths)))


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
