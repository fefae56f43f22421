"""The metrics of a score report, from scikit-learn and fairlearn (the ``evaluate`` extra).

Every metric that is undefined on a group (a false negative rate where nothing
is hateful, say) is ``None`` or NaN, never a made-up number; the report turns
NaN into ``None``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from importlib import import_module
from typing import Any

import numpy as np
import pandas as pd

from hatemoji_datasets.core.errors import HatemojiDatasetsError

GOLD, PREDICTED = "_gold", "_pred"
#: The prediction of a generative reply that names neither label: wrong for every metric
#: (accuracy, recall, the F1s; a false negative where the text is hateful, never a false
#: positive), and counted per cell (``unparsed``).
UNPARSED_ID = -1
#: The metric counting them.
UNPARSED = "unparsed"


class OptionalDependencyError(HatemojiDatasetsError):
    """An optional dependency (an extra of this package) is not installed."""

    code = "MISSING-EXTRA"


#: The optional modules scoring needs: module -> (distribution, extra that installs it).
EXTRAS = {
    "sklearn.metrics": ("scikit-learn", "evaluate"),
    "fairlearn.metrics": ("fairlearn", "evaluate"),
    "matplotlib.pyplot": ("matplotlib", "plot"),
}


def _importable(module: str) -> bool:
    try:
        import_module(module)
    except ImportError:
        return False
    return True


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def require_extras(*, plot: bool = False) -> None:
    """One error naming every missing optional dependency, before any work is done."""
    wanted = [module for module, (_, extra) in EXTRAS.items() if plot or extra != "plot"]
    missing = [module for module in wanted if not _importable(module)]
    if not missing:
        return
    names = [EXTRAS[module][0] for module in missing]
    extras = ",".join(dict.fromkeys(EXTRAS[module][1] for module in missing))
    verb = "is" if len(names) == 1 else "are"
    raise OptionalDependencyError(
        f"{'scoring with --plot' if plot else 'scoring'} needs "
        f"{_listed([EXTRAS[module][0] for module in wanted])} ({_listed(names)} {verb} "
        f"missing): pip install 'hatemoji-datasets[{extras}]'"
    )


def sklearn_fairlearn() -> tuple[Any, Any]:
    """``sklearn.metrics`` and ``fairlearn.metrics``, or one error naming every missing extra."""
    require_extras()
    return import_module("sklearn.metrics"), import_module("fairlearn.metrics")


def without_parameter_checks() -> AbstractContextManager[None]:
    """scikit-learn without its per-call parameter checks: the metrics here are called with
    labels and predictions already checked as 0/1 integers, once per group of every table,
    and the checks took a fifth of scoring a harness log."""
    from sklearn import config_context

    return config_context(skip_parameter_validation=True)


def f1(metrics: Any, gold: Any, pred: Any, *, hateful_only: bool) -> float:
    """F1 of the hateful class, or the mean of both classes'. The classes are named, so a
    prediction that is neither (:data:`UNPARSED_ID`) counts as a miss, never as a class."""
    labels = [1] if hateful_only else [0, 1]
    return float(metrics.f1_score(gold, pred, labels=labels, average="macro", zero_division=np.nan))


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
        "f1_hateful": f1(metrics, gold, pred, hateful_only=True),
        "f1_macro": f1(metrics, gold, pred, hateful_only=False),
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
        labels = [int(gold.iloc[0])]
        return float(metrics.recall_score(gold, pred, labels=labels, average="macro"))
    # Balanced accuracy, the mean of both classes' recall, with the classes named.
    return float(metrics.recall_score(gold, pred, labels=[0, 1], average="macro"))


def _false_positive_rate(metrics: Any, group: pd.DataFrame) -> float | None:
    """Non-hateful texts predicted hateful, of all non-hateful texts."""
    negative = group[GOLD] == 0
    return rate(int((negative & (group[PREDICTED] == 1)).sum()), int(negative.sum()))


def _false_negative_rate(metrics: Any, group: pd.DataFrame) -> float | None:
    """Hateful texts not predicted hateful (unparsed ones too), of all hateful texts."""
    positive = group[GOLD] == 1
    return rate(int((positive & (group[PREDICTED] != 1)).sum()), int(positive.sum()))


def _accuracy(metrics: Any, group: pd.DataFrame) -> float:
    """The share of right predictions: scikit-learn's ``accuracy_score`` (a test holds them
    equal), without its checks of the label types, which cost more than the rest of a
    table with a hundred cells."""
    return float((group[GOLD].to_numpy() == group[PREDICTED].to_numpy()).mean())


#: The group metrics a breakdown may declare: name -> (sklearn metrics, rows) -> value.
GROUP_METRICS: dict[str, Callable[[Any, pd.DataFrame], float | None]] = {
    "accuracy": _accuracy,
    "f1_hateful": lambda m, g: f1(m, g[GOLD], g[PREDICTED], hateful_only=True),
    "f1_macro": lambda m, g: f1(m, g[GOLD], g[PREDICTED], hateful_only=False),
    "recall": recall_of_gold,
    "false_positive_rate": _false_positive_rate,
    "false_negative_rate": _false_negative_rate,
    #: How many generative replies named neither label (a count, per model).
    UNPARSED: lambda m, g: int((g[PREDICTED] == UNPARSED_ID).sum()),
}


def _group_counts(group: pd.DataFrame, split: pd.DataFrame) -> tuple[int, int, int]:
    """The group's hateful rows against every non-hateful row of the split, a hateful
    prediction as flagging a row: (true positives, false positives, false negatives)."""
    hateful, flagged = group[GOLD] == 1, group[PREDICTED] == 1
    false_alarms = int(((split[GOLD] == 0) & (split[PREDICTED] == 1)).sum())
    return int((hateful & flagged).sum()), false_alarms, int((hateful & ~flagged).sum())


def _group_precision(metrics: Any, group: pd.DataFrame, split: pd.DataFrame) -> float | None:
    hit, false_alarms, _ = _group_counts(group, split)
    return rate(hit, hit + false_alarms)


def _group_recall(metrics: Any, group: pd.DataFrame, split: pd.DataFrame) -> float | None:
    hit, _, missed = _group_counts(group, split)
    return rate(hit, hit + missed)


def _group_f1(metrics: Any, group: pd.DataFrame, split: pd.DataFrame) -> float | None:
    hit, false_alarms, missed = _group_counts(group, split)
    return rate(2 * hit, 2 * hit + false_alarms + missed)


#: Metrics of a group against its whole split, where a model predicts the binary label only
#: (a multi-label target's): the group's hateful rows are the positives, every non-hateful
#: row of the split the negatives, a hateful prediction a flag. Rows hateful for other
#: reasons only are left out.
SPLIT_METRICS: dict[str, Callable[[Any, pd.DataFrame, pd.DataFrame], float | None]] = {
    "group_precision": _group_precision,
    "group_recall": _group_recall,
    "group_f1": _group_f1,
}
