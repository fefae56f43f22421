"""Verified downloads over HTTP(S): timeouts, one retry, and a named cause for every failure.

:func:`download` streams a URL into a temporary file in the downloads cache that
only becomes the cached file once its size and sha256 match the pin, so a
failure never leaves anything behind. Timeouts, dropped connections and 5xx
answers are retried once. Credentials in a URL (``https://user:pass@host/...``)
are sent as HTTP Basic authentication and never appear in a message.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import http.client
import logging
import os
import socket
import ssl
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path
from typing import NoReturn
from urllib.parse import unquote, urlsplit, urlunsplit

from hatemoji_datasets.core.checksums import SourceFile
from hatemoji_datasets.core.errors import (
    ChecksumError,
    SourceError,
    SourceUnreachableError,
    redact,
)
from hatemoji_datasets.sources.settings import MIRROR_ENV, timeout_setting
from hatemoji_datasets.sources.verify import cached_name, verify

#: Attempts per file; only timeouts, dropped connections and 5xx answers are retried.
ATTEMPTS = 2
#: Seconds to wait before the retry.
RETRY_BACKOFF = 1.0

_BLOCK = 1 << 16
_USER_AGENT = "hatemoji-datasets (+https://pypi.org/project/hatemoji-datasets/)"

log = logging.getLogger("hatemoji_datasets.sources")


def download(
    source: SourceFile,
    url: str,
    folder: str | os.PathLike[str],
    *,
    timeout: float | None = None,
    force: bool = False,
    on_bytes: Callable[[int], None] | None = None,
) -> str:
    """Download ``url`` (which serves ``source``) into ``folder`` and return the verified path.

    A file already there with the pinned size and sha256 is reused. Otherwise the
    body is streamed into a temporary file in ``folder`` that replaces the target
    only once verified; on any failure it is removed. Timeouts, dropped
    connections and 5xx answers are retried once; the error names the cause.
    ``on_bytes`` is told the bytes received so far (progress).
    """
    seconds = timeout_setting(timeout)
    target = Path(folder) / cached_name(source)
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
            _download_once(source, url, target, seconds, on_bytes)
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


def _download_once(
    source: SourceFile,
    url: str,
    target: Path,
    seconds: float,
    on_bytes: Callable[[int], None] | None = None,
) -> None:
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".incomplete"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            received, digest = _stream(source, url, out, seconds, on_bytes)
        if received != source.size:
            raise ChecksumError(source.url, url, f"{source.size:,} bytes", f"{received:,} bytes")
        if digest != source.sha256:
            raise ChecksumError(source.url, url, source.sha256, digest)
        os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)


def _stream(
    source: SourceFile, url: str, out, seconds: float, on_bytes: Callable[[int], None] | None = None
) -> tuple[int, str]:
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
                    source.url, url, f"{source.size:,} bytes", f"more than {source.size:,} bytes"
                )
            digest.update(block)
            out.write(block)
            if on_bytes is not None:
                on_bytes(received)
    if expected is not None and received < expected:
        raise _Transient(
            f"the connection closed after {received:,} of {expected:,} bytes (truncated body)"
        )
    return received, digest.hexdigest()


def _network_failure(url: str, reason: object, wait: str, stage: str) -> NoReturn:
    """Raise the error (retried or not) that names why the network failed."""
    hint = (
        f"; no network? Set {MIRROR_ENV} (or --mirror) to a folder or URL "
        "that holds the files laid out as HOST/PATH, or read them once (build, validate) "
        "where the network or a mirror reaches them: a verified copy is kept in the cache"
    )
    if isinstance(reason, TimeoutError | socket.timeout):
        raise _Transient(f"timed out after {wait} {stage}") from None
    if isinstance(reason, socket.gaierror):
        host = urlsplit(url).hostname
        raise SourceUnreachableError(
            f"could not download {url}: DNS lookup of {host} failed ({reason.strerror}){hint}"
        ) from None
    if isinstance(reason, ConnectionRefusedError):
        where = urlsplit(url)
        raise SourceError(
            f"could not download {url}: connection refused by {where.hostname}:"
            f"{where.port or (443 if where.scheme == 'https' else 80)}"
        ) from None
    if isinstance(reason, OSError) and reason.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        raise SourceUnreachableError(
            f"could not download {url}: network unreachable{hint}"
        ) from None
    if isinstance(reason, ssl.SSLCertVerificationError):
        raise SourceError(
            f"could not download {url}: TLS certificate check failed ({reason.verify_message})"
        ) from None
    if isinstance(reason, ConnectionError | http.client.HTTPException):
        raise _Transient(f"the connection failed {stage}: {describe_failure(reason)}") from None
    raise SourceError(f"could not download {url}: {describe_failure(reason)}") from None


def describe_failure(reason: object) -> str:
    """An exception (or reason) as `Type: text`, for messages."""
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
