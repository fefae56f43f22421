"""Multilingual HateCheck's figures for ``info`` and the card: cases per language,
functionality and target, and the three annotators' agreement per language (Fleiss' kappa)."""

from __future__ import annotations

from typing import Any

import datasets
import numpy as np
import pandas as pd

from hatemoji_datasets.core.agreement import fleiss_kappa

from .spec import GROUP_OF

#: Decimals of a kappa as shown.
KAPPA_DIGITS = 3
ALL = "all"


def statistics(data: datasets.DatasetDict) -> dict[str, Any]:
    dataset = data["test"]
    frame = dataset.select_columns(
        ["language", "functionality", "label", "target", "disagreement_in_case"]
    ).to_pandas()
    names = {c: dataset.features[c].names for c in ("language", "functionality", "target")}
    labels = dataset.features["label"].names
    frame["language"] = frame["language"].map(names["language"].__getitem__)
    present = [lang for lang in names["language"] if (frame["language"] == lang).any()]
    hateful = labels.index("hateful")
    untargeted = names["target"].index("none")
    per_language = {
        language: {
            "cases": len(group),
            "hateful": int((group["label"] == hateful).sum()),
            "non-hateful": int((group["label"] != hateful).sum()),
            "functionalities": int(group["functionality"].nunique()),
            "protected groups": int(group.loc[group["target"] != untargeted, "target"].nunique()),
        }
        for language, group in frame.groupby("language", sort=False)
    }
    return {
        "cases per language": {lang: per_language[lang] for lang in present},
        "cases per functionality": _crosstab(frame, "functionality", names, present, labels),
        "cases per target": _crosstab(frame, "target", names, present, None),
        "annotator agreement": agreement(dataset, names["language"], present),
    }


def _crosstab(
    frame: pd.DataFrame,
    column: str,
    names: dict[str, list[str]],
    languages: list[str],
    labels: list[str] | None,
) -> dict[str, dict[str, Any]]:
    """Cases per value of ``column`` (ClassLabel order) and language, with the gold label."""
    counts = pd.crosstab(frame[column], frame["language"])
    table: dict[str, dict[str, Any]] = {}
    for code, name in enumerate(names[column]):
        if code not in counts.index:
            continue
        row: dict[str, Any] = {}
        if labels is not None:
            gold = frame.loc[frame[column] == code, "label"].unique()
            row["group"] = GROUP_OF[name]
            row["label"] = labels[gold[0]] if len(gold) == 1 else "mixed"
        row.update({lang: int(counts.at[code, lang]) for lang in languages})
        if len(languages) > 1:
            row[ALL] = int(counts.loc[code].sum())
        table[name] = row
    return table


def agreement(
    dataset: datasets.Dataset, languages: list[str], present: list[str]
) -> dict[str, dict[str, Any]]:
    """Per language (and over all of them): how the three annotators agreed, Fleiss' kappa."""
    given = np.array(dataset["annotator_labels"][:], dtype=np.int64)
    gold = np.asarray(dataset["label"][:])
    majority = np.asarray(dataset["annotator_majority"][:])
    language = np.asarray(dataset["language"][:])
    hateful = given.sum(axis=1)
    counts = np.column_stack([given.shape[1] - hateful, hateful])
    scopes = [(lang, language == languages.index(lang)) for lang in present]
    if len(present) > 1:
        scopes.append((ALL, np.ones(len(language), dtype=bool)))
    table = {}
    for scope, rows in scopes:
        unanimous = (counts[rows] == given.shape[1]).any(axis=1)
        table[scope] = {
            "cases": int(rows.sum()),
            "labels per case": int(given.shape[1]),
            "all three agree": int(unanimous.sum()),
            "majority differs from gold": int((majority[rows] != gold[rows]).sum()),
            "Fleiss' kappa": round(fleiss_kappa(counts[rows]), KAPPA_DIGITS),
        }
    return table
