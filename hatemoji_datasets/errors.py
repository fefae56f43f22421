"""Errors the package raises on bad input.

Every error carries one message that names what is wrong (the file, row,
column, value or name) so that the CLI can print it without a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hatemoji_datasets.validation import Violation


class HatemojiDatasetsError(Exception):
    """Base class of every error this package raises on bad input."""

    #: Process exit status the CLI uses for this kind of error.
    exit_code: int = 1


class UnknownNameError(HatemojiDatasetsError, LookupError):
    """An unknown dataset, config, split or version was asked for."""


class SourceError(HatemojiDatasetsError):
    """An upstream file could not be fetched or read."""


class ChecksumError(SourceError):
    """A fetched upstream file does not match its pinned size or sha256."""

    def __init__(self, url: str, path: str, expected: str, actual: str) -> None:
        super().__init__(
            f"checksum mismatch for {url} (read from {path}): "
            f"expected {_digest(expected)}, got {_digest(actual)}"
        )
        self.url, self.path, self.expected, self.actual = url, path, expected, actual


def _digest(value: str) -> str:
    return value if value.endswith("bytes") else f"sha256 {value}"


class InputError(HatemojiDatasetsError):
    """A file cannot be read at all (missing, not UTF-8, wrong delimiter, empty)."""

    exit_code = 2


class PredictionError(HatemojiDatasetsError):
    """Model predictions to score are unreadable or do not match the scored split."""

    def __init__(self, message: str, *, problems: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.problems = list(problems) or [message]


class SchemaViolationError(HatemojiDatasetsError):
    """A raw file breaks its dataset's schema; carries every violation found."""

    def __init__(self, violations: Sequence[Violation], *, limit: int = 50) -> None:
        self.violations = list(violations)
        shown = "\n".join(f"  {v}" for v in self.violations[:limit])
        more = len(self.violations) - limit
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(f"{len(self.violations)} schema violation(s):\n{shown}{tail}")
