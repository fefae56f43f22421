"""The metrics of a score report, from scikit-learn and fairlearn (the ``evaluate`` extra).

Every metric that is undefined on a group (a false negative rate where nothing
is hateful, say) is ``None`` or NaN, never a made-up number; the report turns
NaN into ``None``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from hatemoji_datasets.errors import HatemojiDatasetsError

GOLD, PREDICTED = "_gold", "_pred"


class OptionalDependencyError(HatemojiDatasetsError):
    """An optional dependency (an extra of this package) is not installed."""


def sklearn_fairlearn() -> tuple[Any, Any]:
    """``sklearn.metrics`` and ``fairlearn.metrics``, or one error naming the extra."""
    try:
        from fairlearn import metrics as fair
        from sklearn import metrics
    except ImportError as error:
        raise OptionalDependencyError(
            f"scoring needs scikit-learn and fairlearn ({error.name} is missing): "
            "pip install 'hatemoji-datasets[evaluate]'"
        ) from error
    return metrics, fair


def f1(metrics: Any, gold: Any, pred: Any, **kwargs: Any) -> float:
    return float(metrics.f1_score(gold, pred, labels=[0, 1], zero_division=np.nan, **kwargs))


def rate(numerator: int, denominator: int) -> float | None:
    return float(numerator / denominator) if denominator else None


def overall(
    metrics: Any, frame: pd.DataFrame, scores: np.ndarray | None
) -> dict[str, float | int | None]:
    """Accuracy and F1 over every scored row; ROC AUC and average precision with scores."""
    gold, pred = frame[GOLD], frame[PREDICTED]
    result: dict[str, float | int | None] = {
        "n": len(gold),
        "accuracy": float(metrics.accuracy_score(gold, pred)),
        "f1_hateful": f1(metrics, gold, pred, pos_label=1, average="binary"),
        "f1_macro": f1(metrics, gold, pred, average="macro"),
    }
    if scores is not None:
        both = gold.nunique() == 2
        result["roc_auc"] = float(metrics.roc_auc_score(gold, scores)) if both else None
        result["average_precision"] = (
            float(metrics.average_precision_score(gold, scores)) if both else None
        )
    return result


def recall_of_gold(metrics: Any, group: pd.DataFrame) -> float:
    """Recall of the group's gold class (for a mixed group: balanced accuracy)."""
    gold, pred = group[GOLD], group[PREDICTED]
    if gold.nunique() == 1:
        return float(metrics.recall_score(gold, pred, pos_label=int(gold.iloc[0])))
    return float(metrics.balanced_accuracy_score(gold, pred))


def _confusion(metrics: Any, group: pd.DataFrame) -> tuple[int, int, int, int]:
    tn, fp, fn, tp = metrics.confusion_matrix(group[GOLD], group[PREDICTED], labels=[0, 1]).ravel()
    return int(tn), int(fp), int(fn), int(tp)


def _false_positive_rate(metrics: Any, group: pd.DataFrame) -> float | None:
    tn, fp, _, _ = _confusion(metrics, group)
    return rate(fp, fp + tn)


def _false_negative_rate(metrics: Any, group: pd.DataFrame) -> float | None:
    _, _, fn, tp = _confusion(metrics, group)
    return rate(fn, fn + tp)


#: The group metrics a breakdown may declare: name -> (sklearn metrics, rows) -> value.
GROUP_METRICS: dict[str, Callable[[Any, pd.DataFrame], float | None]] = {
    "accuracy": lambda m, g: float(m.accuracy_score(g[GOLD], g[PREDICTED])),
    "f1_hateful": lambda m, g: f1(m, g[GOLD], g[PREDICTED], average="binary"),
    "f1_macro": lambda m, g: f1(m, g[GOLD], g[PREDICTED], average="macro"),
    "recall": recall_of_gold,
    "false_positive_rate": _false_positive_rate,
    "false_negative_rate": _false_negative_rate,
}
