"""Contribution validation: what is wrong with a proposed data file, before review.

A contributed file is read by the one raw reader and checked in the dataset's
upstream format by the same declaration and schema the build uses, plus the
release rules (:mod:`hatemoji_datasets.validate.release_rules`). Every input is checked
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
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pandas as pd

from hatemoji_datasets.building.pipeline import check_files, fetch_released, read_files, read_for
from hatemoji_datasets.building.reader import RawTable
from hatemoji_datasets.errors import InputError
from hatemoji_datasets.file_io import check_regular_file, unreadable
from hatemoji_datasets.findings import Finding, finding_order
from hatemoji_datasets.registry import lookup
from hatemoji_datasets.schema import check_frame, source_splits, split_runs, with_source_splits
from hatemoji_datasets.sources.settings import mirror_setting
from hatemoji_datasets.spec import ConfigSpec, DatasetSpec
from hatemoji_datasets.validate.release_rules import (
    ContributedRows,
    changed_rows,
    member,
    missing_rows,
    repeated_texts,
    text_rules,
)
from hatemoji_datasets.validate.report import ValidationReport


@dataclass(frozen=True)
class Options:
    allow_changes: bool = False
    full: bool = False
    strict: bool = False


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
) -> ValidationReport:
    """Check each file against the dataset's schema and the released data."""
    spec, config_spec, _ = lookup(dataset, config)
    mirror = mirror_setting(mirror)
    report = ValidationReport(files=[os.fspath(p) for p in paths], strict=options.strict)
    readable: dict[str, RawTable | pd.DataFrame] = {}
    for name in report.files:
        try:
            check_input(name)
            readable[name] = _read(name, spec, config_spec)
        except InputError as error:
            report.findings.append(error.finding)
    if not readable:
        return report  # nothing to compare: fetch nothing
    # Keys seen per format (upstream CSV/TSV, built Parquet), each with its own release.
    seen: dict[str, list[pd.Series]] = {"raw": [], "built": []}
    for name, contribution in readable.items():
        if isinstance(contribution, RawTable):
            released = released_rows(spec, config_spec, mirror, cache_dir)
            report.findings += _check_raw(contribution, spec, config_spec, released, options)
            if config_spec.key_column in contribution.table.column_names:
                seen["raw"].append(contribution.table[config_spec.key_column].to_pandas())
        else:
            report.findings += _check_built(
                name, contribution, spec, config_spec, mirror, cache_dir, options
            )
            if _built_key(config_spec) in contribution.columns:
                seen["built"].append(contribution[_built_key(config_spec)])
    if options.full and not report.unreadable:
        # Together the files claim to be the whole dataset: name every lost row.
        # (Without a key column anywhere, the schema has already said so.)
        for kind, keys in seen.items():
            if not keys:
                continue
            if kind == "raw":
                key = config_spec.key_column
                released_keys = released_rows(spec, config_spec, mirror, cache_dir)[key]
            else:
                key = _built_key(config_spec)
                released_keys = _built_release(spec, config_spec, mirror, cache_dir)[0][key]
            report.findings += missing_rows(report.files, key, released_keys, pd.concat(keys))
    report.findings.sort(key=finding_order)
    return report


def _read(name: str, spec: DatasetSpec, config: ConfigSpec) -> RawTable | pd.DataFrame:
    if name.endswith(".parquet"):  # the built format, checked against the built release
        from hatemoji_datasets.validate.built_format import read_parquet

        return read_parquet(name)
    return read_for(spec.load(config.schema), name, config.raw_format)


def _built_key(config: ConfigSpec) -> str:
    """The built column that identifies a row: its id, or its text."""
    return config.id_column or "text"


@cache
def released_rows(
    spec: DatasetSpec, config: ConfigSpec, mirror: str | None, cache_dir: str | None
) -> pd.DataFrame:
    """The released rows in upstream format, each knowing its split's file (cached)."""
    raws = read_files(spec, config, fetch_released(spec, config, mirror, cache_dir))
    frame = pd.concat([raw.table.to_pandas() for raw in raws.values()], ignore_index=True)
    return with_source_splits(frame, [(split, raw.num_rows) for split, raw in raws.items()])


def _check_raw(
    raw: RawTable,
    spec: DatasetSpec,
    config: ConfigSpec,
    released: pd.DataFrame,
    options: Options,
) -> list[Finding]:
    frame = raw.table.to_pandas()
    key, text = config.key_column, config.text_column
    if key not in frame.columns or text not in frame.columns:
        # The schema names the missing columns; the release rules need these two.
        return check_files(spec, config, {"contribution": raw})
    rows = ContributedRows(
        raw.path,
        frame,
        key,
        text,
        released,
        lambda position: raw.lines()[position],
        member(frame[key], released[key]),
    )
    # The schema and the release rules are independent and mostly run inside
    # pyarrow, which releases the GIL: on two cores they overlap.
    with ThreadPoolExecutor(max_workers=1) as pool:
        release_findings = pool.submit(_release_findings, rows, options)
        schema_findings = _schema_findings(raw, frame, spec, config, rows)
        return [*schema_findings, *_not_owned(release_findings.result(), schema_findings, key)]


def _release_findings(rows: ContributedRows, options: Options) -> list[Finding]:
    """The release rules over a contributed file: changed rows, repeated texts, new text."""
    severity = "warning" if options.allow_changes else "error"
    return [*changed_rows(rows, severity), *repeated_texts(rows), *text_rules(rows)]


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
    rows: ContributedRows,
) -> list[Finding]:
    """The dataset schema over the file (plus released context rows, for cross-row rules)."""
    runs = (
        split_runs(spec.load(config.split_of_file)(raw.path, frame))
        if config.split_of_file
        else [(None, len(frame))]
    )
    context_rows = 0
    if config.cross_row_rules:
        context = rows.released[~member(rows.released[config.key_column], frame[config.key_column])]
        context_rows = len(context)
        released_splits = source_splits(rows.released)
        if released_splits is not None:
            runs += split_runs(released_splits[context.index])
        frame = pd.concat([frame, context], ignore_index=True)
    with_source_splits(frame, runs)

    def places() -> list[tuple[str, int]]:
        return raw.places() + [("", 0)] * context_rows

    _, found = check_frame(spec.load(config.schema), frame, file=raw.path, places=places)
    # Findings located on context rows are the released data's, not this file's.
    return [f for f in found if f.file == raw.path]


def _check_built(
    name: str,
    frame: pd.DataFrame,
    spec: DatasetSpec,
    config: ConfigSpec,
    mirror: str | None,
    cache_dir: str | None,
    options: Options,
) -> list[Finding]:
    from hatemoji_datasets.validate.built_format import features_schema

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
    return [*found, *_not_owned(_release_findings(rows, options), found, key)]


@cache
def _built_release(
    spec: DatasetSpec, config: ConfigSpec, mirror: str | None, cache_dir: str | None
):
    from hatemoji_datasets.building.prepare import load_verified

    _, released = load_verified(spec, config, spec.version, cache_dir=cache_dir, mirror=mirror)
    features = next(iter(released.values())).features
    frame = pd.concat([split.to_pandas() for split in released.values()], ignore_index=True)
    return frame, features
