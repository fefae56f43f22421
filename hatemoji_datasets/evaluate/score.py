"""Score a model's predictions on a dataset's evaluation split.

>>> from hatemoji_datasets.evaluate import score
>>> report = score("hatemoji_check", {case_id: 1 for case_id in range(3930)})
>>> report.overall["accuracy"], report.table("cells").rows[0]

``predictions`` maps each row id of the scored split to a 0/1 label and
optionally the hateful-class probability (``score``). Metrics come from
scikit-learn and fairlearn (the ``evaluate`` extra); a metric that is
undefined on a group (e.g. a false negative rate where nothing is hateful) is
``None``.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from hatemoji_datasets.errors import HatemojiDatasetsError, PredictionError, UnknownNameError

if TYPE_CHECKING:
    import datasets

# -- what each dataset config is scored on: read from its declaration ------------------


@dataclass(frozen=True)
class Target:
    """How predictions for one dataset config are keyed, and which split is scored."""

    #: The column whose value identifies a row; ``index`` = 0-based row index in the split.
    id_column: str
    eval_split: str


ROW_INDEX = "index"


def _target(name: str, config: str | None) -> tuple[str, Target]:
    """The resolved config name and the scoring target of ``name`` (``name[:version]``)."""
    from hatemoji_datasets.registry import resolve

    _, config_spec, _ = resolve(name, config)
    return config_spec.name, Target(config_spec.id_column or ROW_INDEX, config_spec.eval_split)


# -- errors about the optional dependencies --------------------------------------------


class OptionalDependencyError(HatemojiDatasetsError):
    """An optional dependency (an extra of this package) is not installed."""


def _sklearn_fairlearn() -> tuple[Any, Any]:
    try:
        from fairlearn import metrics as fair
        from sklearn import metrics
    except ImportError as error:
        raise OptionalDependencyError(
            f"scoring needs scikit-learn and fairlearn ({error.name} is missing): "
            "pip install 'hatemoji-datasets[evaluate]'"
        ) from error
    return metrics, fair


# -- the report ---------------------------------------------------------------------------


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
            "rows": [{k: _plain(v) for k, v in row.items()} for row in self.rows],
        }


@dataclass(frozen=True)
class Report:
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
            "overall": {k: _plain(v) for k, v in self.overall.items()},
            "tables": {name: table.to_dict() for name, table in self.tables.items()},
            "notes": list(self.notes),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def to_markdown(self) -> str:
        from hatemoji_datasets.evaluate_render import render_markdown

        return render_markdown({"model": self})

    def accuracy_matrix(self) -> pd.DataFrame:
        """HatemojiCheck only: accuracy per functionality (rows) x perturbation (columns)."""
        cells = self.table("cells").to_frame()
        return cells.pivot(index="functionality", columns="perturbation", values="accuracy").loc[
            list(dict.fromkeys(cells["functionality"])), list(dict.fromkeys(cells["perturbation"]))
        ]


def _plain(value: Any) -> Any:
    """Numpy scalars to Python, NaN to None."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


# -- reading predictions ------------------------------------------------------------------

PREDICTION = "prediction"
SCORE = "score"
_SHOWN = 5
_INTEGER = re.compile(r"[+-]?\d+")
_LABELS = {"0": 0, "1": 1, "non-hateful": 0, "hateful": 1, "false": 0, "true": 1}

Predictions = Mapping[Any, Any] | pd.DataFrame | str | os.PathLike[str] | Any


def read_predictions(predictions: Predictions, id_column: str) -> tuple[pd.DataFrame, str]:
    """Predictions as a frame of ``id_column``, ``prediction`` and maybe ``score``, with the
    name of their source for messages. Values are not checked yet."""
    if isinstance(predictions, str | os.PathLike):
        path = Path(predictions)
        return _read_file(path, id_column), str(path)
    if isinstance(predictions, pd.DataFrame):
        frame, source = predictions, "predictions (DataFrame)"
    elif _is_dataset(predictions):
        frame, source = predictions.to_pandas(), "predictions (Dataset)"
    elif isinstance(predictions, Mapping):
        return _from_mapping(predictions, id_column), "predictions (mapping)"
    else:
        raise PredictionError(
            "predictions must be a mapping of id to label, a pandas DataFrame, a "
            f"datasets.Dataset or a CSV/JSON Lines file, not {type(predictions).__name__}"
        )
    _check_columns(frame.columns, id_column, source)
    columns = [id_column, PREDICTION, *([SCORE] if SCORE in frame.columns else [])]
    return frame[columns].reset_index(drop=True), source


def _is_dataset(value: Any) -> bool:
    return type(value).__name__ == "Dataset" and hasattr(value, "to_pandas")


def _from_mapping(predictions: Mapping[Any, Any], id_column: str) -> pd.DataFrame:
    ids, labels, scores = [], [], []
    for key, value in predictions.items():
        ids.append(key)
        if isinstance(value, Mapping):
            if PREDICTION not in value:
                raise PredictionError(
                    f"predictions (mapping): the value for id {key!r} has no {PREDICTION!r}"
                )
            labels.append(value[PREDICTION])
            scores.append(value.get(SCORE))
        elif isinstance(value, tuple | list):
            labels.append(value[0] if value else None)
            scores.append(value[1] if len(value) > 1 else None)
        else:
            labels.append(value)
            scores.append(None)
    frame = pd.DataFrame({id_column: ids, PREDICTION: labels}, dtype=object)
    if any(s is not None for s in scores):
        frame[SCORE] = pd.Series(scores, dtype=object)
    return frame


def _check_columns(columns: Iterable[Any], id_column: str, source: str) -> None:
    present = [str(c) for c in columns]
    missing = [c for c in (id_column, PREDICTION) if c not in present]
    if missing:
        raise PredictionError(
            f"{source}: missing column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(repr(c) for c in missing)} (columns: {', '.join(present) or 'none'}; "
            f"expected {id_column!r}, {PREDICTION!r} and optionally {SCORE!r})"
        )


def _read_file(path: Path, id_column: str) -> pd.DataFrame:
    try:
        if path.suffix.lower() in (".jsonl", ".json", ".ndjson"):
            frame = _read_json_lines(path)
        else:
            frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    except PredictionError:
        raise
    except (OSError, UnicodeDecodeError, ValueError, pd.errors.ParserError) as error:
        reason = getattr(error, "strerror", None) or str(error).splitlines()[0]
        raise PredictionError(f"cannot read predictions file {path}: {reason}") from error
    _check_columns(frame.columns, id_column, str(path))
    columns = [id_column, PREDICTION, *([SCORE] if SCORE in frame.columns else [])]
    return frame[columns]


def _read_json_lines(path: Path) -> pd.DataFrame:
    records = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise PredictionError(
                    f"cannot read predictions file {path}: line {number} is not JSON ({error.msg})"
                ) from error
            if not isinstance(record, dict):
                raise PredictionError(
                    f"cannot read predictions file {path}: line {number} is not a JSON object"
                )
            records.append(record)
    if not records:
        raise PredictionError(f"cannot read predictions file {path}: no records")
    return pd.DataFrame.from_records(records).astype(object)


def _normal_id(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return int(value)
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        return int(value.strip())
    return value


def _normal_label(value: Any) -> int | None:
    if isinstance(value, bool | np.bool_):
        return int(value)
    if isinstance(value, int | np.integer | float | np.floating):
        return int(value) if value in (0, 1) else None
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _LABELS:
            return _LABELS[text]
        try:
            number = float(text)
        except ValueError:
            return None
        return int(number) if number in (0.0, 1.0) else None
    return None


def _normal_score(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if 0.0 <= number <= 1.0 else None


def _offenders(items: Sequence[str], what: str) -> str:
    shown = ", ".join(items[:_SHOWN])
    more = f", ... ({len(items) - _SHOWN} more)" if len(items) > _SHOWN else ""
    what = what.replace("{s}", "" if len(items) == 1 else "s")
    return f"{len(items)} {what}: {shown}{more}"


def _show_id(raw: Any) -> str:
    """An id as its integer when it is one (``7``, whether read as 7 or "7"), else its repr."""
    normal = _normal_id(raw)
    return str(normal) if isinstance(normal, int) and not isinstance(normal, bool) else repr(raw)


def _invalid(ids: Sequence[Any], raw: Iterable[Any], parsed: Sequence[Any]) -> list[str]:
    """``id: value`` of each raw value that did not parse."""
    return [
        f"{_show_id(i)}: {value!r}"
        for i, value, result in zip(ids, raw, parsed, strict=True)
        if result is None
    ]


def align_predictions(
    predictions: Predictions, id_column: str, ids: Sequence[int]
) -> tuple[np.ndarray, np.ndarray | None]:
    """Labels (and probabilities, when given) in the order of ``ids``.

    Raises one :class:`PredictionError` listing every kind of problem, each with
    its count and first few offenders.
    """
    frame, source = read_predictions(predictions, id_column)
    raw_ids = list(frame[id_column])
    keys = [_normal_id(v) for v in raw_ids]
    expected = set(ids)
    problems: list[str] = []

    counts = pd.Series(keys, dtype=object).value_counts(sort=False)
    duplicates = [_show_id(k) for k, c in counts.items() if c > 1]
    if duplicates:
        problems.append(_offenders(duplicates, f"duplicate {id_column} value{{s}}"))
    unknown = [_show_id(r) for r, k in zip(raw_ids, keys, strict=True) if k not in expected]
    if unknown:
        problems.append(_offenders(list(dict.fromkeys(unknown)), f"unknown {id_column} value{{s}}"))
    present = set(keys)
    missing = [str(i) for i in ids if i not in present]
    if missing:
        problems.append(_offenders(missing, f"missing {id_column} value{{s}}"))

    labels = [_normal_label(v) for v in frame[PREDICTION]]
    bad = _invalid(raw_ids, frame[PREDICTION], labels)
    if bad:
        problems.append(_offenders(bad, "non-binary prediction{s} (expected 0 or 1)"))

    scores = None
    if SCORE in frame.columns:
        scores = [_normal_score(v) for v in frame[SCORE]]
        bad = _invalid(raw_ids, frame[SCORE], scores)
        if bad:
            problems.append(_offenders(bad, "score{s} not a probability in [0, 1]"))

    if problems:
        raise PredictionError(f"{source}: " + "; ".join(problems), problems=problems)
    position = {key: i for i, key in enumerate(keys)}
    order = np.array([position[i] for i in ids], dtype=np.int64)
    aligned_labels = np.asarray(labels, dtype=np.int64)[order]
    aligned_scores = None if scores is None else np.asarray(scores, dtype=float)[order]
    return aligned_labels, aligned_scores


# -- scoring --------------------------------------------------------------------------------


def score(
    name: str,
    predictions: Predictions,
    *,
    config: str | None = None,
    split: str | None = None,
    version: str | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> Report:
    """Score ``predictions`` on ``name``'s evaluation split (or ``split``).

    ``predictions``: a mapping ``id -> 0/1`` (or ``id -> {"prediction": 0/1, "score": p}``),
    a pandas DataFrame or ``datasets.Dataset`` with the id column, ``prediction`` and
    optionally ``score``, or the path of such a CSV or JSON Lines file. The id column
    is ``case_id`` (HatemojiCheck), ``entry_id`` (HatemojiBuild) or ``index``, the
    0-based row within the split (APEACH, BEEP!).
    """
    from hatemoji_datasets.api import load_dataset

    config, target = _target(name, config)
    split = split or target.eval_split
    metrics, fair = _sklearn_fairlearn()
    dataset = load_dataset(
        name, config, split=split, version=version, cache_dir=cache_dir, mirror=mirror
    )
    frame = dataset.to_pandas()
    if target.id_column == ROW_INDEX:
        ids = list(range(len(frame)))
    else:
        ids = [int(i) for i in frame[target.id_column]]
    predicted, scores = align_predictions(predictions, target.id_column, ids)
    frame["_gold"] = frame["label"].astype(int)
    frame["_pred"] = predicted
    context = _Context(frame, dataset.features, metrics, fair)

    kind = _kind(dataset.features)
    overall = _overall(context, scores)
    tables, plot, notes = _BREAKDOWNS[kind](context)
    return Report(
        dataset=name.partition(":")[0],
        config=config,
        split=split,
        version=str(dataset.info.version or version or ""),
        id_column=target.id_column,
        n=len(frame),
        has_scores=scores is not None,
        overall=overall,
        tables={table.name: table for table in tables},
        plot=plot,
        notes=tuple(notes),
    )


def _kind(features: datasets.Features) -> str:
    """Which breakdowns apply, read off the dataset's features rather than its name."""
    for kind, columns in (
        ("hatemoji_check", ("functionality", "perturbation", "target")),
        ("hatemoji_build", ("round", "hate_type", "matched_id")),
        ("apeach", ("topic",)),
        ("beep", ("hate_level",)),
    ):
        if all(c in features for c in columns):
            return kind
    raise UnknownNameError(f"no scoring breakdowns for features {', '.join(features)}")


@dataclass
class _Context:
    frame: pd.DataFrame
    features: Any
    metrics: Any
    fair: Any

    def names(self, column: str) -> list[str]:
        return list(self.features[column].names)

    def label_name(self, value: int) -> str:
        return self.names("label")[value]


def _f1(metrics: Any, gold: np.ndarray, pred: np.ndarray, **kwargs: Any) -> float:
    return float(metrics.f1_score(gold, pred, labels=[0, 1], zero_division=np.nan, **kwargs))


def _overall(context: _Context, scores: np.ndarray | None) -> dict[str, float | int | None]:
    metrics, gold, pred = context.metrics, context.frame["_gold"], context.frame["_pred"]
    result: dict[str, float | int | None] = {
        "n": len(gold),
        "accuracy": float(metrics.accuracy_score(gold, pred)),
        "f1_hateful": _f1(metrics, gold, pred, pos_label=1, average="binary"),
        "f1_macro": _f1(metrics, gold, pred, average="macro"),
    }
    if scores is not None:
        both = gold.nunique() == 2
        result["roc_auc"] = float(metrics.roc_auc_score(gold, scores)) if both else None
        result["average_precision"] = (
            float(metrics.average_precision_score(gold, scores)) if both else None
        )
    return result


def _gold_name(context: _Context, gold: pd.Series) -> str:
    values = sorted(gold.unique())
    return context.label_name(int(values[0])) if len(values) == 1 else "mixed"


def _recall_of_gold(context: _Context, group: pd.DataFrame) -> float:
    """Recall of the group's gold class (for a mixed group: balanced accuracy)."""
    gold, pred = group["_gold"], group["_pred"]
    if gold.nunique() == 1:
        return float(context.metrics.recall_score(gold, pred, pos_label=int(gold.iloc[0])))
    return float(context.metrics.balanced_accuracy_score(gold, pred))


def _groups(frame: pd.DataFrame, column: str, names: Sequence[str]) -> Iterable[tuple[str, Any]]:
    """(class name, rows) in the ClassLabel's order, skipping classes absent from the split."""
    for code, group in frame.groupby(column, sort=True):
        yield names[int(code)], group


# -- HatemojiCheck ----------------------------------------------------------------------


def _hatemoji_check(context: _Context) -> tuple[list[Table], tuple[str, str], list[str]]:
    frame, metrics = context.frame, context.metrics
    functionalities = context.names("functionality")
    perturbations = context.names("perturbation")
    cells = []
    for (f, p), group in frame.groupby(["functionality", "perturbation"], sort=True):
        case = f"F{f + 1}" if p == 0 else f"F{f + 1}.{p}"
        cells.append(
            {
                "case": case,
                "functionality": functionalities[f],
                "perturbation": perturbations[p],
                "label": _gold_name(context, group["_gold"]),
                "n": len(group),
                "accuracy": float(metrics.accuracy_score(group["_gold"], group["_pred"])),
            }
        )
    target_rows = []
    for name, group in _groups(frame, "target", context.names("target")):
        tn, fp, fn, tp = metrics.confusion_matrix(
            group["_gold"], group["_pred"], labels=[0, 1]
        ).ravel()
        target_rows.append(
            {
                "target": name,
                "n": len(group),
                "n_hateful": int(tp + fn),
                "n_non_hateful": int(tn + fp),
                "accuracy": float(metrics.accuracy_score(group["_gold"], group["_pred"])),
                "false_positive_rate": _rate(fp, fp + tn),
                "false_negative_rate": _rate(fn, fn + tp),
            }
        )
    protected = frame[frame["target"] != context.names("target").index("none")]
    sensitive = np.asarray(context.names("target"), dtype=object)[protected["target"]]
    fairness = {
        "targets": len(set(sensitive)),
        "n": len(protected),
        "demographic_parity_ratio": float(
            context.fair.demographic_parity_ratio(
                protected["_gold"], protected["_pred"], sensitive_features=sensitive
            )
        ),
        "equalized_odds_ratio": float(
            context.fair.equalized_odds_ratio(
                protected["_gold"], protected["_pred"], sensitive_features=sensitive
            )
        ),
    }
    tables = [
        Table(
            "cells",
            "Accuracy per functionality x perturbation",
            ("case", "functionality", "perturbation"),
            ("label", "n"),
            ("accuracy",),
            tuple(cells),
        ),
        Table(
            "targets",
            "Per target",
            ("target",),
            ("n", "n_hateful", "n_non_hateful"),
            ("accuracy", "false_positive_rate", "false_negative_rate"),
            tuple(target_rows),
        ),
        Table(
            "fairness",
            "Fairness across the six protected targets (fairlearn)",
            ("scope",),
            ("targets", "n"),
            ("demographic_parity_ratio", "equalized_odds_ratio"),
            ({"scope": "protected targets", **fairness},),
        ),
    ]
    notes = [
        "Fairness ratios exclude target `none` (identity perturbations); a ratio is "
        "undefined (None) when every group's rate is 0."
    ]
    return tables, ("cells", "accuracy"), notes


def _rate(numerator: int, denominator: int) -> float | None:
    return float(numerator / denominator) if denominator else None


# -- HatemojiBuild ----------------------------------------------------------------------


def _hatemoji_build(context: _Context) -> tuple[list[Table], tuple[str, str], list[str]]:
    frame, metrics = context.frame, context.metrics
    rounds = []
    for round_, group in frame.groupby("round", sort=True):
        rounds.append(
            {
                "round": f"R{int(round_)}",
                "n": len(group),
                "accuracy": float(metrics.accuracy_score(group["_gold"], group["_pred"])),
                "f1_hateful": _f1(metrics, group["_gold"], group["_pred"], average="binary"),
            }
        )
    hate_types = [
        {
            "hate_type": name,
            "label": _gold_name(context, group["_gold"]),
            "n": len(group),
            "recall": _recall_of_gold(context, group),
        }
        for name, group in _groups(frame, "hate_type", context.names("hate_type"))
    ]
    correct = pd.Series(
        (frame["_gold"] == frame["_pred"]).to_numpy(), index=frame["entry_id"].to_numpy()
    )
    original = context.names("perturbation").index("original")
    originals = frame[frame["perturbation"] == original]
    in_split = originals["matched_id"].isin(correct.index)
    pairs = originals[in_split]
    both = correct.loc[pairs["entry_id"]].to_numpy() & correct.loc[pairs["matched_id"]].to_numpy()
    pair_rows = []
    scopes = [("all", np.ones(len(pairs), dtype=bool))]
    scopes += [
        (f"R{int(r)}", (pairs["round"] == r).to_numpy()) for r in sorted(frame["round"].unique())
    ]
    for scope, mask in scopes:
        pair_rows.append(
            {
                "scope": scope,
                "pairs": int(mask.sum()),
                "both_correct": float(both[mask].mean()) if mask.any() else None,
            }
        )
    alone = int((~frame["matched_id"].isin(correct.index)).sum())
    tables = [
        Table("rounds", "Per round", ("round",), ("n",), ("accuracy", "f1_hateful"), tuple(rounds)),
        Table(
            "hate_types",
            "Recall of the gold class per hate type",
            ("hate_type",),
            ("label", "n"),
            ("recall",),
            tuple(hate_types),
        ),
        Table(
            "pairs",
            "Pair consistency: original and perturbation both predicted correctly",
            ("scope",),
            ("pairs",),
            ("both_correct",),
            tuple(pair_rows),
        ),
    ]
    notes = [
        f"Pairs count only when both members are in the scored split: {len(pairs)} pairs; "
        f"{alone} entries have their partner in another split and are left out of pair "
        "consistency.",
        "Hate type `none` is recall of the non-hateful class; the others, of the hateful class.",
    ]
    return tables, ("hate_types", "recall"), notes


# -- APEACH and BEEP! -------------------------------------------------------------------


def _apeach(context: _Context) -> tuple[list[Table], tuple[str, str], list[str]]:
    frame, metrics = context.frame, context.metrics
    topics = [
        {
            "topic": name,
            "n": len(group),
            "accuracy": float(metrics.accuracy_score(group["_gold"], group["_pred"])),
            "f1_hateful": _f1(metrics, group["_gold"], group["_pred"], average="binary"),
            "f1_macro": _f1(metrics, group["_gold"], group["_pred"], average="macro"),
        }
        for name, group in _groups(frame, "topic", context.names("topic"))
    ]
    table = Table(
        "topics",
        "Per topic",
        ("topic",),
        ("n",),
        ("accuracy", "f1_hateful", "f1_macro"),
        tuple(topics),
    )
    return [table], ("topics", "f1_hateful"), []


def _beep(context: _Context) -> tuple[list[Table], tuple[str, str], list[str]]:
    levels = [
        {
            "hate_level": name,
            "label": _gold_name(context, group["_gold"]),
            "n": len(group),
            "recall": _recall_of_gold(context, group),
        }
        for name, group in _groups(context.frame, "hate_level", context.names("hate_level"))
    ]
    table = Table(
        "hate_levels",
        "Recall of the gold class per hate level",
        ("hate_level",),
        ("label", "n"),
        ("recall",),
        tuple(levels),
    )
    notes = ["Hate level `none` is recall of the non-hateful class; the others, of the hateful."]
    return [table], ("hate_levels", "recall"), notes


_BREAKDOWNS: dict[str, Callable[[_Context], tuple[list[Table], tuple[str, str], list[str]]]] = {
    "hatemoji_check": _hatemoji_check,
    "hatemoji_build": _hatemoji_build,
    "apeach": _apeach,
    "beep": _beep,
}
