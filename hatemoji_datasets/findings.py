"""Findings: one broken rule in one place of one file, with a stable code.

Every rule has one owner and one code, so one problem gives one finding.
Codes of the shared machinery are listed in :data:`CODES`; each dataset's own
rules declare theirs in its schema module (see :func:`hatemoji_datasets.schema.rule`).
README.md documents every code in one table (a test keeps it complete).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]

VALUE_PREVIEW = 60

#: Codes of the reader, the schema adapter and the release rules: code -> meaning.
CODES: dict[str, str] = {
    # The file cannot be read at all (exit status 2).
    "FILE-NOT-FOUND": "the file does not exist",
    "FILE-NOT-REGULAR": "not a regular file (a folder, device, FIFO or special file)",
    "FILE-OUTSIDE-TREE": "a symlink that resolves outside the working tree",
    "FILE-EMPTY": "the file is empty (no header row)",
    "FILE-TOO-WIDE": "the header has far more columns than the schema",
    "FILE-NOT-UTF8": "the file is not UTF-8",
    "FILE-DELIMITER": "the header is split by another delimiter than the format's",
    "FILE-HEADER-REPEATED": "the header names a column twice",
    "FILE-BLANK-LINE": "a blank line where a row should be",
    "FILE-FIELD-COUNT": "a row has another number of fields than the header",
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


def safe(text: str) -> str:
    """``text`` with control characters and undecodable bytes shown as escapes.

    Every name and value printed passes through here, so a file name or cell
    with a newline cannot start a line of its own (or a workflow command).
    """
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def preview(value: object) -> str | None:
    """``value`` as a short string (None stays None)."""
    if value is None or (isinstance(value, float) and value != value):  # NaN
        return None
    text = str(value)
    return text if len(text) <= VALUE_PREVIEW else text[: VALUE_PREVIEW - 1] + "…"


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
            details.append(f"value {self.value!r}")
        if self.expected is not None:
            details.append(f"expected {self.expected!r}")
        tail = f" ({', '.join(details)})" if details else ""
        return f"{self.code}{column} {self.message}{tail}"

    def __str__(self) -> str:
        return f"{self.place}: {self.detail()}"


def finding_order(finding: Finding) -> tuple:
    """Stable report order: file, line (file-wide findings first), column, code, value."""
    line = finding.line if finding.line is not None else -1
    return (finding.file, line, finding.column or "", finding.code, finding.value or "")
