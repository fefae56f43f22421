"""The synthetic dataset's figures for ``info`` and the card: sentences per label and topic."""

from __future__ import annotations

from collections import Counter
from typing import Any

import datasets


def statistics(data: datasets.DatasetDict) -> dict[str, Any]:
    """Sentences per label and per topic, in each split."""
    found: dict[str, Any] = {}
    for column in ("label", "topic"):
        table = {}
        for split, dataset in data.items():
            names = dataset.features[column].names
            counts = Counter(dataset[column][:])
            table[split] = {
                **{name: counts[k] for k, name in enumerate(names)},
                "total": len(dataset),
            }
        found[f"sentences per {column}"] = table
    return found
