"""A dataset config at a version, ready to serve: built into the cache, or found there and checked.

:func:`load_verified` builds into the ``datasets`` cache unless the build is
already there, and serves every split only after checking it against what the
build recorded: its manifest of file digests before ``datasets`` reads any of
it, then its row counts (:func:`verified_data`). Everything that loads data
(``load_dataset``, ``info``, cards, export, lockfiles, fingerprints, scoring)
goes through these two.
"""

from __future__ import annotations

import shutil
from contextlib import suppress

import datasets

from hatemoji_datasets.building import manifest, recorded, summary
from hatemoji_datasets.building.builder import DeclaredBuilder, builder_class_for
from hatemoji_datasets.core.errors import CacheError, OutputError, UnknownNameError
from hatemoji_datasets.core.progress import datasets_bars_off, step
from hatemoji_datasets.core.registry import format_reference
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec

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
    validate: bool = False,
) -> tuple[DeclaredBuilder, datasets.DatasetDict]:
    """The builder of ``config`` at ``version`` and its checked splits, built if not cached.

    ``datasets`` writes into an ``.incomplete`` folder and renames it only on
    success, so a failed build leaves nothing a later call would reuse. With
    ``download_mode="force_redownload"`` the sources are fetched and verified
    again and the dataset is rebuilt. A fresh build (not a cache hit) is
    compared with the fingerprints the package records for its version before
    it is kept; one that differs raises :class:`FingerprintError` and leaves
    no cache (``check_fingerprints=False`` skips that, for recording new ones).

    A build found in the cache is checked against its manifest (the digests
    recorded when it was written) before ``datasets`` reads any of it; a
    damaged one raises :class:`CacheError` naming the file and the ``--force``
    command. No reader skips this: a lockfile's check recomputes the
    fingerprints afterwards, from data known to be whole.
    ``validate=True`` validates the pinned files against the schema even where
    they were validated when their fingerprints were recorded (a build from the
    cache has them fetched, verified and validated again).
    """
    if download_mode not in (None, REUSE, FORCE):
        raise UnknownNameError(f"unknown download_mode {download_mode!r}; use {REUSE} or {FORCE}")
    spec.config(config.name, version)  # a config added in a later release is named, not built
    folder = summary.build_dir(spec, config, version, cache_dir)
    unvouched = False
    finished = manifest.exists(folder) or (folder / "dataset_info.json").is_file()
    if finished and download_mode != FORCE:
        if manifest.exists(folder):
            try:
                manifest.check(folder, dataset_name=spec.name, skip=(summary.SUMMARY_FILE,))
            except manifest.Damage as damage:
                raise damaged(spec, config, version, folder, str(damage)) from None
        else:
            unvouched = True  # built before manifests: checked against the recorded fingerprints
    builder = _builder(
        spec, config, version, cache_dir, mirror, check_fingerprints, download_mode, validate
    )
    try:
        with datasets_bars_off():  # the package reports progress itself (core.progress)
            builder.download_and_prepare(download_mode=download_mode)
    except OSError as exc:
        raise _cache_error(builder.cache_dir, exc) from None
    except datasets.exceptions.DatasetGenerationError as exc:
        if isinstance(exc.__cause__, OSError):
            raise _cache_error(builder.cache_dir, exc.__cause__) from None
        raise
    if validate and not builder.validated:  # found in the cache: validate its sources now
        from hatemoji_datasets.building.pipeline import check_released

        with step(f"{spec.name}/{config.name} {version}: validating the pinned files"):
            check_released(spec, config, mirror, cache_dir)
        builder.validated = True
    return builder, verified_data(builder, unvouched=unvouched)


def _builder(
    spec: DatasetSpec,
    config: ConfigSpec,
    version: str,
    cache_dir: str | None,
    mirror: str | None,
    check_fingerprints: bool,
    download_mode: str | None,
    validate: bool = False,
) -> DeclaredBuilder:
    """The builder object; ``datasets`` reads a cached build's ``dataset_info.json`` here."""
    cls = builder_class_for(spec, version)
    folder = summary.build_dir(spec, config, version, cache_dir)
    for attempt in (1, 2):
        try:
            return cls(
                config_name=config.name,
                cache_dir=cache_dir,
                mirror=mirror,
                check_fingerprints=check_fingerprints,
                validate=validate,
            )
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            if download_mode == FORCE and attempt == 1 and folder.is_dir():
                # A build whose dataset_info.json is not one: it is rebuilt from verified
                # sources anyway, so what is left of it goes first.
                shutil.rmtree(folder, ignore_errors=True)
                continue
            if isinstance(exc, OSError):  # datasets creates the cache folder here
                raise _cache_error(cache_dir, exc) from None
            what = f"its dataset_info.json cannot be read ({type(exc).__name__})"
            raise damaged(spec, config, version, folder, what) from None
    raise AssertionError("unreachable")


def _cache_error(folder: str | None, exc: OSError) -> CacheError:
    where = exc.filename or folder or "the default datasets cache"
    return CacheError(f"cannot write the datasets cache at {where}: {exc.strerror or exc}")


def damaged(
    spec: DatasetSpec, config: ConfigSpec, version: str, folder: object, damage: str
) -> CacheError:
    """The one-line error of a damaged build: what is wrong, where, and how to rebuild it."""
    reference = format_reference(spec.name, config.name, version)
    return CacheError(
        f"the cached {spec.name}/{config.name} {version} at {folder} is damaged: {damage}; "
        f"rebuild it with `hatemoji-datasets build {reference} --force` "
        f"(download_mode='{FORCE}' in Python)"
    )


def verified_data(builder: DeclaredBuilder, *, unvouched: bool = False) -> datasets.DatasetDict:
    """Every split of a prepared build, each checked against the row count recorded for it.

    A cached Arrow file that was deleted, cut short or replaced is never served.
    A build from before manifests (``unvouched``) is served only if every split's
    fingerprint is the one the package records; its manifest is then written.
    """
    spec, config = builder.SPEC, builder.config_spec
    version = str(builder.config.version)
    recorded_rows = {s: info.num_examples for s, info in (builder.info.splits or {}).items()}
    damage = None
    try:
        data = builder.as_dataset()
    except (FileNotFoundError, ValueError, OSError) as exc:
        data, damage = None, f"it cannot be read ({type(exc).__name__})"
    if data is not None:
        for split, rows in recorded_rows.items():
            if split not in data or data[split].num_rows != rows:
                found = data[split].num_rows if split in data else "no"
                damage = f"split {split} has {found} rows where the build recorded {rows}"
                break
    if damage:
        raise damaged(spec, config, version, builder.cache_dir, damage)
    if unvouched:
        _vouch(builder, data)
    return data


def _vouch(builder: DeclaredBuilder, data: datasets.DatasetDict) -> None:
    """Adopt a build from before manifests if its fingerprints are the recorded ones."""
    from hatemoji_datasets.building.fingerprint import split_fingerprints

    spec, config = builder.SPEC, builder.config_spec
    version = str(builder.config.version)
    expected = recorded.expected_for(spec, config, version)
    if expected is None:
        raise damaged(
            spec,
            config,
            version,
            builder.cache_dir,
            f"it has no {manifest.MANIFEST_FILE} (built by an older release) and no "
            "fingerprint is recorded to check it against",
        )
    try:
        found = split_fingerprints(data)
    except (ValueError, OSError) as exc:  # UnicodeDecodeError, ArrowInvalid: bytes changed
        what = f"its data cannot be read ({type(exc).__name__})"
        raise damaged(spec, config, version, builder.cache_dir, what) from None
    want = {split: (r.rows, r.fingerprint) for split, r in expected.items()}
    problems = recorded.compare(spec, config.name, version, want, found)
    if problems:
        raise damaged(spec, config, version, builder.cache_dir, problems[0])
    with suppress(OutputError):  # a read-only cache is checked this way on every load
        manifest.record(builder.cache_dir, exclude=(summary.SUMMARY_FILE,))
