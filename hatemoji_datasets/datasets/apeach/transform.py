"""APEACH's and BEEP!'s built features, transforms from validated raw rows, and statistics."""

from __future__ import annotations

from collections import Counter
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets import features
from hatemoji_datasets.datasets.apeach.spec import (
    APEACH_CLASSES,
    BIASES,
    HATE_LEVELS,
    HATEFUL_LEVELS,
    WRITER_GENDERS,
    topics,
)
from hatemoji_datasets.spec import ConfigSpec


def apeach_features(config: ConfigSpec, version: str) -> datasets.Features:
    return datasets.Features(
        {
            "text": datasets.Value("string"),
            "label": features.label(),
            "topic": features.class_label(topics(version).values()),
            "topic_ko": datasets.Value("string"),
            "writer_age": datasets.Value("int8"),
            "writer_age_group": datasets.Value("int8"),
            "writer_gender": features.class_label(WRITER_GENDERS),
        }
    )


def apeach_transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    return pa.table(
        {
            "text": raw["text"],
            "label": features.class_ids(raw["class"], list(APEACH_CLASSES)),
            "topic": features.class_ids(raw["text_topic_eng"], list(topics(version))),
            "topic_ko": raw["text_topic"],
            "writer_age": raw["user_age"],
            "writer_age_group": raw["age"],
            "writer_gender": features.class_ids(raw["user_gender"], WRITER_GENDERS),
        }
    )


def beep_features(config: ConfigSpec, version: str) -> datasets.Features:
    return datasets.Features(
        {
            "text": datasets.Value("string"),
            "label": features.label(),
            "hate_level": features.class_label(HATE_LEVELS),
            "bias": features.class_label(BIASES),
            "contain_gender_bias": datasets.Value("bool"),
        }
    )


def beep_transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    hateful = pc.is_in(raw["hate"], value_set=pa.array(HATEFUL_LEVELS))
    return pa.table(
        {
            "text": raw["comments"],
            "label": pc.cast(hateful, pa.int64()),
            "hate_level": features.class_ids(raw["hate"], HATE_LEVELS),
            "bias": features.class_ids(raw["bias"], BIASES),
            "contain_gender_bias": pc.equal(raw["contain_gender_bias"], "True"),
        }
    )


def statistics(data: datasets.DatasetDict) -> dict[str, Any]:
    """Per split: counts of every label and flag; and the tables the card shows.

    APEACH (``topic`` present): hateful and non-hateful sentences per topic.
    BEEP! (``hate_level`` present): hate level and bias per split.
    """
    found: dict[str, Any] = {split: _split_statistics(dataset) for split, dataset in data.items()}
    first = next(iter(data.values()))
    if "topic" in first.features:
        found["sentences per topic"] = _crosstab(data, "topic", "label")
    if "hate_level" in first.features:
        found["comments per hate level"] = _per_split(data, "hate_level")
        found["comments per bias"] = _per_split(data, "bias")
    return found


def _crosstab(data: datasets.DatasetDict, rows: str, columns: str) -> dict[str, dict[str, int]]:
    """Rows of ClassLabel ``rows`` by ClassLabel ``columns`` over every split, with totals."""
    first = next(iter(data.values()))
    row_names = first.features[rows].names
    column_names = first.features[columns].names
    counts: Counter[tuple[int, int]] = Counter()
    for dataset in data.values():
        counts.update(zip(dataset[rows][:], dataset[columns][:], strict=True))
    table = {
        row: {
            **{column: counts[r, c] for c, column in enumerate(column_names)},
            "total": sum(counts[r, c] for c in range(len(column_names))),
        }
        for r, row in enumerate(row_names)
    }
    table["all"] = {
        **{
            column: sum(counts[r, c] for r in range(len(row_names)))
            for c, column in enumerate(column_names)
        },
        "total": sum(counts.values()),
    }
    return table


def _per_split(data: datasets.DatasetDict, column: str) -> dict[str, dict[str, int]]:
    """Each split's counts of ClassLabel ``column``, and the shared label, with totals."""
    table: dict[str, dict[str, int]] = {}
    for split, dataset in data.items():
        names = dataset.features[column].names
        counts = Counter(dataset[column][:])
        labels = Counter(dataset["label"][:])
        label_names = dataset.features["label"].names
        table[split] = {
            **{name: counts[k] for k, name in enumerate(names)},
            **{f"label: {name}": labels[k] for k, name in enumerate(label_names)},
            "total": dataset.num_rows,
        }
    return table


def _split_statistics(dataset: datasets.Dataset) -> dict[str, Any]:
    """Rows, counts of every label and flag, and the texts a careless reader would alter."""
    texts = list(dataset["text"])
    found: dict[str, Any] = {"rows": dataset.num_rows}
    for column, feature in dataset.features.items():
        if isinstance(feature, datasets.ClassLabel):
            counts = Counter(dataset[column])
            found[column] = {name: counts[k] for k, name in enumerate(feature.names)}
        elif isinstance(feature, datasets.Value) and feature.dtype == "bool":
            true = sum(dataset[column])
            found[column] = {"true": true, "false": dataset.num_rows - true}
    found["texts with leading or trailing whitespace"] = sum(text != text.strip() for text in texts)
    found["texts containing a double quote"] = sum('"' in text for text in texts)
    return found
