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
import re
import threading
import unicodedata
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache

import datasets
import numpy as np
import pandas as pd
import pyarrow
import pyarrow.compute as pc
import pyarrow.parquet as pq

from hatemoji_datasets import sources
from hatemoji_datasets.builder import HatemojiBuilder
from hatemoji_datasets.errors import InputError, UnknownNameError
from hatemoji_datasets.features import features_schema, text_array
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
    violation_order,
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
    """The builder class and the upstream format of ``dataset``/``config``."""
    cls = builder_class(dataset)
    config = check_config(cls, config) or cls.default_config_name()
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
    mirror = sources.mirror_setting(mirror)
    report = Report(files=[os.fspath(p) for p in paths], strict=options.strict)
    seen_keys = []
    for name in report.files:
        if name.endswith(".parquet"):  # the built format, checked against the built release
            fmt_used, released = built_format(cls, config, mirror, cache_dir)
        else:
            fmt_used, released = fmt, _released(cls, fmt, mirror, cache_dir)
        try:
            frame = _read(name, fmt_used)
        except InputError as error:
            report.unreadable.append(str(error))
            continue
        report.violations += _check_file(name, frame, fmt_used, released, options)
        if fmt_used.key_column in frame.columns:
            seen_keys.append(frame[fmt_used.key_column])
    if options.full and seen_keys and not report.unreadable:
        # Together the files claim to be the whole dataset: name every lost row.
        # (Without a key column anywhere, the schema has already said so.)
        released_keys = _released(cls, fmt, mirror, cache_dir)[fmt.key_column]
        kept = _member(released_keys, pd.concat(seen_keys))
        lost = sorted(released_keys[~kept].astype(str), key=_natural)
        where = ", ".join(report.files)
        report.violations += [
            Violation(where, None, fmt.key_column, "released row missing from a --full file", key)
            for key in lost
        ]
    report.violations.sort(key=violation_order)
    return report


@cache
def built_format(
    cls: type[HatemojiBuilder], config: str | None, mirror: str | None, cache_dir: str | None
) -> tuple[UpstreamFormat, pd.DataFrame]:
    """The built format (Parquet of the dataset's features) and its released rows."""
    from hatemoji_datasets.api import load_dataset

    released = load_dataset(cls.NAME, config, cache_dir=cache_dir, mirror=mirror)
    features = next(iter(released.values())).features
    frame = pd.concat([split.to_pandas() for split in released.values()], ignore_index=True)
    key = cls.ID_FEATURE or "text"
    fmt = UpstreamFormat(features_schema(cls.NAME, features, cls.ID_FEATURE), None, (), key, "text")
    return fmt, frame


def _natural(key: str) -> tuple[int, str]:
    return (int(key), "") if key.isdigit() else (0, key)


def _member(values: pd.Series, pool: pd.Series) -> np.ndarray:
    """``values.isin(pool)`` through pyarrow (pandas' isin is slow for a large pool)."""
    left, right = pyarrow.array(values), pyarrow.array(pool)
    if left.type != right.type:  # e.g. ids that failed to parse as integers
        left, right = left.cast(pyarrow.string()), right.cast(pyarrow.string())
    found = pc.is_in(left, value_set=right)
    return found.fill_null(False).to_numpy(zero_copy_only=False)


@cache
def _released(
    cls: type[HatemojiBuilder], fmt: UpstreamFormat, mirror: str | None, cache_dir: str | None
) -> pd.DataFrame:
    """The released rows in upstream format, with the source column filled in (cached)."""
    pinned = {name: cls.source_files()[name] for name in fmt.released}
    manager = datasets.DownloadManager(
        dataset_name=cls.NAME,
        download_config=datasets.DownloadConfig(
            cache_dir=os.path.join(cache_dir, "downloads") if cache_dir else None
        ),
    )
    frames = []
    for name, path in sources.fetch(pinned, manager, mirror).items():
        frame = read_table(path, fmt.table, integer_columns(fmt.schema))
        if fmt.source_column:
            frame[fmt.source_column] = name
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


class _LazyLines:
    """File line of each row, worked out on first use (only files with findings pay)."""

    def __init__(self, name: str, table: TableFormat) -> None:
        self._name, self._table, self._lines = name, table, None
        self._lock = threading.Lock()  # rules run in two threads

    def __getitem__(self, position: int) -> int:
        return self.all()[position]

    def all(self) -> list[int]:
        with self._lock:
            if self._lines is None:
                self._lines = record_lines(self._name, self._table)
        return self._lines


class _RowNumbers:
    """For Parquet, which has no lines: a row's 1-based position stands in for its line."""

    def __init__(self, rows: int) -> None:
        self._rows = rows

    def __getitem__(self, position: int) -> int:
        return position + 1

    def all(self) -> list[int]:
        return list(range(1, self._rows + 1))


def _read(name: str, fmt: UpstreamFormat) -> pd.DataFrame:
    if fmt.table is None:
        try:
            return pq.read_table(name).to_pandas()
        except FileNotFoundError as exc:
            raise InputError(f"{name}: file not found") from exc
        except (pyarrow.ArrowInvalid, OSError) as exc:
            raise InputError(f"{name}: not a readable Parquet file: {exc}") from exc
    return read_table(name, fmt.table, integer_columns(fmt.schema))


@dataclass
class _File:
    """One contributed file under check, with what every rule needs."""

    name: str
    frame: pd.DataFrame
    fmt: UpstreamFormat
    released: pd.DataFrame
    lines: _LazyLines | _RowNumbers
    #: Rows whose key is released (to compare), the others are new.
    is_released: np.ndarray

    def violation(
        self,
        position: int,
        column: str | None,
        rule: str,
        value: object = None,
        severity: str = "error",
    ) -> Violation:
        return Violation(self.name, self.lines[position], column, rule, preview(value), severity)


def _check_file(
    name: str, frame: pd.DataFrame, fmt: UpstreamFormat, released: pd.DataFrame, options: Options
) -> list[Violation]:
    if fmt.key_column not in frame.columns or fmt.text_column not in frame.columns:
        # The schema names the missing columns; the rules below need these two.
        return check_frame(fmt.schema, _with_source(name, frame, fmt), file=name)[1]
    file = _File(
        name,
        frame,
        fmt,
        released,
        _LazyLines(name, fmt.table) if fmt.table else _RowNumbers(len(frame)),
        _member(frame[fmt.key_column], released[fmt.key_column]),
    )
    severity = "warning" if options.allow_changes else "error"
    # The schema and the release rules are independent and mostly run inside
    # pyarrow, which releases the GIL: on two cores they overlap.
    with ThreadPoolExecutor(max_workers=1) as pool:
        release_rules = pool.submit(
            lambda: [*_changed_rows(file, severity), *_repeated_texts(file), *_text_rules(file)]
        )
        return [*_schema_violations(file), *release_rules.result()]


def _with_source(name: str, frame: pd.DataFrame, fmt: UpstreamFormat) -> pd.DataFrame:
    if fmt.source_column and fmt.source_of and fmt.source_column not in frame.columns:
        frame = frame.assign(**{fmt.source_column: fmt.source_of(name, frame)})
    return frame


def _schema_violations(file: _File) -> list[Violation]:
    """The dataset schema over the file (plus released context rows, for cross-row rules)."""
    frame = _with_source(file.name, file.frame, file.fmt)
    context_rows = 0
    if file.fmt.cross_row_rules:
        released_keys = file.released[file.fmt.key_column]
        context = file.released[~_member(released_keys, frame[file.fmt.key_column])]
        context_rows = len(context)
        frame = pd.concat([frame, context], ignore_index=True)

    def locate() -> list[tuple[str, int]]:
        return [(file.name, line) for line in file.lines.all()] + [("", 0)] * context_rows

    _, violations = check_frame(file.fmt.schema, frame, file=file.name, locate=locate)
    # Findings located on context rows are the released data's, not this file's.
    return [v for v in violations if v.file == file.name]


def _changed_rows(file: _File, severity: str) -> list[Violation]:
    """Cells of released rows that the file changes."""
    if not file.is_released.any():
        return []
    key = file.fmt.key_column
    columns = [c for c in file.released.columns if c in file.frame.columns]
    mine = file.frame.loc[file.is_released, columns].astype(str)
    theirs = file.released[columns].astype(str).drop_duplicates(key).set_index(key, drop=False)
    theirs = theirs.reindex(mine[key]).set_axis(mine.index)
    key_at = columns.index(key)
    found = []
    for row, column in zip(*mine.ne(theirs).to_numpy().nonzero(), strict=True):
        label, position = columns[column], mine.index[row]
        found.append(
            file.violation(
                file.frame.index.get_loc(position),
                label,
                f"changes released row {key}={mine.iat[row, key_at]} "
                f"(released value {preview(theirs.iat[row, column])!r})",
                mine.iat[row, column],
                severity,
            )
        )
    return found


def _repeated_texts(file: _File) -> list[Violation]:
    """New rows whose text is already released, naming the released row."""
    fmt = file.fmt
    if fmt.key_column == fmt.text_column:
        return []  # rows keyed by text: a repeated text is a released row
    texts = file.frame[fmt.text_column]
    repeated = ~file.is_released & _member(texts, file.released[fmt.text_column])
    if not repeated.any():
        return []
    released_ids = file.released.drop_duplicates(fmt.text_column).set_index(fmt.text_column)
    return [
        file.violation(
            position,
            fmt.text_column,
            f"repeats the text of released {fmt.key_column}="
            f"{released_ids.at[texts.iat[position], fmt.key_column]}",
            texts.iat[position],
        )
        for position in repeated.nonzero()[0]
    ]


#: Text rules for new rows: (rule, severity, exact test). One vectorised regex
#: finds the few texts that can break any of them; only those are tested exactly.
TEXT_RULES: tuple[tuple[str, str, Callable[[str], bool]], ...] = (
    ("text is empty", "error", lambda text: text == ""),
    (
        "text has a control character",
        "error",
        lambda text: re.search(CONTROL_CHARACTERS, text) is not None,
    ),
    (
        "text is not in Unicode NFC",
        "error",
        lambda text: not unicodedata.is_normalized("NFC", text),
    ),
    ("text has leading or trailing spaces", "warning", lambda text: text != text.strip()),
)


@cache
def _suspect_pattern() -> str:
    """Matches every text that may break a text rule (a superset, for speed)."""
    # A text is NFC unless it holds a character that is not NFC on its own or
    # may combine with its neighbour (a combining mark, or the second half of
    # a canonical composition such as a Hangul vowel jamo).
    combining = set()
    # Below U+0300 nothing combines; above U+2FFFF nothing changes under NFC.
    for code in range(0x300, 0x30000):
        char = chr(code)
        if unicodedata.combining(char) or unicodedata.normalize("NFC", char) != char:
            combining.add(char)
        decomposition = unicodedata.decomposition(char)
        if decomposition and not decomposition.startswith("<"):
            parts = decomposition.split()
            if len(parts) == 2:
                combining.add(chr(int(parts[1], 16)))
    ranges = "".join(re.escape(c) for c in sorted(combining) if ord(c) < 0xD800 or ord(c) > 0xDFFF)
    # RE2's \s is ASCII only; \p{Z} adds the Unicode spaces str.strip() removes.
    return rf"^$|^[\s\p{{Z}}]|[\s\p{{Z}}]$|{CONTROL_CHARACTERS}|[{ranges}]"


def _text_rules(file: _File) -> list[Violation]:
    """Empty text, control characters and non-NFC are errors; edge spaces a warning."""
    column = file.fmt.text_column
    texts = file.frame[column]
    suspects = pc.match_substring_regex(text_array(texts), _suspect_pattern())
    candidates = suspects.to_numpy(zero_copy_only=False) & ~file.is_released
    found = []
    for position in candidates.nonzero()[0]:
        text = texts.iat[position]
        for rule, severity, broken in TEXT_RULES:
            if broken(text):
                found.append(file.violation(position, column, rule, text, severity))
    return found
