"""Upstream files: pinned URLs, checksums, the offline mirror and verified downloads.

Each dataset package ships a ``checksums.tsv`` listing every upstream file it
reads (URL pinned at a commit, size, sha256, license). Downloads go through the
``datasets`` download manager; a mirror maps ``https://HOST/PATH`` to
``MIRROR/HOST/PATH`` so the package works offline.
"""

from __future__ import annotations

import csv
import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from hatemoji_datasets.errors import ChecksumError, SourceError

MIRROR_ENV = "HATEMOJI_DATASETS_MIRROR"
CHECKSUM_COLUMNS = ("name", "url", "size", "sha256", "license")


@dataclass(frozen=True)
class SourceFile:
    """One pinned upstream file."""

    name: str
    url: str
    size: int
    sha256: str
    license: str


def read_checksums(path: Path) -> dict[str, SourceFile]:
    """Read a dataset's ``checksums.tsv`` into ``{name: SourceFile}``."""
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        if tuple(reader.fieldnames or ()) != CHECKSUM_COLUMNS:
            expected = " <tab> ".join(CHECKSUM_COLUMNS)
            raise SourceError(f"{path}: header must be {expected}")
        files = {}
        for row in reader:
            files[row["name"]] = SourceFile(
                name=row["name"],
                url=row["url"],
                size=int(row["size"]),
                sha256=row["sha256"].lower(),
                license=row["license"],
            )
    return files


def mirror_setting(mirror: str | os.PathLike[str] | None = None) -> str | None:
    """The mirror in force: the argument if given, else the environment variable."""
    if mirror is not None:
        return os.fspath(mirror)
    return os.environ.get(MIRROR_ENV) or None


def resolve_url(url: str, mirror: str | None) -> str:
    """Map ``https://HOST/PATH`` to ``MIRROR/HOST/PATH`` when a mirror is set."""
    if not mirror:
        return url
    parts = urlsplit(url)
    relative = f"{parts.netloc}{parts.path}"
    if "://" in mirror:
        return f"{mirror.rstrip('/')}/{relative}"
    return str(Path(mirror).expanduser().resolve() / relative)


def sha256_of(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(source: SourceFile, path: str) -> None:
    """Raise ChecksumError unless ``path`` has the pinned size and sha256."""
    size = os.path.getsize(path)
    if size != source.size:
        raise ChecksumError(source.url, path, f"{source.size} bytes", f"{size} bytes")
    actual = sha256_of(path)
    if actual != source.sha256:
        raise ChecksumError(source.url, path, source.sha256, actual)


def fetch(sources: Mapping[str, SourceFile], dl_manager, mirror: str | None) -> dict[str, str]:
    """Download every source through ``dl_manager`` and verify it.

    Returns ``{name: local path}``. A file that fails its checksum is removed
    from the download cache (never from the mirror itself) so that no later
    call reuses it.
    """
    mirror = mirror_setting(mirror)
    locations = {name: resolve_url(src.url, mirror) for name, src in sources.items()}
    for name, location in locations.items():
        if "://" not in location and not Path(location).is_file():
            raise SourceError(
                f"upstream file {sources[name].url} is missing from the mirror {mirror}: "
                f"expected it at {location}"
            )
    try:
        paths = dl_manager.download(locations)
    except Exception as exc:  # the download manager raises many kinds; name the URLs
        wanted = ", ".join(locations.values())
        raise SourceError(f"could not download {wanted}: {exc}") from exc
    for name, path in paths.items():
        try:
            verify(sources[name], path)
        except ChecksumError:
            if os.path.abspath(path) != os.path.abspath(locations[name]):
                _discard_download(path)
            raise
    return paths


def fetch_local(sources: Mapping[str, SourceFile], mirror: str) -> dict[str, str]:
    """Verified paths of every source in a local mirror folder, read in place."""
    paths = {}
    for name, source in sources.items():
        path = resolve_url(source.url, mirror)
        if not Path(path).is_file():
            raise SourceError(
                f"upstream file {source.url} is missing from the mirror {mirror}: "
                f"expected it at {path}"
            )
        verify(source, path)
        paths[name] = path
    return paths


def _discard_download(path: str) -> None:
    for leftover in (path, f"{path}.json", f"{path}.lock"):
        Path(leftover).unlink(missing_ok=True)
