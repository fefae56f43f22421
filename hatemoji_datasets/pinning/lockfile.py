"""The lockfile format: TOML naming each locked dataset's config, version, sources and splits.

A lockfile (``hatemoji-datasets lock ... -o hatemoji.lock``) records, for each
``NAME[/CONFIG][:VERSION]``, the config and version built, the pinned upstream
files (URL, size, sha256) and each split's rows and content fingerprint. This
module reads and writes the format; :mod:`hatemoji_datasets.pinning.lock` makes
and checks locks.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hatemoji_datasets.errors import LockError
from hatemoji_datasets.registry import format_reference

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
class Lock:
    package_version: str
    datasets: tuple[LockedDataset, ...] = field(default_factory=tuple)

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
    """Write ``lock`` to ``path`` atomically."""
    target = Path(path)
    partial = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        partial.write_text(dumps(lock), encoding="utf-8")
        os.replace(partial, target)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise LockError(f"cannot write the lockfile {target}: {exc.strerror or exc}") from None


# -- reading a lock ------------------------------------------------------------------------


def _toml_loads(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    return tomllib.loads(text)


def read(path: str | os.PathLike[str]) -> Lock:
    """Read a lockfile, naming the file and the problem when it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LockError(f"cannot read the lockfile {path}: {exc}") from None
    try:
        document = _toml_loads(text)
    except ValueError as exc:
        raise LockError(f"{path} is not valid TOML: {exc}") from None
    try:
        if document.get("lock_format") != LOCK_FORMAT:
            raise LockError(
                f"{path}: lock_format {document.get('lock_format')!r} is not {LOCK_FORMAT}"
            )
        entries = tuple(
            LockedDataset(
                name=str(item["name"]),
                config=str(item["config"]),
                version=str(item["version"]),
                sources=tuple(
                    LockedSource(str(s["name"]), str(s["url"]), int(s["size"]), str(s["sha256"]))
                    for s in item.get("source", [])
                ),
                splits=tuple(
                    LockedSplit(str(s["name"]), int(s["rows"]), str(s["fingerprint"]))
                    for s in item.get("split", [])
                ),
            )
            for item in document.get("dataset", [])
        )
        return Lock(package_version=str(document.get("package_version", "")), datasets=entries)
    except (KeyError, TypeError, ValueError) as exc:
        raise LockError(f"{path}: a [[dataset]] entry lacks or mistypes {exc}") from None
