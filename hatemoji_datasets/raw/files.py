"""Read and check one config's raw files: the layer builds and ``validate`` share.

- :func:`read_files` reads each split's upstream file(s) with the one reader
  (:mod:`hatemoji_datasets.raw.reader`): its own rows' (several files of one
  format are stacked) and each join's;
- :func:`check_files` validates each format's files as one table (rules such
  as pairs may span files), then what each join promises, naming each row's
  own file and line.

Reading only reads: the files are fetched by :mod:`hatemoji_datasets.sources`.

Files are read as the schemas' generated raw columns say
(:mod:`hatemoji_datasets.schema.raw_columns`), so reading imports no pandera;
the engine (:mod:`hatemoji_datasets.schema.engine`) is imported only by the
functions that validate.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import pyarrow

from hatemoji_datasets.core.errors import SchemaViolationError
from hatemoji_datasets.core.findings import Finding, not_yet_reported
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, RawFormat
from hatemoji_datasets.raw.joins import join_findings, stack_tables
from hatemoji_datasets.raw.plan_checks import tables_keep_plan
from hatemoji_datasets.raw.reader import RawTable, read_raw
from hatemoji_datasets.schema.raw_columns import layout_of

if TYPE_CHECKING:
    import pandas as pd

    from hatemoji_datasets.schema.model import Model

log = logging.getLogger("hatemoji_datasets")


def read_for(model: Model, path: str, fmt: RawFormat) -> RawTable:
    """Read a raw file as ``model`` expects it: its integer columns typed, its width enforced."""
    from hatemoji_datasets.schema.engine import compiled, integer_columns

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
    from hatemoji_datasets.schema.engine import check_frame, column_findings

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
    from hatemoji_datasets.schema.model import with_row_sources, with_source_splits

    frame = stack_tables([raw.table for _, _, raw in files]).to_pandas()
    with_source_splits(frame, [(split, raw.num_rows) for split, _, raw in files])
    return with_row_sources(frame, [(source, raw.num_rows) for _, source, raw in files])


def check_files(
    spec: DatasetSpec, config: ConfigSpec, splits: Mapping[str, SplitFiles]
) -> list[Finding]:
    """Every finding of the config's schemas over its files (:func:`read_files`), and of
    its joins.

    The schema's compiled plan runs first where it stands for every check
    (:mod:`hatemoji_datasets.raw.plan_checks`): files it passes have no finding, and
    pandera is not imported. Any other file is checked, and its findings named, by the
    exact engine.
    """
    own = [(split, source, raw) for split, f in splits.items() for source, raw in f.sources]
    if splits_keep_plan(spec, config, splits):
        log.info("validated %s by the schemas' compiled plans", ", ".join(r.path for *_, r in own))
        return []
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


def splits_keep_plan(
    spec: DatasetSpec, config: ConfigSpec, splits: Mapping[str, SplitFiles]
) -> bool:
    """Whether every file of the config keeps its format's plan and every join keeps its
    promises (then the exact engine would find nothing)."""
    own = [(split, source, raw.table) for split, f in splits.items() for source, raw in f.sources]
    if not tables_keep_plan(spec, config, own):
        return False
    for part in config.parts[1:]:
        assert part.join is not None
        name = part.join.name
        joined = [(split, None, f.joined[name].table) for split, f in splits.items()]
        if not tables_keep_plan(spec, config, joined, part):
            return False
    # The joins' own checks read a few columns of files the plans passed (no pandera).
    return not any(
        join_findings(
            f.table,
            _nowhere,
            f.joined[join.name].table,
            _nowhere,
            join,
            rows_file=f.path,
            partner_file=f.joined[join.name].path,
        )
        for f in splits.values()
        for join in config.joins
    )


def _nowhere(position: int) -> tuple[str, int]:
    """A row's place when only whether a finding exists matters (no lines are read)."""
    return "", position


def raise_for(findings: list[Finding]) -> None:
    errors = [f for f in findings if f.severity == "error"]
    if errors:
        raise SchemaViolationError(errors)
