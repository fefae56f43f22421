"""Pinning an upstream file: its ``checksums.tsv`` row, measured from the mirror or the network.

The file is read as every build reads it (a folder mirror in place, else over HTTP(S)
by :mod:`hatemoji_datasets.sources.http`), so a row written here is one the builders
can verify.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from hatemoji_datasets.core.checksums import CHECKSUM_COLUMNS, SourceFile, read_checksums
from hatemoji_datasets.core.errors import PinError, SourceError
from hatemoji_datasets.core.licences import Licence
from hatemoji_datasets.sources.settings import mirror_setting, resolve_url, timeout_setting

#: Largest file ``pin`` reads over the network: a cap, as every download has its pinned size.
MAX_PIN_BYTES = 4 << 30
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def default_name(url: str) -> str:
    """The row name of a URL's file name (``unsmile_valid_v1.0.tsv`` gives
    ``unsmile_valid_v1_0``)."""
    stem = unquote(urlsplit(url).path.rsplit("/", 1)[-1]).rsplit(".", 1)[0]
    return re.sub(r"[^a-z0-9]+", "_", stem.lower()).strip("_")


def check_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise PinError(f"cannot pin {url!r}: not an http(s) URL with a host")
    if any(character.isspace() or not character.isprintable() for character in url):
        raise PinError(f"cannot pin {url!r}: a URL holds no spaces or control characters")
    if not parts.path.rsplit("/", 1)[-1]:
        raise PinError(f"cannot pin {url!r}: the URL names no file (its path ends in '/')")


def pin(
    url: str,
    licence: str,
    *,
    name: str | None = None,
    mirror: str | None = None,
    timeout: float | None = None,
    into: Path | None = None,
) -> SourceFile:
    """The pinned row of ``url``: its size and sha256 as read from the mirror or the network.

    With ``into`` (a ``checksums.tsv``), the row is appended there; a name or URL it already
    pins is refused before anything is read.
    """
    check_url(url)
    Licence(licence)  # an unknown or malformed SPDX id fails here, before any download
    name = default_name(url) if name is None else name
    if not _NAME.match(name):
        raise PinError(
            f"row name {name!r} is not a lower-case identifier (letters, digits, '_'); "
            "give one with --name"
        )
    if into is not None:
        _check_new(into, name, url)
    size, sha256 = _measure(url, mirror_setting(mirror), timeout)
    source = SourceFile(name=name, url=url, size=size, sha256=sha256, license=licence)
    if into is not None:
        _append(into, source)
    return source


def _measure(url: str, mirror: str | None, timeout: float | None) -> tuple[int, str]:
    location = resolve_url(url, mirror)
    if "://" not in location:
        if not Path(location).is_file():
            raise SourceError(
                f"{url} is missing from the mirror {mirror}: expected it at {location}"
            )
        digest = hashlib.sha256()
        with open(location, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        return os.path.getsize(location), digest.hexdigest()
    from hatemoji_datasets.sources import http  # http.client, ssl: not for mirrors

    cap = SourceFile(name="pin", url=url, size=MAX_PIN_BYTES, sha256="", license="")
    try:
        with open(os.devnull, "wb") as nowhere:  # only the size and sha256 are kept
            return http._stream(cap, location, nowhere, timeout_setting(timeout))
    except http._Transient as failure:
        raise SourceError(f"could not download {location}: {failure}") from None


def row(source: SourceFile) -> str:
    """The ``checksums.tsv`` line of ``source``, without its newline."""
    return "\t".join(str(getattr(source, column)) for column in CHECKSUM_COLUMNS)


def _check_new(path: Path, name: str, url: str) -> None:
    for pinned in read_checksums(path).values():
        if pinned.name == name:
            raise PinError(f"{path} already pins a file named {name!r}: {pinned.url}")
        if pinned.url == url:
            raise PinError(f"{path} already pins {url} as {pinned.name!r}")


def _append(path: Path, source: SourceFile) -> None:
    text = path.read_text(encoding="utf-8")
    separator = "" if text.endswith("\n") else "\n"
    with path.open("a", encoding="utf-8", newline="") as handle:
        handle.write(f"{separator}{row(source)}\n")
