"""Findings: one broken rule in one place of one file, with a stable code.

Every rule has one owner and one code, so one problem gives one finding.
Codes of the shared machinery are listed in :data:`CODES`; each dataset's own
rules declare theirs in its schema module (see :func:`hatemoji_datasets.schema.rule`).
README.md documents every code in one table (a test keeps it complete).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

Severity = Literal["error", "warning"]

VALUE_PREVIEW = 60
#: Text reports shorten an expected value to this; JSON keeps it whole.
EXPECTED_PREVIEW = 200

#: Codes of the reader, the schema adapter and the release rules: code -> meaning.
CODES: dict[str, str] = {
    # The file cannot be read at all (exit status 2).
    "FILE-NOT-FOUND": "the file does not exist",
    "FILE-NOT-REGULAR": "not a regular file (a folder, device, FIFO or special file)",
    "FILE-OUTSIDE-TREE": "a symlink that resolves outside the working tree",
    "FILE-EMPTY": "the file is empty (no header row)",
    "FILE-TOO-WIDE": "the header has far more columns than the schema",
    "FILE-TOO-LARGE": "the file is larger than the command reads (lockfiles, predictions)",
    "FILE-NOT-UTF8": "the file is not UTF-8",
    "FILE-DELIMITER": "the header is split by another delimiter than the format's",
    "FILE-HEADER-REPEATED": "the header names a column twice",
    "FILE-BLANK-LINE": "a blank line where a row should be",
    "FILE-FIELD-COUNT": "a row has another number of fields than the header",
    "FILE-UNCLOSED-QUOTE": "a quoted value is never closed (the line where it opens)",
    "FILE-UNPARSEABLE": "the file cannot be parsed as delimited text or Parquet",
    # The file's shape and values, against the dataset's schema.
    "COLUMN-MISSING": "a column of the schema is missing",
    "COLUMN-UNEXPECTED": "a column the schema does not have",
    "VALUE-TYPE": "a value cannot be read as the column's type",
    "VALUE-NOT-ALLOWED": "a value outside the column's allowed values",
    "VALUE-OUT-OF-RANGE": "a number outside the column's range",
    "VALUE-PATTERN": "a value that does not match the column's pattern",
    "VALUE-DUPLICATE": "a value that must be unique is repeated",
    "VALUE-INVALID": "a value breaks another rule of its column",
    "TEXT-EMPTY": "an empty text",
    # Between files of two formats joined on a key (a split's rows and, say, its annotations).
    "JOIN-UNMATCHED": "a row whose key has no row in the file it is joined with",
    "JOIN-MISMATCH": "a column two joined files both hold differs between their rows",
    # New text in a contribution.
    "TEXT-CONTROL": "a text holds a control character",
    "TEXT-NOT-NFC": "a text is not in Unicode NFC",
    "TEXT-EDGE-SPACE": "a text begins or ends with white space (warning)",
    # Against the released data.
    "RELEASE-CHANGED": "a cell of a released row differs from the release",
    "RELEASE-REPEATED-TEXT": "a new row repeats a released text",
    "RELEASE-NEAR-DUPLICATE": "a new text equals a released one once invisible characters "
    "are removed and it is NFKC-normalised (warning)",
    "RELEASE-MISSING": "a released row is missing from files given with --full",
}

#: Codes whose finding means the file could not be read (exit status 2).
UNREADABLE = frozenset(code for code in CODES if code.startswith("FILE-"))


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@cache
def _hidden_characters() -> tuple[str, str]:
    """Regex classes of the characters a reader cannot see, in one pass over Unicode:
    format characters (category Cf: zero-width, bidi controls, BOM), and combining
    marks (Mn, Me) with the non-ASCII spaces (Zs), which look like nothing or like their
    neighbour."""
    ranges: dict[bool, list[list[int]]] = {True: [], False: []}
    for code in range(0xA0, 0x110000):
        category = unicodedata.category(chr(code))
        if category in ("Cf", "Mn", "Me", "Zs"):
            spans = ranges[category == "Cf"]
            if spans and spans[-1][1] == code - 1:
                spans[-1][1] = code
            else:
                spans.append([code, code])

    def pattern(spans: list[list[int]]) -> str:
        return "".join(
            re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
            for a, b in spans
        )

    return pattern(ranges[True]), pattern(ranges[False])


@cache
def _invisible() -> re.Pattern[str]:
    return re.compile(f"[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029{_hidden_characters()[0]}]")


@cache
def _hidden_in_values() -> re.Pattern[str]:
    return re.compile(f"[{_hidden_characters()[1]}]")


def _escape(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def safe(text: str) -> str:
    """``text`` with control characters, invisible format characters (zero-width, bidi
    controls) and undecodable bytes shown as escapes.

    Every name and value printed passes through here, so a file name or cell
    with a newline cannot start a line of its own (or a workflow command), and
    none can reorder what is shown around it.
    """
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if text.isascii():
        return _CONTROL.sub(_escape, text)
    return _invisible().sub(_escape, text)


def quoted(value: str) -> str:
    """``repr(value)`` (which escapes what is not printable) with combining marks escaped."""
    text = repr(value)
    return text if text.isascii() else _hidden_in_values().sub(_escape, text)


def shown(text: str) -> str:
    """A value as findings show it: :func:`safe`, and combining marks and non-ASCII spaces
    escaped too, so a value that is not NFC, or ends in a no-break space, looks it."""
    text = safe(text)
    return text if text.isascii() else _hidden_in_values().sub(_escape, text)


def preview(value: object, limit: int | None = VALUE_PREVIEW) -> str | None:
    """``value`` as a string of at most ``limit`` characters (None stays None; no limit
    with ``limit=None``)."""
    if value is None or (isinstance(value, float) and value != value):  # NaN
        return None
    text = str(value)
    if limit is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


@dataclass(frozen=True, order=True)
class Finding:
    """One broken rule in one place of one file."""

    file: str
    line: int | None
    column: str | None
    code: str
    message: str
    value: str | None = None
    expected: str | None = None
    severity: Severity = field(default="error", compare=False)

    @property
    def unreadable(self) -> bool:
        return self.code in UNREADABLE

    @property
    def place(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else self.file

    def detail(self) -> str:
        """The finding without its place: code, column, message, value and expected value."""
        column = f" column {self.column!r}:" if self.column else ""
        details = []
        if self.value is not None:
            details.append(f"value {quoted(self.value)}")
        if self.expected is not None:
            details.append(f"expected {quoted(preview(self.expected, EXPECTED_PREVIEW) or '')}")
        tail = f" ({', '.join(details)})" if details else ""
        return f"{self.code}{column} {self.message}{tail}"

    def __str__(self) -> str:
        return f"{self.place}: {self.detail()}"


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """``text`` split into digit runs (compared as numbers) and the rest: 2 < 10 < 100."""
    return tuple(
        (0, int(part)) if part.isdecimal() else (1, part)
        for part in re.split(r"(\d+)", text)
        if part
    )


def finding_order(finding: Finding) -> tuple:
    """Stable report order: file, line (file-wide findings first), column, code, value
    (numbers in values in numeric order: ids 2, 10, 100)."""
    line = finding.line if finding.line is not None else -1
    value = natural_key(finding.value or "")
    return (finding.file, line, finding.column or "", finding.code, value)
