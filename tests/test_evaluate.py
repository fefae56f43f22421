"""Scoring predictions: metrics recomputed independently with scikit-learn, fairlearn and
pandas on the real data; prediction errors; the ``score`` command and its heatmap.

Predictions here are seeded random labels, the gold labels, or their inverse: no text
fixtures are needed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from conftest import REPO

pytest.importorskip("sklearn")
pytest.importorskip("fairlearn")

from fairlearn.metrics import demographic_parity_ratio, equalized_odds_ratio  # noqa: E402
from sklearn.metrics import accuracy_score, f1_score, recall_score  # noqa: E402

from hatemoji_datasets import HatemojiDatasetsError, UnknownNameError, load_dataset  # noqa: E402
from hatemoji_datasets.cli import main  # noqa: E402
from hatemoji_datasets.core.errors import PredictionError  # noqa: E402
from hatemoji_datasets.evaluate import score  # noqa: E402
from hatemoji_datasets.evaluate.metrics import OptionalDependencyError  # noqa: E402
from hatemoji_datasets.evaluate.report import ScoreReport as Report  # noqa: E402
from hatemoji_datasets.evaluate.scoring import scoring_target as _target  # noqa: E402

#: (name, config, split, id column) of every scoring target.
TARGETS = [
    ("hatemoji_check", "default", "test", "case_id"),
    ("hatemoji_build", "all", "test", "entry_id"),
    ("hatemoji_build", "r6", "test", "entry_id"),
    ("hatemoji_build", "pair_safe", "test", "entry_id"),
    ("apeach", "default", "test", "index"),
    ("apeach", "beep", "validation", "index"),
]

#: The HatemojiCheck paper's table of functionalities: (case, gold label, n).
PAPER_CELLS = [
    ("F1", "hateful", 300), ("F1.1", "non-hateful", 50), ("F1.2", "non-hateful", 60),
    ("F1.3", "hateful", 60), ("F2", "hateful", 120), ("F2.1", "non-hateful", 20),
    ("F2.2", "non-hateful", 120), ("F2.3", "hateful", 120), ("F3", "hateful", 260),
    ("F3.1", "non-hateful", 40), ("F3.2", "non-hateful", 60), ("F3.3", "hateful", 60),
    ("F4", "hateful", 288), ("F4.1", "non-hateful", 46), ("F4.2", "non-hateful", 60),
    ("F4.3", "hateful", 60), ("F5", "hateful", 288), ("F5.1", "non-hateful", 48),
    ("F5.2", "non-hateful", 60), ("F5.3", "non-hateful", 60), ("F6", "hateful", 440),
    ("F6.1", "non-hateful", 65), ("F6.2", "non-hateful", 112), ("F6.3", "hateful", 88),
    ("F7", "hateful", 430), ("F7.1", "non-hateful", 45), ("F7.2", "non-hateful", 430),
    ("F7.3", "hateful", 140),
]  # fmt: skip


@pytest.fixture(scope="module")
def where(mirror: Path, session_cache: Path) -> dict[str, str]:
    return {"cache_dir": str(session_cache), "mirror": str(mirror)}


_FRAMES: dict[tuple[str, str, str], pd.DataFrame] = {}


def frame_of(name: str, config: str, split: str, where: dict[str, str]) -> pd.DataFrame:
    key = (name, config, split)
    if key not in _FRAMES:
        _FRAMES[key] = load_dataset(name, config, split=split, **where).to_pandas()
    return _FRAMES[key]


def ids_of(frame: pd.DataFrame, id_column: str) -> list[int]:
    return list(range(len(frame))) if id_column == "index" else frame[id_column].tolist()


def predictions_frame(frame: pd.DataFrame, id_column: str, labels: Any) -> pd.DataFrame:
    return pd.DataFrame({id_column: ids_of(frame, id_column), "prediction": labels})


def random_labels(frame: pd.DataFrame, seed: int = 7) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 2, len(frame))


# -- the target table ------------------------------------------------------------------


def test_targets_resolve_default_configs_and_eval_splits() -> None:
    assert _target("hatemoji_check", None)[0] == "default"
    assert _target("hatemoji_build:1.0.0", None)[0] == "all"
    assert _target("apeach", "beep")[1].eval_split == "validation"
    assert _target("apeach", None)[1].id_column == "index"
    with pytest.raises(UnknownNameError, match="unknown config 'r9' of hatemoji_build"):
        _target("hatemoji_build", "r9")
    with pytest.raises(UnknownNameError, match="unknown dataset 'nope'"):
        _target("nope", None)


# -- metrics agree with independent computations -----------------------------------------


def test_hatemoji_check_metrics_match_sklearn_fairlearn_and_pandas(where) -> None:
    frame = frame_of("hatemoji_check", "default", "test", where).copy()
    frame["pred"] = random_labels(frame)
    report = score("hatemoji_check", predictions_frame(frame, "case_id", frame["pred"]), **where)
    gold, pred = frame["label"], frame["pred"]
    assert report.n == 3930 and report.split == "test" and report.config == "default"
    assert report.overall["accuracy"] == pytest.approx(accuracy_score(gold, pred))
    assert report.overall["f1_hateful"] == pytest.approx(f1_score(gold, pred))
    assert report.overall["f1_macro"] == pytest.approx(f1_score(gold, pred, average="macro"))

    frame["correct"] = frame["label"] == frame["pred"]
    cells = frame.groupby(["functionality", "perturbation"]).agg(
        n=("correct", "size"), accuracy=("correct", "mean"), gold=("label", "max")
    )
    rows = report.table("cells").rows
    assert len(rows) == len(cells) == 28
    f_names = load_names(where, "hatemoji_check", "functionality")
    p_names = load_names(where, "hatemoji_check", "perturbation")
    for row, ((f, p), expected) in zip(rows, cells.iterrows()):
        assert (row["functionality"], row["perturbation"]) == (f_names[f], p_names[p])
        assert row["n"] == expected["n"]
        assert row["accuracy"] == pytest.approx(expected["accuracy"])
        assert row["label"] == ("hateful" if expected["gold"] else "non-hateful")

    target_names = load_names(where, "hatemoji_check", "target")
    frame["target_name"] = [target_names[t] for t in frame["target"]]
    by_target = {row["target"]: row for row in report.table("targets").rows}
    assert list(by_target) == target_names
    for name, group in frame.groupby("target_name"):
        row = by_target[name]
        positives, negatives = group[group["label"] == 1], group[group["label"] == 0]
        assert row["n"] == len(group)
        assert row["accuracy"] == pytest.approx(group["correct"].mean())
        assert row["false_positive_rate"] == pytest.approx((negatives["pred"] == 1).mean())
        if len(positives):
            assert row["false_negative_rate"] == pytest.approx((positives["pred"] == 0).mean())
        else:  # target `none`: identity perturbations are all non-hateful
            assert name == "none" and row["false_negative_rate"] is None

    protected = frame[frame["target_name"] != "none"]
    fairness = report.table("fairness").rows[0]
    assert fairness["targets"] == 6 and fairness["n"] == len(protected) == 3930 - 314
    kwargs = {"sensitive_features": protected["target_name"]}
    assert fairness["demographic_parity_ratio"] == pytest.approx(
        demographic_parity_ratio(protected["label"], protected["pred"], **kwargs)
    )
    assert fairness["equalized_odds_ratio"] == pytest.approx(
        equalized_odds_ratio(protected["label"], protected["pred"], **kwargs)
    )
    # ... and by hand: min/max of selection rates; worst of the TPR and FPR ratios.
    selection = protected.groupby("target_name")["pred"].mean()
    assert fairness["demographic_parity_ratio"] == pytest.approx(selection.min() / selection.max())
    rates = protected.groupby(["label", "target_name"])["pred"].mean()
    ratios = [rates[label].min() / rates[label].max() for label in (0, 1)]
    assert fairness["equalized_odds_ratio"] == pytest.approx(min(ratios))


def load_names(where: dict[str, str], name: str, column: str, config: str | None = None):
    split = "validation" if config == "beep" else "test"
    return load_dataset(name, config, split=split, **where).features[column].names


def test_hatemoji_check_cells_match_the_paper(where) -> None:
    report = score("hatemoji_check", {i: 1 for i in range(3930)}, **where)
    cells = [(r["case"], r["label"], r["n"]) for r in report.table("cells").rows]
    assert cells == PAPER_CELLS
    matrix = report.accuracy_matrix()
    assert matrix.shape == (7, 4)
    assert list(matrix.columns) == ["original", "identity", "polarity", "no_emoji"]
    assert matrix.loc["append", "no_emoji"] == 0.0  # F5.3 is the one non-hateful no-emoji cell
    assert matrix.loc["verb_swap", "original"] == 1.0


def test_hatemoji_build_metrics_match_sklearn_and_pandas(where) -> None:
    frame = frame_of("hatemoji_build", "all", "test", where).copy()
    frame["pred"] = random_labels(frame, seed=3)
    report = score("hatemoji_build", predictions_frame(frame, "entry_id", frame["pred"]), **where)
    assert report.overall["accuracy"] == pytest.approx(
        accuracy_score(frame["label"], frame["pred"])
    )
    rounds = {row["round"]: row for row in report.table("rounds").rows}
    for round_, group in frame.groupby("round"):
        row = rounds[f"R{round_}"]
        assert row["n"] == len(group)
        assert row["accuracy"] == pytest.approx(accuracy_score(group["label"], group["pred"]))
        assert row["f1_hateful"] == pytest.approx(f1_score(group["label"], group["pred"]))
    hate_type_names = load_names(where, "hatemoji_build", "hate_type")
    types = {row["hate_type"]: row for row in report.table("hate_types").rows}
    for code, group in frame.groupby("hate_type"):
        row = types[hate_type_names[code]]
        gold_class = int(group["label"].iloc[0])
        assert row["n"] == len(group)
        assert row["recall"] == pytest.approx(
            recall_score(group["label"], group["pred"], pos_label=gold_class)
        )

    correct = dict(zip(frame["entry_id"], frame["label"] == frame["pred"]))
    pairs = {
        frozenset((a, b)) for a, b in zip(frame["entry_id"], frame["matched_id"]) if b in correct
    }
    both = [correct[a] and correct[b] for a, b in map(tuple, pairs)]
    overall = report.table("pairs").rows[0]
    assert overall["scope"] == "all" and overall["pairs"] == len(pairs) > 0
    assert overall["both_correct"] == pytest.approx(np.mean(both))
    assert sum(row["pairs"] for row in report.table("pairs").rows[1:]) == len(pairs)
    assert f"{len(pairs)} pairs" in " ".join(report.notes)


def test_apeach_and_beep_metrics_match_sklearn(where) -> None:
    frame = frame_of("apeach", "default", "test", where).copy()
    frame["pred"] = random_labels(frame, seed=11)
    report = score("apeach", predictions_frame(frame, "index", frame["pred"]), **where)
    assert report.overall["f1_hateful"] == pytest.approx(f1_score(frame["label"], frame["pred"]))
    topics = load_names(where, "apeach", "topic")
    rows = {row["topic"]: row for row in report.table("topics").rows}
    for code, group in frame.groupby("topic"):
        row = rows[topics[code]]
        assert row["n"] == len(group)
        assert row["f1_hateful"] == pytest.approx(f1_score(group["label"], group["pred"]))

    beep = frame_of("apeach", "beep", "validation", where).copy()
    beep["pred"] = random_labels(beep, seed=5)
    report = score("apeach", predictions_frame(beep, "index", beep["pred"]), config="beep", **where)
    assert report.split == "validation" and report.n == 471
    assert report.overall["f1_hateful"] == pytest.approx(f1_score(beep["label"], beep["pred"]))
    levels = load_names(where, "apeach", "hate_level", "beep")
    rows = {row["hate_level"]: row for row in report.table("hate_levels").rows}
    for code, group in beep.groupby("hate_level"):
        expected = recall_score(group["label"], group["pred"], pos_label=int(group["label"].max()))
        assert rows[levels[code]]["recall"] == pytest.approx(expected)
        assert rows[levels[code]]["n"] == len(group)


# -- perfect and inverted predictions ----------------------------------------------------

#: Metrics that are not "1.0 when perfect, 0.0 when inverted": average precision of
#: inverted scores is the share of hateful rows, not 0.
NOT_ZERO = {"average_precision"}
#: Metrics that are not "higher is better, 1.0 when perfect".
NOT_SCORES = {"false_positive_rate", "false_negative_rate"}
RATIOS = {"demographic_parity_ratio", "equalized_odds_ratio"}


def metric_values(report: Report) -> list[tuple[str, str, Any]]:
    values = [("overall", k, v) for k, v in report.overall.items() if k != "n"]
    for table in report.tables.values():
        values += [
            (table.name, m, row[m])
            for row in table.rows
            for m in table.metrics
            if m not in NOT_SCORES | RATIOS
        ]
    return values


@pytest.mark.parametrize(("name", "config", "split", "id_column"), TARGETS)
def test_perfect_predictions_score_one_and_inverted_zero(name, config, split, id_column, where):
    frame = frame_of(name, config, split, where)
    gold = frame["label"].to_numpy()
    perfect = predictions_frame(frame, id_column, gold).assign(score=gold.astype(float))
    inverted = predictions_frame(frame, id_column, 1 - gold).assign(score=1.0 - gold)
    best = score(name, perfect, config=config, **where)
    worst = score(name, inverted, config=config, **where)
    assert all(value == 1.0 for _, _, value in metric_values(best)), metric_values(best)
    assert all(v == 0.0 for _, m, v in metric_values(worst) if m not in NOT_ZERO)
    assert best.overall["roc_auc"] == 1.0 and worst.overall["roc_auc"] == 0.0
    for table in best.tables.values():
        for row in table.rows:
            for rate in NOT_SCORES & set(table.metrics):
                assert row[rate] in (0.0, None)
    for table in worst.tables.values():
        for row in table.rows:
            for rate in NOT_SCORES & set(table.metrics):
                assert row[rate] in (1.0, None)
    if name == "hatemoji_check":
        assert best.table("fairness").rows[0]["equalized_odds_ratio"] == 1.0


# -- input formats ----------------------------------------------------------------------


def test_every_input_format_gives_the_same_report(where, tmp_path: Path) -> None:
    frame = frame_of("hatemoji_build", "r6", "test", where)
    labels = random_labels(frame, seed=1)
    probabilities = np.round(np.random.default_rng(2).random(len(frame)), 4)
    table = predictions_frame(frame, "entry_id", labels).assign(score=probabilities)
    table.to_csv(tmp_path / "model.csv", index=False)
    table.to_json(tmp_path / "model.jsonl", orient="records", lines=True)
    import datasets

    mapping = {
        int(i): {"prediction": int(p), "score": float(s)}
        for i, p, s in zip(table["entry_id"], labels, probabilities)
    }
    shuffled = table.sample(frac=1.0, random_state=0)  # order does not matter
    forms = [
        table,
        shuffled,
        datasets.Dataset.from_pandas(table),
        mapping,
        {str(i): (p["prediction"], p["score"]) for i, p in mapping.items()},  # JSON-style keys
        str(tmp_path / "model.csv"),
        tmp_path / "model.jsonl",
    ]
    reports = [score("hatemoji_build", form, config="r6", **where).to_dict() for form in forms]
    assert all(r == reports[0] for r in reports[1:])
    assert reports[0]["has_scores"] and reports[0]["overall"]["roc_auc"] is not None
    json.dumps(reports[0])  # JSON-ready
    labels_only = score(
        "hatemoji_build", dict(zip(table["entry_id"], labels)), config="r6", **where
    )
    assert labels_only.overall["accuracy"] == reports[0]["overall"]["accuracy"]
    assert "roc_auc" not in labels_only.overall


# -- prediction errors -------------------------------------------------------------------


def _build_predictions(where) -> pd.DataFrame:
    frame = frame_of("hatemoji_build", "r6", "test", where)
    return predictions_frame(frame, "entry_id", frame["label"]).astype(object)


def _drop(table: pd.DataFrame) -> pd.DataFrame:
    return table.iloc[7:].reset_index(drop=True)


def _unknown(table: pd.DataFrame) -> pd.DataFrame:
    extra = pd.DataFrame({"entry_id": [-1, -2, 999999], "prediction": [0, 1, 0]})
    return pd.concat([table, extra], ignore_index=True)


def _duplicate(table: pd.DataFrame) -> pd.DataFrame:
    return pd.concat([table, table.iloc[:2]], ignore_index=True)


def _non_binary(table: pd.DataFrame) -> pd.DataFrame:
    table = table.copy()
    table.loc[0, "prediction"] = 2
    table.loc[1, "prediction"] = "maybe"
    table.loc[2, "prediction"] = 0.5
    return table


def _bad_scores(table: pd.DataFrame) -> pd.DataFrame:
    table = table.assign(score=0.5)
    table.loc[3, "score"] = 1.5
    table.loc[4, "score"] = -0.1
    return table


ERRORS = {
    "missing": (_drop, r"7 missing entry_id values: \d+, \d+, \d+, \d+, \d+, \.\.\. \(2 more\)"),
    "unknown": (_unknown, r"3 unknown entry_id values: -1, -2, 999999"),
    "duplicate": (_duplicate, r"2 duplicate entry_id values: \d+, \d+"),
    "non-binary": (
        _non_binary,
        r"3 non-binary predictions \(expected 0 or 1\): \d+: '?2'?, \d+: 'maybe', ",
    ),
    "probability": (
        _bad_scores,
        r"2 scores not a probability in \[0, 1\]: \d+: '?1\.5'?, \d+: '?-0\.1'?$",
    ),
    "no id column": (lambda t: t.rename(columns={"entry_id": "id"}), r"missing column 'entry_id'"),
    "no prediction": (
        lambda t: t.rename(columns={"prediction": "label"}),
        r"missing column 'prediction' \(columns: entry_id, label;",
    ),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_prediction_errors_name_offenders_and_counts(case, where, tmp_path: Path) -> None:
    change, message = ERRORS[case]
    table = change(_build_predictions(where))
    with pytest.raises(PredictionError, match=message):
        score("hatemoji_build", table, config="r6", **where)
    path = tmp_path / "model.csv"
    table.to_csv(path, index=False)
    with pytest.raises(PredictionError, match=f"{path}: .*" + message):
        score("hatemoji_build", path, config="r6", **where)


def test_several_problems_are_reported_together(where) -> None:
    table = _non_binary(_duplicate(_drop(_build_predictions(where))))
    with pytest.raises(PredictionError) as caught:
        score("hatemoji_build", table, config="r6", **where)
    assert len(caught.value.problems) == 3
    assert caught.value.exit_code == 1
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("content", "suffix", "message", "status"),
    [
        (None, ".csv", "cannot read the predictions file .*missing.csv: FILE-NOT-FOUND", 2),
        (b"\xff\xfe\x00bad", ".csv", r"missing.csv:1: FILE-NOT-UTF8 not UTF-8", 2),
        (b"", ".csv", "missing.csv: FILE-EMPTY file is empty", 2),
        (b" \n\n", ".csv", "missing.csv: FILE-EMPTY file is empty", 2),
        (
            b'{"entry_id": 1, "prediction": 0}\n{broken\n',
            ".jsonl",
            "missing.jsonl:2: FILE-UNPARSEABLE is not valid JSON",
            2,
        ),
        (b"[1, 2]\n", ".jsonl", "line 1 is not a JSON object", 1),
    ],
)
def test_unreadable_files(content, suffix, message, status, where, tmp_path: Path) -> None:
    path = tmp_path / f"missing{suffix}"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(PredictionError, match=message) as raised:
        score("hatemoji_build", path, config="r6", **where)
    assert raised.value.exit_code == status


def test_unsupported_prediction_type(where) -> None:
    with pytest.raises(PredictionError, match="not list"):
        score("hatemoji_build", [0, 1], config="r6", **where)


# -- the command line --------------------------------------------------------------------


def _write_models(where, folder: Path, count: int) -> list[Path]:
    frame = frame_of("hatemoji_check", "default", "test", where)
    paths = []
    for k in range(count):
        path = folder / f"model_{k}.csv"
        predictions_frame(frame, "case_id", random_labels(frame, seed=k)).to_csv(path, index=False)
        paths.append(path)
    return paths


def _cli(where, *args: str) -> int:
    return main(["score", *args, "--cache-dir", where["cache_dir"], "--mirror", where["mirror"]])


def test_cli_side_by_side_formats(where, tmp_path: Path, capsys) -> None:
    paths = [str(p) for p in _write_models(where, tmp_path, 2)]
    assert _cli(where, "hatemoji_check", "--predictions", *paths) == 0
    markdown = capsys.readouterr().out
    assert "| case | functionality | perturbation | label | n | model_0 | model_1 |" in markdown
    assert "| F5.3 | append | no_emoji | non-hateful | 60 |" in markdown

    assert _cli(where, "hatemoji_check", "--predictions", *paths, "--format", "json") == 0
    document = json.loads(capsys.readouterr().out)
    assert list(document["models"]) == ["model_0", "model_1"]
    assert len(document["models"]["model_0"]["tables"]["cells"]["rows"]) == 28

    assert _cli(where, "hatemoji_check", "--predictions", *paths, "--format", "csv") == 0
    rows = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out))
    assert list(rows.columns) == ["table", "row", "metric", "model_0", "model_1"]
    cell = rows[(rows["table"] == "cells") & (rows["metric"] == "n")]
    assert len(cell) == 28 and cell["model_0"].astype(int).sum() == 3930


def test_cli_prediction_error_is_one_line_exit_1(where, tmp_path: Path, capsys) -> None:
    path = tmp_path / "short.csv"
    _drop(_build_predictions(where)).to_csv(path, index=False)
    assert _cli(where, "hatemoji_build", "--config", "r6", "--predictions", str(path)) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "7 missing entry_id" in lines[0]


def test_cli_subprocess_has_no_traceback(where, tmp_path: Path) -> None:
    path = tmp_path / "model.csv"
    path.write_text("case_id,prediction\n1,3\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "hatemoji_datasets", "score", "hatemoji_check"]
        + ["--predictions", str(path), "--cache-dir", where["cache_dir"]]
        + ["--mirror", where["mirror"]],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert "3,929 missing case_id values" in result.stderr
    assert "1 non-binary prediction (expected 0 or 1): 1: '3'" in result.stderr


def test_cli_module_does_not_import_sklearn() -> None:
    code = "import sys, hatemoji_datasets.cli; print('sklearn' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


def test_plot_has_one_column_per_model(where, tmp_path: Path, capsys) -> None:
    from PIL import Image

    from hatemoji_datasets.evaluate.plot import heatmap_matrix

    paths = [str(p) for p in _write_models(where, tmp_path, 3)]
    one, three = tmp_path / "one.png", tmp_path / "plots" / "three.png"
    assert _cli(where, "hatemoji_check", "--predictions", paths[0], "--plot", str(one)) == 0
    assert _cli(where, "hatemoji_check", "--predictions", *paths, "--plot", str(three)) == 0
    capsys.readouterr()
    with Image.open(one) as small, Image.open(three) as large:
        assert small.format == large.format == "PNG"
        assert large.text["Description"] == "models: model_0, model_1, model_2"
        assert large.height == small.height and large.width > small.width
        pixels = np.asarray(large)
        assert pixels.ndim == 3 and pixels.shape[:2] == (large.height, large.width)

    reports = {Path(p).stem: score("hatemoji_check", p, **where) for p in paths}
    labels, models, values = heatmap_matrix(reports)
    assert values.shape == (28, 3) and models == ["model_0", "model_1", "model_2"]
    assert labels[0] == "F1 verb_swap original" and labels[-1] == "F7.3 emoji_leetspeak no_emoji"
    expected = [r.table("cells").rows[5]["accuracy"] for r in reports.values()]
    assert values[5].tolist() == pytest.approx(expected)


def test_plot_without_matplotlib_is_a_clear_error(where, tmp_path, monkeypatch) -> None:
    from hatemoji_datasets.evaluate.plot import plot_heatmap

    report = score("apeach", {i: 1 for i in range(471)}, config="beep", **where)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(OptionalDependencyError, match=r"pip install 'hatemoji-datasets\[plot\]'"):
        plot_heatmap({"m": report}, tmp_path / "x.png")
    assert issubclass(OptionalDependencyError, HatemojiDatasetsError)


def test_plot_needs_png_path(where, tmp_path: Path, capsys) -> None:
    path = _write_models(where, tmp_path, 1)[0]
    assert _cli(where, "hatemoji_check", "--predictions", str(path), "--plot", "x.pdf") == 1
    assert "error: --plot writes a PNG" in capsys.readouterr().err


# -- the plot: readable labels, titles that name the metric -------------------------------


def test_value_labels_contrast_with_their_cell() -> None:
    import matplotlib

    from hatemoji_datasets.evaluate.plot import NO_VALUE, text_colour

    assert text_colour((0.0, 0.0, 0.0, 1.0)) == "white"
    assert text_colour((1.0, 1.0, 1.0, 1.0)) == "black"
    cmap = matplotlib.colormaps["RdYlGn"]
    assert text_colour(cmap(0.0)) == "white"  # dark red
    assert text_colour(cmap(0.5)) == "black"  # pale yellow
    assert text_colour(cmap(1.0)) == "white"  # dark green
    assert text_colour(matplotlib.colors.to_rgba(NO_VALUE)) == "black"

    def contrast(rgba, text: str) -> float:  # WCAG 2 contrast ratio, written out here
        def luminance(colour):
            channels = [
                c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in colour[:3]
            ]
            return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

        light, dark = sorted([luminance(rgba), luminance(matplotlib.colors.to_rgba(text))])[::-1]
        return (light + 0.05) / (dark + 0.05)

    for value in np.linspace(0, 1, 101):
        rgba = cmap(value)
        chosen = text_colour(rgba)
        other = "black" if chosen == "white" else "white"
        assert contrast(rgba, chosen) >= contrast(rgba, other)
        assert contrast(rgba, chosen) >= 4.5  # readable on every cell colour


def test_every_plot_title_names_its_metric(where, tmp_path: Path) -> None:
    from PIL import Image

    from hatemoji_datasets.evaluate.plot import METRIC_NAMES, plot_heatmap, plot_title

    apeach = score("apeach", {i: 1 for i in range(3770)}, **where)
    assert plot_title(apeach).splitlines()[1] == "Per topic: F1 of the hateful class"
    check = score("hatemoji_check", {i: 1 for i in range(3930)}, **where)
    assert plot_title(check).splitlines()[1] == "Accuracy per functionality x perturbation"
    beep = score("apeach", {i: 1 for i in range(471)}, config="beep", **where)
    assert plot_title(beep).splitlines()[1] == "Recall of the gold class per hate level"
    for report in (apeach, check, beep):
        metric = METRIC_NAMES[report.plot[1]]
        assert metric.lower() in plot_title(report).lower()
    path = tmp_path / "apeach.png"
    plot_heatmap({"m": apeach}, path)
    with Image.open(path) as image:
        assert image.text["Title"] == "apeach f1_hateful"


def test_cli_markdown_keeps_a_model_name_in_its_cell(where, tmp_path: Path, capsys) -> None:
    """A model named from its file may hold ``|`` or a newline: both are escaped, so every
    row of a markdown table keeps its number of cells."""
    plain, path = _write_models(where, tmp_path, 2)
    odd = path.with_name("a|b\nc.csv")
    path.rename(odd)
    capsys.readouterr()
    assert _cli(where, "hatemoji_check", "--predictions", str(plain), str(odd)) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(line for line in lines if line.startswith("| case |"))
    assert header.endswith("| a\\|b\\nc |")
    start = lines.index(header)
    table = lines[start : lines.index("", start)]
    assert len(table) == 2 + 28  # header, rule, one row per cell
    assert {line.replace("\\|", "").count("|") for line in table} == {header.count("|") - 1}
