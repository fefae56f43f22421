"""Prose about a dataset (description, citation, licence, content warning).

Each dataset package keeps it in ``card.yaml``, read here, so that builders
hold no long strings and the cards can later be rendered from the same file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from hatemoji_datasets.errors import HatemojiDatasetsError

REQUIRED_KEYS = ("pretty_name", "description", "homepage", "license", "citation", "content_warning")


@dataclass(frozen=True)
class CardSource:
    pretty_name: str
    description: str
    homepage: str
    license: str
    citation: str
    content_warning: str
    extra: dict = field(default_factory=dict)


def read_card_source(path: Path) -> CardSource:
    with path.open(encoding="utf-8") as handle:
        data = yaml.safe_load(handle) or {}
    missing = [key for key in REQUIRED_KEYS if not data.get(key)]
    if missing:
        raise HatemojiDatasetsError(f"{path}: missing key(s) {', '.join(missing)}")
    known = {key: str(data.pop(key)).strip() for key in REQUIRED_KEYS}
    return CardSource(**known, extra=data)
