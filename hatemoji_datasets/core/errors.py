"""Errors the package raises on bad input.

Every error carries one message that names what is wrong (the file, row,
column, value or name) so that the CLI can print it without a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hatemoji_datasets.core.findings import Finding


class HatemojiDatasetsError(Exception):
    """Base class of every error this package raises on bad input."""

    #: Process exit status the CLI uses for this kind of error.
    exit_code: int = 1
    #: A stable name of this kind of error, for machine-readable output (``--format json``).
    code: str = "ERROR"


class UnknownNameError(HatemojiDatasetsError, LookupError):
    """An unknown dataset, config, split or version was asked for."""

    code = "UNKNOWN-NAME"


# ``scheme://user:password@host`` -> ``scheme://***@host``: credentials never reach a message.
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s/?#]*@")


def redact(text: str) -> str:
    """``text`` with the credentials of every URL in it replaced by ``***``."""
    return _USERINFO.sub(r"\1***@", text)


class SourceError(HatemojiDatasetsError):
    """An upstream file could not be fetched or read.

    Its message never holds the credentials of a URL (``https://user:pass@host``
    prints as ``https://***@host``).
    """

    code = "SOURCE"

    def __init__(self, message: str) -> None:
        super().__init__(redact(message))


class SourceUnreachableError(SourceError):
    """A source no network here reaches (no DNS, no route), with no verified copy in the
    cache: nothing could be checked, so the exit status is 2, as for an unreadable file."""

    code = "SOURCE-UNREACHABLE"
    exit_code = 2


class ChecksumError(SourceError):
    """A fetched upstream file does not match its pinned size or sha256."""

    code = "CHECKSUM"

    def __init__(self, url: str, path: str, expected: str, actual: str) -> None:
        super().__init__(
            f"checksum mismatch for {url} (read from {path}): "
            f"expected {_digest(expected)}, got {_digest(actual)}"
        )
        self.url, self.path = redact(url), redact(path)
        self.expected, self.actual = expected, actual


def _digest(value: str) -> str:
    return value if value.endswith("bytes") else f"sha256 {value}"


class CacheError(HatemojiDatasetsError):
    """The datasets cache cannot be written, or holds a damaged build."""

    code = "CACHE"


class OutputError(HatemojiDatasetsError):
    """A file a command writes cannot be written (missing, read-only or full destination)."""

    code = "OUTPUT"


class InputError(HatemojiDatasetsError):
    """A file cannot be read at all (missing, not UTF-8, wrong delimiter, empty...).

    Its ``code`` is the finding's (``FILE-NOT-FOUND``, ``FILE-NOT-UTF8``, ...).
    """

    exit_code = 2
    #: What the file is, for the message ("the lockfile"); None: the finding alone.
    what: str | None = None

    def __init__(self, finding: Finding) -> None:
        message = f"cannot read {self.what} {finding}" if self.what else str(finding)
        super().__init__(message)
        self.finding = finding
        self.code = finding.code


class PredictionError(HatemojiDatasetsError):
    """Model predictions to score are unreadable or do not match the scored split."""

    code = "PREDICTIONS"

    def __init__(self, message: str, *, problems: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.problems = list(problems) or [message]


class SchemaViolationError(HatemojiDatasetsError):
    """A raw file breaks its dataset's schema; carries every finding."""

    code = "SCHEMA"

    def __init__(self, findings: Sequence[Finding], *, limit: int = 50) -> None:
        self.findings = list(findings)
        shown = "\n".join(f"  {f}" for f in self.findings[:limit])
        more = len(self.findings) - limit
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(f"{len(self.findings):,} schema violation(s):\n{shown}{tail}")


class FingerprintError(HatemojiDatasetsError):
    """Built data differs from the fingerprint recorded for it (in the package or a lockfile)."""

    code = "FINGERPRINT"

    def __init__(self, message: str, problems: Sequence[str] = ()) -> None:
        self.problems = list(problems)
        super().__init__(message)


class DiffError(HatemojiDatasetsError):
    """Two datasets that cannot be diffed: different datasets, or no key to match rows by."""

    code = "DIFF"


class LockError(HatemojiDatasetsError):
    """A lockfile cannot be read, or does not cover what was asked for."""

    code = "LOCK"


class UnreadableLockError(LockError, InputError):
    """A lockfile that cannot be read at all (missing, special, not UTF-8, not TOML): exit 2."""

    what = "the lockfile"


class UnreadablePredictionsError(PredictionError, InputError):
    """A predictions file that cannot be read at all (missing, special, not UTF-8...): exit 2."""

    what = "the predictions file"

    def __init__(self, finding: Finding) -> None:
        InputError.__init__(self, finding)
        self.problems = [str(self)]


class PinError(HatemojiDatasetsError):
    """``pin`` was given a URL it cannot pin, or a row its dataset already holds."""

    code = "PIN"
