"""Contribution validation: what is wrong with a proposed data file, before review.

A contributed file is read by the one raw reader and checked in the dataset's
upstream format by the same declaration and schema the build uses, plus the
release rules (:mod:`hatemoji_datasets.release_rules`). Every input is checked
before anything is fetched: a file that is missing, special, or a symlink out
of the working tree is refused unread.

Cross-row rules (HatemojiBuild's pairs) need a row's partner, which may be
released rather than in the file; so released rows the file does not
contain are added as context, and only findings in the file are reported.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

import pandas as pd
import pyarrow

from hatemoji_datasets import sources
from hatemoji_datasets.errors import InputError
from hatemoji_datasets.findings import Finding, finding_order
from hatemoji_datasets.joins import join_findings, stack_frames, stack_tables
from hatemoji_datasets.pipeline import (
    fetch_released,
    read_files,
    read_for,
    row_sources,
    source_splits,
    split_runs,
    with_row_sources,
    with_source_splits,
)
from hatemoji_datasets.reader import RawTable, check_regular_file, unreadable
from hatemoji_datasets.registry import resolve
from hatemoji_datasets.release_rules import (
    ContributedRows,
    changed_rows,
    member,
    missing_rows,
    repeated_texts,
    text_rules,
)
from hatemoji_datasets.schema import check_frame, column_findings, compiled
from hatemoji_datasets.spec import ConfigSpec, DatasetSpec, RawPart

#: JSON report format version; bump on any incompatible change.
REPORT_FORMAT = 1


@dataclass(frozen=True)
class Options:
    allow_changes: bool = False
    full: bool = False
    strict: bool = False


@dataclass
class Report:
    """Every finding for a set of files, in a stable order."""

    files: list[str]
    findings: list[Finding] = field(default_factory=list)
    strict: bool = False

    def severity(self, finding: Finding) -> str:
        return "error" if finding.severity == "error" or self.strict else "warning"

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if self.severity(f) == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if self.severity(f) == "warning"]

    @property
    def unreadable(self) -> list[Finding]:
        return [f for f in self.findings if f.unreadable]

    @property
    def exit_code(self) -> int:
        if self.unreadable:
            return 2
        return 1 if self.errors else 0


def check_input(path: str, root: Path | None = None) -> None:
    """Refuse, unread, anything but a regular file inside the working tree.

    A symlink may point anywhere in the tree, but not out of it: in a pull
    request, a link to a secret would otherwise print its first line.
    """
    root = (root or Path.cwd()).resolve()
    if os.path.islink(path) or any(p.is_symlink() for p in Path(path).parents):
        target = Path(path).resolve()
        if not target.is_relative_to(root):
            raise unreadable(path, "FILE-OUTSIDE-TREE", f"symlink resolves outside {root}")
    check_regular_file(path)


def validate_contributions(
    paths: Sequence[str | os.PathLike[str]],
    dataset: str,
    config: str | None = None,
    *,
    options: Options = Options(),  # noqa: B008 - frozen, never mutated
    mirror: str | None = None,
    cache_dir: str | None = None,
) -> Report:
    """Check each file against the dataset's schema and the released data."""
    spec, config_spec, _ = resolve(dataset, config)
    mirror = sources.mirror_setting(mirror)
    report = Report(files=[os.fspath(p) for p in paths], strict=options.strict)
    readable: dict[str, tuple[RawPart, RawTable] | pd.DataFrame] = {}
    for name in report.files:
        try:
            check_input(name)
            readable[name] = _read(name, spec, config_spec)
        except InputError as error:
            report.findings.append(error.finding)
    if not readable:
        return report  # nothing to compare: fetch nothing
    # Keys seen per format (each raw file format, built Parquet), each with its own release.
    seen: dict[RawPart | str, list[pd.Series]] = {}
    raw_files: dict[RawPart, list[RawTable]] = {}
    for name, contribution in readable.items():
        if isinstance(contribution, tuple):
            part, raw = contribution
            released = released_rows(spec, config_spec, mirror, cache_dir, part)
            report.findings += _check_raw(raw, spec, config_spec, part, released, options)
            raw_files.setdefault(part, []).append(raw)
            if part.key_column in raw.table.column_names:
                seen.setdefault(part, []).append(raw.table[part.key_column].to_pandas())
        else:
            report.findings += _check_built(
                name, contribution, spec, config_spec, mirror, cache_dir, options
            )
            if _built_key(config_spec) in contribution.columns:
                seen.setdefault(BUILT, []).append(contribution[_built_key(config_spec)])
    report.findings += _join_findings(spec, config_spec, raw_files, report, mirror, cache_dir)
    if options.full and not report.unreadable:
        # Together the files claim to be the whole dataset: name every lost row.
        # (Without a key column anywhere, the schema has already said so.)
        for kind, keys in seen.items():
            if kind == BUILT:
                key = _built_key(config_spec)
                released_keys = _built_release(spec, config_spec, mirror, cache_dir)[0][key]
            else:
                key = kind.key_column
                released_keys = released_rows(spec, config_spec, mirror, cache_dir, kind)[key]
            report.findings += missing_rows(report.files, key, released_keys, pd.concat(keys))
    report.findings.sort(key=finding_order)
    return report


#: ``seen`` key of the keys read from built (Parquet) files.
BUILT = "built"


def _read(
    name: str, spec: DatasetSpec, config: ConfigSpec
) -> tuple[RawPart, RawTable] | pd.DataFrame:
    if name.endswith(".parquet"):  # the built format, checked against the built release
        from hatemoji_datasets.built_format import read_parquet

        return read_parquet(name)
    first = config.parts[0]
    raw = read_for(spec.resolve(first.schema), name, config.raw_format)
    part = _part_of(name, raw.table.column_names, spec, config)
    if part is not first:  # read again as that format's schema types it
        raw = read_for(spec.resolve(part.schema), name, config.raw_format)
    return part, raw


def _upstream_name(spec: DatasetSpec, source: str) -> str:
    return unquote(PurePosixPath(urlsplit(spec.source_files()[source].url).path).name)


def _part_of(path: str, header: list[str], spec: DatasetSpec, config: ConfigSpec) -> RawPart:
    """Which of the config's file formats a contributed file is written in.

    A file named like one of the config's upstream files is in that file's format;
    any other is in the format whose columns its header matches best (ties: the
    config's own rows).
    """
    parts = config.parts
    if len(parts) == 1:
        return parts[0]
    name = Path(path).name
    for part in parts:
        if any(_upstream_name(spec, source) == name for source in part.sources):
            return part
    columns = set(header)

    def overlap(part: RawPart) -> tuple[bool, int]:
        expected = set(compiled(spec.resolve(part.schema)).columns)
        return expected == columns, len(expected & columns)

    return max(parts, key=overlap)  # max keeps the first of equals


def _source_of(path: str, spec: DatasetSpec, part: RawPart) -> str | None:
    """The pinned source a contributed file stands for: the format's only one, or the
    one whose upstream file has its name (None when neither tells)."""
    if len(part.sources) == 1:
        return part.sources[0]
    name = Path(path).name
    return next((s for s in part.sources if _upstream_name(spec, s) == name), None)


def _built_key(config: ConfigSpec) -> str:
    """The built column that identifies a row: its id, or its text."""
    return config.id_column or "text"


@cache
def released_rows(
    spec: DatasetSpec,
    config: ConfigSpec,
    mirror: str | None,
    cache_dir: str | None,
    part: RawPart | None = None,
) -> pd.DataFrame:
    """The released rows of one of the config's formats (its own rows' by default), in
    upstream format, each knowing its split and source (cached)."""
    part = part or config.parts[0]
    paths = fetch_released(spec, config, mirror, cache_dir)
    files = read_files(spec, config, paths)
    if part.join is None:
        listed = [(split, source, raw) for split, f in files.items() for source, raw in f.sources]
    else:
        sources = dict(part.join.splits)
        listed = [(split, sources[split], f.joined[part.join.name]) for split, f in files.items()]
    frame = stack_tables([raw.table for _, _, raw in listed]).to_pandas()
    with_row_sources(frame, [(source, raw.num_rows) for _, source, raw in listed])
    return with_source_splits(frame, [(split, raw.num_rows) for split, _, raw in listed])


def _check_raw(
    raw: RawTable,
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart,
    released: pd.DataFrame,
    options: Options,
) -> list[Finding]:
    frame = raw.table.to_pandas()
    key, text = part.key_column, config.text_column
    model = spec.resolve(part.schema)
    if text not in compiled(model).columns:
        text = key  # a format without the text: rows are compared, no text rules apply
    if key not in frame.columns or text not in frame.columns:
        # The schema names the missing columns; the release rules need these two.
        return check_frame(model, frame, file=raw.path, places=raw.places)[1]
    rows = ContributedRows(
        raw.path,
        frame,
        key,
        text,
        released,
        lambda position: raw.lines()[position],
        member(frame[key], released[key]),
    )
    severity = "warning" if options.allow_changes else "error"
    # The schema and the release rules are independent and mostly run inside
    # pyarrow, which releases the GIL: on two cores they overlap.
    with ThreadPoolExecutor(max_workers=1) as pool:
        release_rules = pool.submit(
            lambda: [*changed_rows(rows, severity), *repeated_texts(rows), *text_rules(rows)]
        )
        schema_findings = _schema_findings(raw, frame, spec, config, part, rows)
        return [*schema_findings, *_not_owned(release_rules.result(), schema_findings, key)]


def _not_owned(found: list[Finding], schema_findings: list[Finding], key: str) -> list[Finding]:
    """Release findings the schema has not already made (one problem, one finding).

    A cell the schema rejects is not also "changed"; a row whose key the schema
    rejects has no identity to compare with the release.
    """
    cells = {(f.line, f.column) for f in schema_findings}
    bad_keys = {f.line for f in schema_findings if f.column == key}
    return [f for f in found if (f.line, f.column) not in cells and f.line not in bad_keys]


def _schema_findings(
    raw: RawTable,
    frame: pd.DataFrame,
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart,
    rows: ContributedRows,
) -> list[Finding]:
    """The format's schema over the file (plus released context rows, for cross-row rules)."""
    model = spec.resolve(part.schema)
    structural = column_findings(model, frame.columns, raw.path)
    if structural:  # before context rows could fill in what the file lacks
        return structural
    runs = (
        split_runs(spec.resolve(config.split_of_file)(raw.path, frame))
        if config.split_of_file and part.join is None
        else [(None, len(frame))]
    )
    source_runs = [(_source_of(raw.path, spec, part), len(frame))]
    context_rows = 0
    if config.cross_row_rules:
        key = part.key_column
        context = rows.released[~member(rows.released[key], frame[key])]
        context_rows = len(context)
        released_splits = source_splits(rows.released)
        if released_splits is not None:
            runs += split_runs(released_splits[context.index])
        released_sources = row_sources(rows.released)
        if released_sources is not None:
            source_runs += split_runs(released_sources[context.index])
        frame = stack_frames([frame, context])
    with_source_splits(frame, runs)
    with_row_sources(frame, source_runs)

    def places() -> list[tuple[str, int]]:
        return raw.places() + [("", 0)] * context_rows

    _, found = check_frame(model, frame, file=raw.path, places=places)
    # Findings located on context rows are the released data's, not this file's.
    return [f for f in found if f.file == raw.path]


def _join_findings(
    spec: DatasetSpec,
    config: ConfigSpec,
    contributed: dict[RawPart, list[RawTable]],
    report: Report,
    mirror: str | None,
    cache_dir: str | None,
) -> list[Finding]:
    """What each join promises between the contributed files and the other side.

    The other side is the contributed files of that format, or else the released
    ones; only findings in contributed files are kept, and none on a cell another
    rule has already reported.
    """
    own = config.parts[0]
    reported = {(f.file, f.line, f.column) for f in report.findings}
    # A row whose key another rule rejected (repeated, untyped) has no identity to join by.
    bad_keys = {(f.file, f.line) for f in report.findings if f.column in _key_columns(config)}
    found: list[Finding] = []
    for part in config.parts[1:]:
        if own not in contributed and part not in contributed:
            continue
        rows, rows_place, rows_file = _side(spec, config, own, contributed, mirror, cache_dir)
        partner, partner_place, partner_file = _side(
            spec, config, part, contributed, mirror, cache_dir
        )
        assert part.join is not None
        found += [
            f
            for f in join_findings(
                rows,
                rows_place,
                partner,
                partner_place,
                part.join,
                rows_file=rows_file,
                partner_file=partner_file,
            )
            if f.file
            and (f.file, f.line, f.column) not in reported
            and (f.file, f.line) not in bad_keys
        ]
    return found


def _key_columns(config: ConfigSpec) -> set[str]:
    return {part.key_column for part in config.parts}


def _side(
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart,
    contributed: dict[RawPart, list[RawTable]],
    mirror: str | None,
    cache_dir: str | None,
):
    """One side of a join: the contributed files of ``part``, or else its released rows."""
    if part in contributed:
        files = contributed[part]
        places = [place for raw in files for place in raw.places()]
        table = stack_tables([raw.table for raw in files])
        return table, places.__getitem__, ", ".join(raw.path for raw in files)
    released = released_rows(spec, config, mirror, cache_dir, part)
    table = pyarrow.Table.from_pandas(released, preserve_index=False)
    return table, lambda position: ("", 0), "the released files"


def _check_built(
    name: str,
    frame: pd.DataFrame,
    spec: DatasetSpec,
    config: ConfigSpec,
    mirror: str | None,
    cache_dir: str | None,
    options: Options,
) -> list[Finding]:
    from hatemoji_datasets.built_format import features_schema

    released, features = _built_release(spec, config, mirror, cache_dir)
    schema = features_schema(spec.name, features, config.id_column)

    def places() -> list[tuple[str, int]]:  # Parquet has no lines: a row's 1-based position
        return [(name, position + 1) for position in range(len(frame))]

    _, found = check_frame(schema, frame, file=name, places=places)
    key = _built_key(config)
    if key not in frame.columns or "text" not in frame.columns:
        return found
    rows = ContributedRows(
        name, frame, key, "text", released, lambda p: p + 1, member(frame[key], released[key])
    )
    severity = "warning" if options.allow_changes else "error"
    release = [*changed_rows(rows, severity), *repeated_texts(rows), *text_rules(rows)]
    return [*found, *_not_owned(release, found, key)]


@cache
def _built_release(
    spec: DatasetSpec, config: ConfigSpec, mirror: str | None, cache_dir: str | None
):
    from hatemoji_datasets.api import load_dataset

    released = load_dataset(spec.name, config.name, cache_dir=cache_dir, mirror=mirror)
    features = next(iter(released.values())).features
    frame = pd.concat([split.to_pandas() for split in released.values()], ignore_index=True)
    return frame, features
