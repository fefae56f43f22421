"""``score`` on generative lm-eval logs written by hand, and the model a log is named after.

A generative task's log holds each reply in ``resps`` and the filters' reading in
``filtered_resps``. Here one is written for every row of the plain dataset's
(support.real) default config: replies with extra words, in other cases, with both
labels (either first), with neither, empty, and a near miss, each with the reading
stated by hand below. The report's figures (accuracy, both F1s, unparsed replies
overall and per cell of a table) are computed here from those readings with pandas
and the metrics' definitions, not with the code under test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from support.real import HATEMOJI_CHECK

from hatemoji_datasets.cli import main
from hatemoji_datasets.core.errors import PredictionError
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.core.scoring import Breakdown
from hatemoji_datasets.evaluate.harness_log import model_of

CONFIG = dataset_spec(HATEMOJI_CHECK).config()
TASK = f"{HATEMOJI_CHECK}_{CONFIG.name}_gen"
LOG = f"samples_{TASK}_2026-01-01T00-00-00.000001.jsonl"
#: Each reply and the label the task's rule reads in it (by hand): the first label name,
#: case-insensitively, the longer where both start at once; else unparsed.
REPLIES = (
    ("hateful", "hateful"),
    ("NON-HATEFUL", "non-hateful"),
    ("Answer: It is Hateful.", "hateful"),
    ("This text is non-hateful.", "non-hateful"),
    ("hateful or non-hateful? hateful.", "hateful"),
    ("Non-hateful, not hateful", "non-hateful"),
    ("I cannot say.", "unparsed"),
    ("", "unparsed"),
    ("  HaTeFuL\n\nand more", "hateful"),
    ("hatefulness", "hateful"),  # no word boundary: the name is in it
    ("hate", "unparsed"),
    ("non hateful", "hateful"),  # not the name: "non hateful" holds only "hateful"
)
NAMES = ["non-hateful", "hateful"]


@pytest.fixture(scope="module")
def rows(real_build) -> list[dict]:
    return real_build(HATEMOJI_CHECK, CONFIG.name)[CONFIG.eval_split].to_list()


def _sample(position: int, row: dict, reply, filtered) -> dict:
    return {
        "doc_id": position,
        "doc": row,
        "target": str(row["label"]),
        "arguments": {"gen_args_0": {"arg_0": "...", "arg_1": {"until": ["\n\n"]}}},
        "resps": [[reply]],
        "filtered_resps": [filtered],
        "filter": "label",
        "metrics": ["exact_match", "f1"],
    }


def _write(folder: Path, samples: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOG
    path.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in samples), "utf-8")
    return path


def _log(folder: Path, rows: list[dict]) -> tuple[Path, list[str]]:
    samples, readings = [], []
    for position, row in enumerate(rows):
        reply, reading = REPLIES[position % len(REPLIES)]
        samples.append(_sample(position, row, reply, reading))
        readings.append(reading)
    return _write(folder, samples), readings


def _f1(gold: pd.Series, predicted: pd.Series, label: int) -> float:
    """F1 of ``label`` by its definition: a prediction of anything else is a miss."""
    tp = int(((gold == label) & (predicted == label)).sum())
    fp = int(((gold != label) & (predicted == label)).sum())
    fn = int(((gold == label) & (predicted != label)).sum())
    return 2 * tp / (2 * tp + fp + fn)


def test_a_hand_written_generative_log_scores_as_its_readings(
    rows, tmp_path: Path, mirror: Path, session_cache: Path
) -> None:
    from hatemoji_datasets.evaluate import score

    log, readings = _log(tmp_path / "model", rows)
    report = score(HATEMOJI_CHECK, log, cache_dir=str(session_cache), mirror=str(mirror))
    frame = pd.DataFrame(rows)
    frame["reading"] = readings
    frame["predicted"] = [NAMES.index(r) if r in NAMES else -1 for r in readings]
    frame["correct"] = frame["predicted"] == frame["label"]
    frame["unparsed"] = frame["reading"] == "unparsed"
    assert report.n == len(rows) and not report.has_scores
    assert report.overall["accuracy"] == pytest.approx(frame["correct"].mean(), abs=1e-12)
    assert report.overall["unparsed"] == int(frame["unparsed"].sum()) > 0
    gold, predicted = frame["label"], frame["predicted"]
    hateful, other = _f1(gold, predicted, 1), _f1(gold, predicted, 0)
    assert report.overall["f1_hateful"] == pytest.approx(hateful, abs=1e-12)
    assert report.overall["f1_macro"] == pytest.approx((hateful + other) / 2, abs=1e-12)
    # Every table of scored rows counts each cell's unparsed replies beside its accuracy.
    checked = 0
    for declared in CONFIG.scoring.breakdowns:
        if not isinstance(declared, Breakdown) or declared.rows is not None:
            continue
        table = report.table(declared.name)
        assert table.metrics[-1] == "unparsed"
        cells = frame.groupby(list(declared.by)).agg(
            n=("correct", "size"), correct=("correct", "mean"), unparsed=("unparsed", "sum")
        )
        assert len(table.rows) == len(cells)
        for row, (_, cell) in zip(table.rows, cells.iterrows(), strict=True):
            assert row["unparsed"] == cell["unparsed"]
            if "accuracy" in table.metrics:
                assert row["accuracy"] == pytest.approx(cell["correct"], abs=1e-12)
        checked += 1
    assert checked


def test_a_log_whose_readings_differ_or_mix_kinds_is_refused(
    rows, tmp_path: Path, mirror: Path, session_cache: Path
) -> None:
    from hatemoji_datasets.evaluate import score

    where = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    samples = [_sample(i, row, "hateful", "hateful") for i, row in enumerate(rows)]
    samples[4]["filtered_resps"] = ["non-hateful"]  # the reply names hateful
    with pytest.raises(PredictionError, match='line 5: the harness read the reply "hateful" as'):
        score(HATEMOJI_CHECK, _write(tmp_path / "a", samples), **where)
    samples[4]["filtered_resps"] = [["-0.5", "False"], ["-0.7", "False"]]
    with pytest.raises(PredictionError, match="line 5: a multiple-choice sample in a log of the"):
        score(HATEMOJI_CHECK, _write(tmp_path / "b", samples), **where)
    samples[4] = _sample(4, rows[4], None, "unparsed")
    with pytest.raises(PredictionError, match=r"line 5: resps holds no reply \(expected"):
        score(HATEMOJI_CHECK, _write(tmp_path / "c", samples), **where)


def _results(folder: Path, config: dict) -> None:
    (folder / LOG.replace(f"samples_{TASK}", "results").replace(".jsonl", ".json")).write_text(
        json.dumps({"model_name": "a1b2c3d4", "config": config}), encoding="utf-8"
    )


def test_a_log_is_named_after_the_model_lm_eval_records(tmp_path: Path, rows) -> None:
    """``model_args``' model (pretrained=...), else the model type, else the folder."""
    named = tmp_path / "x1" / "a1b2c3d4"
    log = _write(named, [_sample(0, rows[0], "hateful", "hateful")])
    assert model_of(log) == "a1b2c3d4"  # no results file: the folder
    _results(named, {"model": "vllm", "model_args": "pretrained=org/model-7b,tensor_parallel=2"})
    assert model_of(log) == "org/model-7b"
    _results(named, {"model": "local-chat-completions", "model_args": {"model": "served"}})
    assert model_of(log) == "served"
    _results(named, {"model": "dummy", "model_args": ""})  # lm-eval named the run at random
    assert model_of(log) == "dummy"


def test_cli_columns_are_the_recorded_models(
    rows, tmp_path: Path, mirror: Path, session_cache: Path, capsys
) -> None:
    logs = []
    for folder, model in (("r1", "org/first"), ("r2", "org/second")):
        log, _ = _log(tmp_path / folder, rows)
        _results(log.parent, {"model": "hf", "model_args": f"pretrained={model}"})
        logs.append(str(log))
    where = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["score", HATEMOJI_CHECK, "--predictions", *logs, *where]) == 0
    out = capsys.readouterr().out
    assert "| metric | org/first | org/second |" in out
    assert "| unparsed |" in out
