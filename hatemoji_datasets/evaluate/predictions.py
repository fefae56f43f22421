"""Reading predictions to score: a mapping, a DataFrame, a ``Dataset``, a CSV/JSON Lines file,
or an lm-evaluation-harness per-sample log (:mod:`~hatemoji_datasets.evaluate.harness_log`).

:func:`read_predictions` reads them; :func:`align_frame` returns the labels (and
probabilities) in the order of
the scored split's ids, or raises one :class:`PredictionError` listing every
kind of problem, each with its count and first few offenders. A file is read
through the guarded open (:mod:`hatemoji_datasets.core.file_reads`): one that cannot
be read at all raises :class:`UnreadablePredictionsError` (exit status 2).
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hatemoji_datasets.core.errors import InputError, PredictionError, UnreadablePredictionsError
from hatemoji_datasets.core.features import LABEL_NAMES
from hatemoji_datasets.core.file_reads import parse_json, read_text, unreadable
from hatemoji_datasets.core.findings import preview
from hatemoji_datasets.evaluate.harness_log import (
    GENERATIVE,
    LOG_COLUMNS,
    first_shown,
    is_sample_log,
    read_sample_log,
)
from hatemoji_datasets.evaluate.metrics import UNPARSED_ID
from hatemoji_datasets.evaluate.numbers import strict_number

PREDICTION = "prediction"
SCORE = "score"
#: The id column of configs whose rows have no id: the 0-based row index in the split.
ROW_INDEX = "index"
_INTEGER = re.compile(r"[+-]?\d+")
#: Labels by name; any other label is a strict number, 0 or 1 (a boolean is neither).
_LABELS = {"non-hateful": 0, "hateful": 1}

Predictions = Mapping[Any, Any] | pd.DataFrame | str | os.PathLike[str] | Any


def read_predictions(
    predictions: Predictions, id_column: str, choices: Sequence[str] = LABEL_NAMES
) -> tuple[pd.DataFrame, str]:
    """Predictions as a frame of ``id_column``, ``prediction`` and maybe ``score``, with the
    name of their source for messages. Values are not checked yet. ``choices``: the words a
    generative harness log's replies name the labels by (:func:`read_sample_log`)."""
    if isinstance(predictions, str | os.PathLike):
        path = Path(predictions)
        return _read_file(path, id_column, choices), str(path)
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
            + _delimiter_hint(present)
        )


#: Field separators people use instead of a comma, as a message names them.
_OTHER_SEPARATORS = {"\t": "tab", ";": "semicolon", "|": "bar"}


def _delimiter_hint(columns: Sequence[str]) -> str:
    """Where one header cell holds the expected names split by another separator, say so."""
    if len(columns) != 1:
        return ""
    for separator, name in _OTHER_SEPARATORS.items():
        if separator in columns[0]:
            return (
                f"; the header is one field with {name}s in it: the file looks "
                f"{name}-separated, and predictions files are comma-separated (CSV) "
                "or JSON Lines"
            )
    return ""


def _read_file(path: Path, id_column: str, choices: Sequence[str]) -> pd.DataFrame:
    """A predictions file through the guarded open: unreadable ones exit 2, in our words."""
    name = str(path)
    try:
        text = read_text(path)
        if not text.strip():
            raise unreadable(name, "FILE-EMPTY", "file is empty (no header row or record)")
        log = is_sample_log(path, text)
        if log:
            by_position = id_column == ROW_INDEX
            frame = read_sample_log(
                path, id_column, by_position=by_position, text=text, choices=choices
            )
        elif path.suffix.lower() in (".jsonl", ".json", ".ndjson"):
            frame = _read_json_lines(name, text)
        else:
            frame = _read_csv(name, text)
    except InputError as error:
        raise UnreadablePredictionsError(error.finding) from None
    _check_columns(frame.columns, id_column, name)
    columns = [id_column, PREDICTION, *([SCORE] if SCORE in frame.columns else [])]
    return frame[columns + list(LOG_COLUMNS) if log else columns]  # a log keeps its docs


_PANDAS_LINE = re.compile(r"line (\d+)")


def _read_csv(name: str, text: str) -> pd.DataFrame:
    try:
        return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise unreadable(name, "FILE-EMPTY", "file is empty (no header row)") from None
    except (pd.errors.ParserError, ValueError) as error:
        found = _PANDAS_LINE.search(str(error))
        line = int(found.group(1)) if found else None
        message = "cannot be parsed as CSV (a row has more fields than the header?)"
        raise unreadable(name, "FILE-UNPARSEABLE", message, line) from None


#: A JSON Lines record is one flat object; a little nesting is allowed, a lot is refused.
MAX_RECORD_NESTING = 8


def _read_json_lines(name: str, text: str) -> pd.DataFrame:
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        record = parse_json(name, line, limit=MAX_RECORD_NESTING, line=number)
        if not isinstance(record, dict):
            raise PredictionError(f"{name}: line {number} is not a JSON object")
        records.append(record)
    if not records:
        raise unreadable(name, "FILE-EMPTY", "file holds no records")
    return pd.DataFrame.from_records(records).astype(object)


class _NotScalar:
    """The key of an id that is a list, an object or another unhashable value."""

    def __repr__(self) -> str:
        return "<not a scalar>"


NOT_SCALAR = _NotScalar()


def _normal_id(value: Any) -> Any:
    if isinstance(value, list | dict | tuple | set) or not _hashable(value):
        return NOT_SCALAR
    if isinstance(value, bool):
        return value
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return int(value)
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        return int(value.strip())
    return value


def prediction_ids(frame: pd.DataFrame, id_column: str) -> set[Any]:
    """The ids of predictions read (:func:`read_predictions`), as they are matched with the
    scored split's (``"7"`` is 7); ids that are no scalar are left out."""
    return {key for key in map(_normal_id, frame[id_column]) if key is not NOT_SCALAR}


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _normal_label(value: Any) -> int | None:
    if isinstance(value, str) and value.strip().lower() in _LABELS:
        return _LABELS[value.strip().lower()]
    number = strict_number(value)  # never a boolean, null, NaN or infinity
    return int(number) if number in (0.0, 1.0) else None


def _normal_score(value: Any) -> float | None:
    number = strict_number(value)
    return number if number is not None and 0.0 <= number <= 1.0 else None


def _offenders(items: Sequence[str], what: str) -> str:
    what = what.replace("{s}", "" if len(items) == 1 else "s")
    return f"{len(items):,} {what}: {first_shown(items)}"


def _shown(value: Any) -> str:
    """A short repr of an offending value (a list id may be long)."""
    return preview(repr(value), 40) or ""


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


def _probability_hint(frame: pd.DataFrame) -> str:
    """Where every prediction is a probability and no ``score`` column is given, say where
    each belongs."""
    if SCORE in frame.columns or not len(frame):
        return ""
    if all(_normal_score(value) is not None for value in frame[PREDICTION]):
        return (
            f"; they look like probabilities: put them in a {SCORE!r} column and the label "
            f"(0 or 1, e.g. 1 where the probability is at least 0.5) in {PREDICTION!r}"
        )
    return ""


def align_frame(
    frame: pd.DataFrame, source: str, id_column: str, ids: Sequence[int]
) -> tuple[np.ndarray, np.ndarray | None]:
    """Labels (and probabilities, when given) of predictions already read
    (:func:`read_predictions`) in the order of ``ids``.

    Raises one :class:`PredictionError` listing every kind of problem, each with
    its count and first few offenders.
    """
    raw_ids = list(frame[id_column])
    keys = [_normal_id(v) for v in raw_ids]
    expected = set(ids)
    problems: list[str] = []

    not_scalar = [_shown(r) for r, k in zip(raw_ids, keys, strict=True) if k is NOT_SCALAR]
    if not_scalar:
        what = f"{id_column} value{{s}} that {'is' if len(not_scalar) == 1 else 'are'} not a "
        problems.append(_offenders(not_scalar, what + "number or a string"))
    scalar = [k for k in keys if k is not NOT_SCALAR]
    counts = pd.Series(scalar, dtype=object).value_counts(sort=False)
    duplicates = [_show_id(k) for k, c in counts.items() if c > 1]
    if duplicates:
        problems.append(_offenders(duplicates, f"duplicate {id_column} value{{s}}"))
    unknown = [
        _show_id(r)
        for r, k in zip(raw_ids, keys, strict=True)
        if k is not NOT_SCALAR and k not in expected
    ]
    if unknown:
        problems.append(_offenders(list(dict.fromkeys(unknown)), f"unknown {id_column} value{{s}}"))
    present = set(keys)
    missing = [str(i) for i in ids if i not in present]
    if missing:
        problems.append(_offenders(missing, f"missing {id_column} value{{s}}"))

    # Only a generative harness log's reply may name neither label (read_sample_log).
    unparsed = frame.attrs.get(GENERATIVE, False)
    labels = [
        UNPARSED_ID if unparsed and v == UNPARSED_ID else _normal_label(v)
        for v in frame[PREDICTION]
    ]
    bad = _invalid(raw_ids, frame[PREDICTION], labels)
    if bad:
        problems.append(
            _offenders(bad, "non-binary prediction{s} (expected 0 or 1)") + _probability_hint(frame)
        )

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
