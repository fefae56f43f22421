"""The score report: overall metrics and the tables a dataset's scoring declares."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from hatemoji_datasets.core.features import LABEL_NAMES
from hatemoji_datasets.core.scoring import Matrix
from hatemoji_datasets.evaluate.significance import wilson
from hatemoji_datasets.version import __version__

ACCURACY = "accuracy"
#: The columns of a report's scored rows (``ScoreReport.cases``): the row's id and text,
#: gold and predicted label ids, the score when given, whether the prediction is right
#: and the row's rank in id order.
CASE_ID, CASE_TEXT, CASE_SCORE = "id", "text", "score"
CASE_GOLD, CASE_PREDICTION = "gold", "prediction"
RIGHT, RANK = "right", "rank"


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
    #: Each row's scored rows, as positions in the split (grouped tables only: a row of a
    #: fairness or pair table is no set of rows), for intervals, tests and failing cases.
    members: tuple[np.ndarray, ...] = field(default=(), repr=False, compare=False)

    @property
    def has_cells(self) -> bool:
        """Whether each row is a set of scored rows with an accuracy: an interval each."""
        return bool(self.members) and ACCURACY in self.metrics

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
    #: The content fingerprint of the scored rows: the split's, or its slice's.
    fingerprint: str = ""
    #: The lockfile scored against, if any: its path and the fingerprints it pins.
    lock: LockRecord | None = None
    #: How many failing cases per cell the report lists (``score(examples=)``).
    examples: int = 0
    #: The scored rows in split order (:data:`CASE_COLUMNS`), for intervals, paired tests
    #: and failing cases.
    cases: pd.DataFrame | None = field(default=None, repr=False, compare=False)
    package_version: str = __version__

    def table(self, name: str) -> Table:
        return self.tables[name]

    def correct(self) -> np.ndarray:
        """Whether each scored row (split order) is predicted right."""
        if self.cases is None:
            raise ValueError("this report holds no scored rows (build it with score())")
        return self.cases[RIGHT].to_numpy()

    def overall_interval(self) -> tuple[float, float] | None:
        """The 95% Wilson interval of the overall accuracy."""
        return wilson(int(self.correct().sum()), self.n) if self.cases is not None else None

    def interval(self, name: str, row: int) -> tuple[float, float] | None:
        """The 95% Wilson interval of row ``row``'s accuracy in table ``name`` (None where
        the table has no accuracy of a set of rows)."""
        table = self.tables[name]
        if not table.has_cells or self.cases is None:
            return None
        members = table.members[row]
        return wilson(int(self.correct()[members].sum()), len(members))

    def failing(self, name: str, row: int, limit: int | None = None) -> list[dict[str, Any]]:
        """The wrong predictions of a table row in id order (the first ``limit``, or the
        report's ``examples``): id, text, gold and predicted label, score."""
        table = self.tables[name]
        if not table.members or self.cases is None:
            return []
        limit = self.examples if limit is None else limit
        members = table.members[row]
        wrong = members[~self.correct()[members]]
        wrong = wrong[np.argsort(self.cases[RANK].to_numpy()[wrong], kind="stable")][:limit]
        shown = self.cases.iloc[wrong]
        return [
            {
                "id": plain(case[CASE_ID]),
                "text": case[CASE_TEXT],
                "gold": LABEL_NAMES[int(case[CASE_GOLD])],
                "prediction": LABEL_NAMES[int(case[CASE_PREDICTION])],
                "score": plain(case[CASE_SCORE]) if CASE_SCORE in shown.columns else None,
            }
            for case in shown.to_dict("records")
        ]

    def wrong(self, name: str, row: int) -> int:
        """How many predictions of a table row are wrong."""
        members = self.tables[name].members[row]
        return int((~self.correct()[members]).sum())

    def to_dict(self, *, stats: bool = False) -> dict[str, Any]:
        """A JSON-ready dict (``NaN`` becomes ``None``). ``stats`` adds the 95% Wilson
        interval of each accuracy (``accuracy_interval``); with ``examples`` each table
        row of scored rows lists its ``failing`` cases and counts its ``wrong`` ones."""
        document: dict[str, Any] = {
            "dataset": self.dataset,
            "config": self.config,
            "split": self.split,
            "version": self.version,
            "fingerprint": self.fingerprint,
            "package_version": self.package_version,
            "id_column": self.id_column,
            "n": self.n,
            "has_scores": self.has_scores,
            "overall": {k: plain(v) for k, v in self.overall.items()},
            "tables": {name: table.to_dict() for name, table in self.tables.items()},
            "notes": list(self.notes),
        }
        if self.lock is not None:
            document["lock"] = self.lock.to_dict()
        if stats and self.cases is not None:
            document["overall_interval"] = {ACCURACY: _pair(self.overall_interval())}
        for name, table in self.tables.items():
            rows = document["tables"][name]["rows"]
            for i, row in enumerate(rows):
                if stats and table.has_cells:
                    row["accuracy_interval"] = _pair(self.interval(name, i))
                if self.examples and table.members and self.cases is not None:
                    row["wrong"] = self.wrong(name, i)
                    row["failing"] = self.failing(name, i)
        return document

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


@dataclass(frozen=True)
class LockRecord:
    """The lockfile a report was scored against: its path, the locked reference and the
    fingerprint it pins for each split (checked before scoring)."""

    path: str
    reference: str
    fingerprints: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "reference": self.reference, "fingerprints": self.fingerprints}


def _pair(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else [interval[0], interval[1]]


def plain(value: Any) -> Any:
    """Numpy scalars to Python, NaN to None."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
