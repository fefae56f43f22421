"""The one raw reader: an upstream-format file to a ``pyarrow`` table plus a line locator.

Builds and ``validate`` both read through :func:`read_raw`. Every cell comes
back as an exact, unconverted string (integer columns as int64 when every
value allows it): nothing is stripped, normalised or treated as missing, so
texts stay byte for byte as upstream wrote them. pyarrow's multi-threaded
reader does the work; the slow, exact diagnostics (which line is malformed)
run only when something is wrong, and every problem becomes an
:class:`~hatemoji_datasets.core.errors.InputError` carrying a coded finding.
"""

from __future__ import annotations

import csv
import itertools
import os
import sys
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

import pyarrow
import pyarrow.csv as pcsv

from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.file_reads import check_regular_file, unreadable
from hatemoji_datasets.core.spec import RawFormat
from hatemoji_datasets.raw import byte_scan

#: pyarrow's CSV block size: larger than its 1 MiB default parses faster on these
#: machines (measured with benchmarks/validate_scaling.py).
READ_BLOCK_BYTES = 4 << 20
#: Block size of a file read batch by batch: pyarrow parses a few blocks ahead, so
#: small blocks keep memory small (and were faster there, too).
STREAM_BLOCK_BYTES = 1 << 20
#: The largest block a row whose quoted values span lines is parsed in (its lines are each
#: within :data:`MAX_LINE_BYTES`); pyarrow takes block sizes as 32-bit integers.
MAX_PARSE_BLOCK_BYTES = 64 << 20
#: A header may have at most this many columns beyond the schema's before the file
#: is refused unread: wider headers cost time and memory for nothing.
EXTRA_COLUMNS_ALLOWED = 100

# Cells may be as large as the file: the csv module's 128 KiB default would make a
# valid file with a long text unreadable.
csv.field_size_limit(sys.maxsize)


@dataclass
class RawTable:
    """A raw file's rows, with the file line each row starts on (worked out on demand)."""

    path: str
    table: pyarrow.Table
    fmt: RawFormat
    _lines: list[int] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def num_rows(self) -> int:
        return self.table.num_rows

    def lines(self) -> list[int]:
        """The 1-based line on which each row starts (quoted values may span lines)."""
        with self._lock:  # rules run in two threads
            if self._lines is None:
                records = _records(self.path, self.fmt)
                next(records, None)  # the header
                self._lines = [start for start, record in records if record]
        return self._lines

    def places(self) -> list[tuple[str, int]]:
        return [(self.path, line) for line in self.lines()]


def read_raw(
    path: str | os.PathLike[str],
    fmt: RawFormat,
    integer_columns: Iterable[str] = (),
    *,
    max_columns: int | None = None,
) -> RawTable:
    """Read an upstream-format file; InputError when it cannot be read.

    ``integer_columns`` are parsed as int64 straight away when every value
    allows it (much faster than coercing strings later); if any does not, the
    whole file is read as strings so the schema can name each bad value.
    ``max_columns`` refuses a header wider than the schema allows, unread.
    """
    name = os.fspath(path)
    status = check_regular_file(name)
    if status.st_size == 0:
        raise unreadable(name, "FILE-EMPTY", "file is empty (no header row)")
    header = _header(name, fmt, max_columns)
    integers = [column for column in integer_columns if column in header]
    if integers:
        try:
            return RawTable(name, _read(name, fmt, header, integers), fmt)
        except ConversionError:
            pass
    return RawTable(name, _read(name, fmt, header, []), fmt)


class ConversionError(Exception):
    """A column could not be parsed with the requested type."""


def _read(name: str, fmt: RawFormat, header: list[str], integers: list[str]) -> pyarrow.Table:
    lines, blank, quotes = byte_scan.count_lines(name)  # refuses a line over MAX_LINE_BYTES first
    if blank:
        _reject_blank_lines(name, fmt)  # pyarrow would skip blank lines silently
    if fmt.quoted and quotes % 2:  # every closed quoted value holds an even number of quotes
        _reject_unclosed_quote(name, fmt)
    types = {column: pyarrow.string() for column in header}
    types.update(dict.fromkeys(integers, pyarrow.int64()))
    if fmt.quoted and os.path.getsize(name) > READ_BLOCK_BYTES:
        # Over several blocks pyarrow is several times faster when no value spans lines
        # (a file of one block is parsed once, allowing them: no boundary can cut one).
        # If every physical line after the header became one row, no value held a
        # newline and the result is exact; otherwise parse again allowing them.
        try:
            table = _parse(name, fmt, types, newlines_in_values=False)
        except (InputError, pyarrow.ArrowInvalid):
            table = None
        if table is not None and table.num_rows == lines - 1:
            return table
    return _parse(name, fmt, types, newlines_in_values=fmt.quoted)


def _parse(
    name: str,
    fmt: RawFormat,
    types: dict[str, pyarrow.DataType],
    *,
    newlines_in_values: bool,
) -> pyarrow.Table:
    # No Python invalid_row_handler: a callback held by pyarrow's worker threads can
    # abort the interpreter at exit, and one call per bad row is slow. A bad row
    # raises instead, and the exact diagnostics below name it. The file is a native
    # pyarrow file (never a Python buffer, for the same reason), opened by its name
    # as bytes so that any file name opens, and read in batches: memory stays near
    # the table's own size.
    block = READ_BLOCK_BYTES
    while True:
        try:
            with pyarrow.OSFile(os.fsencode(name)) as source:
                return _open(source, fmt, types, newlines_in_values, block).read_all()
        except pyarrow.ArrowInvalid as exc:
            if _straddling(exc, name, block) and block < MAX_PARSE_BLOCK_BYTES:
                # A row (its quoted values spanning lines) longer than a block: a larger one.
                block = min(os.path.getsize(name) + 1, MAX_PARSE_BLOCK_BYTES)
                continue
            if _straddling(exc, name, block):
                message = (
                    f"a row whose quoted values span lines is longer than "
                    f"{MAX_PARSE_BLOCK_BYTES >> 20} MiB, so the file is not read further"
                )
                raise unreadable(name, "FILE-LINE-TOO-LONG", message) from None
            raise _parse_error(exc, name, fmt, types) from None


def _open(
    source: pyarrow.NativeFile,
    fmt: RawFormat,
    types: dict[str, pyarrow.DataType],
    newlines_in_values: bool,
    block: int,
) -> pcsv.CSVStreamingReader:
    return pcsv.open_csv(
        source,
        read_options=pcsv.ReadOptions(block_size=block),
        parse_options=pcsv.ParseOptions(
            delimiter=fmt.delimiter,
            quote_char='"' if fmt.quoted else False,
            newlines_in_values=newlines_in_values,
        ),
        convert_options=pcsv.ConvertOptions(
            column_types=types, strings_can_be_null=False, quoted_strings_can_be_null=False
        ),
    )


def _straddling(exc: pyarrow.ArrowInvalid, name: str, block: int) -> bool:
    return "straddling" in str(exc).lower() and block < os.path.getsize(name)


def _parse_error(
    exc: pyarrow.ArrowInvalid, name: str, fmt: RawFormat, types: dict[str, pyarrow.DataType]
) -> Exception:
    message = str(exc)
    if "UTF8" in message:
        return unreadable(name, "FILE-NOT-UTF8", "not UTF-8", byte_scan.first_non_utf8_line(name))
    if "conversion error" in message and any(t != pyarrow.string() for t in types.values()):
        return ConversionError()
    if "Expected" in message and "columns" in message:
        return _field_count_error(name, fmt, len(types))
    return unreadable(name, "FILE-UNPARSEABLE", "cannot be parsed as delimited text")


@dataclass(frozen=True)
class RawScan:
    """A raw file whose header :func:`read_raw`'s checks passed, to be read in record
    batches (memory stays that of a few blocks). Its lines are counted, and checked for
    blank lines and unclosed quotes, on another thread meanwhile: :meth:`lines`."""

    path: str
    fmt: RawFormat
    header: tuple[str, ...]
    integers: tuple[str, ...]
    counting: Future[int]

    def lines(self) -> int:
        """Physical lines, the header's included; InputError on a blank line or an
        unclosed quote, as :func:`read_raw` reports them."""
        return self.counting.result()

    def batches(self, *, newlines_in_values: bool) -> Iterator[pyarrow.RecordBatch]:
        """The rows, typed as :func:`read_raw` types them; an integer column that does not
        parse raises ``ConversionError``, anything else unreadable an InputError."""
        types = {column: pyarrow.string() for column in self.header}
        types.update(dict.fromkeys(self.integers, pyarrow.int64()))
        block = STREAM_BLOCK_BYTES
        with pyarrow.OSFile(os.fsencode(self.path)) as source:
            try:  # opening parses the first block
                reader = _open(source, self.fmt, types, newlines_in_values, block)
            except pyarrow.ArrowInvalid as exc:
                self.lines()  # a line too long, a blank line or an open quote says why
                raise _parse_error(exc, self.path, self.fmt, types) from None
            while True:
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    return
                except pyarrow.ArrowInvalid as exc:
                    self.lines()  # a line too long, a blank line or an open quote says why
                    raise _parse_error(exc, self.path, self.fmt, types) from None
                yield batch


def scan_raw(
    path: str | os.PathLike[str],
    fmt: RawFormat,
    integer_columns: Iterable[str] = (),
    *,
    max_columns: int | None = None,
) -> RawScan:
    """Check a file's header as :func:`read_raw` does; InputError when it cannot be read.
    The rows are then read batch by batch with :meth:`RawScan.batches`."""
    name = os.fspath(path)
    status = check_regular_file(name)
    if status.st_size == 0:
        raise unreadable(name, "FILE-EMPTY", "file is empty (no header row)")
    header = _header(name, fmt, max_columns)
    integers = tuple(column for column in integer_columns if column in header)
    pool = ThreadPoolExecutor(max_workers=1)
    counting = pool.submit(_checked_lines, name, fmt)
    pool.shutdown(wait=False)  # its thread ends when the count does
    return RawScan(name, fmt, tuple(header), integers, counting)


def _checked_lines(name: str, fmt: RawFormat) -> int:
    lines, blank, quotes = byte_scan.count_lines(name)
    if blank:
        _reject_blank_lines(name, fmt)
    if fmt.quoted and quotes % 2:
        _reject_unclosed_quote(name, fmt)
    return lines


def _records(name: str, fmt: RawFormat) -> Iterator[tuple[int, list[str]]]:
    """Each record of the file (header first) with the 1-based line it starts on.

    The slow, exact reading behind every diagnostic; quoted fields can span lines.
    """
    with open(name, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter=fmt.delimiter, quoting=fmt.quoting)
        start = 1
        for record in reader:
            yield start, record
            start = reader.line_num + 1


def first_few(items: list[str], separator: str) -> str:
    more = f"{separator}and {len(items) - 5} more" if len(items) > 5 else ""
    return separator.join(items[:5]) + more


def _reject_blank_lines(name: str, fmt: RawFormat) -> None:
    """Raise InputError naming blank lines outside quoted values, if there are any."""
    try:
        blank = [start for start, record in _records(name, fmt) if not record]
    except (UnicodeDecodeError, csv.Error):
        return  # the parser names what is wrong with such a file
    if blank:
        message = f"blank line(s) {first_few([str(b) for b in blank], ', ')}: every line is a row"
        raise unreadable(name, "FILE-BLANK-LINE", message, blank[0])


def _header(name: str, fmt: RawFormat, max_columns: int | None) -> list[str]:
    """The header row; checks it is UTF-8, not repeated, and split by the delimiter."""
    try:
        with open(name, encoding="utf-8", newline="") as handle:
            first = handle.readline(
                byte_scan.MAX_LINE_BYTES + 1
            )  # a header, never a whole huge line
            if len(first) > byte_scan.MAX_LINE_BYTES:
                byte_scan.count_lines(name)  # measures the line without holding it, and refuses it
            lines = itertools.chain([first], handle)  # a quoted header may span lines
            header = next(csv.reader(lines, delimiter=fmt.delimiter, quoting=fmt.quoting), None)
    except UnicodeDecodeError:
        raise unreadable(
            name, "FILE-NOT-UTF8", "not UTF-8", byte_scan.first_non_utf8_line(name)
        ) from None
    except csv.Error as exc:
        raise unreadable(name, "FILE-UNPARSEABLE", f"header cannot be parsed: {exc}", 1) from None
    if not header or header == [""]:
        raise unreadable(name, "FILE-EMPTY", "file is empty (no header row)")
    if max_columns is not None and len(header) > max_columns + EXTRA_COLUMNS_ALLOWED:
        message = f"the header has {len(header):,} columns; the schema has {max_columns:,}"
        raise unreadable(name, "FILE-TOO-WIDE", message, 1)
    repeated = sorted(column for column, n in Counter(header).items() if n > 1)
    if repeated:
        columns = first_few([repr(column) for column in repeated], ", ")
        raise unreadable(name, "FILE-HEADER-REPEATED", f"the header repeats {columns}", 1)
    if len(header) == 1:
        others = [d for d in (",", "\t", ";", "|") if d != fmt.delimiter and d in header[0]]
        if others:
            message = (
                f"expected {fmt.delimiter!r}-delimited columns, "
                f"but the header is split by {others[0]!r}"
            )
            raise unreadable(name, "FILE-DELIMITER", message, 1)
    return header


def _reject_unclosed_quote(name: str, fmt: RawFormat) -> None:
    # Only for a file with an odd number of quotes.
    opened = byte_scan.unclosed_quote_offset(name, fmt.delimiter)
    if opened is not None:
        line = byte_scan.line_of_offset(name, opened)
        message = f'the quoted value opened on line {line} is never closed (a " is missing)'
        raise unreadable(name, "FILE-UNCLOSED-QUOTE", message, line)


def _field_count_error(name: str, fmt: RawFormat, expected: int) -> InputError:
    try:
        bad = [
            (start, len(record))
            for start, record in _records(name, fmt)
            if record and len(record) != expected
        ]
    except UnicodeDecodeError:  # a byte that is not UTF-8 split a row: that is the problem
        return unreadable(name, "FILE-NOT-UTF8", "not UTF-8", byte_scan.first_non_utf8_line(name))
    if not bad:
        return unreadable(name, "FILE-UNPARSEABLE", "cannot be parsed as delimited text")
    listed = first_few([f"line {start} has {n:,}" for start, n in bad], "; ")
    message = f"rows must have the header's {expected:,} fields, but {listed}"
    return unreadable(name, "FILE-FIELD-COUNT", message, bad[0][0])
