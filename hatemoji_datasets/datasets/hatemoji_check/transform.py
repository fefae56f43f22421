"""HatemojiCheck's built features, the transform from validated raw rows, and statistics."""

from __future__ import annotations

from collections import Counter
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets import features
from hatemoji_datasets.datasets.hatemoji_check.spec import (
    FUNCTIONALITIES,
    NO_TARGET,
    PERTURBATIONS,
    TARGETS,
    UPSTREAM_NO_TARGET,
)
from hatemoji_datasets.spec import ConfigSpec


def features_of(config: ConfigSpec, version: str) -> datasets.Features:
    return datasets.Features(
        {
            "case_id": datasets.Value("int32"),
            "template_id": datasets.Value("string"),
            "test_group_id": datasets.Value("int32"),
            "text": datasets.Value("string"),
            "target": features.class_label(TARGETS),
            "functionality": features.class_label(FUNCTIONALITIES),
            "perturbation": features.class_label(PERTURBATIONS.values()),
            "label": features.label(),
            "unrealistic_flags": datasets.Value("int8"),
            "emoji": features.emoji_feature(),
        }
    )


def transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    upstream_targets = [UPSTREAM_NO_TARGET if t == NO_TARGET else t for t in TARGETS]
    return pa.table(
        {
            "case_id": raw["case_id"],
            "template_id": raw["templ_id"],
            "test_group_id": raw["test_group_id"],
            "text": raw["text"],
            "target": features.class_ids(raw["target"], upstream_targets),
            "functionality": features.class_ids(raw["functionality"], FUNCTIONALITIES),
            "perturbation": features.class_ids(raw["set"], list(PERTURBATIONS)),
            "label": pc.cast(raw["label_gold"], pa.int64()),
            "unrealistic_flags": raw["unrealistic_flags"],
            "emoji": features.emoji_lists(raw["text"]),
        }
    )


def statistics(data: datasets.DatasetDict) -> dict[str, Any]:
    """Cases and gold label per functionality and perturbation, as the paper tabulates them.

    A label column says ``mixed`` if a cell holds both labels (none does in 1.0.0)
    and is empty when the cell has no cases.
    """
    dataset = data["test"] if "test" in data else next(iter(data.values()))
    functionalities = dataset.features["functionality"].names
    perturbations = dataset.features["perturbation"].names
    labels = dataset.features["label"].names
    cells: dict[tuple[int, int], Counter[int]] = {}
    for functionality, perturbation, label in zip(
        dataset["functionality"][:], dataset["perturbation"][:], dataset["label"][:], strict=True
    ):
        cells.setdefault((functionality, perturbation), Counter())[label] += 1
    table: dict[str, dict[str, Any]] = {}
    for f, functionality in enumerate(functionalities):
        row: dict[str, Any] = {}
        for p, perturbation in enumerate(perturbations):
            found = cells.get((f, p), Counter())
            row[f"{perturbation} cases"] = sum(found.values())
            row[f"{perturbation} label"] = (
                labels[next(iter(found))] if len(found) == 1 else "mixed" if found else ""
            )
        row["cases"] = sum(
            sum(cells.get((f, p), Counter()).values()) for p in range(len(perturbations))
        )
        table[f"F{f + 1} {functionality}"] = row
    label_counts = Counter(dataset["label"][:])
    flags = Counter(dataset["unrealistic_flags"][:])
    return {
        "cases per functionality": table,
        "cases per label": {name: label_counts[k] for k, name in enumerate(labels)},
        "cases per unrealistic flag count": {str(n): flags[n] for n in sorted(flags)},
    }
