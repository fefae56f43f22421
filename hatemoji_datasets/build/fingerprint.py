"""Content fingerprints of built splits, and the fingerprints recorded for each release.

A fingerprint is a sha256 over a built split's features and rows and nothing
else: no path, timestamp, cache folder, fingerprint of ``datasets``' own or
``datasets`` version enters it. Features are first rewritten to a form that
every ``datasets`` release shares (``Sequence`` in 3.x and ``List`` in 4+ are
both ``list``), and values are read back through Arrow as plain Python
objects, so ``string`` and ``large_string`` columns, or chunked and
contiguous tables, give the same digest.

Each dataset package records the fingerprints of every release it builds in
``fingerprints.tsv`` (``hatemoji-datasets fingerprints --write``). A fresh build
is checked against them before it is kept (:mod:`hatemoji_datasets.builder`).
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hatemoji_datasets.spec import ConfigSpec, DatasetSpec

if TYPE_CHECKING:
    import datasets
    import pyarrow as pa

FINGERPRINTS_FILE = "fingerprints.tsv"
#: Bumped if the digest's definition ever changes; it is hashed first.
SCHEME = "hatemoji-datasets fingerprint v1"
PREFIX = "sha256:"
COLUMNS = ("version", "config", "split", "rows", "fingerprint", "sources")
#: Rows hashed per Arrow batch: bounded memory, same digest for any chunking.
_BATCH_ROWS = 4096


# -- the digest ----------------------------------------------------------------------------


def fingerprint(dataset: datasets.Dataset) -> str:
    """The content digest of a built split, ``"sha256:<64 hex>"``."""
    table = dataset.with_format("arrow")[:] if dataset._indices is not None else dataset.data.table
    return fingerprint_table(table, dataset.features)


def fingerprint_table(table: pa.Table, features: datasets.Features) -> str:
    """The digest of ``table`` (rows in order) under ``features`` (columns in order)."""
    digest = hashlib.sha256()
    digest.update(SCHEME.encode() + b"\n")
    shape = canonical_features(features)
    digest.update(_dumps(shape).encode() + b"\n")
    columns = list(features)
    table = table.select(columns)
    for batch in table.to_batches(max_chunksize=_BATCH_ROWS):
        values = [column.to_pylist() for column in batch.columns]
        for row in zip(*values, strict=True):
            digest.update(_dumps(list(row)).encode() + b"\n")
    return PREFIX + digest.hexdigest()


def canonical_features(features: Any) -> Any:
    """``features`` in a form that is the same under every ``datasets`` release.

    ``Value`` -> ``{"value": dtype}``, ``ClassLabel`` -> ``{"class_label": names}``,
    ``Sequence``/``List``/``LargeList``/``[feature]`` -> ``{"list": feature, "length": n}``
    (``large`` marked), a dict -> ``{"struct": {name: feature}}`` in column order.
    """
    import datasets

    kind = type(features).__name__
    if isinstance(features, datasets.Value):
        return {"value": features.dtype}
    if isinstance(features, datasets.ClassLabel):
        return {"class_label": list(features.names)}
    if isinstance(features, list):  # the [feature] shorthand
        return {"list": canonical_features(features[0]), "length": -1}
    if kind in ("Sequence", "List", "LargeList"):
        inner = features.feature
        if kind == "Sequence" and isinstance(inner, dict):
            # datasets < 4 stores Sequence({...}) as a struct of lists.
            inner = {key: _SequenceOf(value, features.length) for key, value in inner.items()}
            return canonical_features(inner)
        shape = {"list": canonical_features(inner), "length": getattr(features, "length", -1)}
        if kind == "LargeList":
            shape["large"] = True
        return shape
    if isinstance(features, _SequenceOf):
        return {"list": canonical_features(features.feature), "length": features.length}
    if isinstance(features, Mapping):
        return {"struct": {key: canonical_features(value) for key, value in features.items()}}
    # Anything else (Translation, Array2D, Audio...): its own serialisation, minus the
    # class name that differs between releases for the same thing.
    described = dict(features.__dict__) if hasattr(features, "__dict__") else str(features)
    if isinstance(described, dict):
        described = {k: v for k, v in described.items() if not k.startswith("_")}
        described["kind"] = kind
    return {"other": json.loads(json.dumps(described, default=str, sort_keys=True))}


@dataclass(frozen=True)
class _SequenceOf:
    feature: Any
    length: int


def _dumps(value: Any) -> str:
    return json.dumps(
        value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=_json_default
    )


def _json_default(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return {"bytes": bytes(value).hex()}
    if hasattr(value, "isoformat"):
        return {"time": value.isoformat()}
    if hasattr(value, "tolist"):
        return value.tolist()
    return {"repr": repr(value)}


def sources_digest(spec: DatasetSpec, config: ConfigSpec) -> str:
    """A short digest of the pinned files ``config`` is built from.

    Recorded fingerprints hold for these inputs only: a build from other files
    (tests' small stand-ins) is not compared with them.
    """
    pinned = spec.config_sources(config)
    text = "".join(f"{name}\t{pinned[name].sha256}\n" for name in sorted(pinned))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# -- recorded fingerprints -----------------------------------------------------------------


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
            rows = f" ({got_rows} rows, {what} {want_rows})" if got_rows != want_rows else ""
            problems.append(f"{where}: fingerprint {got}, {what} {want}{rows}")
    return problems


# -- recording ----------------------------------------------------------------------------


def compute_records(
    spec: DatasetSpec, *, cache_dir: str | None = None, mirror: str | None = None
) -> list[Recorded]:
    """Build (or load) every released version and config of ``spec``; their fingerprints.

    The recorded fingerprints are not consulted (they are what this computes).
    """
    from hatemoji_datasets.api import prepared_builder, verified_data

    records = []
    for version in reversed(spec.versions):  # oldest first
        for config in spec.configs:
            builder = prepared_builder(
                spec.name,
                config.name,
                version=version,
                cache_dir=cache_dir,
                mirror=mirror,
                check_fingerprints=False,
            )
            data = verified_data(builder)
            for split in config.split_names:
                records.append(
                    Recorded(
                        version=version,
                        config=config.name,
                        split=split,
                        rows=data[split].num_rows,
                        fingerprint=fingerprint(data[split]),
                        sources=sources_digest(spec, config),
                    )
                )
    return records


def record_all(
    specs: Iterable[DatasetSpec],
    *,
    write: bool,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> list[tuple[Path, str]]:
    """Each dataset's ``fingerprints.tsv`` that differs from what builds give now.

    Returns ``(path, new text)`` for each; with ``write`` the files are rewritten.
    """
    stale = []
    for spec in specs:
        text = render_recorded(compute_records(spec, cache_dir=cache_dir, mirror=mirror))
        path = recorded_path(spec)
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            stale.append((path, text))
            if write:
                path.write_text(text, encoding="utf-8")
    return stale
