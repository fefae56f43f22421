"""A leaderboard's report: its columns (each a config at a version and fingerprint), its rows
(a model and setting, with a cell per column) and every run's own scores.

:class:`LeaderboardReport` renders itself as markdown, JSON, CSV, LaTeX (booktabs) and a
self-contained HTML page (:mod:`~hatemoji_datasets.evaluate.leaderboard_render`), and as
a pandas frame, one row per model, setting and column.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from hatemoji_datasets.core.errors import UnknownNameError
from hatemoji_datasets.core.scoring import LEADERBOARD_METRICS
from hatemoji_datasets.version import __version__

if TYPE_CHECKING:
    import pandas as pd

#: The report's JSON format; bumped when it changes incompatibly.
FORMAT = 1


@dataclass(frozen=True)
class BoardColumn:
    """A leaderboard column: one config's evaluation split at one version and fingerprint."""

    dataset: str
    config: str
    split: str
    version: str
    fingerprint: str
    #: Rows of the scored split.
    n: int
    heading: str = ""

    @property
    def config_reference(self) -> str:
        return f"{self.dataset}/{self.config}"

    @property
    def key(self) -> str:
        """What the column is: no two columns share it (runs of other data never share one)."""
        return f"{self.config_reference}:{self.version} {self.split} {self.fingerprint}"

    def headed(self, heading: str) -> BoardColumn:
        return replace(self, heading=heading)

    def to_dict(self) -> dict[str, Any]:
        return {
            "heading": self.heading,
            "dataset": self.dataset,
            "config": self.config,
            "split": self.split,
            "version": self.version,
            "fingerprint": self.fingerprint,
            "n": self.n,
        }


@dataclass(frozen=True)
class RunScore:
    """One run's scores on one column."""

    path: str
    #: The :attr:`BoardColumn.key` of its column.
    column: str
    model: str
    setting: tuple[tuple[str, str], ...]
    seed: str | None
    scores: dict[str, float | None]


@dataclass(frozen=True)
class BoardCell:
    """The runs of one model and setting on one column: how many, their seeds, and each
    metric's mean and sample standard deviation (None for a single run)."""

    runs: int
    seeds: tuple[str | None, ...]
    mean: dict[str, float | None]
    std: dict[str, float | None]

    @classmethod
    def of(cls, runs: Sequence[RunScore]) -> BoardCell:
        import numpy as np

        mean, std = {}, {}
        for metric in LEADERBOARD_METRICS:
            values = [r.scores[metric] for r in runs]
            known = np.array([v for v in values if v is not None], dtype=float)
            whole = len(known) == len(values)
            mean[metric] = float(known.mean()) if whole else None
            std[metric] = float(known.std(ddof=1)) if whole and len(known) > 1 else None
        return cls(len(runs), tuple(r.seed for r in runs), mean, std)


@dataclass(frozen=True)
class BoardRow:
    """A model (and setting) with its cell on each column it has runs on, by heading."""

    model: str
    setting: tuple[tuple[str, str], ...]
    cells: dict[str, BoardCell]


@dataclass(frozen=True)
class LeaderboardReport:
    """Models (rows) by dataset configs (columns), each cell a mean over seeds."""

    title: str
    #: The metrics shown, some of accuracy, f1_hateful and f1_macro.
    metrics: tuple[str, ...]
    #: The settings' names (the pattern's fields besides model and seed).
    settings: tuple[str, ...]
    columns: tuple[BoardColumn, ...]
    rows: tuple[BoardRow, ...]
    runs: tuple[RunScore, ...]
    #: The lockfile the versions came from, if one was given.
    lock: str | None = None
    package_version: str = __version__

    def column(self, heading: str) -> BoardColumn:
        for column in self.columns:
            if heading in (column.heading, column.config_reference):
                return column
        headings = ", ".join(c.heading for c in self.columns)
        raise UnknownNameError(f"no column {heading!r}; columns: {headings}")

    def row(self, model: str, **setting: str) -> BoardRow:
        wanted = {key: str(value) for key, value in setting.items()}
        for row in self.rows:
            if row.model == model and all(dict(row.setting).get(k) == v for k, v in wanted.items()):
                return row
        raise UnknownNameError(f"no row of model {model!r} with {wanted or 'no setting'}")

    def cell(
        self, model: str, column: str, metric: str = "f1_macro", **setting: str
    ) -> float | None:
        """The mean of ``metric`` for ``model`` (and ``setting``) on ``column`` (its heading or
        ``NAME/CONFIG``)."""
        found = self.row(model, **setting).cells.get(self.column(column).heading)
        return found.mean[metric] if found else None

    # -- data -------------------------------------------------------------------------

    def records(self) -> list[dict[str, Any]]:
        """One record per model, setting and column: what identifies it, its runs, and each
        metric's mean and standard deviation (``f1_macro``, ``f1_macro_std``)."""
        records = []
        for row in self.rows:
            for column in self.columns:
                cell = row.cells.get(column.heading)
                if cell is None:
                    continue
                record: dict[str, Any] = {"model": row.model, **dict(row.setting)}
                record.update(
                    column=column.heading,
                    dataset=column.dataset,
                    config=column.config,
                    split=column.split,
                    version=column.version,
                    fingerprint=column.fingerprint,
                    runs=cell.runs,
                )
                for metric in self.metrics:
                    record[metric] = cell.mean[metric]
                    record[f"{metric}_std"] = cell.std[metric]
                records.append(record)
        return records

    def to_frame(self) -> pd.DataFrame:
        """A pandas frame of :meth:`records`: one row per model, setting and column."""
        import pandas as pd

        return pd.DataFrame.from_records(self.records())

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "title": self.title,
            "package_version": self.package_version,
            "lock": self.lock,
            "metrics": list(self.metrics),
            "settings": list(self.settings),
            "columns": [column.to_dict() for column in self.columns],
            "rows": [
                {
                    "model": row.model,
                    "setting": dict(row.setting),
                    "cells": {
                        heading: {
                            "runs": cell.runs,
                            "seeds": list(cell.seeds),
                            **{m: {"mean": cell.mean[m], "std": cell.std[m]} for m in self.metrics},
                        }
                        for heading, cell in row.cells.items()
                    },
                }
                for row in self.rows
            ],
            "runs": [
                {
                    "path": run.path,
                    "column": self._heading_of(run.column),
                    "model": run.model,
                    "setting": dict(run.setting),
                    "seed": run.seed,
                    **{m: run.scores[m] for m in self.metrics},
                }
                for run in self.runs
            ],
        }

    def _heading_of(self, key: str) -> str:
        return next(c.heading for c in self.columns if c.key == key)

    # -- renderings -------------------------------------------------------------------

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def to_csv(self) -> str:
        """:meth:`records` as CSV (undefined values empty)."""
        return self.to_frame().to_csv(index=False, lineterminator="\n")

    def to_markdown(self) -> str:
        from hatemoji_datasets.evaluate.leaderboard_render import markdown

        return markdown(self)

    def to_latex(self) -> str:
        from hatemoji_datasets.evaluate.leaderboard_render import latex

        return latex(self)

    def to_html(self) -> str:
        from hatemoji_datasets.evaluate.leaderboard_render import html

        return html(self)
