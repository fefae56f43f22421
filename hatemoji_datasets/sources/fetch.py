"""Upstream files: pinned URLs, checksums, the offline mirror and verified downloads.

Each dataset package ships a ``checksums.tsv`` listing every upstream file it
reads (URL pinned at a commit, size, sha256, license). A mirror maps
``https://HOST/PATH`` to ``MIRROR/HOST/PATH`` so the package works offline.

A folder mirror is read in place. An ``http(s)`` URL (the upstream itself or an
HTTP mirror) is downloaded by :func:`download` into the ``datasets`` downloads
cache: with connect and read timeouts (``HATEMOJI_DATASETS_TIMEOUT`` seconds, 15
by default), one retry after a timeout, a dropped connection or a 5xx answer,
and into a temporary file that only becomes the cached file once its size and
sha256 match the pin, so a failure never leaves anything behind. Credentials in
a URL (``https://user:pass@host/...``) are sent as HTTP Basic authentication
and never appear in a message.
"""

from __future__ import annotations

import base64
import csv
import errno
import hashlib
import http.client
import logging
import math
import os
import re
import socket
import ssl
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import NoReturn
from urllib.parse import unquote, urlsplit, urlunsplit

from hatemoji_datasets.errors import ChecksumError, SourceError, redact

MIRROR_ENV = "HATEMOJI_DATASETS_MIRROR"
TIMEOUT_ENV = "HATEMOJI_DATASETS_TIMEOUT"
CHECKSUM_COLUMNS = ("name", "url", "size", "sha256", "license")

#: Seconds to wait for a connection, for the response headers, and for each
#: block of the body; ``HATEMOJI_DATASETS_TIMEOUT`` or ``fetch(timeout=...)`` overrides it.
DEFAULT_TIMEOUT = 15.0
#: Attempts per file; only timeouts, dropped connections and 5xx answers are retried.
ATTEMPTS = 2
#: Seconds to wait before the retry.
RETRY_BACKOFF = 1.0
#: Subfolder of the ``datasets`` downloads cache that holds verified files.
CACHE_SUBFOLDER = "hatemoji_datasets"

_BLOCK = 1 << 16
_USER_AGENT = "hatemoji-datasets (+https://pypi.org/project/hatemoji-datasets/)"

log = logging.getLogger(__name__)


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


def timeout_setting(timeout: float | None = None) -> float:
    """The download timeout in seconds: the argument, else the environment variable, else 15."""
    origin = "timeout"
    if timeout is None:
        raw = os.environ.get(TIMEOUT_ENV, "").strip()
        if not raw:
            return DEFAULT_TIMEOUT
        origin = TIMEOUT_ENV
        try:
            timeout = float(raw)
        except ValueError:
            raise SourceError(f"{TIMEOUT_ENV}={raw!r} is not a number of seconds") from None
    if not (math.isfinite(timeout) and timeout > 0):
        raise SourceError(f"{origin} must be a positive number of seconds, got {timeout!r}")
    return float(timeout)


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


def fetch(
    sources: Mapping[str, SourceFile],
    dl_manager,
    mirror: str | None,
    *,
    timeout: float | None = None,
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
        if scheme in ("http", "https"):
            folder = _cache_folder(dl_manager)
            force = bool(getattr(getattr(dl_manager, "download_config", None), "force_download", 0))
            paths[name] = download(sources[name], location, folder, timeout=seconds, force=force)
        elif scheme:
            others[name] = location
        else:
            verify(sources[name], location)
            paths[name] = location
    if others:
        paths.update(_fetch_with_manager(sources, others, dl_manager))
    return {name: paths[name] for name in sources}


def download(
    source: SourceFile,
    url: str,
    folder: str | os.PathLike[str],
    *,
    timeout: float | None = None,
    force: bool = False,
) -> str:
    """Download ``url`` (which serves ``source``) into ``folder`` and return the verified path.

    A file already there with the pinned size and sha256 is reused. Otherwise the
    body is streamed into a temporary file in ``folder`` that replaces the target
    only once verified; on any failure it is removed. Timeouts, dropped
    connections and 5xx answers are retried once; the error names the cause.
    """
    seconds = timeout_setting(timeout)
    target = Path(folder) / _cache_name(source)
    if target.is_file() and not force:
        try:
            verify(source, str(target))
            log.info("using verified %s from the cache", source.name)
            return str(target)
        except ChecksumError:
            target.unlink(missing_ok=True)  # damaged in the cache: fetch it again
    target.parent.mkdir(parents=True, exist_ok=True)
    log.info("downloading %s", redact(url))
    failures: list[str] = []
    for attempt in range(1, ATTEMPTS + 1):
        try:
            _download_once(source, url, target, seconds)
            return str(target)
        except _Transient as problem:
            failures.append(str(problem))
            if attempt < ATTEMPTS:
                log.info("%s; trying again", problem)
                time.sleep(RETRY_BACKOFF * attempt)
    tries = f" ({ATTEMPTS} attempts)" if ATTEMPTS > 1 else ""
    raise SourceError(f"could not download {url}: {failures[-1]}{tries}")


class _Transient(Exception):
    """A failure worth one more attempt (timeout, dropped connection, 5xx)."""


def _download_once(source: SourceFile, url: str, target: Path, seconds: float) -> None:
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".incomplete"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            received, digest = _stream(source, url, out, seconds)
        if received != source.size:
            raise ChecksumError(source.url, url, f"{source.size} bytes", f"{received} bytes")
        if digest != source.sha256:
            raise ChecksumError(source.url, url, source.sha256, digest)
        os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)


def _stream(source: SourceFile, url: str, out, seconds: float) -> tuple[int, str]:
    """Write the body of ``url`` to ``out``; ``(bytes received, sha256)``."""
    request = _request(url)
    wait = f"{seconds:g} s"
    try:
        response = urllib.request.urlopen(request, timeout=seconds)
    except urllib.error.HTTPError as answer:
        answer.close()
        status = _status(answer.code, answer.reason)
        if answer.code >= 500 or answer.code in (408, 429):
            raise _Transient(f"the server answered {status}") from None
        raise SourceError(f"could not download {url}: the server answered {status}") from None
    except urllib.error.URLError as failure:
        _network_failure(url, failure.reason, wait, "connecting")
    except (OSError, http.client.HTTPException) as failure:
        _network_failure(url, failure, wait, "waiting for the response headers")
    with response:
        announced = response.headers.get("Content-Length")
        expected = int(announced) if announced and announced.isdigit() else None
        digest = hashlib.sha256()
        received = 0
        while True:
            try:
                block = response.read1(_BLOCK)  # what has arrived, not a full block
            except (OSError, http.client.HTTPException) as failure:
                _network_failure(
                    url, failure, wait, f"waiting for the body after {received:,} bytes"
                )
            if not block:
                break
            received += len(block)
            if received > source.size:
                raise ChecksumError(
                    source.url, url, f"{source.size} bytes", f"more than {source.size} bytes"
                )
            digest.update(block)
            out.write(block)
    if expected is not None and received < expected:
        raise _Transient(
            f"the connection closed after {received:,} of {expected:,} bytes (truncated body)"
        )
    return received, digest.hexdigest()


def _network_failure(url: str, reason: object, wait: str, stage: str) -> NoReturn:
    """Raise the error (retried or not) that names why the network failed."""
    hint = (
        f"; no network? Set {MIRROR_ENV} (or --mirror) to a folder or URL "
        "that holds the files laid out as HOST/PATH"
    )
    if isinstance(reason, TimeoutError | socket.timeout):
        raise _Transient(f"timed out after {wait} {stage}") from None
    if isinstance(reason, socket.gaierror):
        host = urlsplit(url).hostname
        raise SourceError(
            f"could not download {url}: DNS lookup of {host} failed ({reason.strerror}){hint}"
        ) from None
    if isinstance(reason, ConnectionRefusedError):
        where = urlsplit(url)
        raise SourceError(
            f"could not download {url}: connection refused by {where.hostname}:"
            f"{where.port or (443 if where.scheme == 'https' else 80)}"
        ) from None
    if isinstance(reason, OSError) and reason.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        raise SourceError(f"could not download {url}: network unreachable{hint}") from None
    if isinstance(reason, ssl.SSLCertVerificationError):
        raise SourceError(
            f"could not download {url}: TLS certificate check failed ({reason.verify_message})"
        ) from None
    if isinstance(reason, ConnectionError | http.client.HTTPException):
        raise _Transient(f"the connection failed {stage}: {_describe(reason)}") from None
    raise SourceError(f"could not download {url}: {_describe(reason)}") from None


def _describe(reason: object) -> str:
    text = str(reason).strip()
    name = type(reason).__name__
    return f"{name}: {text}" if text and text != name else name


def _status(code: int, reason: str | None) -> str:
    try:
        phrase = HTTPStatus(code).phrase
    except ValueError:
        phrase = (reason or "").strip() or "unknown status"
    return f"{code} {phrase}"


def _request(url: str) -> urllib.request.Request:
    """A GET request; credentials in the URL become an Authorization header.

    The header is "unredirected": a redirect to another URL does not carry it.
    """
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return urllib.request.Request(url, headers={"User-Agent": _USER_AGENT})
    userinfo, _, host = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    request = urllib.request.Request(
        urlunsplit(parts._replace(netloc=host)), headers={"User-Agent": _USER_AGENT}
    )
    token = base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode("ascii")
    request.add_unredirected_header("Authorization", f"Basic {token}")
    return request


def _cache_folder(dl_manager) -> str:
    configured = getattr(getattr(dl_manager, "download_config", None), "cache_dir", None)
    if configured:
        root = os.fspath(configured)
    else:
        from datasets import config

        root = os.fspath(config.DOWNLOADED_DATASETS_PATH)
    return os.path.join(os.path.expanduser(root), CACHE_SUBFOLDER)


def _cache_name(source: SourceFile) -> str:
    base = os.path.basename(urlsplit(source.url).path) or source.name
    return f"{source.sha256}-{re.sub(r'[^A-Za-z0-9._-]', '_', base)[:80]}"


def _local_if_file_url(location: str) -> str:
    if location.lower().startswith("file://"):
        return urllib.request.url2pathname(urlsplit(location).path)
    return location


def _fetch_with_manager(
    sources: Mapping[str, SourceFile], locations: dict[str, str], dl_manager
) -> dict[str, str]:
    """Other schemes (e.g. ``hf://``) through the ``datasets`` download manager."""
    try:
        paths = dl_manager.download(locations)
    except Exception as exc:  # the download manager raises many kinds; name the URLs
        wanted = ", ".join(locations.values())
        raise SourceError(f"could not download {wanted}: {_describe(exc)}") from None
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
