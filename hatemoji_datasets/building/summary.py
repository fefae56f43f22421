"""What ``info`` prints, kept beside a build so a built dataset is described without ``datasets``.

The first ``info`` of a build computes the summary (features, split sizes,
licence, sources and the dataset's statistics) and writes it as JSON into the
build's cache folder; later calls read it back, checking first that every
split's Arrow files still hold the rows the build recorded. The cache layout
is ``datasets``' own: ``CACHE/<name>/<config>/<version>/``.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from hatemoji_datasets.spec import ConfigSpec, DatasetSpec

SUMMARY_FILE = "hatemoji_summary.json"
#: Bump when the summary's layout changes: older files are then recomputed.
SUMMARY_FORMAT = 2


def cache_root(cache_dir: str | os.PathLike[str] | None) -> Path:
    """The ``datasets`` cache folder in force, as ``datasets`` itself resolves it."""
    if cache_dir is not None:
        return Path(cache_dir).expanduser()
    if os.environ.get("HF_DATASETS_CACHE"):
        return Path(os.environ["HF_DATASETS_CACHE"]).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join("~", ".cache")
    hf_home = os.environ.get("HF_HOME") or os.path.join(xdg, "huggingface")
    return Path(hf_home).expanduser() / "datasets"


def build_dir(spec: DatasetSpec, config: ConfigSpec, version: str, cache_dir: str | None) -> Path:
    return cache_root(cache_dir) / spec.name / config.name / version


def is_built(spec: DatasetSpec, config: ConfigSpec, version: str, cache_dir: str | None) -> bool:
    """Whether a finished build of ``config`` at ``version`` is in the cache."""
    return (build_dir(spec, config, version, cache_dir) / "dataset_info.json").is_file()


def read(spec: DatasetSpec, config: ConfigSpec, version: str, cache_dir: str | None) -> dict | None:
    """The stored summary of a build, or None when there is none or the build is damaged."""
    folder = build_dir(spec, config, version, cache_dir)
    try:
        summary = json.loads((folder / SUMMARY_FILE).read_text(encoding="utf-8"))
        recorded = json.loads((folder / "dataset_info.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if summary.get("format") != SUMMARY_FORMAT:
        return None
    splits = {name: info["num_examples"] for name, info in recorded.get("splits", {}).items()}
    from hatemoji_datasets.building.cache_files import count_rows  # pyarrow: only with a summary

    if splits != summary["splits"] or any(
        count_rows(folder, spec.name, split) != rows for split, rows in splits.items()
    ):
        return None  # let the full path name the damage
    return summary


def write(folder: str | os.PathLike[str], summary: dict[str, Any]) -> None:
    """Store ``summary`` in a build folder, atomically (a reader never sees half a file)."""
    path = Path(folder) / SUMMARY_FILE
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        partial.write_text(json.dumps(summary, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        partial.unlink(missing_ok=True)  # a read-only cache still answers; it just recomputes


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
