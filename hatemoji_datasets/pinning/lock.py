"""Lockfiles: the exact datasets a project uses, and a check that it still gets them.

``hatemoji-datasets lock SPEC... -o hatemoji.lock`` writes TOML naming, for each
``NAME[/CONFIG][:VERSION]``, the config and version built, the pinned upstream
files (URL, size, sha256) and each split's rows and content fingerprint,
computed from the built data. ``hatemoji-datasets verify hatemoji.lock`` (or
:func:`verify_lock`) loads or rebuilds each entry, recomputes the fingerprints
from the cached Arrow data (never trusting a stored value) and names every
difference; ``load_dataset(..., lock=PATH)`` refuses data that differs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hatemoji_datasets.errors import FingerprintError, HatemojiDatasetsError, LockError
from hatemoji_datasets.registry import format_reference, resolve

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


# -- making a lock -------------------------------------------------------------------------


def lock_datasets(
    references: Sequence[str], *, cache_dir: str | None = None, mirror: str | None = None
) -> Lock:
    """Build (or load) each ``NAME[/CONFIG][:VERSION]`` and record what it is."""
    from hatemoji_datasets import __version__
    from hatemoji_datasets.api import prepared_builder, verified_data
    from hatemoji_datasets.fingerprint import fingerprint

    entries: dict[tuple[str, str, str], LockedDataset] = {}
    for reference in references:
        spec, config, version = resolve(reference)
        builder = prepared_builder(
            spec.name, config.name, version=version, cache_dir=cache_dir, mirror=mirror
        )
        data = verified_data(builder)
        entries[spec.name, config.name, version] = LockedDataset(
            name=spec.name,
            config=config.name,
            version=version,
            sources=tuple(
                LockedSource(s.name, s.url, s.size, s.sha256)
                for s in spec.config_sources(config).values()
            ),
            splits=tuple(
                LockedSplit(split, data[split].num_rows, fingerprint(data[split]))
                for split in config.split_names
            ),
        )
    return Lock(package_version=__version__, datasets=tuple(entries.values()))


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


# -- checking against a lock ---------------------------------------------------------------


def locked_entry(
    lock: Lock, path: str, name: str, config: str, version: str | None
) -> LockedDataset:
    """The entry of ``lock`` for ``name``/``config`` (at ``version`` when one is asked for)."""
    candidates = lock.find(name, config)
    if version is not None:
        candidates = [c for c in candidates if c.version == version]
    if len(candidates) != 1:
        locked = ", ".join(d.reference for d in lock.datasets) or "nothing"
        why = "does not lock" if not candidates else "locks several versions of"
        raise LockError(
            f"{path} {why} {format_reference(name, config, version)}; it locks {locked}"
        )
    return candidates[0]


def check_data(entry: LockedDataset, data: Any, path: str) -> None:
    """Raise :class:`FingerprintError` unless ``data`` (a DatasetDict) matches ``entry``."""
    found = {split: (data[split].num_rows, _fingerprint(data[split])) for split in data}
    problems = _compare(entry, found)
    if problems:
        raise FingerprintError(
            f"the data of {entry.reference} does not match {path}:\n  " + "\n  ".join(problems),
            problems,
        )


def _compare(entry: LockedDataset, found: dict[str, tuple[int, str]]) -> list[str]:
    from hatemoji_datasets.fingerprint import compare
    from hatemoji_datasets.registry import dataset_spec

    return compare(
        dataset_spec(entry.name),
        entry.config,
        entry.version,
        entry.fingerprints(),
        found,
        what="locked",
    )


def _source_problems(entry: LockedDataset) -> list[str]:
    spec, config, _ = resolve(entry.name, entry.config, entry.version)
    pinned = spec.config_sources(config)
    problems = []
    where = f"{entry.name}/{entry.config} {entry.version}"
    for source in entry.sources:
        now = pinned.get(source.name)
        if now is None:
            problems.append(f"{where}: source {source.name} is no longer read")
        elif (now.url, now.sha256) != (source.url, source.sha256):
            problems.append(
                f"{where}: source {source.name} is now pinned to {now.url} sha256 {now.sha256}, "
                f"locked {source.url} sha256 {source.sha256}"
            )
    return problems


def verify_lock(
    path: str | os.PathLike[str],
    *,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> list[tuple[LockedDataset, list[str]]]:
    """Each entry of the lock with what differs about it (an empty list when nothing does).

    Loads each entry from the cache or rebuilds it from verified sources, then
    recomputes every split's fingerprint from the cached data.
    """
    from hatemoji_datasets.api import prepared_builder, verified_data

    lock = read(path)
    results = []
    for entry in lock.datasets:
        try:
            problems = _source_problems(entry)
            builder = prepared_builder(
                entry.name, entry.config, version=entry.version, cache_dir=cache_dir, mirror=mirror
            )
            data = verified_data(builder)
            found = {split: (data[split].num_rows, _fingerprint(data[split])) for split in data}
            problems += _compare(entry, found)
        except HatemojiDatasetsError as error:
            splits = ", ".join(split.name for split in entry.splits)
            problems.append(
                f"{entry.name}/{entry.config} {entry.version} (splits {splits}): cannot be "
                f"loaded or built: {error}"
            )
        results.append((entry, problems))
    return results


def _fingerprint(dataset: Any) -> str:
    from hatemoji_datasets.fingerprint import fingerprint

    return fingerprint(dataset)


def describe(results: Iterable[tuple[LockedDataset, list[str]]]) -> list[str]:
    lines = []
    for entry, problems in results:
        if problems:
            lines += [f"differs: {problem}" for problem in problems]
        else:
            splits = ", ".join(f"{s.name} {s.fingerprint[:19]}…" for s in entry.splits)
            lines.append(f"ok: {entry.reference} ({splits})")
    return lines
