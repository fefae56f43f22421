"""A card's YAML metadata (front matter): Hub keys, size category, configs and dataset_info.

``dataset_info.features`` is written in the form every ``datasets`` from 2.x to
5.x reads (:func:`hatemoji_datasets.core.features.card_features`).
"""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.cards.croissant.repository import data_files
from hatemoji_datasets.cards.gather import Built
from hatemoji_datasets.cards.lint import size_category
from hatemoji_datasets.core.features import card_features

#: Hub metadata from ``card.yaml`` (``hub:``; the pretty name from the declaration), in order.
HUB_KEYS = (
    "language",
    "license",
    "pretty_name",
    "task_categories",
    "task_ids",
    "annotations_creators",
    "language_creators",
    "multilinguality",
    "source_datasets",
    "tags",
    "paperswithcode_id",
)


def card_metadata(built: Built) -> Any:
    """The card's YAML metadata as ``huggingface_hub.DatasetCardData``."""
    from huggingface_hub import DatasetCardData

    hub = {**built.source.get("hub", {}), "pretty_name": built.spec.pretty_name}
    values = {key: hub[key] for key in HUB_KEYS if hub.get(key) is not None}
    values["size_categories"] = [size_category(built.rows)]
    default = built.spec.default_config_name
    values["configs"] = [
        {
            "config_name": name,
            **({"default": True} if name == default else {}),
            "data_files": [
                {"split": split, "path": data_files(name, split)} for split in config.splits
            ],
        }
        for name, config in built.configs.items()
    ]
    values["dataset_info"] = [
        {
            "config_name": name,
            "features": card_features(config.features),
            "splits": [
                {"name": split, "num_bytes": num_bytes, "num_examples": rows}
                for split, (rows, num_bytes) in config.splits.items()
            ],
            "dataset_size": sum(num_bytes for _, num_bytes in config.splits.values()),
        }
        for name, config in built.configs.items()
    ]
    return DatasetCardData(**values)
