"""A dataset config at a version, ready to serve: built into the cache, or found there and checked.

:func:`load_verified` builds into the ``datasets`` cache unless the build is
already there, and serves every split only after checking it against what the
build recorded (:func:`verified_data`). Everything that loads data (``load_dataset``,
``info``, cards, export, lockfiles, fingerprints, scoring) goes through these two.
"""

from __future__ import annotations

import datasets

from hatemoji_datasets.building.builder import HatemojiBuilder, builder_class_for
from hatemoji_datasets.errors import CacheError, UnknownNameError
from hatemoji_datasets.spec import ConfigSpec, DatasetSpec

#: ``download_mode`` values: reuse a verified cache, or rebuild from verified sources.
REUSE, FORCE = "reuse_dataset_if_exists", "force_redownload"


def load_verified(
    spec: DatasetSpec,
    config: ConfigSpec,
    version: str,
    *,
    cache_dir: str | None = None,
    mirror: str | None = None,
    download_mode: str | None = None,
    check_fingerprints: bool = True,
) -> tuple[HatemojiBuilder, datasets.DatasetDict]:
    """The builder of ``config`` at ``version`` and its checked splits, built if not cached.

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
    spec.config(config.name, version)  # a config added in a later release is named, not built
    cls = builder_class_for(spec, version)
    try:
        builder = cls(
            config_name=config.name,
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
    return builder, verified_data(builder)


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
