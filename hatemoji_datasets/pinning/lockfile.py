"""The lockfile format: TOML naming each locked dataset's config, version, sources and splits.

A lockfile (``hatemoji-datasets lock ... -o hatemoji.lock``) records, for each
``NAME[/CONFIG][:VERSION]``, the config and version built, the pinned upstream
files (URL, size, sha256) and each split's rows and content fingerprint. This
module reads and writes the format; :mod:`hatemoji_datasets.pinning.lock` makes
and checks locks.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from hatemoji_datasets.core.errors import InputError, LockError, UnreadableLockError
from hatemoji_datasets.core.file_reads import read_toml
from hatemoji_datasets.core.file_writes import write_text
from hatemoji_datasets.core.registry import format_reference

LOCK_FORMAT = 1


@dataclass(frozen=True)
class LockedSource:
    name: str
    url: str
    size: int
    sha256: str


@dataclass(frozen=True)
class LockedSplit:
    name: str
    rows: int
    fingerprint: str


@dataclass(frozen=True)
class LockedDataset:
    name: str
    config: str
    version: str
    sources: tuple[LockedSource, ...] = ()
    splits: tuple[LockedSplit, ...] = ()

    @property
    def reference(self) -> str:
        return format_reference(self.name, self.config, self.version)

    def fingerprints(self) -> dict[str, tuple[int, str]]:
        return {split.name: (split.rows, split.fingerprint) for split in self.splits}


@dataclass(frozen=True)
class InvalidEntry:
    """A ``[[dataset]]`` entry that breaks the format: its 1-based number and the problem."""

    number: int
    problem: str


@dataclass(frozen=True)
class Lock:
    package_version: str
    datasets: tuple[LockedDataset, ...] = field(default_factory=tuple)
    #: Entries that break the format, each reported once (never written by ``lock``).
    invalid: tuple[InvalidEntry, ...] = field(default_factory=tuple)

    def find(self, name: str, config: str) -> list[LockedDataset]:
        return [d for d in self.datasets if d.name == name and d.config == config]


def dumps(lock: Lock) -> str:
    """The lock as TOML (a small writer: strings, integers, tables and arrays of tables)."""
    lines = [
        "# Written by `hatemoji-datasets lock`; check with `hatemoji-datasets verify FILE`.",
        f"lock_format = {LOCK_FORMAT}",
        f"package = {_string('hatemoji-datasets')}",
        f"package_version = {_string(lock.package_version)}",
    ]
    for entry in lock.datasets:
        lines += [
            "",
            "[[dataset]]",
            f"name = {_string(entry.name)}",
            f"config = {_string(entry.config)}",
            f"version = {_string(entry.version)}",
        ]
        for source in entry.sources:
            lines += [
                "",
                "[[dataset.source]]",
                f"name = {_string(source.name)}",
                f"url = {_string(source.url)}",
                f"size = {int(source.size)}",
                f"sha256 = {_string(source.sha256)}",
            ]
        for split in entry.splits:
            lines += [
                "",
                "[[dataset.split]]",
                f"name = {_string(split.name)}",
                f"rows = {int(split.rows)}",
                f"fingerprint = {_string(split.fingerprint)}",
            ]
    return "\n".join(lines) + "\n"


def _string(value: str) -> str:
    """A TOML basic string."""
    escaped = []
    for char in value:
        if char in '"\\':
            escaped.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def write(lock: Lock, path: str | os.PathLike[str]) -> None:
    """Write ``lock`` to ``path`` atomically (OutputError naming the cause when it cannot)."""
    write_text(path, dumps(lock))


# -- reading a lock ------------------------------------------------------------------------

#: The fields of each table of a lock, and the Python type each must have.
_ENTRY_FIELDS = {"name": str, "config": str, "version": str}
_SOURCE_FIELDS = {"name": str, "url": str, "size": int, "sha256": str}
_SPLIT_FIELDS = {"name": str, "rows": int, "fingerprint": str}
_TOML_TYPES = {str: "a string", int: "an integer", dict: "a table", list: "an array"}


class _Malformed(Exception):
    """One entry of a lock breaks the format (the message says where and how)."""


def _kind(value: Any) -> str:
    for python, toml in _TOML_TYPES.items():
        if isinstance(value, python) and not isinstance(value, bool):
            return toml
    return "a boolean" if isinstance(value, bool) else f"a {type(value).__name__}"


def _fields(table: Any, fields: dict[str, type], where: str) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise _Malformed(f"{where} must be a table, not {_kind(table)}")
    values = {}
    for key, python in fields.items():
        if key not in table:
            raise _Malformed(f"{where} lacks {key!r}")
        value = table[key]
        if not isinstance(value, python) or isinstance(value, bool):
            raise _Malformed(f"{where}: {key} must be {_TOML_TYPES[python]}, not {_kind(value)}")
        values[key] = value
    return values


def _tables(entry: dict[str, Any], key: str, where: str) -> list[Any]:
    tables = entry.get(key, [])
    if not isinstance(tables, list):
        raise _Malformed(f"{where}: {key} must be an array of tables, not {_kind(tables)}")
    return tables


def _entry(entry: Any, where: str) -> LockedDataset:
    fields = _fields(entry, _ENTRY_FIELDS, where)
    sources = tuple(
        LockedSource(**_fields(table, _SOURCE_FIELDS, f"{where}, source {number}"))
        for number, table in enumerate(_tables(entry, "source", where), start=1)
    )
    splits = tuple(
        LockedSplit(**_fields(table, _SPLIT_FIELDS, f"{where}, split {number}"))
        for number, table in enumerate(_tables(entry, "split", where), start=1)
    )
    return LockedDataset(**fields, sources=sources, splits=splits)


def _label(entry: Any, number: int) -> str:
    """How an entry is named in messages: its number, and its name when it has one."""
    if isinstance(entry, dict) and isinstance(entry.get("name"), str):
        config = entry.get("config") if isinstance(entry.get("config"), str) else None
        version = entry.get("version") if isinstance(entry.get("version"), str) else None
        return f"entry {number} ({format_reference(entry['name'], config, version)})"
    return f"entry {number}"


def read(path: str | os.PathLike[str]) -> Lock:
    """Read a lockfile; each ``[[dataset]]`` entry is checked on its own.

    A file that cannot be read or parsed at all raises
    :class:`~hatemoji_datasets.core.errors.UnreadableLockError` (exit status 2); a
    lock of another format, or one that locks nothing, :class:`LockError`.
    Malformed entries are kept in :attr:`Lock.invalid`, one problem each, so
    the valid entries are still checked.
    """
    try:
        document = read_toml(path)
    except InputError as error:
        raise UnreadableLockError(error.finding) from None
    if document.get("lock_format") != LOCK_FORMAT:
        found = document.get("lock_format")
        shown = repr(found) if isinstance(found, int | str) else _kind(found)
        raise LockError(f"{path}: lock_format {shown} is not {LOCK_FORMAT}")
    entries = document.get("dataset", [])
    if not isinstance(entries, list) or not entries:
        raise LockError(
            f"{path} locks no datasets: it has no [[dataset]] entry; write one with "
            "`hatemoji-datasets lock NAME[/CONFIG][:VERSION] -o FILE`"
        )
    valid, invalid = [], []
    for number, entry in enumerate(entries, start=1):
        try:
            valid.append(_entry(entry, _label(entry, number)))
        except _Malformed as problem:
            invalid.append(InvalidEntry(number, str(problem)))
    package_version = document.get("package_version", "")
    return Lock(
        package_version=package_version if isinstance(package_version, str) else "",
        datasets=tuple(valid),
        invalid=tuple(invalid),
    )
