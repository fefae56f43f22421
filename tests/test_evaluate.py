"""Scoring predictions: perfect and inverted predictions on every dataset, prediction
errors, every input format, the ``score`` command and its heatmap.

Each test takes its config by a rule over the declarations, and the figures it asserts
from that dataset's ``testing.py`` (split sizes, and the score tables ``SCORE_TABLES``
states). Predictions here are seeded random labels, the gold labels, or their inverse: no
text fixtures are needed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from conftest import dataset_facts, declaring
from support.frames import frame_of, ids_of, predictions_frame, random_labels
from support.paths import REPO, all_configs
from support.real import HATEMOJI_CHECK

pytest.importorskip("sklearn")
pytest.importorskip("fairlearn")


from hatemoji_datasets import HatemojiDatasetsError, UnknownNameError  # noqa: E402
from hatemoji_datasets.cli import main  # noqa: E402
from hatemoji_datasets.core.errors import PredictionError  # noqa: E402
from hatemoji_datasets.core.registry import dataset_spec, specs  # noqa: E402
from hatemoji_datasets.core.scoring import Breakdown, Fairness  # noqa: E402
from hatemoji_datasets.evaluate import score  # noqa: E402
from hatemoji_datasets.evaluate.metrics import OptionalDependencyError  # noqa: E402
from hatemoji_datasets.evaluate.report import ScoreReport as Report  # noqa: E402
from hatemoji_datasets.evaluate.scoring import scoring_target as _target  # noqa: E402


def _scored_rows(name: str, config: str) -> int:
    """Rows of the config's evaluation split, as its ``testing.py`` states them."""
    return dataset_facts(name).SPLITS[config][dataset_spec(name).config(config).eval_split]


def _fewest_rows(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Of ``(dataset, config)`` pairs, the one scoring the fewest rows (none of none)."""
    return [min(pairs, key=lambda pair: _scored_rows(*pair))] if pairs else []


def _differing() -> list[tuple[str, str]]:
    """Configs that differ from a dataset's default in one way each: another config of a
    dataset (not re-split, scored on the split its default is scored on) and a re-split
    config (``resplit``), each the one scoring the fewest rows; and the first config that
    scores a validation split by row index."""
    others, resplit, by_index = [], [], []
    for name, spec in specs().items():
        default = spec.config()
        for config in spec.configs:
            pair = (name, config.name)
            if config.resplit is not None:
                resplit.append(pair)
            elif config.name != default.name and config.eval_split == default.eval_split:
                others.append(pair)
            if config.eval_split == "validation" and config.id_column is None:
                by_index.append(pair)
    return _fewest_rows(others) + _fewest_rows(resplit) + by_index[:1]


#: Scoring targets: every dataset's default config, and those that differ from theirs in
#: one way (``_differing``).
TARGETS = list(
    dict.fromkeys(
        [*((name, spec.default_config_name) for name, spec in specs().items()), *_differing()]
    )
)
#: The config the tests of reading predictions score: of every config not re-split, the one
#: scoring the fewest rows (``testing.py``'s SPLITS), and the column its rows are keyed by.
SMALL = _fewest_rows(
    [
        (name, config)
        for name, config in all_configs()
        if not dataset_spec(name).config(config).resplit
    ]
)[0]
ID = _target(*SMALL)[1].id_column


# -- the target table ------------------------------------------------------------------


@pytest.mark.parametrize("name", list(specs()))
def test_targets_resolve_default_configs_and_eval_splits(name: str) -> None:
    """Every config's target is its declaration's: the split scored, and the column its
    rows are keyed by (``index``, the row's position, where rows have no id)."""
    spec = dataset_spec(name)
    assert _target(name, None)[0] == spec.default_config_name
    assert _target(f"{name}:{spec.versions[-1]}", None)[0] == spec.default_config_name
    for config in spec.configs:
        resolved, target = _target(name, config.name)
        assert resolved == config.name and target.eval_split == config.eval_split
        assert target.id_column == (config.id_column or "index")
    with pytest.raises(UnknownNameError, match=f"unknown config 'nope' of {name}"):
        _target(name, "nope")


def test_an_unknown_dataset_has_no_target() -> None:
    with pytest.raises(UnknownNameError, match="unknown dataset 'nope'"):
        _target("nope", None)


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


def _declared(name: str, config: str, table: str) -> Any:
    """The config's declaration of score table ``table``."""
    scoring = dataset_spec(name).config(config).scoring
    return next(declared for declared in scoring.breakdowns if declared.name == table)


@pytest.mark.parametrize(("name", "config"), TARGETS)
def test_perfect_predictions_score_one_and_inverted_zero(name, config, where):
    _, target = _target(name, config)
    id_column = target.id_column
    frame = frame_of(name, config, target.eval_split, where)
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
    scoring = dataset_spec(name).config(config).scoring
    for declared in scoring.breakdowns if scoring else ():
        if isinstance(declared, Fairness):  # equal odds: every group's rates are 1 and 0
            assert best.table(declared.name).rows[0]["equalized_odds_ratio"] == 1.0


# -- input formats ----------------------------------------------------------------------


def test_every_input_format_gives_the_same_report(where, tmp_path: Path) -> None:
    name, config = SMALL
    frame = frame_of(name, config, _target(name, config)[1].eval_split, where)
    labels = random_labels(frame, seed=1)
    probabilities = np.round(np.random.default_rng(2).random(len(frame)), 4)
    table = predictions_frame(frame, ID, labels).assign(score=probabilities)
    table.to_csv(tmp_path / "model.csv", index=False)
    table.to_json(tmp_path / "model.jsonl", orient="records", lines=True)
    import datasets

    mapping = {
        i: {"prediction": int(p), "score": float(s)}
        for i, p, s in zip(table[ID].tolist(), labels, probabilities)
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
    reports = [score(name, form, config=config, **where).to_dict() for form in forms]
    assert all(r == reports[0] for r in reports[1:])
    assert reports[0]["has_scores"] and reports[0]["overall"]["roc_auc"] is not None
    json.dumps(reports[0])  # JSON-ready
    labels_only = score(name, dict(zip(table[ID], labels)), config=config, **where)
    assert labels_only.overall["accuracy"] == reports[0]["overall"]["accuracy"]
    assert "roc_auc" not in labels_only.overall


# -- prediction errors -------------------------------------------------------------------


def _small_predictions(where) -> pd.DataFrame:
    name, config = SMALL
    frame = frame_of(name, config, _target(name, config)[1].eval_split, where)
    return predictions_frame(frame, ID, frame["label"]).astype(object)


def _drop(table: pd.DataFrame) -> pd.DataFrame:
    return table.iloc[7:].reset_index(drop=True)


def _unknown(table: pd.DataFrame) -> pd.DataFrame:
    extra = pd.DataFrame({ID: [-1, -2, 999999], "prediction": [0, 1, 0]})
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


_ID = re.escape(ID)
ERRORS = {
    "missing": (_drop, rf"7 missing {_ID} values: \S+, \S+, \S+, \S+, \S+, \.\.\. \(2 more\)"),
    "unknown": (_unknown, rf"3 unknown {_ID} values: -1, -2, 999999"),
    "duplicate": (_duplicate, rf"2 duplicate {_ID} values: \S+, \S+"),
    "non-binary": (
        _non_binary,
        r"3 non-binary predictions \(expected 0 or 1\): \S+: '?2'?, \S+: 'maybe', ",
    ),
    "probability": (
        _bad_scores,
        r"2 scores not a probability in \[0, 1\]: \S+: '?1\.5'?, \S+: '?-0\.1'?$",
    ),
    "no id column": (
        lambda t: t.rename(columns={ID: f"not_{ID}"}),
        rf"missing column '{_ID}'",
    ),
    "no prediction": (
        lambda t: t.rename(columns={"prediction": "label"}),
        rf"missing column 'prediction' \(columns: {_ID}, label;",
    ),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_prediction_errors_name_offenders_and_counts(case, where, tmp_path: Path) -> None:
    name, config = SMALL
    change, message = ERRORS[case]
    table = change(_small_predictions(where))
    with pytest.raises(PredictionError, match=message):
        score(name, table, config=config, **where)
    path = tmp_path / "model.csv"
    table.to_csv(path, index=False)
    with pytest.raises(PredictionError, match=f"{path}: .*" + message):
        score(name, path, config=config, **where)


def test_probabilities_in_prediction_are_pointed_to_score(where) -> None:
    # Probabilities in `prediction` gave "N non-binary predictions" and no pointer to `score`.
    name, config = SMALL
    table = _small_predictions(where)
    table["prediction"] = [0.25 + 0.5 * (i % 2) for i in range(len(table))]
    with pytest.raises(PredictionError) as raised:
        score(name, table, config=config, **where)
    assert str(raised.value).endswith(
        "; they look like probabilities: put them in a 'score' column and the label (0 or 1, "
        "e.g. 1 where the probability is at least 0.5) in 'prediction'"
    )
    table["prediction"] = [0.25] * (len(table) - 1) + ["maybe"]  # not all probabilities
    with pytest.raises(PredictionError) as raised:
        score(name, table, config=config, **where)
    assert "look like probabilities" not in str(raised.value)


def test_a_tab_separated_file_is_named_as_such(where, tmp_path: Path) -> None:
    # A TSV gave "missing columns ... (columns: case_id\tprediction\tscore)" and no more.
    name, config = SMALL
    path = tmp_path / "model.tsv"
    _small_predictions(where).to_csv(path, index=False, sep="\t")
    with pytest.raises(PredictionError) as raised:
        score(name, path, config=config, **where)
    assert str(raised.value).endswith(
        "; the header is one field with tabs in it: the file looks tab-separated, and "
        "predictions files are comma-separated (CSV) or JSON Lines"
    )


def test_several_problems_are_reported_together(where) -> None:
    name, config = SMALL
    table = _non_binary(_duplicate(_drop(_small_predictions(where))))
    with pytest.raises(PredictionError) as caught:
        score(name, table, config=config, **where)
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
            b'{"' + ID.encode() + b'": 1, "prediction": 0}\n{broken\n',
            ".jsonl",
            "missing.jsonl:2: FILE-UNPARSEABLE is not valid JSON",
            2,
        ),
        (b"[1, 2]\n", ".jsonl", "line 1 is not a JSON object", 1),
    ],
)
def test_unreadable_files(content, suffix, message, status, where, tmp_path: Path) -> None:
    name, config = SMALL
    path = tmp_path / f"missing{suffix}"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(PredictionError, match=message) as raised:
        score(name, path, config=config, **where)
    assert raised.value.exit_code == status


def test_unsupported_prediction_type(where) -> None:
    name, config = SMALL
    with pytest.raises(PredictionError, match="not list"):
        score(name, [0, 1], config=config, **where)


# -- the command line --------------------------------------------------------------------


def _stated_plot_tables() -> list[tuple[str, str]]:
    """Each ``(dataset, config)`` whose ``testing.py`` states the rows of the table its
    heatmap draws (``SCORE_TABLES``): the command-line tests run on each."""
    return [
        (name, config)
        for name in declaring("SCORE_TABLES")
        for config, tables in dataset_facts(name).SCORE_TABLES.items()
        if dataset_spec(name).config(config).scoring.plot[0] in tables
    ]


#: The configs whose heatmap's table ``testing.py`` states (``SCORE_TABLES``).
PLOTTED = _stated_plot_tables()


def _plot_table(name: str, config: str) -> tuple[Breakdown, str, int, dict, dict]:
    """The declared table the config's heatmap draws, its metric, and what ``testing.py``
    states of it: its number of rows, its first row and its last."""
    table, metric = dataset_spec(name).config(config).scoring.plot
    rows, first, last = dataset_facts(name).SCORE_TABLES[config][table]
    return _declared(name, config, table), metric, rows, first, last


def _markdown_cells(row: dict) -> str:
    """A stated row's key and data cells as the markdown report shows them."""
    cells = (f"{value:,}" if isinstance(value, int) else str(value) for value in row.values())
    return "| " + " | ".join(cells) + " |"


def _write_models(where, folder: Path, count: int, name: str, config: str) -> list[Path]:
    _, target = _target(name, config)
    frame = frame_of(name, config, target.eval_split, where)
    paths = []
    for k in range(count):
        path = folder / f"model_{k}.csv"
        labels = random_labels(frame, seed=k)
        predictions_frame(frame, target.id_column, labels).to_csv(path, index=False)
        paths.append(path)
    return paths


def _cli(where, *args: str) -> int:
    return main(["score", *args, "--cache-dir", where["cache_dir"], "--mirror", where["mirror"]])


@pytest.mark.parametrize(("name", "config"), PLOTTED)
def test_cli_side_by_side_formats(name, config, where, tmp_path: Path, capsys) -> None:
    declared, _, rows, first, last = _plot_table(name, config)
    paths = [str(p) for p in _write_models(where, tmp_path, 2, name, config)]
    models = ["model_0", "model_1"]
    assert _cli(where, name, "--config", config, "--predictions", *paths) == 0
    markdown = capsys.readouterr().out
    metrics = declared.metrics
    columns = (
        models if len(metrics) == 1 else [f"{m} ({model})" for m in metrics for model in models]
    )
    assert "| " + " | ".join([*first, *columns]) + " |" in markdown
    assert _markdown_cells(first) in markdown and _markdown_cells(last) in markdown

    args = [name, "--config", config, "--predictions", *paths, "--format"]
    assert _cli(where, *args, "json") == 0
    document = json.loads(capsys.readouterr().out)
    assert list(document["models"]) == models
    assert len(document["models"]["model_0"]["tables"][declared.name]["rows"]) == rows

    assert _cli(where, *args, "csv") == 0
    found = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out))
    assert list(found.columns) == ["table", "row", "metric", *models]
    cell = found[(found["table"] == declared.name) & (found["metric"] == "n")]
    assert len(cell) == rows
    if declared.rows is None:  # a table of every scored row counts each once
        assert cell["model_0"].astype(int).sum() == _scored_rows(name, config)


def test_cli_prediction_error_is_one_line_exit_1(where, tmp_path: Path, capsys) -> None:
    name, config = SMALL
    path = tmp_path / "short.csv"
    _drop(_small_predictions(where)).to_csv(path, index=False)
    assert _cli(where, name, "--config", config, "--predictions", str(path)) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and f"7 missing {ID}" in lines[0]


def test_cli_subprocess_has_no_traceback(where, tmp_path: Path) -> None:
    """On the plain dataset (support.real): one row predicted, and that one not 0 or 1."""
    config, target = _target(HATEMOJI_CHECK, None)
    first = ids_of(frame_of(HATEMOJI_CHECK, config, target.eval_split, where), target.id_column)[0]
    path = tmp_path / "model.csv"
    path.write_text(f"{target.id_column},prediction\n{first},3\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "hatemoji_datasets", "score", HATEMOJI_CHECK]
        + ["--predictions", str(path), "--cache-dir", where["cache_dir"]]
        + ["--mirror", where["mirror"]],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    missing = _scored_rows(HATEMOJI_CHECK, config) - 1
    assert f"{missing:,} missing {target.id_column} values" in result.stderr
    assert f"1 non-binary prediction (expected 0 or 1): {first}: '3'" in result.stderr


def test_cli_module_does_not_import_sklearn() -> None:
    code = "import sys, hatemoji_datasets.cli; print('sklearn' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


@pytest.mark.parametrize(("name", "config"), PLOTTED)
def test_plot_has_one_column_per_model(name, config, where, tmp_path: Path, capsys) -> None:
    from PIL import Image

    from hatemoji_datasets.evaluate.plot import heatmap_matrix

    declared, metric, rows, first, last = _plot_table(name, config)
    paths = [str(p) for p in _write_models(where, tmp_path, 3, name, config)]
    one, three = tmp_path / "one.png", tmp_path / "plots" / "three.png"
    three.parent.mkdir()  # a plot's folder must exist: it is never made
    args = [name, "--config", config, "--predictions"]
    assert _cli(where, *args, paths[0], "--plot", str(one)) == 0
    assert _cli(where, *args, *paths, "--plot", str(three)) == 0
    capsys.readouterr()
    with Image.open(one) as small, Image.open(three) as large:
        assert small.format == large.format == "PNG"
        assert large.text["Description"] == "models: model_0, model_1, model_2"
        assert large.height == small.height and large.width > small.width
        pixels = np.asarray(large)
        assert pixels.ndim == 3 and pixels.shape[:2] == (large.height, large.width)

    reports = {Path(p).stem: score(name, p, config=config, **where) for p in paths}
    labels, models, values = heatmap_matrix(reports)
    assert values.shape == (rows, 3) and models == ["model_0", "model_1", "model_2"]
    keys = declared.keys or declared.by  # a row is labelled by its keys
    assert labels[0] == " ".join(str(first[key]) for key in keys)
    assert labels[-1] == " ".join(str(last[key]) for key in keys)
    middle = rows // 2
    expected = [r.table(declared.name).rows[middle][metric] for r in reports.values()]
    assert values[middle].tolist() == pytest.approx(expected)


def test_plot_without_matplotlib_is_a_clear_error(where, tmp_path, monkeypatch) -> None:
    from hatemoji_datasets.evaluate.plot import plot_heatmap

    name, config = SMALL
    frame = frame_of(name, config, _target(name, config)[1].eval_split, where)
    report = score(name, dict.fromkeys(ids_of(frame, ID), 1), config=config, **where)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(OptionalDependencyError, match=r"pip install 'hatemoji-datasets\[plot\]'"):
        plot_heatmap({"m": report}, tmp_path / "x.png")
    assert issubclass(OptionalDependencyError, HatemojiDatasetsError)


def test_plot_needs_an_image_path(where, tmp_path: Path, capsys) -> None:
    name, config = SMALL
    path = _write_models(where, tmp_path, 1, name, config)[0]
    args = [name, "--config", config, "--predictions", str(path), "--plot", "x.jpg"]
    assert _cli(where, *args) == 1
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


#: How a plot's title names each metric a score table may hold.
METRIC_WORDS = {
    "accuracy": "accuracy",
    "f1_hateful": "F1 of the hateful class",
    "f1_macro": "macro F1",
    "recall": "recall of the gold class",
    "false_positive_rate": "false positive rate",
    "false_negative_rate": "false negative rate",
    "both_correct": "share of pairs with both members right",
}


def _title_cases() -> list[tuple[str, str]]:
    """The first config (in registry order) whose heatmap's table has a title that does not
    name the metric drawn, and the first whose title does: the plot's title adds the
    metric's name to the one, and leaves the other as it is."""
    found: dict[bool, tuple[str, str]] = {}
    for name, config in all_configs():
        scoring = dataset_spec(name).config(config).scoring
        if scoring is not None:
            table, metric = scoring.plot
            title = _declared(name, config, table).title
            found.setdefault(METRIC_WORDS[metric].lower() in title.lower(), (name, config))
    return [found[names] for names in (False, True) if names in found]


@pytest.mark.parametrize(("name", "config"), _title_cases())
def test_every_plot_title_names_its_metric(name, config, where, tmp_path: Path) -> None:
    from PIL import Image

    from hatemoji_datasets.evaluate.plot import plot_heatmap, plot_title

    _, target = _target(name, config)
    frame = frame_of(name, config, target.eval_split, where)
    report = score(name, dict.fromkeys(ids_of(frame, target.id_column), 1), config=config, **where)
    table, metric = dataset_spec(name).config(config).scoring.plot
    title, words = _declared(name, config, table).title, METRIC_WORDS[metric]
    named = title if words.lower() in title.lower() else f"{title}: {words}"
    assert plot_title(report).splitlines() == [f"{name} ({config}) {target.eval_split}", named]
    path = tmp_path / f"{name}.png"
    plot_heatmap({"m": report}, path)
    with Image.open(path) as image:
        assert image.text["Title"] == f"{name} {metric}"


@pytest.mark.parametrize(("name", "config"), PLOTTED)
def test_cli_markdown_keeps_a_model_name_in_its_cell(
    name, config, where, tmp_path: Path, capsys
) -> None:
    """A model named from its file may hold ``|`` or a newline: both are escaped, so every
    row of a markdown table keeps its number of cells."""
    declared, _, rows, _, _ = _plot_table(name, config)
    plain, path = _write_models(where, tmp_path, 2, name, config)
    odd = path.with_name("a|b\nc.csv")
    path.rename(odd)
    capsys.readouterr()
    assert _cli(where, name, "--config", config, "--predictions", str(plain), str(odd)) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index(f"### {declared.title}") + 2
    header = lines[start]
    assert header.endswith("| a\\|b\\nc |")
    table = lines[start : lines.index("", start)]
    assert len(table) == 2 + rows  # header, rule, one row per row of the table
    assert {line.replace("\\|", "").count("|") for line in table} == {header.count("|") - 1}
