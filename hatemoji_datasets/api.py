"""The public entry points: ``load_dataset`` and ``dataset_info``."""

from __future__ import annotations

from typing import Any

import datasets

from hatemoji_datasets.builder import HatemojiBuilder
from hatemoji_datasets.errors import UnknownNameError
from hatemoji_datasets.registry import make_builder


def prepared_builder(
    name: str,
    config: str | None = None,
    *,
    version: str | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> HatemojiBuilder:
    """The builder for ``name``/``config``, built into the cache unless already there.

    ``datasets`` writes into an ``.incomplete`` folder and renames it only on
    success, so a failed build leaves nothing a later call would reuse.
    """
    builder = make_builder(name, config, version=version, cache_dir=cache_dir, mirror=mirror)
    builder.download_and_prepare()
    return builder


def load_dataset(
    name: str,
    config: str | None = None,
    *,
    split: str | None = None,
    version: str | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> datasets.DatasetDict | datasets.Dataset:
    """Build (or load from the cache) a dataset of this package.

    ``name`` is a registered name, optionally pinned as ``"name:1.0.0"``.
    ``mirror`` (or ``$HATEMOJI_DATASETS_MIRROR``) maps upstream URLs onto a
    local or remote copy laid out as ``MIRROR/HOST/PATH``. Returns a
    ``DatasetDict``, or one ``Dataset`` when ``split`` is given.
    """
    builder = prepared_builder(name, config, version=version, cache_dir=cache_dir, mirror=mirror)
    splits = list(builder.info.splits or {})
    if split is not None and split not in splits:
        raise UnknownNameError(
            f"unknown split {split!r} of {builder.NAME}/{builder.config.name}; "
            f"available: {', '.join(splits)}"
        )
    return builder.as_dataset(split=split)


def dataset_info(
    name: str,
    config: str | None = None,
    *,
    version: str | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> dict[str, Any]:
    """Version, features, split sizes, licence, citation and dataset-specific statistics."""
    builder = prepared_builder(name, config, version=version, cache_dir=cache_dir, mirror=mirror)
    data = builder.as_dataset()
    info = builder.info
    return {
        "name": builder.NAME,
        "config": builder.config.name,
        "configs": builder.config_names(),
        "version": str(builder.config.version),
        "release_notes": dict(builder.RELEASE_NOTES),
        "features": info.features,
        "splits": {split: data[split].num_rows for split in data},
        "license": info.license,
        "homepage": info.homepage,
        "citation": info.citation,
        "sources": builder.config_sources(),
        "statistics": builder.summarize(data),
    }
