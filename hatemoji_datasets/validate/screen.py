"""The streaming validator: a contribution proven clean batch by batch, in bounded memory.

A contributed file is read in record batches (:meth:`~hatemoji_datasets.raw.reader.RawScan.batches`)
and each batch is run through its model's compiled plan
(:mod:`hatemoji_datasets.schema.plan`): the column checks, the dataset's row
rules, and the release rules (a released row must be unchanged, a new text
must not repeat a released one, new text must be clean). What spans batches
is kept as compact state: the values of each unique column (a bitmap of
seen integers where they are small, else the integers themselves) and, from
the release, its keys, its rows' cells and its texts' canonical forms, a few
thousand rows. Memory is a few read blocks plus that state, whatever the
file's size, and neither pandas nor pandera is imported.

The screen only says "clean"; it never writes a finding. A file it cannot
prove clean (anything broken, or any doubt: a value its parse reads
differently, a row rule it has no implementation of, several formats, rules
across rows or splits) is checked again by the exact engine, which names
every finding; so findings are exactly what they were, and the plan may be
stricter than the schema but never laxer (tests prove it).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, RawPart
from hatemoji_datasets.raw.files import read_files
from hatemoji_datasets.raw.joins import stack_tables
from hatemoji_datasets.raw.reader import ConversionError, RawScan, scan_raw
from hatemoji_datasets.schema.plan import (
    AcrossBatches,
    ColumnPlan,
    ModelPlan,
    ScreenContext,
    ScreenRule,
    across_rules,
    implemented_codes,
    model_plan,
    screen_rules,
)
from hatemoji_datasets.schema.raw_columns import layout_of
from hatemoji_datasets.sources.fetch import fetch_released
from hatemoji_datasets.validate.formats import named_source, source_of
from hatemoji_datasets.validate.prefilter import TEXT_RULES, canonical_text, suspect_pattern

#: Unique integers below this are tracked in a bitmap of one byte each (64 MiB at
#: most); any other unique column keeps its values.
BITMAP_LIMIT = 1 << 26


def screenable(spec: DatasetSpec, config: ConfigSpec, part: RawPart) -> bool:
    """Whether the plan can stand for the exact checks of ``part``'s files in ``config``."""
    if len(config.parts) != 1 or config.split_of_file:
        return False  # rows that need other formats, or their split's file
    if part.join is not None or part.key_column is None:
        return False
    plan = model_plan(spec, part.schema)
    implemented = implemented_codes(spec)
    return plan.unscreened is None and all(code in implemented for code in plan.codes)


def proven_clean(
    path: str,
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart,
    *,
    mirror: str | None,
    cache_dir: str | None,
) -> bool:
    """True when ``path`` has no finding at all; False when the exact engine must look."""
    if not screenable(spec, config, part):
        return False
    source = named_source(path, spec)
    if source is not None and source not in part.sources:
        return False  # named like another upstream file: the exact path says so
    plan = model_plan(spec, part.schema)
    layout = layout_of(spec, part.schema)
    try:
        scan = scan_raw(path, config.raw_format, layout.integers, max_columns=len(layout.columns))
    except InputError:
        return False
    text = config.text_column if plan.column(config.text_column) else part.key_column
    if not _header_fits(scan.header, plan) or not {part.key_column, text} <= set(scan.header):
        return False
    release = released_context(spec, config, part, text, mirror, cache_dir)
    # As the raw reader does: first as if no value spans lines, which is exact when
    # every physical line became one row; otherwise again, allowing them.
    for newlines in (False, True) if config.raw_format.quoted else (False,):
        context = ScreenContext(source_of(path, spec, part), release.table)
        verdict = _screen(scan, plan, spec, release, context, newlines)
        if verdict is not None:
            return verdict
    return False


def _header_fits(header: Iterable[str], plan: ModelPlan) -> bool:
    present = set(header)
    names = {c.name for c in plan.columns}
    required = {c.name for c in plan.columns if c.required}
    return required <= present <= names


def _screen(
    scan: RawScan,
    plan: ModelPlan,
    spec: DatasetSpec,
    release: Release,
    context: ScreenContext,
    newlines: bool,
) -> bool | None:
    """Whether the file is clean; None: read it again, allowing newlines in values.

    The batches are checked on two threads while the next ones are read and parsed:
    the checks run inside pyarrow, which releases the GIL. The state across batches
    (repeats of unique values) is kept here, in order. At most a few batches wait.
    """
    check = _BatchCheck(plan, screen_rules(spec), release, context, scan.header)
    unique = {c.name: UniqueValues() for c in check.columns if c.unique}
    makers = dict.fromkeys(make for code, make in across_rules(spec).items() if code in check.codes)
    across = [make(context) for make in makers]  # one state may keep several rules
    rows = 0
    try:
        with ThreadPoolExecutor(max_workers=CHECKERS) as pool:
            waiting: deque[Future[bool]] = deque()
            for batch in _chunks(scan.batches(newlines_in_values=newlines)):
                rows += batch.num_rows
                if not all(seen.add(batch[name]) for name, seen in unique.items()):
                    return False
                if not _added(batch, across):
                    return False
                waiting.append(pool.submit(check, batch))
                while waiting and (len(waiting) > 2 * CHECKERS or waiting[0].done()):
                    if not waiting.popleft().result():
                        return False
            if not all(checked.result() for checked in waiting):
                return False
            if not all(state.finish() for state in across):
                return False  # (their state holds only values already read)
        lines = scan.lines()
    except (InputError, ConversionError):
        return None if not newlines else False
    if not newlines and rows != lines - 1:
        return None
    return True


def _added(batch: pyarrow.RecordBatch, states: list[AcrossBatches]) -> bool:
    try:
        return all(state.add(batch) for state in states)
    except pyarrow.ArrowException:
        return False


#: Threads checking batches.
CHECKERS = 2
#: Batches are checked in chunks of about this many bytes: every check call compiles
#: its regexes afresh (the emoji one is large), so chunks far smaller cost more time.
CHUNK_BYTES = 6 << 20


def _chunks(batches: Iterable[pyarrow.RecordBatch]) -> Iterable[pyarrow.RecordBatch]:
    """The batches joined into chunks of about ``CHUNK_BYTES``."""
    gathered: list[pyarrow.RecordBatch] = []
    size = 0
    for batch in batches:
        gathered.append(batch)
        size += batch.nbytes
        if size >= CHUNK_BYTES:
            yield pyarrow.Table.from_batches(gathered).combine_chunks().to_batches()[0]
            gathered, size = [], 0
    if gathered:
        yield pyarrow.Table.from_batches(gathered).combine_chunks().to_batches()[0]


class _BatchCheck:
    """Every row check of the plan over one batch: column checks, rules, release rules."""

    def __init__(
        self,
        plan: ModelPlan,
        rules: Mapping[str, ScreenRule],
        release: Release,
        context: ScreenContext,
        header: Iterable[str],
    ) -> None:
        self.context = context
        present = set(header)
        self.columns = [c for c in plan.columns if c.name in present]
        self.codes = (*plan.rules, *(code for c in self.columns for code in c.rules))
        self.rules = [rules[code] for code in self.codes if code in rules]
        self.release = release

    def __call__(self, batch: pyarrow.RecordBatch) -> bool:
        try:
            return self._keeps(batch)
        except pyarrow.ArrowException:  # a value a rule cannot compute on: a doubt
            return False

    def _keeps(self, batch: pyarrow.RecordBatch) -> bool:
        return (
            all(_column_keeps(batch[c.name], c) for c in self.columns)
            and all(_all_true(rule(batch, self.context)) for rule in self.rules)
            and self.release.keeps(batch)
        )


def _all_true(result: Any) -> bool:
    if isinstance(result, (pyarrow.Array, pyarrow.ChunkedArray)):
        return len(result) == 0 or bool(pc.all(result.fill_null(False)).as_py())
    return bool(np.all(result))


def _column_keeps(values: pyarrow.Array, column: ColumnPlan) -> bool:
    if column.dtype == "int64" and not pyarrow.types.is_integer(values.type):
        return False
    if values.null_count and not column.nullable:
        return False
    return all(_check_keeps(values, check) for check in column.checks)


def _check_keeps(values: pyarrow.Array, check: Mapping[str, Any]) -> bool:
    """One built-in check over a batch's column, as pandera runs it (missing values pass)."""
    kind = check["check"]
    if kind == "isin":
        return _all_true(
            pc.is_in(values, value_set=_value_set(tuple(check["values"]), values.type))
        )
    if kind == "eq":
        return _all_true(pc.equal(values, check["value"]))
    if kind in ("ge", "le", "gt", "lt"):
        compare = {"ge": pc.greater_equal, "le": pc.less_equal, "gt": pc.greater, "lt": pc.less}
        return _all_true(compare[kind](values, check["value"]))
    if kind == "str_length":
        lengths = pc.utf8_length(values)
        low, high = check.get("min"), check.get("max")
        return (low is None or _all_true(pc.greater_equal(lengths, low))) and (
            high is None or _all_true(pc.less_equal(lengths, high))
        )
    if kind == "str_matches":
        # pandera matches at the start (``re.match``). RE2 is never laxer than Python's re
        # here: its ``$`` and classes are stricter, so a doubt goes to the exact engine.
        try:
            return _all_true(pc.match_substring_regex(values, f"^(?:{check['pattern']})"))
        except pyarrow.ArrowInvalid:
            return False
    return False


@cache
def _value_set(values: tuple[Any, ...], kind: pyarrow.DataType) -> pyarrow.Array:
    return pyarrow.array(values, kind)


class UniqueValues:
    """The values a unique column has held so far, compactly: ``add`` is False on a repeat
    (or a missing value, which the exact engine judges)."""

    def __init__(self) -> None:
        self.bitmap = np.zeros(0, dtype=np.uint8)
        self.others: set[Any] = set()

    def add(self, values: pyarrow.Array) -> bool:
        if values.null_count:
            return False
        if pyarrow.types.is_integer(values.type):
            numbers = values.to_numpy()
            ordered = np.sort(numbers)
            if (ordered[1:] == ordered[:-1]).any():
                return False
            small = (numbers >= 0) & (numbers < BITMAP_LIMIT)
            if small.any() and not self._add_small(numbers[small]):
                return False
            rest = numbers[~small].tolist()
        else:
            rest = values.to_pylist()
            if len(set(rest)) != len(rest):
                return False
        if not self.others.isdisjoint(rest):
            return False
        self.others.update(rest)
        return True

    def _add_small(self, numbers: np.ndarray) -> bool:
        high = int(numbers.max())
        if high >= len(self.bitmap):
            grown = np.zeros(max(high + 1, 2 * len(self.bitmap)), dtype=np.uint8)
            grown[: len(self.bitmap)] = self.bitmap
            self.bitmap = grown
        if self.bitmap[numbers].any():
            return False
        self.bitmap[numbers] = 1
        return True


@dataclass(frozen=True)
class Release:
    """What the release rules compare a contributed row with: the released rows of its
    format (a few thousand), their keys, and their texts with their canonical forms."""

    table: pyarrow.Table
    keys: pyarrow.Array
    key: str
    text: str
    known_texts: pyarrow.Array
    canonical_texts: frozenset[str]

    def keeps(self, batch: pyarrow.RecordBatch) -> bool:
        keys, released_keys = batch[self.key], self.keys
        if keys.type != released_keys.type:
            return False
        released = pc.is_in(keys, value_set=released_keys).to_numpy(zero_copy_only=False)
        if released.any() and not self._unchanged(batch, released, released_keys):
            return False
        new = batch[self.text].filter(pyarrow.array(~released))
        if _any_true(pc.is_in(new, value_set=self.known_texts)):
            return False  # repeats a released text, or its canonical form
        suspects = new.filter(pc.match_substring_regex(new, suspect_pattern()))
        for text in suspects.to_pylist():
            if any(broken(text) for _, _, _, broken in TEXT_RULES):
                return False
            if canonical_text(text) in self.canonical_texts:
                return False
        return True

    def _unchanged(
        self, batch: pyarrow.RecordBatch, released: np.ndarray, released_keys: pyarrow.Array
    ) -> bool:
        """Whether every released row of the batch holds its released cells (the first
        released row of its key, as the release rule compares)."""
        mask = pyarrow.array(released)
        at = pc.index_in(batch[self.key].filter(mask), value_set=released_keys)
        for name in batch.schema.names:
            if name not in self.table.column_names:
                continue
            theirs = self.table[name].combine_chunks().take(at)
            mine = batch[name].filter(mask)
            if theirs.type != mine.type or not _all_true(pc.equal(mine, theirs)):
                return False
        return True


def _any_true(values: pyarrow.Array) -> bool:
    return len(values) > 0 and bool(pc.any(values.fill_null(False)).as_py())


def released_context(
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart,
    text: str,
    mirror: str | None,
    cache_dir: str | None,
) -> Release:
    return _released_context(spec, config, part, text, mirror, cache_dir)


@cache
def _released_context(
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart,
    text: str,
    mirror: str | None,
    cache_dir: str | None,
) -> Release:
    files = read_files(spec, config, fetch_released(spec, config, mirror, cache_dir))
    table = stack_tables([raw.table for split in files.values() for _, raw in split.sources])
    texts = table[text].cast(pyarrow.string()).to_pylist()
    canonical = [canonical_text(t) for t in texts]
    known = pyarrow.array(sorted(set(texts) | set(canonical)), pyarrow.string())
    keys = table[part.key_column].combine_chunks()
    return Release(table, keys, part.key_column, text, known, frozenset(canonical))
