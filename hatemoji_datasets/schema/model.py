"""The schema language as people write it: the raw-file model base, coded rules, row helpers.

A dataset's schema module declares one ``RawFileModel`` per upstream file
format. Its own rules are declared with :func:`rule` (a whole-row rule) or
:func:`column_rule` (one column), each with a stable code;
:mod:`hatemoji_datasets.schema.engine` runs a model and turns its failures into
findings.

Rules that compare a row with the file it came from (HatemojiBuild's split
rule, for instance) read which split's file each row was read from: the
raw reader records it in the frame with :func:`with_source_splits` and rules
read it back with :func:`source_splits`. Where several files of one format
make a split (one per language), :func:`row_sources` says which pinned source
each row was read from, recorded with :func:`with_row_sources`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pandera.pandas as pa

# -- which split's file each row came from ----------------------------------------------

#: ``DataFrame.attrs`` key: which split's file each row came from, as run lengths
#: ``((split, rows), ...)`` (small, so pandas copies it cheaply), for rules that
#: compare a row with its file.
SOURCE_SPLITS = "source_splits"


def source_splits(frame: pd.DataFrame) -> pd.Series | None:
    """The split each row of ``frame`` was read from, if the reader recorded it."""
    return _per_row(frame, SOURCE_SPLITS)


def _per_row(frame: pd.DataFrame, key: str) -> pd.Series | None:
    """The ``(name, rows)`` runs recorded under ``frame.attrs[key]``, one name per row."""
    runs = frame.attrs.get(key)
    if runs is None:
        return None
    names = [name for name, _ in runs]
    values = np.repeat(np.array(names, dtype=object), [n for _, n in runs])
    return pd.Series(values, index=frame.index)


def split_runs(splits: pd.Series) -> list[tuple[str | None, int]]:
    """Per-row split names as ``[(split, rows), ...]`` runs (missing names are None)."""
    values = pd.Series(splits, dtype=object).fillna("").astype(str).to_numpy()
    if len(values) == 0:
        return []
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    lengths = np.diff(np.append(starts, len(values)))
    return [(values[start] or None, int(n)) for start, n in zip(starts, lengths, strict=True)]


def with_source_splits(frame: pd.DataFrame, runs: list[tuple[str | None, int]]) -> pd.DataFrame:
    """Record which split's file each row of ``frame`` came from, as ``(split, rows)`` runs."""
    frame.attrs[SOURCE_SPLITS] = tuple(runs)
    return frame


# -- which pinned source each row came from -----------------------------------------------

#: ``DataFrame.attrs`` key: which pinned source each row was read from, as run lengths
#: ``((source, rows), ...)``, for rules that compare a row with its file when several
#: files of one format make a split (a language per file). None where it is not known.
ROW_SOURCES = "row_sources"


def row_sources(frame: pd.DataFrame) -> pd.Series | None:
    """The pinned source each row of ``frame`` was read from (None where unknown)."""
    return _per_row(frame, ROW_SOURCES)


def with_row_sources(frame: pd.DataFrame, runs: list[tuple[str | None, int]]) -> pd.DataFrame:
    """Record which pinned source each row of ``frame`` came from, as ``(source, rows)`` runs."""
    frame.attrs[ROW_SOURCES] = tuple(runs)
    return frame


# -- values several formats share ---------------------------------------------------------

#: An optional reference to a row: empty, or a positive integer (written ``12`` or ``12.0``).
OPTIONAL_ID = r"^(|[1-9][0-9]*(\.0)?)$"


def optional_ids(values: pd.Series) -> pd.Series:
    """Optional ids (``12``, ``12.0`` or empty) as nullable integers."""
    numbers = pd.to_numeric(values.astype(str).where(values.astype(str) != ""), errors="coerce")
    return numbers.where(numbers == numbers.round()).astype("Int64")


def is_in(values: pd.Series, allowed: pd.Series | pd.Index) -> pd.Series:
    """``values.isin(allowed)`` for a long ``allowed``, through one hash table of plain
    objects: pandas 3's Arrow-backed strings make a pyarrow scalar of every allowed value in
    Python (about 0.5 s for Multilingual HateCheck's 36,582 case ids, now 0.02 s)."""
    return values.astype(object).isin(pd.Index(allowed).astype(object))


def looked_up(keys: pd.Series, values: pd.Series, wanted: pd.Series) -> pd.Series:
    """For each ``wanted`` key, the value of the first row with that key (missing where
    none), aligned with ``wanted``."""
    first = pd.Series(values.to_numpy(), index=keys.to_numpy()).groupby(level=0).first()
    return pd.Series(wanted.map(first).to_numpy(), index=wanted.index)


# -- models and rules ---------------------------------------------------------------------


class RawFileModel(pa.DataFrameModel):
    """Base of every raw-file schema: exactly the upstream columns, values coerced.

    Subclasses give ``class Config: name = ...``; pandera merges it with this one.
    """

    class Config:
        strict = True
        coerce = True


@dataclass(frozen=True)
class RuleInfo:
    """What a dataset rule reports: its code, the column it speaks of, what it expects."""

    code: str
    message: str
    column: str | None = None
    #: ``expected(frame) -> Series``: the value the rule wanted in ``column``, per row.
    expected: Callable[[pd.DataFrame], pd.Series] | None = None
    #: The columns the rule reads (its ``column`` first). A finding on one of the others
    #: never hides the rule's (findings are independent); one on its own cell does.
    reads: tuple[str, ...] = ()
    #: ``detail(frame) -> Series``: per row, what the message adds (missing: nothing),
    #: such as the language a value belongs to.
    detail: Callable[[pd.DataFrame], pd.Series] | None = None


def rule(
    code: str,
    message: str,
    *,
    column: str | None = None,
    expected: Callable[[pd.DataFrame], pd.Series] | None = None,
    reads: tuple[str, ...] = (),
    detail: Callable[[pd.DataFrame], pd.Series] | None = None,
) -> Callable:
    """A whole-row rule of a ``RawFileModel`` (a pandera dataframe check) with its code.

    ``column`` is the column a failing row is reported under (its value is
    shown); ``expected`` computes the value the rule wanted there; ``reads``
    names the other columns it compares. The rule is reported whatever those
    cells hold; only a column check's error on ``column`` itself stands for it.
    ``detail`` computes, per row, what the message adds after a semicolon.
    """

    def decorate(function: Callable) -> Any:
        inputs = tuple(dict.fromkeys((*((column,) if column else ()), *reads)))
        function.__rule__ = RuleInfo(code, message, column, expected, inputs, detail)
        return pa.dataframe_check(error=message)(function)

    return decorate


def column_rule(column: str, code: str, message: str) -> Callable:
    """A one-column, element-wise rule of a ``RawFileModel`` with its code."""

    def decorate(function: Callable) -> Any:
        function.__rule__ = RuleInfo(code, message, column, reads=(column,))
        return pa.check(column, element_wise=True, error=message)(function)

    return decorate


Model = type[pa.DataFrameModel] | pa.DataFrameSchema


def rules_of(model: Model) -> dict[str, RuleInfo]:
    """The coded rules a model declares, by message (what pandera reports), in the order
    they are declared (a base model's first)."""
    found: dict[str, RuleInfo] = {}
    if isinstance(model, pa.DataFrameSchema):
        return found
    for cls in reversed(model.__mro__):
        for attribute in vars(cls).values():
            info = getattr(getattr(attribute, "__func__", attribute), "__rule__", None)
            if isinstance(info, RuleInfo):
                found[info.message] = info
    return found
