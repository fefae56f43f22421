"""Fleiss' kappa, as the package computes it, against a worked example and statsmodels."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hatemoji_datasets.core.agreement import category_counts, fleiss_kappa

#: The worked example of Fleiss' kappa on Wikipedia ("Fleiss' kappa", worked example):
#: ten subjects, fourteen raters, five categories; P-bar 0.378, P-bar-e 0.213, kappa 0.210.
WORKED = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def test_the_worked_example() -> None:
    assert round(fleiss_kappa(WORKED), 3) == 0.210


@pytest.mark.parametrize(("items", "raters", "categories"), [(50, 3, 2), (400, 5, 2), (30, 7, 4)])
def test_equals_statsmodels(items: int, raters: int, categories: int) -> None:
    from statsmodels.stats.inter_rater import fleiss_kappa as reference

    rng = np.random.default_rng(items * raters)
    truth = rng.integers(0, categories, items)
    labels = [
        [int(t) if rng.random() < 0.7 else int(rng.integers(0, categories)) for _ in range(raters)]
        for t in truth
    ]
    counts = category_counts(labels, categories)
    assert counts.sum(axis=1).tolist() == [raters] * items
    assert fleiss_kappa(counts) == pytest.approx(reference(counts, method="fleiss"), abs=1e-12)
    assert fleiss_kappa(WORKED) == pytest.approx(reference(np.array(WORKED)), abs=1e-12)


def test_perfect_and_undefined_agreement() -> None:
    assert fleiss_kappa([[3, 0], [0, 3], [3, 0]]) == 1.0
    assert math.isnan(fleiss_kappa([[3, 0], [3, 0]]))  # one category only: undefined


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([[2, 1], [1, 1]], "same number of ratings"),
        ([[1, 0], [0, 1]], "at least two ratings"),
        ([[2, -1], [1, 0]], "non-negative integers"),
        ([[1.5, 1.5]], "non-negative integers"),
        ([], "non-empty"),
        ([[3], [3]], ">= 2 categories"),
    ],
)
def test_refuses_tables_it_cannot_score(counts, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fleiss_kappa(counts)


def test_category_counts() -> None:
    assert category_counts([[1, 1, 0], [0, 0, 0]], 2).tolist() == [[1, 2], [3, 0]]
    with pytest.raises(ValueError, match="outside the 2 categories"):
        category_counts([[0, 2]], 2)
