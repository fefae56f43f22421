"""HateCheck's figures for ``info`` and the card: cases per functionality, label and target,
and the annotators' agreement (Fleiss' kappa over the five labels of each case)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import datasets

from hatemoji_datasets.core.agreement import category_counts, fleiss_kappa

from .spec import GROUP_OF

#: Decimals of a kappa as shown.
KAPPA_DIGITS = 3


def statistics(data: datasets.DatasetDict) -> dict[str, Any]:
    """Cases per functionality (F1..F29 in the paper's groups), label and target; agreement."""
    dataset = data["test"]
    names = {column: dataset.features[column].names for column in ("functionality", "target")}
    labels = dataset.features["label"].names
    functionality, label = dataset["functionality"][:], dataset["label"][:]
    in_suite = dataset["in_test_suite"][:] if "in_test_suite" in dataset.features else None
    per_functionality: dict[str, dict[str, Any]] = {}
    for f, name in enumerate(names["functionality"]):
        rows = [i for i, value in enumerate(functionality) if value == f]
        gold = {labels[label[i]] for i in rows}
        row: dict[str, Any] = {
            "group": GROUP_OF[name],
            "label": gold.pop() if len(gold) == 1 else ("mixed" if gold else ""),
            "cases": len(rows),
        }
        if in_suite is not None:
            row["in the suite"] = sum(in_suite[i] for i in rows)
        per_functionality[f"F{f + 1} {name}"] = row
    label_counts = Counter(label)
    targets = Counter(dataset["target"][:])
    found: dict[str, Any] = {
        "cases per functionality": per_functionality,
        "cases per label": {name: label_counts[k] for k, name in enumerate(labels)},
        "cases per target": {name: targets[k] for k, name in enumerate(names["target"])},
        "annotator agreement": {"test": agreement(dataset)},
    }
    if in_suite is not None:
        kept = sum(in_suite)
        found["cases in the test suite"] = {
            "in the suite": kept,
            "not in the suite": len(in_suite) - kept,
        }
    return found


def agreement(dataset: datasets.Dataset) -> dict[str, Any]:
    """How the annotators agreed: per case, and as Fleiss' kappa."""
    given = dataset["annotator_labels"][:]
    gold = dataset["label"][:]
    majority = dataset["annotator_majority"][:]
    per_case = Counter(len(labels) for labels in given)
    agreeing = Counter(sum(a == g for a in labels) for labels, g in zip(given, gold, strict=True))
    return {
        "cases": len(given),
        "labels per case": min(per_case) if len(per_case) == 1 else "varies",
        "annotators in the pool": len({a for found in dataset["annotators"][:] for a in found}),
        **{
            f"cases with {n} agreeing with gold": agreeing[n]
            for n in sorted(agreeing, reverse=True)
        },
        "majority differs from gold": sum(m != g for m, g in zip(majority, gold, strict=True)),
        "Fleiss' kappa": round(fleiss_kappa(category_counts(given, 2)), KAPPA_DIGITS),
    }
