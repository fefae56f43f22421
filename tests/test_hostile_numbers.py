"""Strict numbers in predictions files and harness logs: a boolean, null, NaN, an infinity
or a non-numeral string where a number belongs is refused, naming the file and the line.

In 0.3.0 ``float()`` read them: a JSON ``false`` log-likelihood was scored as 0.0
(exit 0), ``true`` as 1.0, a ``true`` prediction as hateful and a ``false`` score as 0.
Logs are named as the harness names those of HatemojiCheck's (``support.real``) default
config's task,
and ``score`` runs on it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import one_error_line
from support.real import HATEMOJI_CHECK

from hatemoji_datasets import load_dataset
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.errors import PredictionError
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.evaluate.harness_log import read_sample_log
from hatemoji_datasets.evaluate.numbers import strict_number
from hatemoji_datasets.evaluate.predictions import align_frame, read_predictions
from hatemoji_datasets.harness.tasks import task_name

#: HatemojiCheck, named: the logs are its lm-eval task's (the synthetic dataset has none).
SPEC = dataset_spec(HATEMOJI_CHECK)
CONFIG = SPEC.config()
#: The id column of the logs' documents and of the predictions files.
ID = CONFIG.id_column

#: What a log or predictions file may write where a number belongs, and is not one
#: (JSON text, as the file holds it).
NOT_NUMBERS = {
    "false": "false",
    "true": "true",
    "null": "null",
    "NaN token": "NaN",
    "Infinity token": "-Infinity",
    "nan string": '"nan"',
    "infinity string": '"-inf"',
    "huge numeral": '"-1e999"',
    "word": '"minus one"',
    "hex": '"-0x1"',
    "empty string": '""',
    "list": "[-1.0]",
}


@pytest.mark.parametrize("text", list(NOT_NUMBERS.values()), ids=list(NOT_NUMBERS))
def test_strict_number_refuses(text: str) -> None:
    assert strict_number(json.loads(text)) is None


@pytest.mark.parametrize(
    ("value", "number"),
    [(-1, -1.0), (-0.5, -0.5), ("-0.5", -0.5), (" -2.5e-3 ", -0.0025), ("3", 3.0), ("+.5", 0.5)],
)
def test_strict_number_reads(value: object, number: float) -> None:
    assert strict_number(value) == number


def _sample(doc_id: object, likelihoods: list[str]) -> str:
    responses = ", ".join(f'[{ll}, "False"]' for ll in likelihoods)
    doc = {ID: 10 + int(doc_id) if isinstance(doc_id, int) else 10}
    return (
        f'{{"doc_id": {json.dumps(doc_id)}, "doc": {json.dumps(doc)}, "target": 1, '
        f'"filtered_resps": [{responses}]}}'
    )


def _log(folder: Path, lines: list[str]) -> Path:
    path = folder / "model" / f"samples_{task_name(SPEC, CONFIG)}_2026-01-01T00-00-00.0.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_log_as_the_harness_writes_it_is_read(tmp_path: Path) -> None:
    path = _log(tmp_path, [_sample(0, ['"-2.0"', '"-0.5"']), _sample(1, ["-0.25", "-3"])])
    frame = read_sample_log(path, ID, by_position=False)
    assert list(frame[ID]) == [10, 11] and list(frame["prediction"]) == [1, 0]


@pytest.mark.parametrize("text", list(NOT_NUMBERS.values()), ids=list(NOT_NUMBERS))
def test_a_log_likelihood_that_is_not_a_number(tmp_path: Path, text: str) -> None:
    path = _log(tmp_path, [_sample(0, ['"-2.0"', '"-0.5"']), _sample(1, ['"-1.0"', text])])
    with pytest.raises(PredictionError) as raised:
        read_sample_log(path, ID, by_position=False)
    message = str(raised.value)
    assert f"{path}: line 2:" in message and "is not a log-likelihood" in message
    assert "\n" not in message


@pytest.mark.parametrize("doc_id", [True, None, -1, 1.5, "first"])
def test_a_doc_id_that_is_not_a_position(tmp_path: Path, doc_id: object) -> None:
    path = _log(tmp_path, [_sample(0, ["-1", "-2"]), _sample(doc_id, ["-1", "-2"])])
    with pytest.raises(PredictionError, match="line 2: doc_id .* is not a row position"):
        read_sample_log(path, "index", by_position=True)


@pytest.mark.parametrize(
    ("column", "text"),
    [
        ("prediction", "true"),
        ("prediction", "false"),
        ("prediction", "null"),
        ("prediction", '"true"'),
        ("prediction", "NaN"),
        ("score", "false"),
        ("score", "true"),
        ("score", "NaN"),
        ("score", "Infinity"),
        ("score", '"nan"'),
    ],
)
def test_a_predictions_value_that_is_not_a_number(tmp_path: Path, column: str, text: str) -> None:
    path = tmp_path / "model.jsonl"
    values = {"prediction": "1", "score": "0.5"} | {column: text}
    path.write_text(
        f'{{"{ID}": 1, "prediction": 0, "score": 0.25}}\n'
        f'{{"{ID}": 2, "prediction": {values["prediction"]}, "score": {values["score"]}}}\n',
        encoding="utf-8",
    )
    frame, source = read_predictions(path, ID)
    with pytest.raises(PredictionError) as raised:
        align_frame(frame, source, ID, [1, 2])
    assert "1 " in str(raised.value) and "2: " in str(raised.value)  # the id of the row


@pytest.fixture(scope="module")
def cache(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("numbers-cache")
    load_dataset(HATEMOJI_CHECK, cache_dir=str(folder), mirror=str(mirror))
    return folder


@pytest.mark.parametrize("text", ["false", "true", "null", "NaN", "-Infinity", '"x"'])
def test_score_refuses_a_log_likelihood_that_is_not_a_number(
    tmp_path: Path, cache: Path, mirror: Path, capsys, text: str
) -> None:
    """The issue's case: ``false`` for a log-likelihood was scored as 0.0, exit 0."""
    ids = load_dataset(HATEMOJI_CHECK, split=CONFIG.eval_split, cache_dir=str(cache))[ID]
    choices = [["-1", "False"], ["-2", "False"]]
    lines = [
        json.dumps({"doc_id": n, "doc": {ID: i}, "target": 0, "filtered_resps": choices})
        for n, i in enumerate(ids)
    ]
    record = json.loads(lines[4])
    lines[4] = json.dumps(record).replace('[["-1", "False"]', f'[[{text}, "False"]', 1)
    path = _log(tmp_path, lines)
    capsys.readouterr()
    common = ["--cache-dir", str(cache), "--mirror", str(mirror)]
    code = main(["score", HATEMOJI_CHECK, "--predictions", str(path), *common])
    out, err = capsys.readouterr()
    line = one_error_line(err)
    assert code == 1 and out == ""
    assert f"{path}: line 5:" in line and "is not a log-likelihood" in line
    code = main(["score", HATEMOJI_CHECK, "--predictions", str(path), "--format", "json", *common])
    out, _ = capsys.readouterr()
    assert code == 1 and json.loads(out)["error"]["code"] == "PREDICTIONS"
