"""Hub tokens are never printed: every token the process could use is masked in every message.

A token may come from ``--token``, the environment (``HF_TOKEN``,
``HUGGING_FACE_HUB_TOKEN``) or a saved login (``hf auth login`` writes
``$HF_HOME/token`` and ``$HF_HOME/stored_tokens``); a Hub error may echo any
of them. :func:`mask_tokens` replaces each with ``***``.
"""

from __future__ import annotations

import configparser
import os
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path

from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.file_reads import read_text

MASK = "***"
#: Shorter strings are not masked: they cannot be tokens, and masking them would garble text.
_SHORTEST = 6
_TOKEN_FILE_BYTES = 1 << 16


def _hf_home() -> Path:
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join("~", ".cache")
    return Path(cache, "huggingface").expanduser()


def _saved_logins() -> list[str]:
    """Tokens saved by a login, read as ``huggingface_hub`` reads them (now, not at import)."""
    home = _hf_home()
    token_file = Path(os.environ.get("HF_TOKEN_PATH") or home / "token").expanduser()
    found = []
    with suppress(InputError):
        found.append(read_text(token_file, limit=_TOKEN_FILE_BYTES).strip())
    stored = Path(os.environ.get("HF_STORED_TOKENS_PATH") or home / "stored_tokens").expanduser()
    with suppress(InputError, configparser.Error):
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(read_text(stored, limit=_TOKEN_FILE_BYTES))
        found += [parser[section].get("hf_token", "") for section in parser.sections()]
    return found


def _hub_tokens() -> list[str]:
    """What ``huggingface_hub`` itself would send, when it is installed."""
    found: list[str] = []
    with suppress(Exception):  # any failure here must not hide the message being printed
        from huggingface_hub.utils import get_token

        found.append(get_token() or "")
        from huggingface_hub.utils import get_stored_tokens

        found += list(get_stored_tokens().values())
    return found


def known_tokens(extra: Iterable[str | None] = ()) -> list[str]:
    """Every token this process could use: ``extra`` (e.g. ``--token``), environment, logins."""
    candidates = [
        *extra,
        os.environ.get("HF_TOKEN"),
        os.environ.get("HUGGING_FACE_HUB_TOKEN"),
        *_saved_logins(),
        *_hub_tokens(),
    ]
    tokens = {c.strip() for c in candidates if c and len(c.strip()) >= _SHORTEST}
    return sorted(tokens, key=len, reverse=True)  # a token inside a longer one: longest first


def mask_tokens(text: str, extra: Iterable[str | None] = ()) -> str:
    """``text`` with every known token replaced by ``***``."""
    for token in known_tokens(extra):
        text = text.replace(token, MASK)
    return text
