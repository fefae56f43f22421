"""HatemojiCheck's own scoring table: accuracy per functionality x perturbation cell.

Each cell is named as the paper names its test cases: ``F1`` for the
originals of functionality 1, ``F1.1``-``F1.3`` for its identity, polarity and
no-emoji perturbations.
"""

from __future__ import annotations

from hatemoji_datasets.evaluate.breakdowns import Context
from hatemoji_datasets.evaluate.metrics import GOLD
from hatemoji_datasets.evaluate.report import Table


def cells(context: Context) -> Table:
    """One row per functionality x perturbation cell, with its gold label, n and accuracy."""
    functionalities = context.names("functionality")
    perturbations = context.names("perturbation")
    rows = []
    for (f, p), group in context.groups(("functionality", "perturbation")):
        rows.append(
            {
                "case": f"F{f + 1}" if p == 0 else f"F{f + 1}.{p}",
                "functionality": functionalities[f],
                "perturbation": perturbations[p],
                "label": context.gold_name(group[GOLD]),
                "n": len(group),
                "accuracy": context.metric("accuracy", group),
            }
        )
    return Table(
        "cells",
        "Accuracy per functionality x perturbation",
        ("case", "functionality", "perturbation"),
        ("label", "n"),
        ("accuracy",),
        tuple(rows),
    )
