"""The score report: overall metrics and the tables a dataset's scoring declares."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from hatemoji_datasets.core.scoring import Matrix


@dataclass(frozen=True)
class Table:
    """One breakdown: rows identified by ``keys``, facts of the data (``info``, e.g. ``n``)
    and the model's ``metrics``."""

    name: str
    title: str
    keys: tuple[str, ...]
    info: tuple[str, ...]
    metrics: tuple[str, ...]
    rows: tuple[dict[str, Any], ...]

    def row_name(self, row: Mapping[str, Any]) -> str:
        return " ".join(str(row[key]) for key in self.keys)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame(list(self.rows), columns=[*self.keys, *self.info, *self.metrics])

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "keys": list(self.keys),
            "info": list(self.info),
            "metrics": list(self.metrics),
            "rows": [{k: plain(v) for k, v in row.items()} for row in self.rows],
        }


@dataclass(frozen=True)
class ScoreReport:
    """Metrics of one model on one dataset split. Undefined metrics are ``None``."""

    dataset: str
    config: str
    split: str
    version: str
    id_column: str
    n: int
    has_scores: bool
    overall: dict[str, float | int | None]
    tables: dict[str, Table]
    #: The table and metric the heatmap draws.
    plot: tuple[str, str]
    notes: tuple[str, ...] = field(default=())
    #: The pivot the markdown report shows under its table, if the dataset declares one.
    matrix: Matrix | None = None
    #: What the heatmap draws: the ``plot`` table's rows, or the ``matrix``.
    heatmap: str = "rows"

    def table(self, name: str) -> Table:
        return self.tables[name]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``NaN`` becomes ``None``)."""
        return {
            "dataset": self.dataset,
            "config": self.config,
            "split": self.split,
            "version": self.version,
            "id_column": self.id_column,
            "n": self.n,
            "has_scores": self.has_scores,
            "overall": {k: plain(v) for k, v in self.overall.items()},
            "tables": {name: table.to_dict() for name, table in self.tables.items()},
            "notes": list(self.notes),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def accuracy_matrix(self) -> pd.DataFrame:
        """The declared matrix: its metric per ``rows`` value (index) x ``columns`` value.

        Rows and columns keep the table's order. Raises KeyError when the
        dataset declares no matrix.
        """
        if self.matrix is None:
            raise KeyError(f"{self.dataset}/{self.config} declares no matrix")
        cells = self.table(self.matrix.table).to_frame()
        rows, columns = self.matrix.rows, self.matrix.columns
        return cells.pivot(index=rows, columns=columns, values=self.matrix.metric).loc[
            list(dict.fromkeys(cells[rows])), list(dict.fromkeys(cells[columns]))
        ]


def plain(value: Any) -> Any:
    """Numpy scalars to Python, NaN to None."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
