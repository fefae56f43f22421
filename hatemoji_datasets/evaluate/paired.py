"""Paired tests of models scored on the same rows: an exact McNemar test of each model
against a baseline, per table cell and overall, with Holm's correction.

The family a correction runs over is stated where the result is shown
(:data:`METHOD`, :data:`CORRECTION`): the cells of one table for one model against
the baseline, and, for the overall row, the models compared with the baseline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.evaluate.report import ScoreReport
from hatemoji_datasets.evaluate.significance import ALPHA, holm, mcnemar_exact

METHOD = (
    "exact McNemar test (two-sided binomial test of the discordant rows: b = only the "
    "baseline right, c = only the model right) of each model against the baseline"
)
CORRECTION = (
    "Holm's step-down correction over the cells of each table for each model, and over the "
    f"models for the overall row; * marks an adjusted p < {ALPHA}"
)


@dataclass(frozen=True)
class PairedTest:
    """One model against the baseline on one set of rows."""

    b: int
    c: int
    p: float
    #: The p-value after Holm's correction over its family.
    p_holm: float

    @property
    def significant(self) -> bool:
        return self.p_holm < ALPHA

    def to_dict(self) -> dict[str, Any]:
        return {
            "b": self.b,
            "c": self.c,
            "p": self.p,
            "p_holm": self.p_holm,
            "significant": self.significant,
        }


@dataclass(frozen=True)
class PairedTests:
    """Every model but the baseline against it: ``overall[model]`` and
    ``cells[model][table][row]`` (None for a row of a table without cells)."""

    baseline: str
    overall: dict[str, PairedTest]
    cells: dict[str, dict[str, list[PairedTest]]]

    def cell(self, model: str, table: str, row: int) -> PairedTest | None:
        rows = self.cells.get(model, {}).get(table)
        return rows[row] if rows else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "baseline": self.baseline,
            "method": METHOD,
            "correction": CORRECTION,
            "alpha": ALPHA,
            "models": {
                model: {
                    "overall": self.overall[model].to_dict(),
                    "tables": {
                        name: [test.to_dict() for test in rows] for name, rows in tables.items()
                    },
                }
                for model, tables in self.cells.items()
            },
        }


def _discordant(base: np.ndarray, other: np.ndarray) -> tuple[int, int]:
    return int((base & ~other).sum()), int((~base & other).sum())


def paired_tests(reports: Mapping[str, ScoreReport], baseline: str | None = None) -> PairedTests:
    """McNemar tests of every model in ``reports`` against ``baseline`` (default: the first).

    The reports must score the same rows: the same dataset, config, split and
    fingerprint."""
    models = list(reports)
    baseline = models[0] if baseline is None else baseline
    if baseline not in reports:
        raise HatemojiDatasetsError(
            f"--baseline {baseline!r} is none of the models scored: {', '.join(models)}"
        )
    base = reports[baseline]
    for name, report in reports.items():
        if (report.dataset, report.config, report.split, report.fingerprint) != (
            base.dataset,
            base.config,
            base.split,
            base.fingerprint,
        ):
            raise HatemojiDatasetsError(
                f"model {name!r} was scored on other rows than {baseline!r} "
                f"({report.dataset}/{report.config} {report.split} {report.fingerprint}): "
                "a paired test needs the same rows"
            )
    base_right = base.correct()
    others = [model for model in models if model != baseline]
    raw_overall = [mcnemar_exact(*_discordant(base_right, reports[m].correct())) for m in others]
    overall = {}
    for model, p, p_holm in zip(others, raw_overall, holm(raw_overall), strict=True):
        b, c = _discordant(base_right, reports[model].correct())
        overall[model] = PairedTest(b, c, p, p_holm)
    cells: dict[str, dict[str, list[PairedTest]]] = {}
    for model in others:
        right = reports[model].correct()
        cells[model] = {}
        for name, table in base.tables.items():
            if not table.has_cells:
                continue
            counts = [_discordant(base_right[rows], right[rows]) for rows in table.members]
            raw = [mcnemar_exact(b, c) for b, c in counts]
            cells[model][name] = [
                PairedTest(b, c, p, p_holm)
                for (b, c), p, p_holm in zip(counts, raw, holm(raw), strict=True)
            ]
    return PairedTests(baseline, overall, cells)
