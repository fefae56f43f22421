"""Reading raw upstream tables and checking them against pandera schemas.

One definition serves the build and, later, the contribution gate: a schema
module declares a ``DataFrameModel`` per file format, and :func:`check_frame`
runs it lazily and turns pandera's failure cases into :class:`Violation`
records that name the file, the 1-based line, the column, the rule and the
offending value.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

import pandas as pd
import pandera.pandas as pa
from pandera.errors import SchemaErrors

from hatemoji_datasets.errors import InputError, SchemaViolationError

VALUE_PREVIEW = 60


@dataclass(frozen=True)
class TableFormat:
    """How an upstream file is laid out on disk."""

    delimiter: str = ","
    #: ``csv.QUOTE_MINIMAL`` for ordinary CSV, ``csv.QUOTE_NONE`` for files whose
    #: quote characters are data (BEEP!'s TSVs).
    quoting: int = csv.QUOTE_MINIMAL


@dataclass(frozen=True, order=True)
class Violation:
    """One broken rule in one place of one file."""

    file: str
    line: int | None
    column: str | None
    rule: str
    value: str | None = None
    severity: Literal["error", "warning"] = field(default="error", compare=False)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        column = f" column {self.column!r}:" if self.column else ""
        value = f" (value {self.value!r})" if self.value is not None else ""
        return f"{where}:{column} {self.rule}{value}"


def preview(value: object) -> str | None:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    text = str(value)
    return text if len(text) <= VALUE_PREVIEW else text[: VALUE_PREVIEW - 1] + "…"


def read_table(path: str | os.PathLike[str], fmt: TableFormat) -> pd.DataFrame:
    """Read an upstream file with every cell as an exact, unconverted string.

    Nothing is stripped, normalised or treated as missing, so texts stay byte
    for byte as upstream wrote them.
    """
    name = os.fspath(path)
    try:
        frame = pd.read_csv(
            name,
            sep=fmt.delimiter,
            quoting=fmt.quoting,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            encoding="utf-8",
            encoding_errors="strict",
        )
    except FileNotFoundError as exc:
        raise InputError(f"{name}: file not found") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 (byte offset {exc.start})") from exc
    except pd.errors.EmptyDataError as exc:
        raise InputError(f"{name}: file is empty") from exc
    except pd.errors.ParserError as exc:
        raise InputError(f"{name}: cannot be parsed as delimited text: {exc}") from exc
    return frame


def record_lines(path: str | os.PathLike[str], fmt: TableFormat) -> list[int]:
    """The 1-based line on which each data record starts (quoted fields can span lines)."""
    starts: list[int] = []
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter=fmt.delimiter, quoting=fmt.quoting)
        previous_end = 0
        for index, _ in enumerate(reader):
            if index:  # the header is not a record
                starts.append(previous_end + 1)
            previous_end = reader.line_num
    return starts


def check_frame(
    schema: type[pa.DataFrameModel],
    frame: pd.DataFrame,
    *,
    file: str,
    lines: Callable[[], list[int]] | None = None,
) -> tuple[pd.DataFrame | None, list[Violation]]:
    """Validate ``frame`` lazily; return the coerced frame and every violation.

    Missing or unexpected columns are reported alone: row rules over a table
    of the wrong shape only add noise. ``lines`` is called only when something
    fails; it maps the frame's positional index to file lines. Without it a
    row is reported as its 0-based position plus two (the header is line 1).
    """
    structural = _column_violations(schema, frame, file)
    if structural:
        return None, structural
    try:
        return schema.validate(frame, lazy=True), []
    except SchemaErrors as errors:
        found = _violations(errors.failure_cases, file, lines() if lines else None)
        return None, sorted(_without_echoes(set(found)), key=_order)


def _column_violations(
    schema: type[pa.DataFrameModel], frame: pd.DataFrame, file: str
) -> list[Violation]:
    expected = list(schema.to_schema().columns)
    present = [str(column) for column in frame.columns]
    found = [Violation(file, 1, c, "missing column") for c in expected if c not in present]
    found += [Violation(file, 1, c, "unexpected column") for c in present if c not in expected]
    return found


def _without_echoes(found: set[Violation]) -> list[Violation]:
    """Drop pandera's repeats of a failed type coercion (the dtype check, row-less errors)."""
    uncoercible = {(v.line, v.column) for v in found if v.rule.startswith("coerce_dtype")}
    columns = {column for _, column in uncoercible}
    return [
        v
        for v in found
        if not (v.rule.startswith("dtype(") and (v.line, v.column) in uncoercible)
        and not (v.line is None and v.column in columns)
    ]


def validate_file(
    schema: type[pa.DataFrameModel], path: str | os.PathLike[str], fmt: TableFormat
) -> tuple[pd.DataFrame | None, list[Violation]]:
    """Read and validate one file, naming file lines in any violation."""
    name = os.fspath(path)
    frame = read_table(name, fmt)
    return check_frame(schema, frame, file=name, lines=lambda: record_lines(name, fmt))


def raise_for(violations: Iterable[Violation]) -> None:
    errors = [v for v in violations if v.severity == "error"]
    if errors:
        raise SchemaViolationError(errors)


def _order(v: Violation) -> tuple:
    return (v.file, v.line if v.line is not None else -1, v.column or "", v.rule, v.value or "")


def _violations(cases: pd.DataFrame, file: str, lines: list[int] | None) -> Iterable[Violation]:
    for case in cases.itertuples(index=False):
        index = case.index
        line = None
        if index is not None and not (isinstance(index, float) and pd.isna(index)):
            position = int(index)
            line = lines[position] if lines and position < len(lines) else position + 2
        rule = str(case.check)
        if case.schema_context == "DataFrameSchema" and case.column not in (None, ""):
            # A whole-frame check: pandera repeats it once per column; report it once.
            yield Violation(file, line, None, rule)
            continue
        column = None if case.column is None else str(case.column)
        if case.schema_context == "DataFrameSchema" and column is None:
            yield Violation(file, None, preview(case.failure_case), rule)
            continue
        yield Violation(file, line, column, rule, preview(case.failure_case))
