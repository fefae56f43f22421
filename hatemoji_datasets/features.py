"""Feature types and derived features shared by every dataset of the package.

The thin adapters here absorb ``datasets`` API churn (``Sequence`` became
``List`` in datasets 4) so builders never touch it directly.
"""

from __future__ import annotations

from collections.abc import Sequence

import datasets
import emoji

#: One label vocabulary for every dataset of the package.
LABEL_NAMES: tuple[str, ...] = ("non-hateful", "hateful")


def class_label(names: Sequence[str]) -> datasets.ClassLabel:
    return datasets.ClassLabel(names=list(names))


def label() -> datasets.ClassLabel:
    """The shared binary label: 0 ``non-hateful``, 1 ``hateful``."""
    return class_label(LABEL_NAMES)


def list_of(feature: datasets.features.features.FeatureType) -> object:
    """A variable-length list feature under whichever name this ``datasets`` uses."""
    list_type = getattr(datasets, "List", None) or datasets.Sequence
    return list_type(feature)


def emoji_feature() -> object:
    """The derived ``emoji`` feature: a list of emoji strings."""
    return list_of(datasets.Value("string"))


def emoji_in(text: str) -> list[str]:
    """The emoji in ``text``, in order, as the ``emoji`` package segments them."""
    return [match["emoji"] for match in emoji.emoji_list(text)]


def has_emoji(text: str) -> bool:
    return emoji.emoji_count(text) > 0
