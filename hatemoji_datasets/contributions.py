"""Contribution validation: what is wrong with a proposed data file, before review.

A contributed file is checked in the dataset's upstream format (CSV/TSV) by
the same pandera schema the builder uses, plus rules that compare it with the
released data: released rows must not change, nothing released may be lost
from a file that claims to be complete, new rows must not repeat a released
text, and new text must be clean (non-empty, no control characters, NFC).

Cross-row rules (HatemojiBuild's pairs) need a row's partner, which may be
released rather than in the file; so released rows the file does not
contain are added as context, and only violations in the file are reported.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

import datasets
import pandas as pd
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets import sources
from hatemoji_datasets.builder import HatemojiBuilder
from hatemoji_datasets.errors import InputError, UnknownNameError
from hatemoji_datasets.registry import builder_class, check_config
from hatemoji_datasets.validation import (
    TableFormat,
    UpstreamFormat,
    Violation,
    check_frame,
    integer_columns,
    preview,
    read_table,
    record_lines,
)

#: C0 and C1 control characters except the line feed, which released texts contain.
CONTROL_CHARACTERS = r"[\x00-\x09\x0b-\x1f\x7f-\x9f]"


@dataclass(frozen=True)
class Options:
    allow_changes: bool = False
    full: bool = False
    strict: bool = False


@dataclass
class Report:
    """Every finding for a set of files, in a stable order."""

    files: list[str]
    violations: list[Violation] = field(default_factory=list)
    #: Files that could not be read at all, with the reason.
    unreadable: list[str] = field(default_factory=list)
    strict: bool = False

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error" or self.strict]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "warning" and not self.strict]

    @property
    def exit_code(self) -> int:
        if self.unreadable:
            return 2
        return 1 if self.errors else 0


def upstream_format(
    dataset: str, config: str | None
) -> tuple[type[HatemojiBuilder], UpstreamFormat]:

    cls = builder_class(dataset)
    config = check_config(cls, config) or cls.config_names()[0]
    formats: dict[str, UpstreamFormat] = cls.upstream_formats()
    if config not in formats:
        raise UnknownNameError(
            f"{dataset} takes contributions for config(s) {', '.join(formats)}, not {config!r}"
        )
    return cls, formats[config]


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
    cls, fmt = upstream_format(dataset, config)
    report = Report(files=[os.fspath(p) for p in paths], strict=options.strict)
    released = _released(cls, fmt, mirror, cache_dir)
    seen_keys: set[str] = set()
    for name in report.files:
        try:
            frame = read_table(name, fmt.table, integer_columns(fmt.schema))
        except InputError as error:
            report.unreadable.append(str(error))
            continue
        report.violations += _check_file(name, frame, fmt, released, options)
        if fmt.key_column in frame.columns:
            seen_keys.update(frame[fmt.key_column].astype(str))
    if options.full and not report.unreadable:
        # Together the files claim to be the whole dataset: name every lost row.
        lost = sorted(set(released[fmt.key_column].astype(str)) - seen_keys, key=_natural)
        where = ", ".join(report.files)
        report.violations += [
            Violation(where, None, fmt.key_column, "released row missing from a --full file", key)
            for key in lost
        ]
    report.violations.sort(key=_order)
    return report


def _order(v: Violation) -> tuple:
    return (v.file, v.line if v.line is not None else 0, v.column or "", v.rule, v.value or "")


def _released(
    cls: type[HatemojiBuilder], fmt: UpstreamFormat, mirror: str | None, cache_dir: str | None
) -> pd.DataFrame:
    """The released rows in upstream format, with the source column filled in."""
    return _released_cached(cls, fmt, sources.mirror_setting(mirror), cache_dir).copy()


@cache
def _released_cached(
    cls: type[HatemojiBuilder], fmt: UpstreamFormat, mirror: str | None, cache_dir: str | None
) -> pd.DataFrame:
    pinned = {name: cls.source_files()[name] for name in fmt.released}
    manager = datasets.DownloadManager(
        dataset_name=cls.NAME,
        download_config=datasets.DownloadConfig(
            cache_dir=os.path.join(cache_dir, "downloads") if cache_dir else None
        ),
    )
    paths = sources.fetch(pinned, manager, mirror)
    frames = []
    for name, path in paths.items():
        frame = read_table(path, fmt.table, integer_columns(fmt.schema))
        if fmt.source_column:
            frame[fmt.source_column] = name
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _check_file(
    name: str, frame: pd.DataFrame, fmt: UpstreamFormat, released: pd.DataFrame, options: Options
) -> list[Violation]:
    file_columns = [c for c in released.columns if c != fmt.source_column]
    if fmt.key_column not in frame.columns or fmt.text_column not in frame.columns:
        # The schema names the missing columns; rules below need these two.
        return check_frame(fmt.schema, _with_source(name, frame, fmt), file=name)[1]
    lines = _LazyLines(name, fmt.table)
    keys = frame[fmt.key_column].astype(str)
    released_keys = released[fmt.key_column].astype(str)
    is_released = keys.isin(set(released_keys))

    found = _schema_violations(name, frame, fmt, released, released_keys, keys, lines)
    found += _changed_rows(name, frame, fmt, released, is_released, file_columns, options, lines)
    fresh = ~is_released  # changed released rows are reported cell by cell instead
    found += _repeated_texts(name, frame, fmt, released, fresh, lines)
    found += _text_rules(name, frame[fmt.text_column], fresh, fmt.text_column, lines)
    return found


class _LazyLines:
    """File line of each row, worked out on first use (only files with findings pay)."""

    def __init__(self, name: str, table: TableFormat) -> None:
        self._name, self._table, self._lines = name, table, None

    def __getitem__(self, position: int) -> int:
        return self.all()[position]

    def all(self) -> list[int]:
        if self._lines is None:
            self._lines = record_lines(self._name, self._table)
        return self._lines


def _with_source(name: str, frame: pd.DataFrame, fmt: UpstreamFormat) -> pd.DataFrame:
    if fmt.source_column and fmt.source_of and fmt.source_column not in frame.columns:
        frame = frame.assign(**{fmt.source_column: fmt.source_of(name, frame)})
    return frame


def _schema_violations(
    name: str,
    frame: pd.DataFrame,
    fmt: UpstreamFormat,
    released: pd.DataFrame,
    released_keys: pd.Series,
    keys: pd.Series,
    lines: _LazyLines,
) -> list[Violation]:
    """The dataset schema over the file plus, as context, released rows it does not hold."""
    context = released[~released_keys.isin(set(keys))]
    combined = pd.concat([_with_source(name, frame, fmt), context], ignore_index=True)

    def locate() -> list[tuple[str, int]]:
        return [(name, line) for line in lines.all()] + [("", 0)] * len(context)

    _, violations = check_frame(fmt.schema, combined, file=name, locate=locate)
    # Findings located on context rows are the released data's, not this file's.
    return [v for v in violations if v.file == name]


def _changed_rows(
    name: str,
    frame: pd.DataFrame,
    fmt: UpstreamFormat,
    released: pd.DataFrame,
    is_released: pd.Series,
    columns: list[str],
    options: Options,
    lines: _LazyLines,
) -> list[Violation]:
    if not is_released.any():
        return []
    mine = frame.loc[is_released, [c for c in columns if c in frame.columns]].astype(str)
    theirs = (
        released.astype({c: str for c in columns})
        .drop_duplicates(fmt.key_column)
        .set_index(released[fmt.key_column].astype(str).drop_duplicates())
        .reindex(mine[fmt.key_column])[mine.columns]
    )
    theirs.index = mine.index
    differs = mine.ne(theirs)
    severity = "warning" if options.allow_changes else "error"
    found = []
    for position, column in zip(*differs.to_numpy().nonzero(), strict=True):
        row = mine.index[position]
        label = mine.columns[column]
        key = mine.at[row, fmt.key_column]
        found.append(
            Violation(
                name,
                lines[frame.index.get_loc(row)],
                label,
                f"changes released row {fmt.key_column}={key} "
                f"(released value {preview(theirs.at[row, label])!r})",
                preview(mine.at[row, label]),
                severity,
            )
        )
    return found


def _repeated_texts(
    name: str,
    frame: pd.DataFrame,
    fmt: UpstreamFormat,
    released: pd.DataFrame,
    fresh: pd.Series,
    lines: _LazyLines,
) -> list[Violation]:
    if fmt.key_column == fmt.text_column:
        return []  # rows keyed by text: a repeated text is a released row
    released_ids = (
        released.drop_duplicates(fmt.text_column)
        .set_index(fmt.text_column)[fmt.key_column]
        .astype(str)
    )
    texts = frame[fmt.text_column]
    repeated = fresh & texts.isin(set(released_ids.index))
    return [
        Violation(
            name,
            lines[position],
            fmt.text_column,
            f"repeats the text of released {fmt.key_column}={released_ids[texts.iloc[position]]}",
            preview(texts.iloc[position]),
        )
        for position in repeated.to_numpy().nonzero()[0]
    ]


def _text_rules(
    name: str, texts: pd.Series, fresh: pd.Series, column: str, lines: _LazyLines
) -> list[Violation]:
    """Empty text, control characters and non-NFC are errors; edge spaces a warning."""
    values = pyarrow.array(texts.astype(str))
    rules = [
        (pc.equal(pc.utf8_length(values), 0), "text is empty", "error"),
        (
            pc.match_substring_regex(values, CONTROL_CHARACTERS),
            "text has a control character",
            "error",
        ),
        (
            pc.not_equal(pc.utf8_normalize(values, "NFC"), values),
            "text is not in Unicode NFC",
            "error",
        ),
        (
            pc.match_substring_regex(values, r"^\s|\s$"),
            "text has leading or trailing spaces",
            "warning",
        ),
    ]
    fresh_mask = fresh.to_numpy()
    found = []
    for hits, rule, severity in rules:
        for position in (hits.to_numpy(zero_copy_only=False) & fresh_mask).nonzero()[0]:
            found.append(
                Violation(
                    name, lines[position], column, rule, preview(texts.iloc[position]), severity
                )
            )
    return found


def _natural(key: str) -> tuple[int, str]:
    return (int(key), "") if key.isdigit() else (0, key)


def describe(report: Report) -> Iterable[str]:
    for message in report.unreadable:
        yield f"error: {message}"
    for v in report.violations:
        severity = "error" if v.severity == "error" or report.strict else "warning"
        yield f"{severity}: {v}"
