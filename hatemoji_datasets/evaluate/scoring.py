"""Score a model's predictions on a dataset's evaluation split.

>>> from hatemoji_datasets.evaluate import score
>>> report = score("NAME", {row_id: 1 for row_id in ids})
>>> report.overall["accuracy"], report.table(report.plot[0]).rows[0]

``predictions`` maps each row id of the scored split to a 0/1 label and
optionally the hateful-class probability (``score``), or is an
lm-evaluation-harness per-sample log of one of the package's tasks
(:mod:`~hatemoji_datasets.evaluate.harness_log`), whose task names the config;
a generative task's replies are read as the task reads them, and those naming
neither label are scored wrong and counted (``unparsed``, overall and in every
table). Metrics come from scikit-learn and fairlearn (the ``evaluate`` extra); a metric that is
undefined on a group (e.g. a false negative rate where nothing is hateful) is
``None``. Which tables a report holds is the dataset config's declaration
(:class:`hatemoji_datasets.core.scoring.Scoring`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from numbers import Integral
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from hatemoji_datasets.building.fingerprint import fingerprint
from hatemoji_datasets.core.columns import LABEL_COLUMN, TEXT_COLUMN
from hatemoji_datasets.core.errors import PredictionError
from hatemoji_datasets.core.registry import dataset_spec, lookup, parse_reference
from hatemoji_datasets.evaluate.breakdowns import Context, counting_unparsed, tables
from hatemoji_datasets.evaluate.harness_log import (
    GENERATIVE,
    LOG_COLUMNS,
    check_documents,
    config_of_log,
    is_sample_log,
    task_of,
)
from hatemoji_datasets.evaluate.metrics import (
    GOLD,
    GROUP_METRICS,
    PREDICTED,
    UNPARSED,
    overall,
    sklearn_fairlearn,
    without_parameter_checks,
)
from hatemoji_datasets.evaluate.predictions import (
    ROW_INDEX,
    Predictions,
    align_frame,
    read_predictions,
)
from hatemoji_datasets.evaluate.report import (
    CASE_GOLD,
    CASE_ID,
    CASE_PREDICTION,
    CASE_SCORE,
    CASE_TEXT,
    RANK,
    RIGHT,
    LockRecord,
    ScoreReport,
    Table,
    plain,
)
from hatemoji_datasets.harness.tasks import owner_of_task, task_choices

if TYPE_CHECKING:
    from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec
    from hatemoji_datasets.pinning.lockfile import LockedDataset


@dataclass(frozen=True)
class Target:
    """How predictions for one dataset config are keyed, and which split is scored."""

    #: The column whose value identifies a row; ``index`` = 0-based row index in the split.
    id_column: str
    eval_split: str


def scoring_target(name: str, config: str | None) -> tuple[str, Target]:
    """The resolved config name and the scoring target of ``name`` (``NAME[:VERSION]``)."""
    _, config_spec, _ = lookup(name, config)
    return config_spec.name, Target(config_spec.id_column or ROW_INDEX, config_spec.eval_split)


def score(
    name: str,
    predictions: Predictions,
    *,
    config: str | None = None,
    split: str | None = None,
    version: str | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
    examples: int = 0,
    lock: str | os.PathLike[str] | None = None,
) -> ScoreReport:
    """Score ``predictions`` on ``name``'s evaluation split (or ``split``).

    ``predictions``: a mapping ``id -> 0/1`` (or ``id -> {"prediction": 0/1, "score": p}``),
    a pandas DataFrame or ``datasets.Dataset`` with the id column, ``prediction`` and
    optionally ``score``, or the path of such a CSV or JSON Lines file. The id column
    is the config's id column, or ``index`` (the 0-based row within the split) for
    configs whose rows have none. An lm-evaluation-harness sample log of a generated
    task scores that task's config unless ``config`` says otherwise.

    ``examples``: list up to this many wrong predictions per table cell, in id order
    (:meth:`ScoreReport.failing`). ``lock``: a lockfile (``hatemoji-datasets lock``):
    the version it pins is scored (unless ``version`` names one it locks), after every
    split's fingerprint is checked against it; the report records them.
    """
    from hatemoji_datasets.api import load_dataset

    if isinstance(examples, bool) or not isinstance(examples, Integral) or examples < 0:
        raise PredictionError(f"examples must be a whole number of cases, not {examples!r}")
    config = _config_of_log(name, config, predictions)
    spec, config_spec, version = lookup(name, config, version)
    entry = None
    if lock is not None:
        from hatemoji_datasets.pinning.lock import locked_entry

        named = parse_reference(name, config, version)[2]  # a version the caller named
        entry = locked_entry(lock, spec.name, config_spec.name, named)
        version = entry.version
    _, target = scoring_target(spec.name, config_spec.name)
    split = split or target.eval_split
    metrics, fair = sklearn_fairlearn()
    # Predictions are read before the data is loaded: an unreadable file fails first.
    choices = task_choices(spec, config_spec)  # what a generative log's replies name
    given, source = read_predictions(predictions, target.id_column, choices)
    generative = given.attrs.get(GENERATIVE, False)
    dataset = load_dataset(
        spec.name,
        config_spec.name,
        split=split,
        version=version,
        cache_dir=cache_dir,
        mirror=mirror,
        lock=lock,  # every split's fingerprint checked before anything is scored
    )
    frame = dataset.to_pandas()
    if target.id_column == ROW_INDEX:
        ids = list(range(len(frame)))
    else:  # integer ids as Python ints; text ids (``german-12``) as they are
        ids = [int(i) if isinstance(i, Integral) else i for i in frame[target.id_column]]
    try:
        predicted, scores = align_frame(given, source, target.id_column, ids)
    except PredictionError as error:
        path = source if isinstance(predictions, str | os.PathLike) else None
        raise _hinted(error, spec, config_spec, version, ids, given, path, cache_dir) from None
    if set(LOG_COLUMNS) <= set(given.columns):  # only a sample log carries its docs
        what = f"{spec.name}/{config_spec.name} {split} ({version})"
        check_documents(Path(source), given, dataset.to_list(), ids, target.id_column, what)
    frame[GOLD] = frame[LABEL_COLUMN].astype(int)
    frame[PREDICTED] = predicted
    context = Context(frame, dataset.features, target.id_column, metrics, fair)
    declared = config_spec.scoring
    if declared and generative:  # each model's unparsed replies, counted per cell
        declared = counting_unparsed(declared)
    with without_parameter_checks():
        found, notes = tables(spec, declared, context) if declared else ([], [])
        summary = overall(metrics, frame, scores)
    if generative:
        summary[UNPARSED] = GROUP_METRICS[UNPARSED](metrics, frame)
    return ScoreReport(
        fingerprint=fingerprint(dataset),
        lock=None if entry is None else _lock_record(lock, entry),
        examples=int(examples),
        cases=_cases(frame, ids, scores),
        dataset=spec.name,
        config=config_spec.name,
        split=split,
        version=version,
        id_column=target.id_column,
        n=len(frame),
        has_scores=scores is not None,
        overall={key: plain(value) for key, value in summary.items()},
        tables={table.name: _plain_rows(table) for table in found},
        plot=declared.plot if declared else ("", ""),
        notes=tuple(notes),
        matrix=declared.matrix if declared else None,
        heatmap=declared.heatmap if declared else "rows",
    )


def _hinted(
    error: PredictionError,
    spec: DatasetSpec,
    config: ConfigSpec,
    version: str,
    ids: list[Any],
    given: pd.DataFrame,
    path: str | None,
    cache_dir: str | None,
) -> PredictionError:
    """The error, ending with the config the predictions' ids are those of, if one is."""
    from hatemoji_datasets.evaluate.fitting_ids import fitting_hint, fitting_reference
    from hatemoji_datasets.evaluate.predictions import prediction_ids

    predicted = prediction_ids(given, config.id_column or ROW_INDEX)
    fitting = fitting_reference(spec, config, version, ids, predicted, cache_dir)
    if fitting is None:
        return error
    hint = fitting_hint(spec, config, fitting, path)
    return PredictionError(str(error) + hint, problems=[*error.problems, hint[2:]])


def _cases(frame: pd.DataFrame, ids: list[Any], scores: np.ndarray | None) -> pd.DataFrame:
    """The scored rows as the report keeps them (:data:`report.CASE_ID` ...)."""
    gold, predicted = frame[GOLD].to_numpy(), frame[PREDICTED].to_numpy()
    text = frame[TEXT_COLUMN] if TEXT_COLUMN in frame.columns else pd.Series([""] * len(frame))
    cases = pd.DataFrame(
        {
            CASE_ID: pd.Series(ids, dtype=object),
            CASE_TEXT: text.to_numpy(),
            CASE_GOLD: gold,
            CASE_PREDICTION: predicted,
            RIGHT: gold == predicted,
            RANK: _id_ranks(ids),
        }
    )
    if scores is not None:
        cases[CASE_SCORE] = scores
    return cases


_DIGITS = re.compile(r"(\d+)")


def _id_ranks(ids: list[Any]) -> np.ndarray:
    """Each id's position in id order: numbers by value, text ids naturally (``german-9``
    before ``german-10``)."""

    def key(value: Any) -> tuple[Any, ...]:
        if isinstance(value, int):
            return ((0, value, ""),)
        parts = _DIGITS.split(str(value))
        return tuple((1, int(part), "") if part.isdigit() else (2, 0, part) for part in parts)

    order = sorted(range(len(ids)), key=lambda i: key(ids[i]))
    ranks = np.empty(len(ids), dtype=np.int64)
    ranks[order] = np.arange(len(ids))
    return ranks


def _lock_record(path: str | os.PathLike[str], entry: LockedDataset) -> LockRecord:
    fingerprints = {split.name: split.fingerprint for split in entry.splits}
    return LockRecord(str(path), entry.reference, fingerprints)


def _plain_rows(table: Table) -> Table:
    """The table with every undefined metric (NaN) as None, as README.md promises."""
    rows = tuple({key: plain(value) for key, value in row.items()} for row in table.rows)
    return replace(table, rows=rows)


def _config_of_log(name: str, config: str | None, predictions: Predictions) -> str | None:
    """The config to score: as given, else the one whose generated task wrote the log."""
    dataset, named, _ = parse_reference(name, config)
    logged = config_of_log(dataset_spec(dataset), predictions)
    if logged is None:
        _refuse_another_datasets_log(dataset, predictions)
        return config
    if named is not None and named != logged.name:
        raise PredictionError(
            f"{predictions}: an lm-evaluation-harness log of config {logged.name}, "
            f"not {named}; score it with {dataset}/{logged.name}"
        )
    return logged.name


def _refuse_another_datasets_log(dataset: str, predictions: Predictions) -> None:
    """A log of a task generated for another dataset names that task and dataset."""
    task = task_of(predictions) if isinstance(predictions, str | Path) else None
    owner = owner_of_task(task) if task else None
    if owner is None or owner[0].name == dataset or not is_sample_log(predictions):
        return
    spec, logged = owner
    raise PredictionError(
        f"{predictions}: an lm-evaluation-harness log of task {task} (dataset {spec.name}, "
        f"config {logged.name}), not of {dataset}; score it with {spec.name}/{logged.name}"
    )
