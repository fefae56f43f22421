"""Several models scored side by side, in every format: :class:`Comparison`.

>>> from hatemoji_datasets.evaluate import score_models
>>> comparison = score_models("NAME", {"model_a": "a.csv", "model_b": "b.csv"}, examples=3)
>>> comparison.to_markdown(), comparison.to_frame(), comparison.to_html()

One model is a comparison of one (:func:`compare` takes a single report too).
With ``stats`` the text formats add each accuracy's 95% Wilson interval and,
with two or more models, the exact McNemar tests against the baseline
(:mod:`~hatemoji_datasets.evaluate.paired`); the HTML page always has them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import pandas as pd

from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.evaluate.latex import render_latex
from hatemoji_datasets.evaluate.paired import PairedTests, paired_tests
from hatemoji_datasets.evaluate.predictions import Predictions
from hatemoji_datasets.evaluate.render import render_csv, render_json, render_markdown, same_split
from hatemoji_datasets.evaluate.report import ACCURACY, ScoreReport
from hatemoji_datasets.evaluate.scoring import score

#: ``score --format`` values and the method each calls.
FORMATS = {"markdown": "to_markdown", "json": "to_json", "csv": "to_csv", "latex": "to_latex"}


@dataclass(frozen=True)
class Comparison:
    """Score reports of one or more models on the same rows, by model name."""

    reports: dict[str, ScoreReport]
    #: Intervals and paired tests in the text formats (the HTML page always has them).
    stats: bool = True
    #: The model the paired tests compare against (default: the first).
    baseline: str | None = None

    def __post_init__(self) -> None:
        same_split(self.reports)
        if self.baseline is not None and self.baseline not in self.reports:
            raise HatemojiDatasetsError(
                f"baseline {self.baseline!r} is none of the models scored: "
                f"{', '.join(self.reports)}"
            )

    @cached_property
    def paired(self) -> PairedTests | None:
        """McNemar tests of each model against the baseline; None for one model."""
        return paired_tests(self.reports, self.baseline) if len(self.reports) > 1 else None

    def _options(self) -> dict[str, Any]:
        return {"stats": self.stats, "paired": self.paired if self.stats else None}

    def to_markdown(self) -> str:
        return render_markdown(self.reports, **self._options())

    def to_json(self) -> str:
        return render_json(self.reports, **self._options())

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self.to_json())
        return result

    def to_csv(self) -> str:
        return render_csv(self.reports, **self._options())

    def to_latex(self) -> str:
        return render_latex(self.reports, **self._options())

    def to_html(self) -> str:
        """The self-contained page (needs matplotlib, the ``plot`` extra, for its heatmap)."""
        from hatemoji_datasets.evaluate.html_report import render_html

        return render_html(self.reports, paired=self.paired)

    def render(self, form: str) -> str:
        """The report in ``form``: markdown, json, csv or latex."""
        return str(getattr(self, FORMATS[form])())

    def to_frame(self) -> pd.DataFrame:
        """One row per model and table row (the overall metrics first): the keys as
        ``row``, the facts and metrics as columns; with ``stats``, ``accuracy_low``,
        ``accuracy_high`` and the McNemar ``p_holm`` against the baseline."""
        paired = self.paired if self.stats else None
        records = []
        for model, report in self.reports.items():
            overall: dict[str, Any] = {"model": model, "table": "overall", "row": ""}
            overall.update(report.overall)
            if self.stats:
                _interval(overall, report.overall_interval())
            if paired is not None and model in paired.overall:
                overall["p_holm"] = paired.overall[model].p_holm
            records.append(overall)
            for name, table in report.tables.items():
                for i, row in enumerate(table.rows):
                    record = {"model": model, "table": name, "row": table.row_name(row)}
                    record.update({k: row[k] for k in (*table.info, *table.metrics)})
                    if self.stats and table.has_cells:
                        _interval(record, report.interval(name, i))
                    test = paired.cell(model, name, i) if paired is not None else None
                    if test is not None:
                        record["p_holm"] = test.p_holm
                    records.append(record)
        return pd.DataFrame.from_records(records)


def _interval(record: dict[str, Any], interval: tuple[float, float] | None) -> None:
    low, high = (None, None) if interval is None else interval
    record[f"{ACCURACY}_low"], record[f"{ACCURACY}_high"] = low, high


def compare(
    reports: ScoreReport | Mapping[str, ScoreReport],
    *,
    baseline: str | None = None,
    stats: bool = True,
) -> Comparison:
    """A :class:`Comparison` of reports by model name (one report: the model ``model``)."""
    if isinstance(reports, ScoreReport):
        reports = {"model": reports}
    return Comparison(dict(reports), stats=stats, baseline=baseline)


def score_models(
    name: str,
    predictions: Mapping[str, Predictions],
    *,
    baseline: str | None = None,
    stats: bool = True,
    **options: Any,
) -> Comparison:
    """Score each model's predictions (``{model: predictions}``) on ``name`` with the same
    ``options`` as :func:`~hatemoji_datasets.evaluate.score` (config, split, version,
    examples, lock, ...), and compare them."""
    if baseline is not None and baseline not in predictions:
        raise HatemojiDatasetsError(
            f"baseline {baseline!r} is none of the models: {', '.join(predictions)}"
        )
    reports = {model: score(name, given, **options) for model, given in predictions.items()}
    return Comparison(reports, stats=stats, baseline=baseline)
