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

A generative task's log (``<task>_gen``, :mod:`hatemoji_datasets.harness.generative`)
holds the model's reply in ``resps`` (``[[reply]]``) and what the task's
filters made of it in ``filtered_resps`` (``[name]``). The reply is read by
the task's own rule (:func:`~hatemoji_datasets.harness.generative.parse_reply`:
the first label name in it, case-insensitively): the prediction is that
label's id, or :data:`~hatemoji_datasets.evaluate.metrics.UNPARSED_ID` where
the reply names neither, which every metric scores as wrong, as the harness's
``exact_match`` does. A log whose ``filtered_resps`` disagree with that reading
was filtered by another rule, and is refused. There is no probability, so no
score.

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
from hatemoji_datasets.evaluate.metrics import UNPARSED_ID
from hatemoji_datasets.evaluate.numbers import strict_integer, strict_number
from hatemoji_datasets.harness.generative import UNPARSED, parse_reply
from hatemoji_datasets.harness.tasks import config_of_task

#: ``samples_<task>_<date>T<time>.jsonl``, as the harness names its per-sample logs.
LOG_NAME = re.compile(r"^samples_(?P<task>.+)_(?P<time>\d{4}-\d{2}-\d{2}T[\d.\-]+)\.jsonl$")
#: The columns a sample log's frame carries beside the predictions, to check it against
#: the scored rows (:func:`check_documents`).
LOG_COLUMNS = ("doc", "target")
#: The keys that make a JSON Lines record a harness sample.
SAMPLE_KEYS = ("doc_id", "doc", "filtered_resps")
#: The frame attribute that marks a generative log's predictions (no scores, maybe unparsed).
GENERATIVE = "generative"
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


#: The ``model_args`` keys lm-eval names a run's model by, in its order (peft and delta
#: come with pretrained, and name the model evaluated).
MODEL_ARGS_KEYS = ("peft", "delta", "pretrained", "model", "path", "engine")


def model_of(path: str | Path) -> str:
    """The model a log belongs to, as lm-eval records it in the run's results
    (``results_<time>.json`` beside ``samples_<task>_<time>.jsonl``): the model its
    ``model_args`` name (``pretrained=...``, lm-eval's ``model_name``), else the model type
    (``dummy``, ``vllm``, ...). Only where no results file records one, the folder the
    harness writes the run into (``OUT/<model>/``).

    lm-eval names a run whose ``model_args`` name no model after a random id
    (``model_name``: ``j2tazo3y``, the folder too), which names nothing: the type does.
    """
    log = Path(path).resolve()
    match = LOG_NAME.match(log.name)
    results = log.with_name(f"results_{match.group('time')}.json") if match else None
    try:
        config = parse_json(str(results), read_text(results)).get("config") if results else None
    except (InputError, AttributeError):
        config = None
    if isinstance(config, dict):
        named = _named_model(config.get("model_args"))
        if named:
            return named
        if isinstance(config.get("model"), str) and config["model"]:
            return config["model"]
    return log.parent.name


def _named_model(model_args: Any) -> str | None:
    """The model ``model_args`` names, as lm-eval reads it (a ``k=v,...`` string or a dict)."""
    for key in MODEL_ARGS_KEYS:
        if isinstance(model_args, dict) and model_args.get(key):
            return str(model_args[key])
        if isinstance(model_args, str):
            for pair in model_args.split(","):
                name, _, value = pair.partition("=")
                if name.strip() == key and value.strip():
                    return value.strip()
    return None


def read_sample_log(
    path: Path,
    id_column: str,
    *,
    by_position: bool,
    text: str | None = None,
    choices: Sequence[str] = LABEL_NAMES,
) -> pd.DataFrame:
    """``id_column``, ``prediction``, ``score`` (and ``doc``, ``target``) per document.

    ``by_position``: rows have no id, and ``doc_id`` (the row's position) is ``id_column``.
    ``text``: the file's text, if already read (through the guarded open, as here).
    ``choices``: the task's words for the labels, in ClassLabel order, which a generative
    reply names. A generative log's frame has ``attrs[GENERATIVE]`` set, its predictions
    may be :data:`UNPARSED_ID` and its scores are None.
    """
    ids, labels, scores, docs, targets = [], [], [], [], []
    kinds = set()
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
        generative = _is_reply(record["filtered_resps"])
        kinds.add(generative)
        if len(kinds) > 1:
            raise PredictionError(
                f"{path}: line {number}: a {'generative' if generative else 'multiple-choice'} "
                "sample in a log of the other kind"
            )
        if generative:
            labels.append(_parsed_label(path, number, record, choices))
            scores.append(None)
        else:
            likelihoods = _likelihoods(path, number, record["filtered_resps"])
            labels.append(max(range(len(likelihoods)), key=likelihoods.__getitem__))
            scores.append(_softmax(likelihoods)[HATEFUL])
        docs.append(doc)
        targets.append(record.get("target"))
    if not ids:
        raise PredictionError(f"cannot read predictions file {path}: no samples")
    columns = {id_column: ids, "prediction": labels, "score": scores}
    if True in kinds:
        del columns["score"]
    frame = pd.DataFrame({**columns, "doc": docs, "target": targets}, dtype=object)
    frame.attrs[GENERATIVE] = True in kinds
    return frame


def _is_reply(responses: Any) -> bool:
    """Whether ``filtered_resps`` is a generative sample's (``[text]``), not per choice
    ``[log-likelihood, is_greedy]`` pairs."""
    return isinstance(responses, list) and len(responses) == 1 and isinstance(responses[0], str)


def _parsed_label(path: Path, number: int, record: dict[str, Any], choices: Sequence[str]) -> int:
    """The label id the reply names (:func:`parse_reply`), or :data:`UNPARSED_ID`; checked
    against what the harness's filters made of it."""
    where = f"{path}: line {number}"
    replies = record.get("resps")
    reply = replies[0] if isinstance(replies, list) and replies else replies
    reply = reply[0] if isinstance(reply, list) and reply else reply
    if not isinstance(reply, str):
        raise PredictionError(f"{where}: resps holds no reply (expected [[text]])")
    parsed = parse_reply(reply, choices)
    filtered = record["filtered_resps"][0]
    if filtered != parsed:
        raise PredictionError(
            f"{where}: the harness read the reply {_shown_value(reply)} as "
            f"{_shown_value(filtered)}, the task's rule as {_shown_value(parsed)}: was the log "
            "made with another filter?"
        )
    return UNPARSED_ID if parsed == UNPARSED else list(choices).index(parsed)


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
