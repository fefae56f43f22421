"""A schema's compiled plan (:mod:`hatemoji_datasets.schema.plan`) run over record batches.

The streaming validator (:mod:`hatemoji_datasets.validate.screen`) and a build
that re-validates its pinned files (:func:`tables_keep_plan`) share these
checks: the column checks, the dataset's rules (its ``rules.py``, the functions its
pandera model wraps) and the rules
between rows, all in pyarrow, with no pandera. They answer only "every check
holds", or "the exact engine must look": the plan may be stricter than the
schema, never laxer (tests hold the two together), so a file the plan passes
has no finding, and any other goes to the exact engine, which names them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import array_of, scalar
from hatemoji_datasets.core.spec import ROW_ID, ConfigSpec, DatasetSpec, RawPart
from hatemoji_datasets.raw.joins import stack_tables
from hatemoji_datasets.raw.unique_values import UniqueValues
from hatemoji_datasets.schema.plan import (
    AcrossBatches,
    AcrossRows,
    ColumnPlan,
    ModelPlan,
    ScreenContext,
    all_true,
    dataset_rules,
    implemented_codes,
    model_plan,
)
from hatemoji_datasets.schema.rules import Rule, rows_of


def screenable(spec: DatasetSpec, config: ConfigSpec, part: RawPart) -> bool:
    """Whether the streaming validator can stand for the exact checks of a contributed file
    of ``part``'s format in ``config``: its plan runs every check of its model, and each
    join it takes part in has integer keys (the screen keeps them compactly, with a digest
    of the columns the join compares: :mod:`hatemoji_datasets.validate.screen_joins`)."""
    if not plan_covers(spec, part):
        return False
    plan = model_plan(spec, part.schema)
    joins = config.joins if part.join is None else (part.join,)
    return all(_integer_column(plan, join.key_column) for join in joins)


def _integer_column(plan: ModelPlan, name: str) -> bool:
    column = plan.column(name)
    return column is not None and column.dtype == "int64"


def plan_covers(spec: DatasetSpec, part: RawPart) -> bool:
    """Whether the plan of ``part``'s format runs every check and rule of its model."""
    if part.key_column in (None, ROW_ID):  # no key column to stream (ROW_ID is derived)
        return False
    plan = model_plan(spec, part.schema)
    implemented = implemented_codes(spec)
    return plan.unscreened is None and all(code in implemented for code in plan.codes)


def tables_keep_plan(
    spec: DatasetSpec,
    config: ConfigSpec,
    files: Sequence[tuple[str, str | None, pyarrow.Table]],
    part: RawPart | None = None,
) -> bool:
    """Whether a config's files of one format (``part``'s, by default its own rows'),
    ``(split, source, table)`` as the raw reader read them, keep every check of the plan,
    as one table (as the exact engine checks them): True means the exact engine would find
    nothing; False, that it must look.

    The files stand for their own release: the rules that look at released rows (a
    reference to a case of another file) see these files.
    """
    part = part or (config.parts[0] if config.parts else None)
    if part is None or not plan_covers(spec, part) or not files:
        return False
    plan = model_plan(spec, part.schema)
    if not all(header_fits(table.column_names, plan) for _, _, table in files):
        return False
    released = stack_tables([table for _, _, table in files])
    if released.num_rows == 0:
        return False
    unique = {
        c.name: UniqueValues() for c in plan.columns if c.unique and c.name in released.column_names
    }
    for split, source, table in files:
        context = ScreenContext(source, released, split)
        check = BatchCheck(plan, dataset_rules(spec), context, table.column_names)
        across = across_states(check)
        for batch in chunks(table.to_batches()):
            if not all(seen.add(batch[name]) for name, seen in unique.items()):
                return False
            if not added(batch, across) or not check(batch):
                return False
        if not finished(across):
            return False
    return True


def header_fits(header: Iterable[str], plan: ModelPlan) -> bool:
    """Whether a file has every required column of the plan and no column it lacks."""
    present = set(header)
    names = {c.name for c in plan.columns}
    required = {c.name for c in plan.columns if c.required}
    return required <= present <= names


def across_states(check: BatchCheck) -> list[AcrossBatches]:
    """A fresh state for the rules between rows that ``check`` runs, in its context."""
    return [AcrossRows(check.across, check.context)] if check.across else []


def added(batch: pyarrow.RecordBatch, states: list[AcrossBatches]) -> bool:
    """Whether a batch keeps the rules between rows so far (each state is fed it)."""
    try:
        return all(state.add(batch) for state in states)
    except pyarrow.ArrowException:
        return False


def finished(states: list[AcrossBatches]) -> bool:
    """Whether every row kept the rules between rows, once all batches were fed."""
    try:
        return all(state.finish() for state in states)
    except pyarrow.ArrowException:
        return False


#: Batches are checked in chunks of about this many bytes: every check call compiles
#: its regexes afresh (the emoji one is large), so chunks far smaller cost more time.
CHUNK_BYTES = 6 << 20


def chunks(batches: Iterable[pyarrow.RecordBatch]) -> Iterable[pyarrow.RecordBatch]:
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


class BatchCheck:
    """Every row check of the plan over one batch: column checks and rules, and any
    further check of the caller's (the streaming validator's release rules)."""

    def __init__(
        self,
        plan: ModelPlan,
        rules: Sequence[Rule],
        context: ScreenContext,
        header: Iterable[str],
        also: Callable[[pyarrow.RecordBatch], bool] | None = None,
    ) -> None:
        self.context = context
        present = set(header)
        self.columns = [c for c in plan.columns if c.name in present]
        self.codes = (*plan.rules, *(code for c in self.columns for code in c.rules))
        # A code two models share (cases' and annotations' label rule) is one check.
        by_code = {rule.code: rule for rule in reversed(rules)}
        chosen = [by_code[code] for code in dict.fromkeys(self.codes) if code in by_code]
        self.rules = [rule for rule in chosen if not rule.across]
        #: The rules between rows, which the caller runs over every batch (:func:`across_states`).
        self.across = [rule for rule in chosen if rule.across]
        self.also = also

    def __call__(self, batch: pyarrow.RecordBatch) -> bool:
        try:
            return self._keeps(batch)
        except pyarrow.ArrowException:  # a value a rule cannot compute on: a doubt
            return False

    def _keeps(self, batch: pyarrow.RecordBatch) -> bool:
        context = self.context
        rows = rows_of(batch, context.source, context.split, context.released)
        return (
            all(_column_keeps(batch[c.name], c) for c in self.columns)
            and all(all_true(rule.check(rows)) for rule in self.rules)
            and (self.also is None or self.also(batch))
        )


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
        return all_true(pc.is_in(values, value_set=_value_set(tuple(check["values"]), values.type)))
    if kind == "eq":
        return all_true(pc.equal(values, scalar(check["value"])))
    if kind in ("ge", "le", "gt", "lt"):
        compare = {"ge": pc.greater_equal, "le": pc.less_equal, "gt": pc.greater, "lt": pc.less}
        return all_true(compare[kind](values, scalar(check["value"])))
    if kind == "str_length":
        return _lengths_keep(values, check.get("min"), check.get("max"))
    if kind == "str_matches":
        # pandera matches at the start (``re.match``). RE2 is never laxer than Python's re
        # here: its ``$`` and classes are stricter, so a doubt goes to the exact engine.
        try:
            return all_true(pc.match_substring_regex(values, f"^(?:{check['pattern']})"))
        except pyarrow.ArrowInvalid:
            return False
    return False


def _lengths_keep(values: pyarrow.Array, low: int | None, high: int | None) -> bool:
    """Whether every text has ``low`` to ``high`` characters. A text has no more characters
    than bytes, and one or more exactly when it has a byte: its byte length (free) decides
    those bounds, and the characters are counted only where it cannot."""
    sizes = pc.binary_length(values)
    if low is not None:
        counted = sizes if low <= 1 else pc.utf8_length(values)
        if not all_true(pc.greater_equal(counted, scalar(low))):
            return False
    if high is not None and not all_true(pc.less_equal(sizes, scalar(high))):
        return all_true(pc.less_equal(pc.utf8_length(values), scalar(high)))
    return True


@cache
def _value_set(values: tuple[Any, ...], kind: pyarrow.DataType) -> pyarrow.Array:
    return array_of(values, kind)
