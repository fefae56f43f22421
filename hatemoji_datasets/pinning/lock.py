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
from typing import Any

from hatemoji_datasets.building.fingerprint import fingerprint
from hatemoji_datasets.building.prepare import load_verified
from hatemoji_datasets.building.recorded import compare
from hatemoji_datasets.errors import FingerprintError, HatemojiDatasetsError, LockError
from hatemoji_datasets.pinning.lockfile import Lock, LockedDataset, LockedSource, LockedSplit, read
from hatemoji_datasets.registry import dataset_spec, format_reference, lookup
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
        raise LockError(
            f"{path} {why} {format_reference(name, config, version)}; it locks {locked}"
        )
    return candidates[0]


def check_data(entry: LockedDataset, data: Any, path: str) -> None:
    """Raise :class:`FingerprintError` unless ``data`` (a DatasetDict) matches ``entry``."""
    problems = _compare(entry, _found(data))
    if problems:
        raise FingerprintError(
            f"the data of {entry.reference} does not match {path}:\n  " + "\n  ".join(problems),
            problems,
        )


def _found(data: Any) -> dict[str, tuple[int, str]]:
    """Rows and fingerprint of each split of a DatasetDict, recomputed from its Arrow data."""
    return {split: (data[split].num_rows, fingerprint(data[split])) for split in data}


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
    lock = read(path)
    results = []
    for entry in lock.datasets:
        try:
            problems = _source_problems(entry)
            spec, config, version = lookup(entry.name, entry.config, entry.version)
            _, data = load_verified(spec, config, version, cache_dir=cache_dir, mirror=mirror)
            problems += _compare(entry, _found(data))
        except HatemojiDatasetsError as error:
            splits = ", ".join(split.name for split in entry.splits)
            problems.append(
                f"{entry.name}/{entry.config} {entry.version} (splits {splits}): cannot be "
                f"loaded or built: {error}"
            )
        results.append((entry, problems))
    return results


def describe(results: Iterable[tuple[LockedDataset, list[str]]]) -> list[str]:
    lines = []
    for entry, problems in results:
        if problems:
            lines += [f"differs: {problem}" for problem in problems]
        else:
            splits = ", ".join(f"{s.name} {s.fingerprint[:19]}…" for s in entry.splits)
            lines.append(f"ok: {entry.reference} ({splits})")
    return lines
