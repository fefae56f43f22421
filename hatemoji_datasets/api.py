"""The public entry points: ``load_dataset`` and ``dataset_info``."""

from __future__ import annotations

import os
import re
from typing import Any

import datasets

from hatemoji_datasets import summary
from hatemoji_datasets.builder import HatemojiBuilder, card_source
from hatemoji_datasets.errors import CacheError, UnknownNameError
from hatemoji_datasets.registry import make_builder, parse_reference

#: ``download_mode`` values: reuse a verified cache, or rebuild from verified sources.
REUSE, FORCE = "reuse_dataset_if_exists", "force_redownload"


def prepared_builder(
    name: str,
    config: str | None = None,
    *,
    version: str | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
    download_mode: str | None = None,
    check_fingerprints: bool = True,
) -> HatemojiBuilder:
    """The builder for ``name``/``config``, built into the cache unless already there.

    ``datasets`` writes into an ``.incomplete`` folder and renames it only on
    success, so a failed build leaves nothing a later call would reuse. With
    ``download_mode="force_redownload"`` the sources are fetched and verified
    again and the dataset is rebuilt. A fresh build (not a cache hit) is
    compared with the fingerprints the package records for its version before
    it is kept; one that differs raises :class:`FingerprintError` and leaves
    no cache (``check_fingerprints=False`` skips that, for recording new ones).
    """
    if download_mode not in (None, REUSE, FORCE):
        raise UnknownNameError(f"unknown download_mode {download_mode!r}; use {REUSE} or {FORCE}")
    try:
        builder = make_builder(
            name,
            config,
            version=version,
            cache_dir=cache_dir,
            mirror=mirror,
            check_fingerprints=check_fingerprints,
        )
    except OSError as exc:  # datasets creates the cache folder when a builder is made
        raise _cache_error(cache_dir, exc) from None
    try:
        builder.download_and_prepare(download_mode=download_mode)
    except OSError as exc:
        raise _cache_error(builder.cache_dir, exc) from None
    except datasets.exceptions.DatasetGenerationError as exc:
        if isinstance(exc.__cause__, OSError):
            raise _cache_error(builder.cache_dir, exc.__cause__) from None
        raise
    return builder


def _cache_error(folder: str | None, exc: OSError) -> CacheError:
    where = exc.filename or folder or "the default datasets cache"
    return CacheError(f"cannot write the datasets cache at {where}: {exc.strerror or exc}")


def verified_data(builder: HatemojiBuilder) -> datasets.DatasetDict:
    """Every split of a prepared build, each checked against the row count recorded for it.

    A cached Arrow file that was deleted, cut short or replaced is never served.
    """
    recorded = {split: info.num_examples for split, info in (builder.info.splits or {}).items()}
    damage = None
    try:
        data = builder.as_dataset()
    except (FileNotFoundError, ValueError, OSError) as exc:
        data, damage = None, f"it cannot be read ({type(exc).__name__})"
    if data is not None:
        for split, rows in recorded.items():
            if split not in data or data[split].num_rows != rows:
                found = data[split].num_rows if split in data else "no"
                damage = f"split {split} has {found} rows where the build recorded {rows}"
                break
    if damage:
        raise CacheError(
            f"the cached {builder.SPEC.name}/{builder.config.name} {builder.config.version} at "
            f"{builder.cache_dir} is damaged: {damage}; rebuild it with `hatemoji-datasets build "
            f"{builder.SPEC.name} --force` (download_mode='{FORCE}' in Python)"
        )
    return data


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
) -> datasets.DatasetDict | datasets.Dataset:
    """Build (or load from the cache) a dataset of this package.

    ``name`` is ``NAME[/CONFIG][:VERSION]`` (``"apeach:1.0.0"``, ``"hatemoji_build/r5"``);
    ``config`` and ``version`` may be given separately instead.
    ``split`` takes what ``datasets.load_dataset`` takes: a split name, a slice
    (``"test[:10]"``, ``"train[:10%]"``) or a sum (``"train+validation"``).
    ``mirror`` (or ``$HATEMOJI_DATASETS_MIRROR``) maps upstream URLs onto a
    local or remote copy laid out as ``MIRROR/HOST/PATH``. ``download_mode``
    ``"force_redownload"`` rebuilds from freshly verified sources. With ``lock``
    (a file written by ``hatemoji-datasets lock``) the version comes from the
    lock unless given, and data whose fingerprints differ from the locked ones
    is refused (:class:`FingerprintError`). Returns a ``DatasetDict``, or one
    ``Dataset`` when ``split`` is given.
    """
    entry = None
    if lock is not None:
        from hatemoji_datasets import lock as lockfile
        from hatemoji_datasets.registry import resolve

        spec, config_spec, _ = resolve(name, config, version)
        explicit = parse_reference(name, config, version)[2]
        entry = lockfile.locked_entry(
            lockfile.read(lock), str(lock), spec.name, config_spec.name, explicit
        )
        name, config, version = spec.name, config_spec.name, entry.version
    builder = prepared_builder(
        name,
        config,
        version=version,
        cache_dir=cache_dir,
        mirror=mirror,
        download_mode=download_mode,
    )
    data = verified_data(builder)
    if entry is not None:
        from hatemoji_datasets import lock as lockfile

        lockfile.check_data(entry, data, str(lock))
    if split is None:
        return data
    _check_split(builder, split)
    if split in data:
        return data[split]
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
    """Version, features, split sizes, licence, citation, sources and statistics.

    Builds the dataset if needed; the result is also stored beside the build,
    so ``hatemoji-datasets info`` can answer later without ``datasets``.
    Features are given as ``datasets`` serialises them (``Features.to_dict``).
    """
    builder = prepared_builder(name, config, version=version, cache_dir=cache_dir, mirror=mirror)
    spec, config_spec = builder.SPEC, builder.config_spec
    data = verified_data(builder)
    info = builder.info
    result = summary.make(
        spec,
        config_spec,
        str(builder.config.version),
        pretty_name=card_source(spec).pretty_name,
        features=info.features.to_dict(),
        splits={split: data[split].num_rows for split in data},
        license=info.license,
        homepage=info.homepage,
        citation=info.citation,
        statistics=spec.resolve(spec.statistics)(data) if spec.statistics else {},
    )
    summary.write(builder.cache_dir, result)
    return result
