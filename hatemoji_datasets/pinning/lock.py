"""Locking datasets and checking a project still gets exactly what it locked.

``hatemoji-datasets lock SPEC... -o hatemoji.lock`` (:func:`lock_datasets`) builds or
loads each dataset and records it in a lockfile
(:mod:`hatemoji_datasets.pinning.lockfile`). ``hatemoji-datasets verify
hatemoji.lock`` (:func:`verify_lock`) loads or rebuilds each entry, recomputes
the fingerprints from the cached Arrow data (never trusting a stored value) and
names every difference; ``load_dataset(..., lock=PATH)`` refuses data that
differs (:func:`locked_entry`, :func:`check_data`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from hatemoji_datasets.building.fingerprint import fingerprint, split_fingerprints
from hatemoji_datasets.building.prepare import load_verified
from hatemoji_datasets.building.recorded import compare
from hatemoji_datasets.core.errors import (
    ChecksumError,
    FingerprintError,
    HatemojiDatasetsError,
    LockError,
    SourceError,
)
from hatemoji_datasets.core.registry import dataset_spec, format_reference, lookup
from hatemoji_datasets.pinning.lockfile import Lock, LockedDataset, LockedSource, LockedSplit, read
from hatemoji_datasets.version import __version__


def lock_datasets(
    references: Sequence[str], *, cache_dir: str | None = None, mirror: str | None = None
) -> Lock:
    """Build (or load) each ``NAME[/CONFIG][:VERSION]`` and record what it is."""
    entries: dict[tuple[str, str, str], LockedDataset] = {}
    for reference in references:
        spec, config, version = lookup(reference)
        _, data = load_verified(spec, config, version, cache_dir=cache_dir, mirror=mirror)
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


def locked_entry(
    path: str | os.PathLike[str], name: str, config: str, version: str | None
) -> LockedDataset:
    """The entry of the lockfile at ``path`` for ``name``/``config`` (at ``version`` if given)."""
    lock = read(path)
    candidates = lock.find(name, config)
    if version is not None:
        candidates = [c for c in candidates if c.version == version]
    if len(candidates) != 1:
        locked = ", ".join(d.reference for d in lock.datasets) or "nothing"
        why = "does not lock" if not candidates else "locks several versions of"
        skipped = ""
        if lock.invalid and not candidates:
            first = lock.invalid[0]
            more = f" and {len(lock.invalid) - 1} more" if len(lock.invalid) > 1 else ""
            skipped = f" (malformed, so not read: {first.problem}{more})"
        raise LockError(
            f"{path} {why} {format_reference(name, config, version)}; it locks {locked}{skipped}"
        )
    return candidates[0]


def check_data(entry: LockedDataset, data: Any, path: str) -> None:
    """Raise :class:`FingerprintError` unless ``data`` (a DatasetDict) matches ``entry``."""
    problems = _compare(entry, split_fingerprints(data))
    if problems:
        raise FingerprintError(
            f"the data of {entry.reference} does not match {path}:\n  " + "\n  ".join(problems),
            problems,
        )


def _compare(entry: LockedDataset, found: dict[str, tuple[int, str]]) -> list[str]:
    return compare(
        dataset_spec(entry.name),
        entry.config,
        entry.version,
        entry.fingerprints(),
        found,
        what="locked",
    )


def _source_problems(entry: LockedDataset) -> list[str]:
    spec, config, _ = lookup(entry.name, entry.config, entry.version)
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


class Verified(NamedTuple):
    """One entry of a lock, checked: what differs, or why it could not be checked at all."""

    name: str
    problems: list[str]
    #: Why nothing could be compared (no cached build, and its sources cannot be fetched).
    unchecked: str | None = None


def verify_lock(
    path: str | os.PathLike[str],
    *,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> list[Verified]:
    """Each entry of the lock, named, with what differs about it (empty when nothing does).

    Entries are checked one by one: a malformed or unknown entry is reported
    once and never stops the others. Each is loaded from the cache or rebuilt
    from verified sources, then every split's fingerprint is recomputed from
    the cached data. The names are ``NAME/CONFIG:VERSION (splits ...)`` for
    a valid entry and ``entry N`` for a malformed one. An entry that is neither in
    the cache nor fetchable (offline, no mirror) is *unchecked*, never "differs":
    nothing was compared.
    """
    lock = read(path)
    results: list[tuple[int, Verified]] = [
        (bad.number, Verified(f"entry {bad.number}", [bad.problem])) for bad in lock.invalid
    ]
    numbers = _entry_numbers(lock)
    for entry, number in zip(lock.datasets, numbers, strict=True):
        results.append((number, _entry_checked(entry, cache_dir, mirror)))
    return [verified for _, verified in sorted(results, key=lambda r: r[0])]


def _entry_numbers(lock: Lock) -> list[int]:
    """The 1-based position in the file of each valid entry."""
    taken = {bad.number for bad in lock.invalid}
    free = (n for n in range(1, len(lock.datasets) + len(taken) + 1) if n not in taken)
    return [next(free) for _ in lock.datasets]


def _entry_checked(entry: LockedDataset, cache_dir: str | None, mirror: str | None) -> Verified:
    splits = ", ".join(split.name for split in entry.splits)
    where = f"{entry.name}/{entry.config} {entry.version} (splits {splits})"
    name = _describe_ok(entry)
    try:
        spec, config, version = lookup(entry.name, entry.config, entry.version)
    except HatemojiDatasetsError as error:
        return Verified(name, [f"{where}: {error}"])
    problems = _source_problems(entry)
    try:
        # A damaged cache is named as build names it (the file, the --force command); the
        # fingerprints are then recomputed from data known to be whole.
        _, data = load_verified(spec, config, version, cache_dir=cache_dir, mirror=mirror)
    except ChecksumError as error:  # fetched, and not the pinned bytes: a real difference
        return Verified(name, [*problems, f"{where}: cannot be loaded or built: {error}"])
    except SourceError as error:  # nothing to compare: not cached, and not fetchable here
        return Verified(name, problems, f"{where}: {error}")
    except HatemojiDatasetsError as error:
        return Verified(name, [*problems, f"{where}: cannot be loaded or built: {error}"])
    return Verified(name, problems + _compare(entry, split_fingerprints(data)))


def _describe_ok(entry: LockedDataset) -> str:
    splits = ", ".join(f"{s.name} {s.fingerprint[:19]}…" for s in entry.splits)
    return f"{entry.reference} ({splits})"


def describe(results: Iterable[Verified]) -> list[str]:
    """``ok: NAME (splits)`` for each entry that holds, one ``differs:`` line per problem and
    one ``not checked:`` line for an entry that could not be compared."""
    lines = []
    for name, problems, unchecked in results:
        lines += [f"differs: {problem}" for problem in problems]
        if unchecked:
            lines.append(f"not checked: {unchecked}")
        elif not problems:
            lines.append(f"ok: {name}")
    return lines
