"""A dataset's hand-written prose: ``card.yaml`` (description, citation, licence, warning).

Each dataset package keeps it in ``card.yaml``, so that builders hold no long
strings and the card is rendered from the same file (with its data statements,
field descriptions and the statistics tables it shows). The dataset's pretty
name is declared once, in its ``spec.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.file_reads import read_text, unreadable

REQUIRED_KEYS = ("description", "homepage", "license", "citation", "content_warning")
#: The account part of a Hub repository id nobody has named yet (``card.yaml`` ``hub_repo_id``).
PLACEHOLDER_ORG = "<org>"


@dataclass(frozen=True)
class CardSource:
    description: str
    homepage: str
    license: str
    citation: str
    content_warning: str
    #: Everything else ``card.yaml`` holds (hub metadata, data statements, fields, tables).
    extra: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        """A key of ``card.yaml`` (required or extra)."""
        if key in REQUIRED_KEYS:
            return getattr(self, key)
        return self.extra.get(key, default)


#: libyaml's safe loader where PyYAML has it: the same documents, several times faster
#: (every build reads its card source).
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_card_source(path: Path) -> CardSource:
    """Read a ``card.yaml`` through the guarded open; InputError when it cannot be parsed."""
    text = read_text(path)
    try:
        data = yaml.load(text, Loader=_SAFE_LOADER) or {}  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or "malformed"
        message = f"is not valid YAML: {problem}"
        raise unreadable(str(path), "FILE-UNPARSEABLE", message, line) from None
    if not isinstance(data, dict):
        raise HatemojiDatasetsError(f"{path}: must be a mapping of keys, not {type(data).__name__}")
    missing = [key for key in REQUIRED_KEYS if not data.get(key)]
    if missing:
        raise HatemojiDatasetsError(f"{path}: missing key(s) {', '.join(missing)}")
    known = {key: str(data.pop(key)).strip() for key in REQUIRED_KEYS}
    return CardSource(**known, extra=data)


@cache
def card_source(path: Path) -> CardSource:
    """The ``card.yaml`` at ``path``, read once per process."""
    return read_card_source(path)


def hub_repo(source: Any, name: str) -> tuple[str, bool]:
    """The Hub repository of dataset ``name``'s export and whether it is known.

    ``card.yaml``'s ``hub_repo_id`` when it names one (``source`` is a
    :class:`CardSource` or the card's values), else ``<org>/NAME``, a placeholder.
    """
    repo = source.get("hub_repo_id")
    return (str(repo), True) if repo else (f"{PLACEHOLDER_ORG}/{name}", False)
