"""Fetching a config's pinned files: from a folder mirror in place, or downloaded and verified.

A folder mirror (or a ``file://`` one) is read in place, and a copy of each file
is kept where its download would be, so that it is read offline later. An
``http(s)`` URL (the upstream itself or an HTTP mirror) is downloaded by
:func:`hatemoji_datasets.sources.http.download` into the ``datasets`` downloads
cache, and a verified file there is used without asking the network. Any other
scheme goes through the ``datasets`` download manager. A file that fails its
checksum is never kept in the cache.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from hatemoji_datasets.core.checksums import SourceFile
from hatemoji_datasets.core.errors import ChecksumError, SourceError
from hatemoji_datasets.core.numbers import size
from hatemoji_datasets.core.progress import step
from hatemoji_datasets.sources.settings import (
    VERIFIED_SUBFOLDER,
    mirror_setting,
    resolve_url,
    timeout_setting,
    verified_copies,
)
from hatemoji_datasets.sources.verify import cached_name, verify

if TYPE_CHECKING:
    from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec

log = logging.getLogger("hatemoji_datasets.sources")


def fetch(
    sources: Mapping[str, SourceFile],
    dl_manager,
    mirror: str | None,
    *,
    timeout: float | None = None,
    keep: str | os.PathLike[str] | None = None,
) -> dict[str, str]:
    """Fetch every source and verify it; ``{name: local path}``.

    Files in a folder mirror (or a ``file://`` one) are verified and read in
    place. ``http(s)`` locations are downloaded by :func:`download` into the
    downloads cache of ``dl_manager`` (the ``datasets`` default when it has
    none) and reused on the next call. Any other scheme goes through
    ``dl_manager.download``. A file that fails its checksum is never kept in the
    cache (and never removed from the mirror itself).
    """
    mirror = mirror_setting(mirror)
    seconds = timeout_setting(timeout)
    locations = {
        name: _local_if_file_url(resolve_url(source.url, mirror))
        for name, source in sources.items()
    }
    for name, location in locations.items():
        if "://" not in location and not Path(location).is_file():
            raise SourceError(
                f"upstream file {sources[name].url} is missing from the mirror {mirror}: "
                f"expected it at {location}"
            )
    paths: dict[str, str] = {}
    others: dict[str, str] = {}
    for name, location in locations.items():
        scheme = urlsplit(location).scheme.lower() if "://" in location else ""
        source = sources[name]
        if scheme in ("http", "https"):
            from hatemoji_datasets.sources.http import download  # http.client, ssl: not for mirrors

            folder = _cache_folder(dl_manager)
            force = bool(getattr(getattr(dl_manager, "download_config", None), "force_download", 0))
            kept = not force and Path(folder, cached_name(source)).is_file()
            with step(f"fetching {source.name} ({_file_name(source)})", source.size) as shown:
                paths[name] = download(
                    source, location, folder, timeout=seconds, force=force, on_bytes=shown.update
                )
            if kept and not mirror:  # offline, this is what makes the command work: say so
                log.warning(
                    "%s: read from its verified copy in the cache, not fetched", source.name
                )
        elif scheme:
            others[name] = location
        else:
            with step(f"verifying {source.name} ({_file_name(source)}, {size(source.size)})"):
                verify(source, location)
            paths[name] = location
            kept = keep if keep is not None else (_cache_folder(dl_manager) if dl_manager else None)
            if kept is not None:
                _keep_copy(source, location, Path(kept))
    if others:
        paths.update(_fetch_with_manager(sources, others, dl_manager))
    return {name: paths[name] for name in sources}


def _file_name(source: SourceFile) -> str:
    return urlsplit(source.url).path.rsplit("/", 1)[-1]


def _cache_folder(dl_manager) -> str:
    configured = getattr(getattr(dl_manager, "download_config", None), "cache_dir", None)
    if configured:
        root = os.fspath(configured)
    else:
        from datasets import config

        root = os.fspath(config.DOWNLOADED_DATASETS_PATH)
    return os.path.join(os.path.expanduser(root), VERIFIED_SUBFOLDER)


def _keep_copy(source: SourceFile, verified: str, folder: Path) -> None:
    """A copy of a verified mirror file where a download of it would be, so that a release
    read once from a mirror is read offline later (as a downloaded one is). Best effort: a
    cache that cannot be written only loses that."""
    target = folder / cached_name(source)
    if target.is_file() and target.stat().st_size == source.size:
        return  # checked when it is used, as every cached download is
    temporary = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.")
        with os.fdopen(handle, "wb") as out, open(verified, "rb") as copied:
            shutil.copyfileobj(copied, out, 1 << 20)
        os.replace(temporary, target)
    except OSError as exc:
        log.info("could not keep a copy of %s in the cache: %s", source.name, exc)
        if temporary is not None:
            with suppress(OSError):
                os.unlink(temporary)


def _local_if_file_url(location: str) -> str:
    if location.lower().startswith("file://"):
        import urllib.request

        return urllib.request.url2pathname(urlsplit(location).path)
    return location


def _fetch_with_manager(
    sources: Mapping[str, SourceFile], locations: dict[str, str], dl_manager
) -> dict[str, str]:
    """Other schemes (e.g. ``hf://``) through the ``datasets`` download manager."""
    try:
        paths = dl_manager.download(locations)
    except Exception as exc:  # the download manager raises many kinds; name the URLs
        from hatemoji_datasets.sources.http import describe_failure

        wanted = ", ".join(locations.values())
        raise SourceError(f"could not download {wanted}: {describe_failure(exc)}") from None
    for name, path in paths.items():
        try:
            verify(sources[name], path)
        except ChecksumError:
            if os.path.abspath(path) != os.path.abspath(locations[name]):
                _discard_download(path)
            raise
    return paths


def _discard_download(path: str) -> None:
    for leftover in (path, f"{path}.json", f"{path}.lock"):
        Path(leftover).unlink(missing_ok=True)


def download_manager(name: str, cache_dir: str | None):  # -> datasets.DownloadManager
    import datasets

    return datasets.DownloadManager(
        dataset_name=name,
        download_config=datasets.DownloadConfig(
            cache_dir=os.path.join(cache_dir, "downloads") if cache_dir else None
        ),
    )


def fetch_released(
    spec: DatasetSpec, config: ConfigSpec, mirror: str | None, cache_dir: str | None
) -> dict[str, str]:
    """The config's pinned upstream files, fetched and verified: ``{source: path}``.

    A local mirror is read in place, without importing ``datasets``.
    """
    pinned = spec.config_sources(config)
    mirror = mirror_setting(mirror)
    if mirror and "://" not in mirror:  # read in place, with no download manager
        return fetch(pinned, None, mirror, keep=verified_copies(cache_dir))
    return fetch(pinned, download_manager(spec.name, cache_dir), mirror)
