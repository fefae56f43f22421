"""What ``info`` prints, kept beside a build so a built dataset is described without ``datasets``.

The first ``info`` of a build computes the summary (features, split sizes,
licence, sources and the dataset's statistics) and writes it as JSON into the
build's cache folder, recording its digest in the build's manifest; later
calls read it back only when the manifest vouches for it and for every file
of the build, and when it has the summary's shape (:data:`SCHEMA`); anything
else is recomputed. The cache layout is ``datasets``' own:
``CACHE/<name>/<config>/<version>/``.
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from dataclasses import asdict
from pathlib import Path
from typing import Any

from hatemoji_datasets.building import manifest
from hatemoji_datasets.core.errors import InputError, OutputError
from hatemoji_datasets.core.file_reads import decode, parse_json
from hatemoji_datasets.core.file_writes import write_text
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec
from hatemoji_datasets.sources.settings import datasets_cache

SUMMARY_FILE = "hatemoji_summary.json"
#: Bump when the summary's layout changes: older files are then recomputed.
SUMMARY_FORMAT = 2


def build_dir(spec: DatasetSpec, config: ConfigSpec, version: str, cache_dir: str | None) -> Path:
    return datasets_cache(cache_dir) / spec.name / config.name / version


def is_built(spec: DatasetSpec, config: ConfigSpec, version: str, cache_dir: str | None) -> bool:
    """Whether a finished build of ``config`` at ``version`` is in the cache."""
    return (build_dir(spec, config, version, cache_dir) / "dataset_info.json").is_file()


def read(spec: DatasetSpec, config: ConfigSpec, version: str, cache_dir: str | None) -> dict | None:
    """The stored summary of a build, or None when it cannot be trusted (then it is recomputed).

    The summary is untrusted input: it is used only when the build's manifest
    vouches for every file of the build and for the summary's own bytes, and
    when it has the shape this package writes (:func:`problems`) and describes
    this very build (its name, config, version, splits and features).
    """
    folder = build_dir(spec, config, version, cache_dir)
    if not manifest.exists(folder):
        return None
    try:
        manifest.check(folder, dataset_name=spec.name, skip=(SUMMARY_FILE,))
    except manifest.Damage:
        return None  # let the full path name the damage
    stored = manifest.verified_file(folder, SUMMARY_FILE)
    recorded = manifest.verified_file(folder, "dataset_info.json")
    if stored is None or recorded is None:
        return None
    try:
        summary = parse_json(SUMMARY_FILE, decode(SUMMARY_FILE, stored))
        info = parse_json("dataset_info.json", decode("dataset_info.json", recorded))
    except InputError:
        return None
    if problems(summary) or not isinstance(info, dict):
        return None
    splits = info.get("splits")
    if not isinstance(splits, dict) or not all(isinstance(v, dict) for v in splits.values()):
        return None
    expected = {
        "name": spec.name,
        "config": config.name,
        "version": version,
        "splits": {name: split.get("num_examples") for name, split in splits.items()},
        "features": info.get("features"),
    }
    if any(summary[key] != value for key, value in expected.items()):
        return None
    return summary


#: The summary's layout: each key and the shape of its value (a type, ``[item]`` for a
#: list of items, ``{str: value}`` for a mapping of names).
SCHEMA: dict[str, Any] = {
    "format": int,
    "name": str,
    "pretty_name": str,
    "config": str,
    "configs": [str],
    "version": str,
    "release_notes": {str: str},
    "features": {str: dict},
    "splits": {str: int},
    "license": str,
    "homepage": str,
    "citation": str,
    "sources": [{"name": str, "url": str, "size": int, "sha256": str, "license": str}],
    "statistics": {str: object},
}


def problems(summary: Any, shape: Any = SCHEMA, where: str = "summary") -> list[str]:
    """How ``summary`` differs from :data:`SCHEMA` (an empty list when it conforms)."""
    if isinstance(shape, type):
        conforms = shape is object or (
            isinstance(summary, shape) and not (shape is int and isinstance(summary, bool))
        )
        return [] if conforms else [f"{where} is not {shape.__name__}"]
    if isinstance(shape, list):
        if not isinstance(summary, list):
            return [f"{where} is not a list"]
        item_shape = shape[0]
        return [p for i, x in enumerate(summary) for p in problems(x, item_shape, f"{where}[{i}]")]
    if not isinstance(summary, dict):
        return [f"{where} is not a mapping"]
    if list(shape) == [str]:
        value_shape = shape[str]
        return [p for k, v in summary.items() for p in problems(v, value_shape, f"{where}.{k}")]
    found = [f"{where} lacks {key!r}" for key in shape if key not in summary]
    for key, value in summary.items():
        if key not in shape:
            found.append(f"{where} has an unknown key {key!r}")
        else:
            found += problems(value, shape[key], f"{where}.{key}")
    return found


def write(folder: str | os.PathLike[str], summary: dict[str, Any]) -> None:
    """Store ``summary`` in a build folder atomically, and record its digest in the manifest.

    A cache that cannot be written still answers: ``info`` then recomputes.
    """
    path = Path(folder) / SUMMARY_FILE
    with suppress(OutputError):
        write_text(path, json.dumps(summary, ensure_ascii=False, indent=1))
        manifest.add(folder, SUMMARY_FILE)


def make(
    spec: DatasetSpec,
    config: ConfigSpec,
    version: str,
    *,
    features: dict[str, Any],
    splits: dict[str, int],
    license: str,
    homepage: str,
    citation: str,
    statistics: dict[str, Any],
) -> dict[str, Any]:
    return {
        "format": SUMMARY_FORMAT,
        "name": spec.name,
        "pretty_name": spec.pretty_name,
        "config": config.name,
        "configs": [c.name for c in spec.configs_of(version)],
        "version": version,
        "release_notes": spec.release_notes,
        "features": features,
        "splits": splits,
        "license": license,
        "homepage": homepage,
        "citation": citation,
        "sources": [asdict(source) for source in spec.config_sources(config).values()],
        "statistics": statistics,
    }
