"""A leaderboard: many runs of many models over one or more dataset configs, in one table.

>>> from hatemoji_datasets.evaluate import leaderboard
>>> board = leaderboard({"multilingual_hatecheck/spanish": "runs/"},
...                     pattern="{model}_{size}_rs{seed}.csv")
>>> print(board.to_markdown())

Runs are found and named by :mod:`~hatemoji_datasets.evaluate.runs`. Each dataset
config's gold labels are read once (through ``load_dataset``, so a lockfile's
fingerprints are checked first), and every run of it is aligned to them by id and
scored at once: accuracy, F1 of ``hateful`` and macro F1 (as scikit-learn's
``f1_score(labels=[0, 1], zero_division=nan)`` defines them), from the confusion
counts of all runs as one array. A run of a model, setting and seed is one value; the
runs of one model and setting are a cell's mean and sample standard deviation (ddof 1)
over seeds. A column is one config at one version and fingerprint: runs scored
against different data never share one. The report is
:class:`~hatemoji_datasets.evaluate.leaderboard_report.LeaderboardReport`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hatemoji_datasets.core.columns import LABEL_COLUMN
from hatemoji_datasets.core.errors import PredictionError, UnknownNameError
from hatemoji_datasets.core.progress import step
from hatemoji_datasets.core.registry import lookup, specs
from hatemoji_datasets.core.scoring import LEADERBOARD_METRICS, LeaderboardLayout
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec
from hatemoji_datasets.core.suggest import did_you_mean
from hatemoji_datasets.evaluate.harness_log import check_documents
from hatemoji_datasets.evaluate.leaderboard_report import (
    BoardCell,
    BoardColumn,
    BoardRow,
    LeaderboardReport,
    RunScore,
)
from hatemoji_datasets.evaluate.predictions import (
    PREDICTION,
    ROW_INDEX,
    _normal_label,
    align_frame,
    read_predictions,
)
from hatemoji_datasets.evaluate.runs import RunFile, RunSources, find_runs


def leaderboard(
    runs: RunSources,
    *,
    pattern: str | None = None,
    layout: str | None = None,
    metrics: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
    lock: str | os.PathLike[str] | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> LeaderboardReport:
    """Score every run and lay the scores out as one table: a row per model (and setting),
    a column per dataset config, the mean and standard deviation over seeds in each cell.

    ``runs``: ``{NAME[/CONFIG][:VERSION]: path}`` (a file, a folder or a glob, or a list of
    them) or paths of lm-evaluation-harness sample logs, whose task names the config.
    ``pattern`` names each run from its file name (``"{model}_{size}_rs{seed}.csv"``;
    :class:`~hatemoji_datasets.evaluate.runs.NamePattern`). ``layout`` lays the columns out
    as a paper's table a dataset declares (``"hatemoji"``, ``"mhc-efficient"``);
    ``metrics`` picks some of accuracy, f1_hateful and f1_macro; ``names`` renames models
    (``{"xlmt_dyn21_en_20000": "X+DEN"}``). With ``lock`` (a file written by
    ``hatemoji-datasets lock``) each config is scored at the version the lock pins, after
    its fingerprints are checked. Bad input raises :class:`PredictionError` naming the file.
    """
    chosen = _layout(layout) if layout is not None else None
    shown = _metrics(metrics, chosen)
    found = find_runs(runs, pattern)
    if not found:
        raise PredictionError("no runs given")
    by_column: dict[tuple[str, str, str | None], list[RunFile]] = {}
    for run in found:
        spec, config, version = lookup(run.reference)
        explicit = run.reference.partition(":")[2] or None
        by_column.setdefault((spec.name, config.name, explicit), []).append(run)
    columns: list[BoardColumn] = []
    scored: list[RunScore] = []
    for (name, config_name, version), column_runs in by_column.items():
        spec, config, _ = lookup(name, config_name, version)
        gold = Gold.load(spec, config, version, lock=lock, cache_dir=cache_dir, mirror=mirror)
        with step(f"{gold.reference}: scoring {len(column_runs):,} run(s)"):
            predictions = np.stack([gold.read(run.path) for run in column_runs])
        values = confusion_scores(predictions, gold.labels)
        column = gold.column()
        same = [c for c in columns if c.key == column.key]
        column = same[0] if same else column
        if not same:
            columns.append(column)
        for index, run in enumerate(column_runs):
            scores = {metric: _plain(values[metric][index]) for metric in LEADERBOARD_METRICS}
            model = (names or {}).get(run.model, run.model)
            scored.append(RunScore(str(run.path), column.key, model, run.setting, run.seed, scores))
    _refuse_renamed_twice(scored)
    columns = _headed(columns, chosen)
    settings = tuple(dict.fromkeys(k for run in found for k, _ in run.setting))
    return LeaderboardReport(
        title=chosen.title if chosen else "Leaderboard",
        metrics=shown,
        settings=settings,
        columns=tuple(columns),
        rows=_rows(scored, columns),
        runs=tuple(scored),
        lock=os.fspath(lock) if lock is not None else None,
    )


@dataclass
class Gold:
    """One config's scored split: its row ids and gold labels, and what data it is."""

    spec: DatasetSpec
    config: ConfigSpec
    version: str
    fingerprint: str
    dataset: Any = field(repr=False)
    id_column: str = ROW_INDEX

    @classmethod
    def load(
        cls,
        spec: DatasetSpec,
        config: ConfigSpec,
        version: str | None,
        *,
        lock: str | os.PathLike[str] | None,
        cache_dir: str | None,
        mirror: str | None,
    ) -> Gold:
        """The config's evaluation split, at ``version`` (or the lock's), checked as
        ``load_dataset`` checks it; its fingerprint the lock's or the recorded one."""
        from hatemoji_datasets.api import load_dataset
        from hatemoji_datasets.building.fingerprint import fingerprint
        from hatemoji_datasets.building.recorded import expected_for

        split = config.eval_split
        locked = None
        if lock is not None:
            from hatemoji_datasets.pinning.lock import locked_entry

            locked = locked_entry(lock, spec.name, config.name, version)
            version = locked.version
        version = spec.check_version(version)
        dataset = load_dataset(
            spec.name,
            config.name,
            split=split,
            version=version,
            cache_dir=cache_dir,
            mirror=mirror,
            lock=lock,
        )
        recorded = expected_for(spec, config, version) or {}
        if locked is not None:
            digest = locked.fingerprints()[split][1]
        elif split in recorded:
            digest = recorded[split].fingerprint
        else:  # nothing recorded for these inputs: the data's own
            digest = fingerprint(dataset)
        return cls(spec, config, version, digest, dataset, config.id_column or ROW_INDEX)

    @property
    def reference(self) -> str:
        return f"{self.spec.name}/{self.config.name}:{self.version}"

    @cached_property
    def raw_ids(self) -> list[Any]:
        if self.id_column == ROW_INDEX:
            return list(range(self.dataset.num_rows))
        return self.dataset.data.column(self.id_column).to_pylist()

    @cached_property
    def index(self) -> pd.Index:
        """The ids as text, as a CSV holds them, for aligning a run by position."""
        return pd.Index([str(i) for i in self.raw_ids])

    @cached_property
    def labels(self) -> np.ndarray:
        return self.dataset.data.column(LABEL_COLUMN).to_numpy().astype(np.int8)

    def column(self) -> BoardColumn:
        split = self.config.eval_split
        return BoardColumn(
            self.spec.name,
            self.config.name,
            split,
            self.version,
            self.fingerprint,
            len(self.labels),
        )

    def read(self, path: Path) -> np.ndarray:
        """A run's labels in the split's order: read at once where the file is a plain CSV
        of every id once with 0/1 (or label-name) predictions; otherwise read as ``score``
        reads it, which names every problem (exit status 1) or an unreadable file (2)."""
        fast = self._read_plain_csv(path)
        if fast is not None:
            return fast
        given, source = read_predictions(path, self.id_column)
        if "doc" in given.columns:  # a sample log: its docs must be this split's rows
            what = f"{self.spec.name}/{self.config.name} {self.config.eval_split} ({self.version})"
            rows = self.dataset.to_list()
            check_documents(path, given, rows, self.raw_ids, self.id_column, what)
        # The score column is no part of a leaderboard: it is not read.
        predicted, _ = align_frame(
            given[[self.id_column, PREDICTION]], source, self.id_column, self.raw_ids
        )
        return predicted.astype(np.int8)

    def _read_plain_csv(self, path: Path) -> np.ndarray | None:
        import pyarrow as pa
        from pyarrow import csv

        if path.suffix.lower() != ".csv" or not path.is_file():
            return None
        text = pa.string()
        try:
            table = csv.read_csv(
                path,
                convert_options=csv.ConvertOptions(
                    column_types={self.id_column: text, PREDICTION: text},
                    include_columns=[self.id_column, PREDICTION],
                ),
            )
            n = len(self.labels)
            if table.num_rows != n:
                return None
            position = self.index.get_indexer(table.column(self.id_column).to_numpy())
            if (position < 0).any() or np.bincount(position, minlength=n).max() != 1:
                return None
            encoded = table.column(PREDICTION).combine_chunks().dictionary_encode()
            codes = [_normal_label(value) for value in encoded.dictionary.to_pylist()]
            if None in codes:
                return None
            aligned = np.empty(n, dtype=np.int8)
            aligned[position] = np.asarray(codes, dtype=np.int8)[encoded.indices.to_numpy()]
            return aligned
        except (pa.ArrowException, OSError, ValueError):
            return None  # the careful read names what is wrong


def confusion_scores(predictions: np.ndarray, gold: np.ndarray) -> dict[str, np.ndarray]:
    """Accuracy, F1 of hateful and macro F1 of each row of ``predictions`` (runs x rows of
    0/1) against ``gold``, from their confusion counts; NaN where scikit-learn's
    ``zero_division=nan`` gives NaN (a class neither gold nor predicted), and the macro
    average over the defined classes, as it takes it."""
    hateful = gold.astype(bool)
    predicted = predictions.astype(bool)
    n = gold.shape[0]
    tp = predicted[:, hateful].sum(axis=1).astype(float)
    fp = predicted[:, ~hateful].sum(axis=1).astype(float)
    fn = hateful.sum() - tp
    tn = (n - hateful.sum()) - fp
    with np.errstate(invalid="ignore", divide="ignore"):
        f1_hateful = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), np.nan)
        f1_other = np.where(2 * tn + fp + fn > 0, 2 * tn / (2 * tn + fp + fn), np.nan)
        both = np.stack([f1_hateful, f1_other])
        defined = (~np.isnan(both)).sum(axis=0)
        macro = np.where(defined > 0, np.nansum(both, axis=0) / np.maximum(defined, 1), np.nan)
    return {"accuracy": (tp + tn) / n, "f1_hateful": f1_hateful, "f1_macro": macro}


def layouts() -> dict[str, LeaderboardLayout]:
    """Every table of many models the datasets declare, by name."""
    return {layout.name: layout for spec in specs().values() for layout in spec.layouts}


def _layout(name: str) -> LeaderboardLayout:
    known = layouts()
    if name not in known:
        raise UnknownNameError(
            f"unknown layout {name!r}{did_you_mean(name, known)}; available: {', '.join(known)}"
        )
    return known[name]


def _metrics(metrics: Sequence[str] | None, chosen: LeaderboardLayout | None) -> tuple[str, ...]:
    if metrics is None:
        return chosen.metrics if chosen else LEADERBOARD_METRICS
    unknown = [m for m in metrics if m not in LEADERBOARD_METRICS]
    if unknown or not metrics:
        raise UnknownNameError(
            f"unknown metric {(unknown or [''])[0]!r}; available: {', '.join(LEADERBOARD_METRICS)}"
        )
    return tuple(dict.fromkeys(metrics))


def _plain(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


def _refuse_renamed_twice(scored: list[RunScore]) -> None:
    """Two models renamed to one name would share its cells: refused, naming both files."""
    seen: dict[tuple, RunScore] = {}
    for run in scored:
        key = (run.column, run.model, run.setting, run.seed)
        if key in seen:
            raise PredictionError(
                f"{run.path}: it and {seen[key].path} both claim model {run.model}"
                f"{''.join(f', {k} {v}' for k, v in run.setting)}"
                f"{f', seed {run.seed}' if run.seed is not None else ''} on {run.column}"
            )
        seen[key] = run


def _headed(columns: list[BoardColumn], chosen: LeaderboardLayout | None) -> list[BoardColumn]:
    """The columns in the layout's order under its headings, then the rest; a config seen
    at two versions is told apart by them."""
    headings = dict(chosen.columns) if chosen else {}
    order = list(headings)

    def place(column: BoardColumn) -> tuple[int, int]:
        where = column.config_reference
        return (order.index(where) if where in order else len(order), columns.index(column))

    placed = sorted(columns, key=place)
    twice = {
        c.config_reference
        for c in placed
        if [d.config_reference for d in placed].count(c.config_reference) > 1
    }
    result = []
    for column in placed:
        heading = headings.get(column.config_reference, column.config_reference)
        if column.config_reference in twice:
            heading += f" ({column.version}, {column.fingerprint[7:19]})"
        result.append(column.headed(heading))
    return result


def _natural(value: str) -> tuple:
    """``"20" < "200" < "2000"``, ``"rs2" < "rs10"``: numbers by value, the rest as text."""
    import re

    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in re.split(r"(\d+)", value)
        if part
    )


def _rows(scored: list[RunScore], columns: list[BoardColumn]) -> tuple[BoardRow, ...]:
    """One row per model and setting (models in the order first given, settings in natural
    order), each cell the mean and sample standard deviation over its runs."""
    heading = {column.key: column.heading for column in columns}
    models = list(dict.fromkeys(run.model for run in scored))
    groups: dict[tuple[str, tuple], dict[str, list[RunScore]]] = {}
    for run in scored:
        groups.setdefault((run.model, run.setting), {}).setdefault(run.column, []).append(run)
    ordered = sorted(
        groups,
        key=lambda key: (models.index(key[0]), tuple(_natural(v) for _, v in key[1])),
    )
    rows = []
    for model, setting in ordered:
        cells = {}
        for column_key, runs in groups[model, setting].items():
            runs = sorted(runs, key=lambda r: _natural(r.seed or ""))
            cells[heading[column_key]] = BoardCell.of(runs)
        rows.append(BoardRow(model, setting, cells))
    return tuple(rows)


__all__ = ["confusion_scores", "layouts", "leaderboard"]
