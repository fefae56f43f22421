"""The schema language as people write it: the raw-file model base, coded rules, row helpers.

A dataset's schema module declares one ``RawFileModel`` per upstream file
format. Its own rules are written once, in its ``rules.py``
(:mod:`hatemoji_datasets.schema.rules`), and become the model's checks through
:func:`rule`; :mod:`hatemoji_datasets.schema.engine` runs a model and turns its
failures into findings.

Rules that compare a row with the file it came from (HatemojiBuild's split
rule, for instance) read which split's file each row was read from: the
raw reader records it in the frame with :func:`with_source_splits` and rules
read it back with :func:`source_splits`. Where several files of one format
make a split (one per language), :func:`row_sources` says which pinned source
each row was read from, recorded with :func:`with_row_sources`.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pandera.pandas as pa
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import numpy_of
from hatemoji_datasets.schema.rules import Rows, Rule

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


# -- models and rules ---------------------------------------------------------------------


class RawFileModel(pa.DataFrameModel):
    """Base of every raw-file schema: exactly the upstream columns, values coerced.

    Subclasses give ``class Config: name = ...``; pandera merges it with this one.
    """

    class Config:
        strict = True
        coerce = True


def rule(declared: Rule) -> Any:
    """A rule of a ``RawFileModel``, written once (:mod:`hatemoji_datasets.schema.rules`), as
    a pandera check: a dataframe check, or a check of its column where it reads that
    alone. The check hands the rule the frame's columns as Arrow arrays. Use it as a
    class attribute, ``template_id_agrees = rule(TEMPLATE_ID)``: the check is named by it.
    """

    def check(cls: Any, data: pd.DataFrame | pd.Series) -> pd.Series:
        if isinstance(data, pd.Series):
            rows = Rows({declared.column: _arrow(data)}, len(data))
        else:
            rows = rows_of(data)
        kept = pc.fill_null(declared.check(rows), False)
        return pd.Series(numpy_of(kept), index=data.index)

    check.__rule__ = declared  # type: ignore[attr-defined]
    method = _Named(check)
    if declared.of_column:
        return pa.check(declared.column, error=declared.message)(method)
    return pa.dataframe_check(error=declared.message)(method)


class _Named(classmethod):
    """A check method named by the attribute that holds it (pandera names a check by its
    function)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.__func__.__name__ = self.__func__.__qualname__ = name


_last_rows: tuple[weakref.ref, Rows] | None = None


def rows_of(frame: pd.DataFrame) -> Rows:
    """A frame's columns as a rule reads them (int64 where the schema typed them, text
    otherwise), with the split and source of each row where the reader recorded them;
    made once per frame for all its rules."""
    global _last_rows
    if _last_rows is not None and _last_rows[0]() is frame:
        return _last_rows[1]
    columns = {str(name): _arrow(frame[name]) for name in frame.columns}
    splits, sources = source_splits(frame), row_sources(frame)
    rows = Rows(columns, len(frame), sources=_texts(sources), splits=_texts(splits))
    _last_rows = (weakref.ref(frame), rows)
    return rows


def _arrow(values: pd.Series) -> pyarrow.Array:
    if str(values.dtype) == "int64":
        return pyarrow.array(values.to_numpy(), pyarrow.int64())
    return _texts(values.astype(str))


def _texts(values: pd.Series | None) -> pyarrow.Array | None:
    if values is None:
        return None
    return pyarrow.array(values.to_numpy(dtype=object), pyarrow.string(), from_pandas=True)


def values_of(function: Callable[[Rows], Any], frame: pd.DataFrame) -> list[Any]:
    """A rule's ``expected`` or ``detail`` over a frame, one Python value per row."""
    return _array(function(rows_of(frame))).to_pylist()


def _array(values: Any) -> pyarrow.Array:
    if isinstance(values, pyarrow.ChunkedArray):
        return values.combine_chunks()
    return values if isinstance(values, pyarrow.Array) else pyarrow.array(values)


Model = type[pa.DataFrameModel] | pa.DataFrameSchema


def rules_of(model: Model) -> dict[str, Rule]:
    """The coded rules a model declares, by message (what pandera reports), in the order
    they are declared (a base model's first)."""
    found: dict[str, Rule] = {}
    if isinstance(model, pa.DataFrameSchema):
        return found
    for cls in reversed(model.__mro__):
        for attribute in vars(cls).values():
            info = getattr(getattr(attribute, "__func__", attribute), "__rule__", None)
            if isinstance(info, Rule):
                found[info.message] = info
    return found
