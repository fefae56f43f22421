"""A raw-file schema's checks run straight over the frame, as pandera would run them.

pandera stays the schema language: the columns, their types, built-in checks,
uniqueness and every coded rule are read from the compiled
``DataFrameSchema``. What this module leaves out is pandera's validation
machinery around them (a copy of the frame, the registration of its backends,
which imports ``hypothesis`` when it is installed, and failure-case frames of
one row per failing cell per column), which costs more than the checks on
small files and a second copy of the table on large ones.

:func:`failure_cases` answers only where it can say exactly what pandera's
lazy validation would report: a frame already of the schema's types (integer
columns int64, text columns strings, no missing value), checks it knows, rule
outputs that are boolean Series on the frame's index, and at most one failing
column check per cell (pandera's report order, which decides the finding of a
cell that fails twice, is not reproduced). Anything else returns ``None``, and
the caller runs pandera itself. A test compares both on every kind of input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import pandera.pandas as pa
from pandera.config import ValidationDepth, get_config_context
from pandera.engines import pandas_engine


class Case(NamedTuple):
    """One failure case, as a row of pandera's ``SchemaErrors.failure_cases``."""

    schema_context: str
    column: str | None
    check: str
    index: int | None
    failure_case: Any


#: pandera's built-in checks, as its pandas backend computes them (same operations,
#: same data, so the same answers; ``tests/test_schema_checks.py`` compares).
BUILTINS: dict[str, Callable[..., pd.Series]] = {
    "equal_to": lambda data, value: data == value,
    "not_equal_to": lambda data, value: data != value,
    "greater_than": lambda data, min_value: data > min_value,
    "greater_than_or_equal_to": lambda data, min_value: data >= min_value,
    "less_than": lambda data, max_value: data < max_value,
    "less_than_or_equal_to": lambda data, max_value: data <= max_value,
    "isin": lambda data, allowed_values: data.isin(allowed_values),
    "notin": lambda data, forbidden_values: ~data.isin(forbidden_values),
    "str_matches": lambda data, pattern: data.str.match(pattern, na=False),
    "str_contains": lambda data, pattern: data.str.contains(pattern, na=False),
    "str_startswith": lambda data, string: data.str.startswith(string, na=False),
    "str_endswith": lambda data, string: data.str.endswith(string, na=False),
}


class _Unsupported(Exception):
    """The schema or frame is outside what this module reproduces exactly."""


def failure_cases(schema: pa.DataFrameSchema, frame: pd.DataFrame) -> list[Case] | None:
    """Every failure case of ``schema`` over ``frame``, or None where pandera must say."""
    try:
        return _failure_cases(schema, frame)
    except _Unsupported:
        return None
    except Exception:  # a check that raises: pandera reports it its own way
        return None


def _failure_cases(schema: pa.DataFrameSchema, frame: pd.DataFrame) -> list[Case]:
    _require_plain(schema, frame)
    cases: list[Case] = []
    cells: set[tuple[int, str]] = set()
    for name, column in schema.columns.items():
        if name not in frame.columns:
            if column.required:
                raise _Unsupported  # the caller reports missing columns itself
            continue
        series = frame[name]
        _require_typed(column, series)
        failed: list[tuple[str, np.ndarray]] = []
        if column.unique and not series.is_unique:
            keep = {"all": False, "exclude_first": "first", "exclude_last": "last"}
            duplicated = series.duplicated(keep=keep[column.report_duplicates])
            failed.append(("field_uniqueness", duplicated.to_numpy()))
        for check in column.checks:
            failed.append((_identifier(check), ~_column_check(check, series)))
        for identifier, mask in failed:
            for position in np.flatnonzero(mask):
                if (int(position), name) in cells:
                    raise _Unsupported  # a cell failing twice: pandera's order decides
                cells.add((int(position), name))
                cases.append(Case("Column", name, identifier, int(position), series.iat[position]))
    for check in schema.checks:
        passed = _frame_check(check, frame)
        for position in np.flatnonzero(~passed):
            cases.append(Case("DataFrameSchema", None, _identifier(check), int(position), None))
    return cases


def _require_plain(schema: pa.DataFrameSchema, frame: pd.DataFrame) -> None:
    config = get_config_context()
    if not config.validation_enabled or config.validation_depth not in (
        None,
        ValidationDepth.SCHEMA_AND_DATA,
    ):
        raise _Unsupported
    plain_schema = (
        schema.coerce
        and schema.dtype is None
        and schema.index is None
        and not schema.unique
        and not schema.parsers
        and not getattr(schema, "drop_invalid_rows", False)
        and not getattr(schema, "add_missing_columns", False)
    )
    if not plain_schema or not isinstance(frame.index, pd.RangeIndex) or frame.index.start != 0:
        raise _Unsupported
    if frame.index.step != 1 or frame.columns.has_duplicates:
        raise _Unsupported


def _require_typed(column: Any, series: pd.Series) -> None:
    """The column as pandera leaves it after coercion: its type already, no missing value."""
    extras = (getattr(column, name, None) for name in ("parsers", "default", "drop_invalid_rows"))
    if column.regex or column.nullable or any(extras) or series.hasnans:
        raise _Unsupported
    text = str(series.dtype)
    if text not in ("int64", "str"):
        raise _Unsupported
    matches = column.dtype.check(pandas_engine.Engine.dtype(series.dtype), series)
    if not (matches if isinstance(matches, bool) else bool(np.all(matches))):
        raise _Unsupported  # coercion would change this column, or fail


def _identifier(check: pa.Check) -> str:
    """How pandera names a check in its failure cases."""
    if check.error is not None:
        return check.error
    return check.name if check.name is not None else str(check)


def _column_check(check: pa.Check, series: pd.Series) -> np.ndarray:
    if check.groupby is not None or check.n_failure_cases is not None:
        raise _Unsupported
    if check.element_wise:
        passed = series.map(_bound(check))
    elif check.name == "str_length":
        passed = _str_length(series, **check._check_kwargs)
    elif check.name in BUILTINS:
        passed = BUILTINS[check.name](series, **check._check_kwargs)
    else:  # a dataset rule of one column, vectorised (its answer must be one per row)
        passed = _bound(check)(series)
    return _boolean(passed, series.index)


def _frame_check(check: pa.Check, frame: pd.DataFrame) -> np.ndarray:
    if check.element_wise or check.groupby is not None or check.n_failure_cases is not None:
        raise _Unsupported
    return _boolean(_bound(check)(frame), frame.index)


def _bound(check: pa.Check) -> Callable[..., Any]:
    function, kwargs = check._check_fn, check._check_kwargs
    return (lambda data: function(data, **kwargs)) if kwargs else function


def _boolean(output: Any, index: pd.Index) -> np.ndarray:
    """A check's answer per row, where it is a boolean Series on the frame's rows.

    pandas' nullable ``boolean`` counts as one when no answer is missing (pandera
    reads a missing answer its own way).
    """
    if not isinstance(output, pd.Series) or not output.index.equals(index):
        raise _Unsupported
    if output.dtype == bool:
        return output.to_numpy()
    if str(output.dtype) == "boolean" and not output.hasnans:
        return output.to_numpy(dtype=bool)
    raise _Unsupported


def _str_length(
    data: pd.Series,
    min_value: int | None = None,
    max_value: int | None = None,
    exact_value: int | None = None,
) -> pd.Series:
    length = data.str.len()
    if exact_value is not None:
        return length == exact_value
    if min_value is None and max_value is None:
        raise _Unsupported
    if max_value is None:
        return length >= min_value
    if min_value is None:
        return length <= max_value
    return (length <= max_value) & (length >= min_value)
