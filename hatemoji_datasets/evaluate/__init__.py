"""Scoring model predictions in the papers' layout: overall metrics and per-group tables.

>>> from hatemoji_datasets.evaluate import score
>>> report = score("NAME", "predictions.csv")

- :mod:`~hatemoji_datasets.evaluate.scoring`: :func:`score` and the scoring target;
- :mod:`~hatemoji_datasets.evaluate.predictions`: reading and aligning predictions;
- :mod:`~hatemoji_datasets.evaluate.fitting_ids`: the config ids that do not fit are those of;
- :mod:`~hatemoji_datasets.evaluate.harness_log`: lm-evaluation-harness sample logs;
- :mod:`~hatemoji_datasets.evaluate.numbers`: strict numbers (no booleans, NaN or infinities);
- :mod:`~hatemoji_datasets.evaluate.metrics`: the metrics (scikit-learn, fairlearn);
- :mod:`~hatemoji_datasets.evaluate.breakdowns`: the tables a dataset declares;
- :mod:`~hatemoji_datasets.evaluate.report`: :class:`ScoreReport` and :class:`Table`;
- :mod:`~hatemoji_datasets.evaluate.significance`: Wilson intervals, exact McNemar, Holm;
- :mod:`~hatemoji_datasets.evaluate.paired`: McNemar tests of models against a baseline;
- :mod:`~hatemoji_datasets.evaluate.render`: markdown, JSON and CSV;
- :mod:`~hatemoji_datasets.evaluate.latex`: booktabs tables;
- :mod:`~hatemoji_datasets.evaluate.plot`: the heatmap (PNG, SVG, PDF);
- :mod:`~hatemoji_datasets.evaluate.html_report`: the self-contained HTML page;
- :mod:`~hatemoji_datasets.evaluate.comparison`: :class:`Comparison` of several models,
  :func:`compare` and :func:`score_models`;
- :mod:`~hatemoji_datasets.evaluate.runs`: a leaderboard's runs: files, folders, globs, names;
- :mod:`~hatemoji_datasets.evaluate.leaderboards`: :func:`leaderboard`, many runs in one table;
- :mod:`~hatemoji_datasets.evaluate.leaderboard_report`: :class:`LeaderboardReport`;
- :mod:`~hatemoji_datasets.evaluate.leaderboard_render`: a leaderboard as markdown, LaTeX, HTML.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hatemoji_datasets.evaluate.comparison import Comparison, compare, score_models
    from hatemoji_datasets.evaluate.leaderboard_report import LeaderboardReport
    from hatemoji_datasets.evaluate.leaderboards import leaderboard
    from hatemoji_datasets.evaluate.report import ScoreReport, Table
    from hatemoji_datasets.evaluate.scoring import score

# pandas and numpy load on first use, so that importing a submodule stays light.
_LAZY = {
    "score": "hatemoji_datasets.evaluate.scoring",
    "score_models": "hatemoji_datasets.evaluate.comparison",
    "compare": "hatemoji_datasets.evaluate.comparison",
    "Comparison": "hatemoji_datasets.evaluate.comparison",
    "ScoreReport": "hatemoji_datasets.evaluate.report",
    "Table": "hatemoji_datasets.evaluate.report",
    "leaderboard": "hatemoji_datasets.evaluate.leaderboards",
    "LeaderboardReport": "hatemoji_datasets.evaluate.leaderboard_report",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'hatemoji_datasets.evaluate' has no attribute {name!r}")


__all__ = [
    "Comparison",
    "LeaderboardReport",
    "ScoreReport",
    "Table",
    "compare",
    "leaderboard",
    "score",
    "score_models",
]
