"""Recording fingerprints: rebuild every released version and config, and compare or write.

``hatemoji-datasets fingerprints [--write]`` builds (or loads) every release of
each dataset, computes its fingerprints, and compares them with (or rewrites)
the dataset's ``fingerprints.tsv``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from hatemoji_datasets.building.fingerprint import fingerprint
from hatemoji_datasets.building.prepare import load_verified
from hatemoji_datasets.building.recorded import (
    Recorded,
    recorded_path,
    render_recorded,
    sources_digest,
)
from hatemoji_datasets.core.generated import refresh
from hatemoji_datasets.core.spec import DatasetSpec


def compute_records(
    spec: DatasetSpec, *, cache_dir: str | None = None, mirror: str | None = None
) -> list[Recorded]:
    """Build (or load) every released version and config of ``spec``; their fingerprints.

    The recorded fingerprints are not consulted (they are what this computes),
    and every pinned file is validated against the schema, also when the build
    is cached: builds rely on the files of recorded fingerprints being valid.
    """
    records = []
    for version in reversed(spec.versions):  # oldest first
        for config in spec.configs_of(version):
            _, data = load_verified(
                spec,
                config,
                version,
                cache_dir=cache_dir,
                mirror=mirror,
                check_fingerprints=False,
                validate=True,
            )
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
    files = {
        recorded_path(spec): render_recorded(
            compute_records(spec, cache_dir=cache_dir, mirror=mirror)
        )
        for spec in specs
    }
    return [(path, files[path]) for path in refresh(files, write=write, make_folders=False)]
