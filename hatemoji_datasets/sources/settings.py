"""Where sources come from and how long a download may wait: the mirror and the timeout.

A mirror maps ``https://HOST/PATH`` to ``MIRROR/HOST/PATH`` so the package works
offline (``HATEMOJI_DATASETS_MIRROR`` or ``--mirror``); ``HATEMOJI_DATASETS_TIMEOUT``
sets the download timeout in seconds.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from urllib.parse import urlsplit

from hatemoji_datasets.core.errors import SourceError, redact

MIRROR_ENV = "HATEMOJI_DATASETS_MIRROR"
TIMEOUT_ENV = "HATEMOJI_DATASETS_TIMEOUT"
#: Seconds to wait for a connection, for the response headers, and for each
#: block of the body; ``HATEMOJI_DATASETS_TIMEOUT`` or ``fetch(timeout=...)`` overrides it.
DEFAULT_TIMEOUT = 15.0


def mirror_setting(mirror: str | os.PathLike[str] | None = None) -> str | None:
    """The mirror in force: the argument if given, else the environment variable.

    A mirror given as a URL must be one: ``http(s)://HOST[:PORT]/PATH`` or
    ``file://PATH``; anything else is one :class:`SourceError` line naming it.
    """
    if mirror is not None:
        value, origin = os.fspath(mirror), "mirror"
    else:
        value, origin = os.environ.get(MIRROR_ENV) or "", MIRROR_ENV
    if not value:
        return None
    if "://" in value:
        check_mirror_url(value, origin)
    return value


def check_mirror_url(url: str, origin: str = "mirror") -> None:
    """Raise SourceError unless ``url`` is a usable mirror URL (its credentials never shown)."""
    shown = redact(url)
    try:
        parts = urlsplit(url)
        _ = parts.port  # parsed on access: a port out of range raises here
    except ValueError as exc:
        raise SourceError(f"{origin} {shown!r} is not a valid URL: {exc}") from None
    if parts.scheme not in ("http", "https", "file"):
        raise SourceError(
            f"{origin} {shown!r} is not a valid URL: the scheme must be http, https or file"
        )
    if parts.scheme != "file" and not parts.hostname:
        raise SourceError(f"{origin} {shown!r} is not a valid URL: it names no host")


def datasets_cache(cache_dir: str | os.PathLike[str] | None) -> Path:
    """The ``datasets`` cache folder in force, as ``datasets`` itself resolves it."""
    if cache_dir is not None:
        return Path(cache_dir).expanduser()
    if os.environ.get("HF_DATASETS_CACHE"):
        return Path(os.environ["HF_DATASETS_CACHE"]).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join("~", ".cache")
    hf_home = os.environ.get("HF_HOME") or os.path.join(xdg, "huggingface")
    return Path(hf_home).expanduser() / "datasets"


#: Subfolder of the ``datasets`` downloads cache that holds verified files.
VERIFIED_SUBFOLDER = "hatemoji_datasets"


def verified_copies(cache_dir: str | os.PathLike[str] | None) -> Path:
    """Where verified upstream files are kept: downloads, and copies of mirror files (so a
    release once read from a mirror is there offline), as ``datasets``' download manager
    of that cache places its downloads."""
    if cache_dir is not None:
        downloads = Path(cache_dir).expanduser() / "downloads"
    elif os.environ.get("HF_DATASETS_DOWNLOADED_DATASETS_PATH"):
        downloads = Path(os.environ["HF_DATASETS_DOWNLOADED_DATASETS_PATH"]).expanduser()
    else:
        downloads = datasets_cache(None) / "downloads"
    return downloads / VERIFIED_SUBFOLDER


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
