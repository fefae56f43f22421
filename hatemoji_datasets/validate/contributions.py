"""Contribution validation: what is wrong with a proposed data file, before review.

A contributed file is read by the one raw reader and checked in the dataset's
upstream format by the same declaration and schema the build uses, plus the
release rules (:mod:`hatemoji_datasets.validate.release_rules`). Every input is checked
before anything is fetched: a file that is missing, special, or a symlink out
of the working tree is refused unread.

Cross-row rules (HatemojiBuild's pairs) need a row's partner, which may be
released rather than in the file; so released rows the file does not
contain are added as context, and only findings in the file are reported.

A config that reads files of several formats (rows and their annotations)
checks each contributed file in its own format (:mod:`.formats`), and what the
joins between the formats promise (:mod:`.joined`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from hatemoji_datasets.core.columns import TEXT_COLUMN
from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.file_reads import check_regular_file, unreadable
from hatemoji_datasets.core.findings import Finding, finding_order, not_yet_reported
from hatemoji_datasets.core.progress import step
from hatemoji_datasets.core.registry import lookup
from hatemoji_datasets.core.spec import ROW_ID, ConfigSpec, DatasetSpec, RawPart
from hatemoji_datasets.raw.files import SplitFiles, read_by_layout, read_files, stacked_frame
from hatemoji_datasets.raw.positions import file_keys
from hatemoji_datasets.raw.reader import RawTable
from hatemoji_datasets.sources.fetch import fetch_released
from hatemoji_datasets.sources.settings import mirror_setting
from hatemoji_datasets.validate.formats import (
    format_hints,
    part_hints,
    part_of,
    source_of,
    split_of,
)
from hatemoji_datasets.validate.report import ValidationReport

if TYPE_CHECKING:
    import pandas as pd

    from hatemoji_datasets.validate.release_rules import ContributedRows


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
    if _screened(report, spec, config_spec, options, mirror, cache_dir):
        return report
    readable: dict[str, tuple[RawPart, RawTable] | pd.DataFrame] = {}
    with ThreadPoolExecutor(max_workers=1) as preload:
        # What checks (pandas, pandera, the schema modules, emoji: a few tenths of a
        # second of imports) loads while the files are read: pyarrow parses them
        # without holding the GIL.
        loading = preload.submit(_load_checkers, spec, config_spec)
        for name in report.files:
            try:
                check_input(name)
                readable[name] = _read(name, spec, config_spec, loading)
            except InputError as error:
                report.findings.append(error.finding)
        loading.result()
    if not readable:
        return report  # nothing to compare: fetch nothing
    import pandas as pd

    from hatemoji_datasets.validate.across_files import (
        KeyedFile,
        other_source_findings,
        repeated_keys,
    )
    from hatemoji_datasets.validate.joined import contribution_join_findings
    from hatemoji_datasets.validate.release_rules import missing_rows

    # Keys seen per format (each upstream format, built Parquet), each with its own release.
    seen: dict[RawPart | str, list[KeyedFile]] = {}
    raw_files: dict[RawPart, list[RawTable]] = {}
    for name, contribution in readable.items():
        if isinstance(contribution, tuple):
            part, raw = contribution
            report.findings += other_source_findings(raw.path, spec, config_spec, part)
            released = released_rows(spec, config_spec, mirror, cache_dir, part)
            with step(f"checking {name} ({raw.num_rows:,} rows)"):
                found = _check_raw(raw, spec, config_spec, part, released, options)
            report.findings += found
            if any(f.code in ("COLUMN-MISSING", "COLUMN-UNEXPECTED") for f in found):
                header = [str(c) for c in raw.table.column_names]
                report.hints += format_hints(raw.path, header, spec, config_spec)
            elif (
                any(f.severity == "error" for f in found)
                and part.key_column in raw.table.column_names
            ):
                keys = raw.table[part.key_column].to_pylist()
                report.hints += part_hints(raw.path, keys, spec, config_spec, released)
            raw_files.setdefault(part, []).append(raw)
            keys = file_keys(raw, part.key_column, source_of(raw.path, spec, part))
            if keys is not None:
                keys = keys.to_pandas()
                line = lambda position, raw=raw: raw.lines()[position]  # noqa: E731
                seen.setdefault(part, []).append(KeyedFile(raw.path, keys, line))
        else:
            report.findings += _check_built(
                name, contribution, spec, config_spec, mirror, cache_dir, options
            )
            if _built_key(config_spec) in contribution.columns:
                keys = contribution[_built_key(config_spec)]
                seen.setdefault(BUILT, []).append(KeyedFile(name, keys, lambda p: p + 1))
    for kind, keyed in seen.items():  # unique across the files of a format, too
        if len(keyed) > 1:
            key = _built_key(config_spec) if kind == BUILT else kind.key_column
            unreported = not_yet_reported(report.findings)  # not a key the schema rejects
            report.findings += [f for f in repeated_keys(keyed, key) if unreported(f)]
    if len(config_spec.parts) > 1:
        report.findings += contribution_join_findings(
            config_spec,
            raw_files,
            report.findings,
            lambda part: released_rows(spec, config_spec, mirror, cache_dir, part),
        )
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
            every = pd.concat([keyed.keys for keyed in keys])
            report.findings += missing_rows(report.files, key, released_keys, every)
    report.findings.sort(key=finding_order)
    return report


def _screened(
    report: ValidationReport,
    spec: DatasetSpec,
    config: ConfigSpec,
    options: Options,
    mirror: str | None,
    cache_dir: str | None,
) -> bool:
    """Whether the streaming validator has checked the contribution: proven every file
    clean (and no key held by two, and every join kept), or named the only faults of a
    one-file one, into ``report``. If not, the exact engine checks every file."""
    files = report.files
    if options.full or any(name.endswith(".parquet") for name in files):
        return False
    try:
        for name in files:
            check_input(name)
    except InputError:
        return False
    from hatemoji_datasets.validate.screen import screen_contribution

    found = screen_contribution(files, spec, config, mirror=mirror, cache_dir=cache_dir)
    if found is None:
        return False
    report.findings, report.omitted = found.findings, found.omitted
    return True


#: ``seen`` key of the keys read from built (Parquet) files.
BUILT = "built"


def _load_checkers(spec: DatasetSpec, config: ConfigSpec) -> None:
    """Import what checks a read file: pandas, the schemas (pandera), the release rules."""
    import pandas  # noqa: F401 - imported here to be ready when the files are read

    import hatemoji_datasets.validate.joined  # noqa: F401 - likewise
    import hatemoji_datasets.validate.release_rules  # noqa: F401 - likewise (emoji)

    for reference in config.schemas:
        spec.load(reference)


def _read(
    name: str, spec: DatasetSpec, config: ConfigSpec, loading: Future
) -> tuple[RawPart, RawTable] | pd.DataFrame:
    if name.endswith(".parquet"):  # the built format, checked against the built release
        loading.result()  # one thread imports at a time
        from hatemoji_datasets.validate.built_format import read_parquet

        return read_parquet(name)
    # As the schemas read them (their generated layouts), without waiting for pandera.
    first = config.parts[0]
    raw = read_by_layout(spec, first.schema, name, config.raw_format)
    part = part_of(name, raw.table.column_names, spec, config)
    # Compared by value: `config.parts` makes its parts afresh on every call.
    if part != first:  # read again, typed as that format's schema types it
        raw = read_by_layout(spec, part.schema, name, config.raw_format)
    return part, raw


def _built_key(config: ConfigSpec) -> str:
    """The built column that identifies a row: its id, or its text."""
    return config.id_column or TEXT_COLUMN


@cache
def _released_files(
    spec: DatasetSpec, config: ConfigSpec, mirror: str | None, cache_dir: str | None
) -> dict[str, SplitFiles]:
    """The config's released files, fetched, verified and read once (every format's)."""
    return read_files(spec, config, fetch_released(spec, config, mirror, cache_dir))


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
    files = _released_files(spec, config, mirror, cache_dir)
    if part.join is None:
        listed = [(split, source, raw) for split, f in files.items() for source, raw in f.sources]
    else:
        sources = dict(part.join.splits)
        listed = [(split, sources[split], f.joined[part.join.name]) for split, f in files.items()]
    frame = stacked_frame(listed)
    if part.key_column == ROW_ID:
        frame[ROW_ID] = [key for _, source, raw in listed for key in file_keys(raw, ROW_ID, source)]
    return frame


def _check_raw(
    raw: RawTable,
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart,
    released: pd.DataFrame,
    options: Options,
) -> list[Finding]:
    from hatemoji_datasets.schema.engine import check_frame, compiled
    from hatemoji_datasets.validate.release_rules import ContributedRows, member

    frame = raw.table.to_pandas()
    key, text = part.key_column, config.text_column
    model = spec.load(part.schema)
    if text not in compiled(model).columns:
        text = key  # a format without the text: rows are compared, no text rules apply
    keys = file_keys(raw, key, source_of(raw.path, spec, part))
    if keys is None or text not in frame.columns:
        # The schema names the missing columns; the release rules need these two.
        return check_frame(model, frame, file=raw.path, places=raw.places)[1]
    keyed = frame.assign(**{key: keys.to_pandas()}) if key == ROW_ID else frame
    rows = ContributedRows(
        raw.path,
        keyed,
        key,
        text,
        released,
        lambda position: raw.lines()[position],
        member(keyed[key], released[key]),
        config.repeated_text,
    )
    # The schema and the release rules are independent and mostly run inside
    # pyarrow, which releases the GIL: on two cores they overlap.
    with ThreadPoolExecutor(max_workers=1) as pool:
        release_findings = pool.submit(_release_findings, rows, options)
        schema_findings = _schema_findings(raw, frame, spec, config, part, rows)
        return [*schema_findings, *_not_owned(release_findings.result(), schema_findings)]


def _release_findings(rows: ContributedRows, options: Options) -> list[Finding]:
    """The release rules over a contributed file: changed rows, repeated texts, new text."""
    from hatemoji_datasets.validate.release_rules import (
        changed_rows,
        repeated_texts,
        repeated_within,
        text_rules,
    )

    severity = "warning" if options.allow_changes else "error"
    return [
        *changed_rows(rows, severity),
        *repeated_texts(rows),
        *repeated_within(rows),
        *text_rules(rows),
    ]


def _not_owned(found: list[Finding], schema_findings: list[Finding]) -> list[Finding]:
    """Release findings the schema has not already made (one problem, one finding): a
    cell the schema rejects is not also "changed". Any other cell of the row is compared."""
    unreported = not_yet_reported(schema_findings)
    return [f for f in found if unreported(f)]


def _schema_findings(
    raw: RawTable,
    frame: pd.DataFrame,
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart,
    rows: ContributedRows,
) -> list[Finding]:
    """The format's schema over the file (plus released context rows, for cross-row rules)."""
    from hatemoji_datasets.raw.joins import stack_frames
    from hatemoji_datasets.schema.engine import check_frame, column_findings
    from hatemoji_datasets.schema.model import (
        row_sources,
        source_splits,
        split_runs,
        with_row_sources,
        with_source_splits,
    )
    from hatemoji_datasets.validate.release_rules import member

    model = spec.load(part.schema)
    structural = column_findings(model, frame.columns, raw.path)
    if structural:  # before context rows could fill in what the file lacks
        return structural
    runs = [(split_of(raw.path, spec, config) if part.join is None else None, len(frame))]
    source_runs = [(source_of(raw.path, spec, part), len(frame))]
    context_rows = 0
    if config.cross_row_rules:
        key = part.key_column
        context = rows.released[~member(rows.released[key], rows.frame[key])]
        context = context.drop(columns=[ROW_ID], errors="ignore")  # derived, not the file's
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


def _check_built(
    name: str,
    frame: pd.DataFrame,
    spec: DatasetSpec,
    config: ConfigSpec,
    mirror: str | None,
    cache_dir: str | None,
    options: Options,
) -> list[Finding]:
    from hatemoji_datasets.schema.engine import check_frame
    from hatemoji_datasets.validate.built_format import features_schema
    from hatemoji_datasets.validate.release_rules import ContributedRows, member

    released, features = _built_release(spec, config, mirror, cache_dir)
    schema = features_schema(spec.name, features, config.id_column)

    def places() -> list[tuple[str, int]]:  # Parquet has no lines: a row's 1-based position
        return [(name, position + 1) for position in range(len(frame))]

    _, found = check_frame(schema, frame, file=name, places=places)
    key = _built_key(config)
    if key not in frame.columns or TEXT_COLUMN not in frame.columns:
        return found
    is_released = member(frame[key], released[key])
    rows = ContributedRows(
        name, frame, key, TEXT_COLUMN, released, lambda p: p + 1, is_released, config.repeated_text
    )
    return [*found, *_not_owned(_release_findings(rows, options), found)]


@cache
def _built_release(
    spec: DatasetSpec, config: ConfigSpec, mirror: str | None, cache_dir: str | None
):
    import pandas as pd

    from hatemoji_datasets.building.prepare import load_verified

    _, released = load_verified(spec, config, spec.version, cache_dir=cache_dir, mirror=mirror)
    features = next(iter(released.values())).features
    frame = pd.concat([split.to_pandas() for split in released.values()], ignore_index=True)
    return frame, features
