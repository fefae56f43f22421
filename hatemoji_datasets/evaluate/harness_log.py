"""lm-evaluation-harness per-sample logs (``samples_<task>_<time>.jsonl``) as predictions.

``lm_eval --log_samples`` writes one JSON line per document of a task:
``doc_id`` (the document's position in the evaluated split, whose rows the
harness keeps in order), ``doc`` (the row itself, ids included), ``target``
(the gold choice) and ``filtered_resps`` (per choice ``[log-likelihood,
is_greedy]``, written as strings). For the package's tasks
(:mod:`hatemoji_datasets.harness.tasks`) the choices are the label's names in
ClassLabel order, so:

- the row id is ``doc[<id column>]``, or ``doc_id`` where rows have no id;
- the prediction is the position of the highest log-likelihood choice (the
  first of equal ones, as the harness's ``acc`` takes it);
- the score is the hateful choice's probability, a softmax over the choices'
  log-likelihoods.

:func:`check_documents` proves each ``doc`` is the scored split's row with
that id and ``target`` its gold label, so a log of another version, split or
prompt order is refused rather than scored.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from hatemoji_datasets.core.columns import LABEL_COLUMN
from hatemoji_datasets.core.errors import InputError, PredictionError
from hatemoji_datasets.core.features import LABEL_NAMES
from hatemoji_datasets.core.file_reads import parse_json, read_text
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec
from hatemoji_datasets.evaluate.numbers import strict_integer, strict_number
from hatemoji_datasets.harness.tasks import config_of_task

#: ``samples_<task>_<date>T<time>.jsonl``, as the harness names its per-sample logs.
LOG_NAME = re.compile(r"^samples_(?P<task>.+)_(?P<time>\d{4}-\d{2}-\d{2}T[\d.\-]+)\.jsonl$")
#: The columns a sample log's frame carries beside the predictions, to check it against
#: the scored rows (:func:`check_documents`).
LOG_COLUMNS = ("doc", "target")
#: The keys that make a JSON Lines record a harness sample.
SAMPLE_KEYS = ("doc_id", "doc", "filtered_resps")
#: The label id of the hateful class (the choice whose probability is the score).
HATEFUL = LABEL_NAMES.index("hateful")
_SHOWN = 5
#: A sample nests its doc and responses a few levels deep; a deeper line is refused unparsed.
MAX_SAMPLE_NESTING = 16


def is_sample_log(path: Any, text: str | None = None) -> bool:
    """Whether ``path`` (whose ``text`` may be given) is a JSON Lines file whose first
    record is a harness sample. Read through the guarded open: a FIFO is never waited on."""
    if not isinstance(path, str | Path) or Path(path).suffix.lower() != ".jsonl":
        return False
    try:
        if text is None:
            text = read_text(path)
        first = next((line for line in text.splitlines() if line.strip()), "")
        record = parse_json(str(path), first, line=1)
    except InputError:
        return False
    return isinstance(record, dict) and all(key in record for key in SAMPLE_KEYS)


def task_of(path: str | Path) -> str | None:
    """The task a log's file name names (``samples_<task>_<time>.jsonl``), if it follows it."""
    match = LOG_NAME.match(Path(path).name)
    return match.group("task") if match else None


def config_of_log(spec: DatasetSpec, path: Any) -> ConfigSpec | None:
    """The config whose generated task wrote the log at ``path``, if it is one of them."""
    task = task_of(path) if isinstance(path, str | Path) else None
    if task is None or not is_sample_log(path):  # the file name first: no read for a CSV
        return None
    return config_of_task(spec, task)


def model_of(path: str | Path) -> str:
    """The model a log belongs to: the harness writes each model's logs into a folder named
    after it (``--output_path OUT`` -> ``OUT/<model>/samples_...``)."""
    return Path(path).resolve().parent.name


def read_sample_log(
    path: Path, id_column: str, *, by_position: bool, text: str | None = None
) -> pd.DataFrame:
    """``id_column``, ``prediction``, ``score`` (and ``doc``, ``target``) per document.

    ``by_position``: rows have no id, and ``doc_id`` (the row's position) is ``id_column``.
    ``text``: the file's text, if already read (through the guarded open, as here).
    """
    ids, labels, scores, docs, targets = [], [], [], [], []
    if text is None:
        text = read_text(path)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        record = _record(path, number, line)
        doc = record["doc"]
        if by_position:
            position = strict_integer(record["doc_id"])
            if position is None or position < 0:
                raise PredictionError(
                    f"{path}: line {number}: doc_id {_shown_value(record['doc_id'])} is not "
                    "a row position (an integer >= 0)"
                )
            ids.append(position)
        elif id_column in doc:
            ids.append(doc[id_column])
        else:
            raise PredictionError(
                f"{path}: line {number}: the sample's doc has no {id_column!r} "
                f"(keys: {', '.join(map(str, doc)) or 'none'})"
            )
        likelihoods = _likelihoods(path, number, record["filtered_resps"])
        labels.append(max(range(len(likelihoods)), key=likelihoods.__getitem__))
        scores.append(_softmax(likelihoods)[HATEFUL])
        docs.append(doc)
        targets.append(record.get("target"))
    if not ids:
        raise PredictionError(f"cannot read predictions file {path}: no samples")
    return pd.DataFrame(
        {id_column: ids, "prediction": labels, "score": scores, "doc": docs, "target": targets},
        dtype=object,
    )


def _record(path: Path, number: int, line: str) -> dict[str, Any]:
    record = parse_json(str(path), line, limit=MAX_SAMPLE_NESTING, line=number)  # InputError
    missing = [key for key in SAMPLE_KEYS if not isinstance(record, dict) or key not in record]
    if missing:
        raise PredictionError(
            f"{path}: line {number} is not an lm-evaluation-harness sample "
            f"(no {', '.join(missing)})"
        )
    if not isinstance(record["doc"], dict):
        raise PredictionError(f"{path}: line {number}: the sample's doc is not an object")
    return record


def _likelihoods(path: Path, number: int, responses: Any) -> list[float]:
    """Each choice's log-likelihood from ``filtered_resps`` (``[[ll, is_greedy], ...]``)."""
    where = f"{path}: line {number}"
    if not isinstance(responses, list) or len(responses) != len(LABEL_NAMES):
        raise PredictionError(
            f"{where}: expected {len(LABEL_NAMES)} choices (one per label) in filtered_resps, "
            f"got {len(responses) if isinstance(responses, list) else type(responses).__name__}"
        )
    found = []
    for response in responses:
        value = response[0] if isinstance(response, list) and response else response
        number_value = strict_number(value)  # never a boolean, null, NaN or infinity
        if number_value is None or number_value > 0:
            raise PredictionError(
                f"{where}: {_shown_value(value)} is not a log-likelihood (a finite number <= 0)"
            )
        found.append(number_value)
    return found


def _shown_value(value: Any) -> str:
    """A value as the log wrote it (JSON: ``false``, ``null``, ``"x"``), shortened."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _softmax(likelihoods: Sequence[float]) -> list[float]:
    top = max(likelihoods)
    weights = [math.exp(value - top) for value in likelihoods]
    total = sum(weights)
    return [weight / total for weight in weights]


def check_documents(
    path: Path,
    frame: pd.DataFrame,
    rows: Sequence[Mapping[str, Any]],
    ids: Sequence[int],
    id_column: str,
    what: str,
) -> None:
    """Each sample's ``doc`` equals the scored row of its id, and ``target`` its gold label.

    ``rows`` are the split's rows in order and ``ids`` their ids; ``what`` names the split
    for the message. Ids the split lacks are left to the alignment's message.
    """
    position = {row_id: index for index, row_id in enumerate(ids)}
    differ, gold = [], []
    for row_id, doc, target in zip(frame[id_column], frame["doc"], frame["target"], strict=True):
        index = position.get(_plain_id(row_id))
        if index is None:
            continue
        row = rows[index]
        if any(key not in row or not _same(doc[key], row[key]) for key in doc):
            differ.append(str(row_id))
        elif target is not None and not _same_label(target, row[LABEL_COLUMN]):
            gold.append(str(row_id))
    problems = []
    if differ:
        problems.append(
            f"{len(differ):,} sample(s) hold a doc that is not the row of {what} with their "
            f"{id_column} ({first_shown(differ)}): was the log made on another version or split?"
        )
    if gold:
        problems.append(
            f"{len(gold):,} sample(s) have a target that is not the row's label "
            f"({first_shown(gold)}): the task's choices are not the label's names in "
            "ClassLabel order"
        )
    if problems:
        raise PredictionError(f"{path}: " + "; ".join(problems), problems=problems)


def _same_label(target: Any, label: Any) -> bool:
    """Whether a sample's ``target`` is the row's label id (a number or numeral, never a
    boolean)."""
    return strict_integer(target) == label and strict_integer(label) == label


def _plain_id(value: Any) -> Any:
    return int(value) if isinstance(value, int | float) and float(value).is_integer() else value


def _same(logged: Any, built: Any) -> bool:
    if isinstance(logged, bool) != isinstance(built, bool):
        return False  # a JSON true is not the number 1
    if isinstance(logged, float) or isinstance(built, float):
        return isinstance(logged, int | float) and math.isclose(logged, built, rel_tol=1e-6)
    return logged == built


def first_shown(items: Sequence[str]) -> str:
    """The first few items, joined, and how many more there are (``a, b, ... (3 more)``)."""
    more = f", ... ({len(items) - _SHOWN:,} more)" if len(items) > _SHOWN else ""
    return ", ".join(items[:_SHOWN]) + more
