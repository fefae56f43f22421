"""Checking a file against its pin (size first, then sha256), and the name a verified copy
of it is kept under in the cache."""

from __future__ import annotations

import hashlib
import os
import re
from urllib.parse import urlsplit

from hatemoji_datasets.core.checksums import SourceFile
from hatemoji_datasets.core.errors import ChecksumError


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
        raise ChecksumError(source.url, path, f"{source.size:,} bytes", f"{size:,} bytes")
    actual = sha256_of(path)
    if actual != source.sha256:
        raise ChecksumError(source.url, path, source.sha256, actual)


def cached_name(source: SourceFile) -> str:
    """The file name a verified copy of ``source`` has in the cache: its sha256 first, so a
    copy of other bytes never answers for it."""
    base = os.path.basename(urlsplit(source.url).path) or source.name
    return f"{source.sha256}-{re.sub(r'[^A-Za-z0-9._-]', '_', base)[:80]}"
