"""Inter-annotator agreement from released labels: Fleiss' kappa (Fleiss 1971).

Datasets whose every item was labelled by the same number of annotators
(drawn from a larger pool or not) report it in ``info`` and their cards.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np


def category_counts(labels: Iterable[Sequence[int]], categories: int) -> np.ndarray:
    """``items x categories`` counts from each item's labels (category ids ``0..categories-1``)."""
    rows = [np.bincount(np.asarray(item, dtype=np.int64), minlength=categories) for item in labels]
    if not rows:
        return np.zeros((0, categories), dtype=np.int64)
    counts = np.vstack(rows)
    if counts.shape[1] != categories:
        raise ValueError(f"a label is outside the {categories} categories")
    return counts


def fleiss_kappa(counts: np.ndarray | Sequence[Sequence[int]]) -> float:
    """Fleiss' kappa of ``counts[i, j]``: how many raters put item ``i`` in category ``j``.

    Every item must have the same number of ratings (at least two). The kappa is
    undefined (NaN) when every rating is in one category.
    """
    table = np.asarray(counts)
    if table.ndim != 2 or table.shape[0] == 0 or table.shape[1] < 2:
        raise ValueError("counts must be a non-empty items x categories table (>= 2 categories)")
    if not np.issubdtype(table.dtype, np.integer) or (table < 0).any():
        raise ValueError("counts must be non-negative integers")
    raters = table.sum(axis=1)
    if (raters != raters[0]).any():
        raise ValueError("every item must have the same number of ratings")
    n = int(raters[0])
    if n < 2:
        raise ValueError("every item needs at least two ratings")
    table = table.astype(np.float64)
    shares = table.sum(axis=0) / table.sum()
    # Per item: the share of agreeing rater pairs.
    observed = float(((table * (table - 1)).sum(axis=1) / (n * (n - 1))).mean())
    expected = float((shares**2).sum())
    if math.isclose(expected, 1.0):
        return math.nan
    return (observed - expected) / (1.0 - expected)
