"""The public entry points: ``load_dataset`` and ``dataset_info``."""

from __future__ import annotations

import os
import re
from typing import Any

import datasets

from hatemoji_datasets.building import summary
from hatemoji_datasets.building.builder import DeclaredBuilder
from hatemoji_datasets.building.prepare import load_verified
from hatemoji_datasets.core.card_source import card_source
from hatemoji_datasets.core.errors import UnknownNameError
from hatemoji_datasets.core.registry import dataset_spec, parse_reference
from hatemoji_datasets.core.suggest import did_you_mean


def load_dataset(
    name: str,
    config: str | None = None,
    *,
    split: str | None = None,
    version: str | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
    download_mode: str | None = None,
    lock: str | os.PathLike[str] | None = None,
    validate: bool = False,
) -> datasets.DatasetDict | datasets.Dataset:
    """Build (or load from the cache) a dataset of this package.

    ``name`` is ``NAME[/CONFIG][:VERSION]`` (``"NAME:1.0.0"``, ``"NAME/CONFIG"``);
    ``config`` and ``version`` may be given separately instead.
    ``split`` takes what ``datasets.load_dataset`` takes: a split name, a slice
    (``"test[:10]"``, ``"train[:10%]"``) or a sum (``"train+validation"``).
    ``mirror`` (or ``$HATEMOJI_DATASETS_MIRROR``) maps upstream URLs onto a
    local or remote copy laid out as ``MIRROR/HOST/PATH``. ``download_mode``
    ``"force_redownload"`` rebuilds from freshly verified sources. With ``lock``
    (a file written by ``hatemoji-datasets lock``) the version comes from the
    lock unless given, and data whose fingerprints differ from the locked ones
    is refused (:class:`FingerprintError`). ``validate=True`` checks the pinned
    upstream files against the dataset's schema even though the files whose
    fingerprints are recorded were validated when they were recorded (a build
    relies on that); from the cache, they are fetched and checked again.
    Returns a ``DatasetDict``, or one ``Dataset`` when ``split`` is given.
    """
    name, config, version = parse_reference(name, config, version)
    spec = dataset_spec(name)
    config_spec = spec.config(config)
    entry = None
    if lock is not None:
        from hatemoji_datasets.pinning import lock as locking

        entry = locking.locked_entry(lock, spec.name, config_spec.name, version)
        version = entry.version
    builder, data = load_verified(
        spec,
        config_spec,
        spec.check_version(version),
        cache_dir=cache_dir,
        mirror=mirror,
        download_mode=download_mode,
        validate=validate,
    )
    if entry is not None:
        locking.check_data(entry, data, str(lock))
    if split is None:
        return data
    _check_split(builder, split)
    if split in data:
        return data[split]
    try:
        return builder.as_dataset(split=split)
    except ValueError as exc:  # a malformed slice
        raise UnknownNameError(f"cannot read split {split!r}: {exc}") from None


def _check_split(builder: DeclaredBuilder, split: str) -> None:
    available = list(builder.info.splits or {})
    for part in split.split("+"):
        name = re.sub(r"\[.*\]$", "", part.strip())
        if name not in available:
            raise UnknownNameError(
                f"unknown split {name!r} of {builder.SPEC.name}/{builder.config.name}"
                f"{did_you_mean(name, available)}; available: {', '.join(available)}"
            )


def dataset_info(
    name: str,
    config: str | None = None,
    *,
    version: str | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> dict[str, Any]:
    """Version, features, split sizes, licence, citation, sources and statistics.

    Builds the dataset if needed; the result is also stored beside the build,
    so ``hatemoji-datasets info`` can answer later without ``datasets``.
    Features are given as ``datasets`` serialises them (``Features.to_dict``).
    """
    name, config, version = parse_reference(name, config, version)
    spec = dataset_spec(name)
    config_spec = spec.config(config)
    builder, data = load_verified(
        spec, config_spec, spec.check_version(version), cache_dir=cache_dir, mirror=mirror
    )
    card = card_source(spec.card_source_path)
    statistics = spec.load(config_spec.statistics) if config_spec.statistics else None
    result = summary.make(
        spec,
        config_spec,
        str(builder.config.version),
        features=builder.info.features.to_dict(),
        splits={split: data[split].num_rows for split in data},
        license=card.license,
        homepage=card.homepage,
        citation=card.citation,
        statistics=statistics(data) if statistics else {},
    )
    summary.write(builder.cache_dir, result)
    return result
