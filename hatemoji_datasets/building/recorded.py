"""The fingerprints recorded for each release: a dataset package's ``fingerprints.tsv``.

Each dataset package records the fingerprint of every released version, config
and split (with the row count and a digest of the pinned sources they hold for),
written by ``hatemoji-datasets fingerprints --write``
(:mod:`hatemoji_datasets.pinning.record`). A fresh build is checked against them
before it is kept (:mod:`hatemoji_datasets.building.builder`).
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec

FINGERPRINTS_FILE = "fingerprints.tsv"
COLUMNS = ("version", "config", "split", "rows", "fingerprint", "sources")


def sources_digest(spec: DatasetSpec, config: ConfigSpec) -> str:
    """A short digest of the pinned files ``config`` is built from.

    Recorded fingerprints hold for these inputs only: a build from other files
    (tests' small stand-ins) is not compared with them.
    """
    pinned = spec.config_sources(config)
    text = "".join(f"{name}\t{pinned[name].sha256}\n" for name in sorted(pinned))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Recorded:
    """One row of a dataset's ``fingerprints.tsv``."""

    version: str
    config: str
    split: str
    rows: int
    fingerprint: str
    sources: str


def recorded_path(spec: DatasetSpec) -> Path:
    return spec.package_dir / FINGERPRINTS_FILE


def read_recorded(spec: DatasetSpec) -> dict[tuple[str, str, str], Recorded]:
    """``{(version, config, split): Recorded}`` from the dataset's ``fingerprints.tsv``."""
    path = recorded_path(spec)
    if not path.exists():
        return {}
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    found = {}
    for row in rows:
        record = Recorded(
            version=row["version"],
            config=row["config"],
            split=row["split"],
            rows=int(row["rows"]),
            fingerprint=row["fingerprint"],
            sources=row["sources"],
        )
        found[record.version, record.config, record.split] = record
    return found


def render_recorded(records: Iterable[Recorded]) -> str:
    lines = ["\t".join(COLUMNS)]
    for r in records:
        lines.append(
            "\t".join([r.version, r.config, r.split, str(r.rows), r.fingerprint, r.sources])
        )
    return "\n".join(lines) + "\n"


def expected_for(spec: DatasetSpec, config: ConfigSpec, version: str) -> dict[str, Recorded] | None:
    """The recorded fingerprints of ``config`` at ``version``, by split.

    ``None`` when nothing is recorded for the files the config is pinned to now
    (a build from other inputs, or a version not yet recorded).
    """
    records = {
        split: record
        for (v, c, split), record in read_recorded(spec).items()
        if v == version and c == config.name
    }
    if not records:
        return None
    if any(record.sources != sources_digest(spec, config) for record in records.values()):
        return None
    return records


def compare(
    spec: DatasetSpec,
    config: str,
    version: str,
    expected: Mapping[str, tuple[int, str]],
    found: Mapping[str, tuple[int, str]],
    *,
    what: str = "recorded",
) -> list[str]:
    """One line per split whose rows or fingerprint differ, naming both digests."""
    problems = []
    for split in sorted(set(expected) | set(found)):
        where = f"{spec.name}/{config} {version} split {split}"
        if split not in found:
            problems.append(f"{where}: {what} but not built")
        elif split not in expected:
            problems.append(f"{where}: built but not {what}")
        elif found[split] != expected[split]:
            (want_rows, want), (got_rows, got) = expected[split], found[split]
            rows = f" ({got_rows:,} rows, {what} {want_rows:,})" if got_rows != want_rows else ""
            problems.append(f"{where}: fingerprint {got}, {what} {want}{rows}")
    return problems
