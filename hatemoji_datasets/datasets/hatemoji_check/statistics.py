"""HatemojiCheck's figures for ``info`` and the card: cases per functionality, label and flags."""

from __future__ import annotations

from collections import Counter
from typing import Any

import datasets


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
