"""The public entry points: ``load_dataset`` and ``dataset_info``."""

from __future__ import annotations

import re
from typing import Any

import datasets

from hatemoji_datasets.builder import HatemojiBuilder, card_source
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
    ``split`` takes what ``datasets.load_dataset`` takes: a split name, a slice
    (``"test[:10]"``, ``"train[:10%]"``) or a sum (``"train+validation"``).
    ``mirror`` (or ``$HATEMOJI_DATASETS_MIRROR``) maps upstream URLs onto a
    local or remote copy laid out as ``MIRROR/HOST/PATH``. Returns a
    ``DatasetDict``, or one ``Dataset`` when ``split`` is given.
    """
    builder = prepared_builder(name, config, version=version, cache_dir=cache_dir, mirror=mirror)
    if split is not None:
        _check_split(builder, split)
    try:
        return builder.as_dataset(split=split)
    except ValueError as exc:  # a malformed slice
        raise UnknownNameError(f"cannot read split {split!r}: {exc}") from None


def _check_split(builder: HatemojiBuilder, split: str) -> None:
    available = list(builder.info.splits or {})
    for part in split.split("+"):
        name = re.sub(r"\[.*\]$", "", part.strip())
        if name not in available:
            raise UnknownNameError(
                f"unknown split {name!r} of {builder.SPEC.name}/{builder.config.name}; "
                f"available: {', '.join(available)}"
            )


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
    spec, config_spec = builder.SPEC, builder.config_spec
    data = builder.as_dataset()
    info = builder.info
    statistics = spec.resolve(spec.statistics)(data) if spec.statistics else {}
    return {
        "name": spec.name,
        "pretty_name": card_source(spec).pretty_name,
        "config": config_spec.name,
        "configs": spec.config_names,
        "version": str(builder.config.version),
        "release_notes": spec.release_notes,
        "features": info.features,
        "splits": {split: data[split].num_rows for split in data},
        "license": info.license,
        "homepage": info.homepage,
        "citation": info.citation,
        "sources": spec.config_sources(config_spec),
        "statistics": statistics,
    }
