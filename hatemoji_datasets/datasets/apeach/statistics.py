"""APEACH's and BEEP!'s figures for ``info`` and the card."""

from __future__ import annotations

from collections import Counter
from typing import Any

import datasets


def apeach_statistics(data: datasets.DatasetDict) -> dict[str, Any]:
    """Per split, rows and writers; hateful and non-hateful sentences per topic."""
    found: dict[str, Any] = {
        split: _split_statistics(dataset, covered=("label", "topic"))
        for split, dataset in data.items()
    }
    found["sentences per topic"] = _crosstab(data, "topic", "label")
    return found


def beep_statistics(data: datasets.DatasetDict) -> dict[str, Any]:
    """Per split, rows and the gender-bias flag; hate level and bias per split."""
    covered = ("label", "hate_level", "bias")
    found: dict[str, Any] = {
        split: _split_statistics(dataset, covered) for split, dataset in data.items()
    }
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


def _split_statistics(dataset: datasets.Dataset, covered: tuple[str, ...]) -> dict[str, Any]:
    """Rows, counts of every label and flag the tables do not show (``covered``), and the
    texts a careless reader would alter."""
    texts = dataset["text"][:]  # one read (a datasets 5 Column iterates row by row)
    found: dict[str, Any] = {"rows": dataset.num_rows}
    for column, feature in dataset.features.items():
        if column in covered:
            continue
        if isinstance(feature, datasets.ClassLabel):
            counts = Counter(dataset[column][:])
            found[column] = {name: counts[k] for k, name in enumerate(feature.names)}
        elif isinstance(feature, datasets.Value) and feature.dtype == "bool":
            true = sum(dataset[column][:])
            found[column] = {"true": true, "false": dataset.num_rows - true}
    found["texts with leading or trailing whitespace"] = sum(text != text.strip() for text in texts)
    found["texts containing a double quote"] = sum('"' in text for text in texts)
    return found
