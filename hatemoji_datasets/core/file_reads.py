"""The one guarded open and read every command goes through.

Only a regular file is opened, without blocking (a FIFO never hangs a command),
and read up to a size bound; it must be UTF-8; a parse error (JSON, TOML) or a
nesting deeper than the bound is named with its line. Every problem is one
:class:`~hatemoji_datasets.core.errors.InputError` carrying a coded finding, so the
command exits 2 with one line, as ``validate`` does for its files. Writing is
:mod:`~hatemoji_datasets.core.file_writes`.

Only the standard library is imported: ``info`` and ``verify`` stay light.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from typing import Any

from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.findings import Finding

#: Files a command reads whole (lockfiles, predictions, stored summaries, card sources)
#: are refused past this size: the largest real one is a few MiB.
MAX_READ_BYTES = 64 << 20
#: Arrays and tables may nest this deep; the package's own files nest at most 4 levels.
MAX_NESTING = 64
_CHUNK = 1 << 20


def unreadable(path: str, code: str, message: str, line: int | None = None) -> InputError:
    return InputError(Finding(path, line, None, code, message))


def check_regular_file(path: str) -> os.stat_result:
    """The file's status, if it is a regular file; InputError otherwise (nothing is opened)."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        raise unreadable(path, "FILE-NOT-FOUND", "file not found") from None
    except OSError as exc:
        raise unreadable(path, "FILE-NOT-REGULAR", f"cannot be opened: {exc.strerror}") from None
    _check_mode(path, status)
    return status


def _check_mode(path: str, status: os.stat_result) -> None:
    if stat.S_ISDIR(status.st_mode):
        raise unreadable(path, "FILE-NOT-REGULAR", "is a folder, not a file")
    if not stat.S_ISREG(status.st_mode):
        raise unreadable(path, "FILE-NOT-REGULAR", "is not a regular file (device, FIFO, socket)")


def open_regular(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor of a regular file; InputError for anything else.

    The file is opened non-blocking and checked on the open descriptor, so a
    FIFO, device or a file swapped in after a check is refused, never waited on.
    """
    name = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(name, flags)
    except FileNotFoundError:
        raise unreadable(name, "FILE-NOT-FOUND", "file not found") from None
    except IsADirectoryError:
        raise unreadable(name, "FILE-NOT-REGULAR", "is a folder, not a file") from None
    except NotADirectoryError:
        message = "file not found (a parent is not a folder)"
        raise unreadable(name, "FILE-NOT-FOUND", message) from None
    except OSError as exc:
        raise unreadable(name, "FILE-NOT-REGULAR", f"cannot be opened: {exc.strerror}") from None
    try:
        _check_mode(name, os.fstat(descriptor))
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def read_bytes(path: str | os.PathLike[str], *, limit: int = MAX_READ_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; InputError otherwise."""
    name = os.fspath(path)
    descriptor = open_regular(name)
    try:
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(descriptor, min(_CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise unreadable(name, "FILE-NOT-REGULAR", f"cannot be read: {exc.strerror}") from None
    finally:
        os.close(descriptor)
    if size > limit:
        raise unreadable(name, "FILE-TOO-LARGE", f"is larger than {limit:,} bytes")
    return b"".join(chunks)


def decode(name: str, data: bytes) -> str:
    """``data`` as UTF-8 text (a leading byte order mark dropped); InputError naming the line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise unreadable(name, "FILE-NOT-UTF8", "not UTF-8", line) from None
    return text.removeprefix("\ufeff")


def read_text(path: str | os.PathLike[str], *, limit: int = MAX_READ_BYTES) -> str:
    """A regular UTF-8 file's text; InputError when it cannot be read."""
    name = os.fspath(path)
    return decode(name, read_bytes(name, limit=limit))


# -- parsing ---------------------------------------------------------------------------------


def nesting(text: str, *, comments: bool = False) -> tuple[int, int]:
    """``(deepest nesting of [ and {, line where it is first reached)`` outside strings.

    One linear pass: quoted strings (``"..."`` with backslash escapes, ``'...'``)
    and, with ``comments``, ``#`` comments are skipped. Bounding nesting
    before parsing keeps a deep document from exhausting the recursion limit.
    """
    depth = deepest = 0
    line = deepest_line = 1
    position, end = 0, len(text)
    special = re.compile(r"[\[\]{}\"'\n#]" if comments else r"[\[\]{}\"\n]")
    while True:
        match = special.search(text, position)
        if match is None:
            return deepest, deepest_line
        char, position = match.group(), match.end()
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest, deepest_line = depth, line
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif char == "\n":
            line += 1
        elif char == "#":
            newline = text.find("\n", position)
            position = end if newline < 0 else newline
        else:  # a string: skip to its closing quote
            closing = re.compile(r'\\.|"|\n' if char == '"' else r"'|\n", re.S)
            while True:
                found = closing.search(text, position)
                if found is None:
                    return deepest, deepest_line
                position = found.end()
                if found.group() == "\n":
                    line += 1  # multi-line strings (TOML); JSON's parser names the error
                elif found.group() in ('"', "'"):
                    break


#: A JSON string as :func:`nesting` skips it: escapes in pairs, a raw newline kept inside,
#: and one left open running to the end of the text (so every match attempt succeeds and the
#: pass stays linear, whatever quotes and backslashes a hostile line holds).
_JSON_STRING = re.compile(r'"(?:[^"\\]+|\\.?)*(?:"|\Z)', re.S)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth(text: str) -> int:
    """:func:`nesting`'s depth of a JSON text, its strings dropped by one regex pass in C
    rather than scanned in Python (a harness log is thousands of such lines)."""
    depth = deepest = 0
    for char in _NOT_A_BRACKET.sub("", _JSON_STRING.sub("", text)):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(depth - 1, 0)
    return deepest


def _check_nesting(name: str, text: str, *, comments: bool, limit: int) -> None:
    # No more opening brackets than the limit, strings and all, is no deeper: a harness
    # sample has 15 and a limit of 16, and counting them costs a tenth of dropping strings.
    if not comments and (text.count("[") + text.count("{") <= limit or json_depth(text) <= limit):
        return  # the line is looked for only when it is too deep
    deepest, line = nesting(text, comments=comments)
    if deepest > limit:
        message = f"nests arrays or tables more than {limit} levels deep"
        raise unreadable(name, "FILE-UNPARSEABLE", message, line)


def parse_json(name: str, text: str, *, limit: int = MAX_NESTING, line: int | None = None) -> Any:
    """One JSON document (``text``, from file ``name``); InputError naming what is wrong.

    ``line`` is the file line ``text`` starts on, for JSON Lines.
    """
    try:
        _check_nesting(name, text, comments=False, limit=limit)
        return json.loads(text)
    except InputError as error:
        if line is None:
            raise
        finding = error.finding
        raise unreadable(name, finding.code, finding.message, line) from None
    except json.JSONDecodeError as exc:
        where = exc.lineno if line is None else line + exc.lineno - 1
        raise unreadable(name, "FILE-UNPARSEABLE", f"is not valid JSON: {exc.msg}", where) from None
    except RecursionError:  # a bound the pre-check missed
        raise unreadable(name, "FILE-UNPARSEABLE", "nests too deeply", line) from None


def read_json(path: str | os.PathLike[str], *, limit: int = MAX_READ_BYTES) -> Any:
    """A JSON file's document; InputError when it cannot be read or parsed."""
    name = os.fspath(path)
    text = read_text(name, limit=limit)
    if not text.strip():
        raise unreadable(name, "FILE-EMPTY", "file is empty")
    return parse_json(name, text)


_TOML_LINE = re.compile(r"\(at line (\d+)")


def parse_toml(name: str, text: str) -> dict[str, Any]:
    """A TOML document; InputError naming the line of a syntax error."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    _check_nesting(name, text, comments=True, limit=MAX_NESTING)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc).split(" (at ", 1)[0]
        found = _TOML_LINE.search(str(exc))
        line = int(found.group(1)) if found else None
        raise unreadable(name, "FILE-UNPARSEABLE", f"is not valid TOML: {message}", line) from None
    except RecursionError:
        raise unreadable(name, "FILE-UNPARSEABLE", "nests too deeply") from None


def read_toml(path: str | os.PathLike[str], *, limit: int = MAX_READ_BYTES) -> dict[str, Any]:
    """A TOML file's document; InputError when it cannot be read or parsed."""
    name = os.fspath(path)
    text = read_text(name, limit=limit)
    if not text.strip():
        raise unreadable(name, "FILE-EMPTY", "file is empty")
    return parse_toml(name, text)
