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
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd
import pandera.pandas as pa
import pyarrow
import pyarrow.csv as pcsv
from pandera.errors import SchemaErrors

from hatemoji_datasets.errors import InputError, SchemaViolationError

VALUE_PREVIEW = 60
#: pyarrow's CSV block size: larger than its 1 MiB default parses faster on these
#: machines (measured with benchmarks/validate_scaling.py).
READ_BLOCK_BYTES = 4 << 20


class RawFileModel(pa.DataFrameModel):
    """Base of every raw-file schema: exactly the upstream columns, values coerced.

    Subclasses give ``class Config: name = ...``; pandera merges it with this one.
    """

    class Config:
        strict = True
        coerce = True


@dataclass(frozen=True)
class TableFormat:
    """How an upstream file is laid out on disk."""

    delimiter: str = ","
    #: ``csv.QUOTE_MINIMAL`` for ordinary CSV, ``csv.QUOTE_NONE`` for files whose
    #: quote characters are data (BEEP!'s TSVs).
    quoting: int = csv.QUOTE_MINIMAL


#: Ordinary comma-separated values with a header row.
CSV = TableFormat()


@dataclass(frozen=True)
class UpstreamFormat:
    """How rows of one config are written upstream, and so by contributors."""

    schema: type[pa.DataFrameModel] | pa.DataFrameSchema
    #: ``None`` for the built format (Parquet).
    table: TableFormat | None
    #: ``checksums.tsv`` names of the released files in this format.
    released: tuple[str, ...]
    #: The column that identifies a row: its id, or its text where rows have no id.
    key_column: str
    text_column: str
    #: A column the schema needs that is not in the file (which file a row came
    #: from); released rows get their source name, a contributed file what
    #: ``source_of`` says for it.
    source_column: str | None = None
    source_of: Callable[[str, pd.DataFrame], pd.Series] | None = None
    #: The schema has rules across rows (pairs): check a contribution together
    #: with the released rows it does not contain, so partners can be found.
    cross_row_rules: bool = False


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


def read_table(
    path: str | os.PathLike[str],
    fmt: TableFormat,
    integer_columns: Iterable[str] = (),
) -> pd.DataFrame:
    """Read an upstream file with every cell as an exact, unconverted string.

    Nothing is stripped, normalised or treated as missing, so texts stay byte
    for byte as upstream wrote them. pyarrow's multi-threaded reader does the
    work; the slow, exact diagnostics (which line is malformed) run only when
    something is wrong. A file that cannot be read raises InputError.

    ``integer_columns`` are parsed as int64 straight away when every value
    allows it (much faster than coercing strings later); if any does not, the
    whole file is read as strings so the schema can name each bad value.
    """
    name = os.fspath(path)
    header = _header(name, fmt)
    integers = [column for column in integer_columns if column in header]
    if integers:
        try:
            return _read(name, fmt, header, dict.fromkeys(integers, pyarrow.int64()))
        except _ConversionError:
            pass
    return _read(name, fmt, header, {})


class _ConversionError(Exception):
    """A column could not be parsed with the requested type."""


def _read(
    name: str, fmt: TableFormat, header: list[str], types: dict[str, pyarrow.DataType]
) -> pd.DataFrame:
    data = pyarrow.memory_map(name).read_buffer()  # zero-copy
    raw = np.frombuffer(data, dtype=np.uint8)
    newlines = np.flatnonzero(raw == ord("\n"))
    gaps = np.diff(newlines)
    if (gaps == 1).any() or ((gaps == 2) & (raw[newlines[:-1] + 1] == ord("\r"))).any():
        _reject_blank_lines(name, fmt)  # pyarrow would skip blank lines silently
    lines = len(newlines) + int(raw[-1] != ord("\n"))
    column_types = {column: types.get(column, pyarrow.string()) for column in header}
    quoted = fmt.quoting != csv.QUOTE_NONE
    if quoted:
        # pyarrow is several times faster when no value spans lines. Try that
        # first: if every physical line after the header became one row, no
        # value held a newline and the result is exact; otherwise parse again
        # allowing them.
        try:
            table = _parse(name, data, fmt, header, column_types, newlines_in_values=False)
        except (InputError, pyarrow.ArrowInvalid):
            table = None
        if table is not None and table.num_rows == lines - 1:
            return table.to_pandas()
    return _parse(name, data, fmt, header, column_types, newlines_in_values=quoted).to_pandas()


def _records(name: str, fmt: TableFormat) -> Iterator[tuple[int, list[str]]]:
    """Each record of the file (header first) with the 1-based line it starts on.

    The slow, exact reading behind every diagnostic; quoted fields can span lines.
    """
    with open(name, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter=fmt.delimiter, quoting=fmt.quoting)
        start = 1
        for record in reader:
            yield start, record
            start = reader.line_num + 1


def _first_few(items: list[str], separator: str) -> str:
    more = f"{separator}and {len(items) - 5} more" if len(items) > 5 else ""
    return separator.join(items[:5]) + more


def _reject_blank_lines(name: str, fmt: TableFormat) -> None:
    """Raise InputError naming blank lines outside quoted values, if there are any."""
    blank = [str(start) for start, record in _records(name, fmt) if not record]
    if blank:
        raise InputError(
            f"{name}: blank line(s) {_first_few(blank, ', ')}: every line must be a row"
        )


def _parse(
    name: str,
    data: pyarrow.Buffer,
    fmt: TableFormat,
    header: list[str],
    column_types: dict[str, pyarrow.DataType],
    *,
    newlines_in_values: bool,
) -> pyarrow.Table:
    malformed: list[object] = []
    try:
        table = pcsv.read_csv(
            pyarrow.BufferReader(data),
            read_options=pcsv.ReadOptions(block_size=READ_BLOCK_BYTES),
            parse_options=pcsv.ParseOptions(
                delimiter=fmt.delimiter,
                quote_char=False if fmt.quoting == csv.QUOTE_NONE else '"',
                newlines_in_values=newlines_in_values,
                invalid_row_handler=lambda row: malformed.append(row) or "skip",
            ),
            convert_options=pcsv.ConvertOptions(
                column_types=column_types,
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except pyarrow.ArrowInvalid as exc:
        if "UTF8" in str(exc):
            raise InputError(f"{name}:{_first_non_utf8_line(name)}: not UTF-8") from exc
        if "conversion error" in str(exc) and any(
            t != pyarrow.string() for t in column_types.values()
        ):
            raise _ConversionError(str(exc)) from exc
        raise InputError(f"{name}: cannot be parsed as delimited text: {exc}") from exc
    if malformed:
        raise InputError(_field_count_message(name, fmt, len(header)))
    return table


def _header(name: str, fmt: TableFormat) -> list[str]:
    """The header row; checks the file exists, is not empty and uses the delimiter."""
    try:
        with open(name, encoding="utf-8", newline="") as handle:
            header = next(csv.reader(handle, delimiter=fmt.delimiter, quoting=fmt.quoting), None)
    except FileNotFoundError as exc:
        raise InputError(f"{name}: file not found") from exc
    except IsADirectoryError as exc:
        raise InputError(f"{name}: is a folder, not a file") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}:{_first_non_utf8_line(name)}: not UTF-8") from exc
    if not header or header == [""]:
        raise InputError(f"{name}: file is empty (no header row)")
    repeated = sorted({column for column in header if header.count(column) > 1})
    if repeated:
        raise InputError(f"{name}:1: the header repeats column(s) {', '.join(map(repr, repeated))}")
    if len(header) == 1:
        others = [d for d in (",", "\t", ";", "|") if d != fmt.delimiter and d in header[0]]
        if others:
            raise InputError(
                f"{name}:1: expected {fmt.delimiter!r}-delimited columns, "
                f"but the header is split by {others[0]!r}"
            )
    return header


def _first_non_utf8_line(name: str) -> int:
    data = Path(name).read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return data.count(b"\n", 0, exc.start) + 1
    return 1


def _field_count_message(name: str, fmt: TableFormat, expected: int) -> str:
    bad = [
        f"line {start} has {len(record)}"
        for start, record in _records(name, fmt)
        if record and len(record) != expected
    ]
    return f"{name}: rows must have the header's {expected} fields, but {_first_few(bad, '; ')}"


def record_lines(path: str | os.PathLike[str], fmt: TableFormat) -> list[int]:
    """The 1-based line on which each data record starts (blank lines are not records)."""
    records = _records(os.fspath(path), fmt)
    next(records, None)  # the header
    return [start for start, record in records if record]


#: Called only when something fails: the (file, 1-based line) of each positional row.
Locator = Callable[[], list[tuple[str, int]]]


def _as_schema(schema: type[pa.DataFrameModel] | pa.DataFrameSchema) -> pa.DataFrameSchema:
    return schema if isinstance(schema, pa.DataFrameSchema) else schema.to_schema()


def check_frame(
    schema: type[pa.DataFrameModel] | pa.DataFrameSchema,
    frame: pd.DataFrame,
    *,
    file: str,
    locate: Locator | None = None,
) -> tuple[pd.DataFrame | None, list[Violation]]:
    """Validate ``frame`` lazily; return the coerced frame and every violation.

    Missing or unexpected columns are reported alone: row rules over a table
    of the wrong shape only add noise. Without ``locate`` a row is reported in
    ``file`` at its 0-based position plus two (the header is line 1).
    """
    structural = _column_violations(schema, frame, file)
    if structural:
        return None, structural
    try:
        return schema.validate(frame, lazy=True), []
    except SchemaErrors as errors:
        places = locate() if locate else None
        found = _violations(errors.failure_cases, file, places)
        return None, sorted(_without_echoes(set(found)), key=violation_order)


def _column_violations(
    schema: type[pa.DataFrameModel] | pa.DataFrameSchema, frame: pd.DataFrame, file: str
) -> list[Violation]:
    expected = list(_as_schema(schema).columns)
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
    return validate_files(schema, {os.fspath(path): path}, fmt)


def validate_files(
    schema: type[pa.DataFrameModel],
    paths: Mapping[str, str | os.PathLike[str]],
    fmt: TableFormat,
    *,
    source_column: str | None = None,
) -> tuple[pd.DataFrame | None, list[Violation]]:
    """Validate several files of one format as one table, for rules that span files.

    ``paths`` maps a key (a split name, say) to a file. With ``source_column``
    each row also gets that key in a column of that name, for rules such as
    "the split column agrees with the file"; the schema must declare it.
    Violations name each row's own file and line.
    """
    names = {key: os.fspath(path) for key, path in paths.items()}
    frames = []
    for key, name in names.items():
        frame = read_table(name, fmt, integer_columns(schema))
        if source_column is not None:
            frame[source_column] = key
        frames.append(frame)
    combined = pd.concat(frames, ignore_index=True)

    def locate() -> list[tuple[str, int]]:
        return [place for name in names.values() for place in _places(name, fmt)]

    return check_frame(schema, combined, file=", ".join(names.values()), locate=locate)


def integer_columns(schema: type[pa.DataFrameModel] | pa.DataFrameSchema) -> list[str]:
    """The columns a schema types as integers (read as int64 when possible)."""
    columns = _as_schema(schema).columns
    return [name for name, column in columns.items() if "int" in str(column.dtype).lower()]


def _places(name: str, fmt: TableFormat) -> list[tuple[str, int]]:
    return [(name, line) for line in record_lines(name, fmt)]


def raise_for(violations: Iterable[Violation]) -> None:
    errors = [v for v in violations if v.severity == "error"]
    if errors:
        raise SchemaViolationError(errors)


def violation_order(v: Violation) -> tuple:
    """Stable report order: file, line (file-wide findings first), column, rule, value."""
    return (v.file, v.line if v.line is not None else -1, v.column or "", v.rule, v.value or "")


def _violations(
    cases: pd.DataFrame, file: str, places: list[tuple[str, int]] | None
) -> Iterable[Violation]:
    for case in cases.itertuples(index=False):
        index = case.index
        where, line = file, None
        if index is not None and not (isinstance(index, float) and pd.isna(index)):
            position = int(index)
            if places and position < len(places):
                where, line = places[position]
            else:
                line = position + 2
        rule = str(case.check)
        column = None if case.column is None else str(case.column)
        if case.schema_context == "DataFrameSchema" and column:
            # A whole-frame check: pandera repeats it once per column; report it once.
            yield Violation(where, line, None, rule)
        elif case.schema_context == "DataFrameSchema":
            yield Violation(where, None, preview(case.failure_case), rule)
        else:
            yield Violation(where, line, column, rule, preview(case.failure_case))
