"""The evaluation report: failing cases, Wilson intervals, McNemar tests, lockfiles, LaTeX
and the heatmap as SVG and PDF (the HTML page: tests/test_score_html.py).

The statistics are checked against statsmodels, and the report's cells against the same
figures computed here from the data with pandas: on small synthetic counts, and on the
real data of the config with a declared matrix that scores the fewest rows.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from support.cli import one_error_line, run_cli
from support.frames import frame_of, predictions_frame
from support.paths import all_configs

pytest.importorskip("sklearn")
pytest.importorskip("fairlearn")
stats = pytest.importorskip("statsmodels.stats.proportion")
tables = pytest.importorskip("statsmodels.stats.contingency_tables")
multitest = pytest.importorskip("statsmodels.stats.multitest")

from hatemoji_datasets.core.errors import FingerprintError, LockError  # noqa: E402
from hatemoji_datasets.core.features import LABEL_NAMES  # noqa: E402
from hatemoji_datasets.core.registry import dataset_spec  # noqa: E402
from hatemoji_datasets.evaluate import compare, score, score_models  # noqa: E402
from hatemoji_datasets.evaluate.latex import escape  # noqa: E402
from hatemoji_datasets.evaluate.scoring import scoring_target  # noqa: E402
from hatemoji_datasets.evaluate.significance import holm, mcnemar_exact, wilson  # noqa: E402

# -- the statistics, against statsmodels ---------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 20, 21, 300, 3930])
def test_wilson_matches_statsmodels(n: int) -> None:
    for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        low, high = stats.proportion_confint(k, n, alpha=0.05, method="wilson")
        assert wilson(k, n) == pytest.approx((low, high), abs=1e-12), (k, n)
    assert wilson(0, 0) is None


@pytest.mark.parametrize(
    ("b", "c"), [(0, 0), (0, 1), (1, 0), (3, 9), (10, 10), (40, 70), (700, 810)]
)
def test_exact_mcnemar_matches_statsmodels(b: int, c: int) -> None:
    expected = tables.mcnemar([[11, b], [c, 5]], exact=True).pvalue
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_holm_matches_statsmodels() -> None:
    rng = np.random.default_rng(3)
    for size in (1, 2, 7, 28):
        pvalues = list(rng.random(size) ** 3)
        pvalues[0] = pvalues[-1]  # a tie
        expected = multitest.multipletests(pvalues, alpha=0.05, method="holm")[1]
        assert holm(pvalues) == pytest.approx(list(expected), abs=1e-12)


# -- the real data: one config with a matrix -----------------------------------------------


def _matrix_config() -> tuple[str, str]:
    """Of the configs that declare a matrix, the one scoring the fewest rows (testing.py)."""
    from conftest import dataset_facts

    declared = [
        (name, config)
        for name, config in all_configs()
        if (scoring := dataset_spec(name).config(config).scoring) and scoring.matrix
    ]

    def rows(pair: tuple[str, str]) -> int:
        split = dataset_spec(pair[0]).config(pair[1]).eval_split
        return dataset_facts(pair[0]).SPLITS[pair[1]][split]

    return min(declared, key=rows)


NAME, CONFIG = _matrix_config()
TARGET = scoring_target(NAME, CONFIG)[1]
SCORING = dataset_spec(NAME).config(CONFIG).scoring
CELLS = SCORING.matrix.table
BY = next(b for b in SCORING.breakdowns if getattr(b, "name", None) == CELLS).by
EXAMPLES = 3


def _frame(where) -> pd.DataFrame:
    return frame_of(NAME, CONFIG, TARGET.eval_split, where)


def _models(where, folder: Path) -> dict[str, Path]:
    """Two models: random labels with scores, and the gold labels with about a third flipped."""
    frame = _frame(where)
    rng = np.random.default_rng(11)
    first = predictions_frame(frame, TARGET.id_column, rng.integers(0, 2, len(frame)))
    first["score"] = rng.random(len(frame)).round(6)
    flipped = frame["label"].to_numpy() ^ (rng.random(len(frame)) < 0.3)
    second = predictions_frame(frame, TARGET.id_column, flipped.astype(int))
    paths = {"random": folder / "random.csv", "flipped": folder / "flipped.csv"}
    first.to_csv(paths["random"], index=False)
    second.to_csv(paths["flipped"], index=False)
    return paths


def _cli_json(where, *args: str) -> dict:
    result = run_cli("score", NAME, "--config", CONFIG, *args, "--format", "json", *_opts(where))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _opts(where) -> list[str]:
    return ["--cache-dir", where["cache_dir"], "--mirror", where["mirror"]]


def _expected_cells(where, paths: dict[str, Path]) -> dict[str, list[dict]]:
    """Per model, per cell of the matrix table (in the columns' code order): n, right,
    the ids of the wrong predictions in id order; computed here with pandas."""
    frame = _frame(where)
    found = {}
    for model, path in paths.items():
        given = pd.read_csv(path).set_index(TARGET.id_column)
        predicted = given.loc[frame[TARGET.id_column], "prediction"].to_numpy()
        right = predicted == frame["label"].to_numpy()
        cells = []
        for _, group in frame.assign(_right=right).groupby(list(BY), sort=True):
            wrong = sorted(group.loc[~group["_right"], TARGET.id_column].tolist())
            flags = group.sort_values(TARGET.id_column)["_right"].to_numpy()  # row by row
            cells.append(
                {"n": len(group), "right": int(flags.sum()), "wrong": wrong, "flags": flags}
            )
        found[model] = cells
    return found


def test_failing_cases_intervals_and_tests_match_an_independent_count(where, tmp_path) -> None:
    paths = _models(where, tmp_path)
    files = [str(paths["random"]), str(paths["flipped"])]
    document = _cli_json(where, "--predictions", *files, "--examples", str(EXAMPLES), "--stats")
    expected = _expected_cells(where, paths)
    frame = _frame(where).set_index(TARGET.id_column)
    scores = pd.read_csv(paths["random"]).set_index(TARGET.id_column)["score"]
    for model in paths:
        rows = document["models"][model]["tables"][CELLS]["rows"]
        assert len(rows) == len(expected[model])
        for row, cell in zip(rows, expected[model], strict=True):
            assert row["n"] == cell["n"] and row["wrong"] == len(cell["wrong"])
            assert [case["id"] for case in row["failing"]] == cell["wrong"][:EXAMPLES]
            for case in row["failing"]:
                gold = int(frame.loc[case["id"], "label"])
                assert case["text"] == frame.loc[case["id"], "text"]
                assert (case["gold"], case["prediction"]) == (
                    LABEL_NAMES[gold],
                    LABEL_NAMES[1 - gold],
                )
                wanted = scores.loc[case["id"]] if model == "random" else None
                assert case["score"] == pytest.approx(wanted) if wanted else case["score"] is None
            low, high = stats.proportion_confint(cell["right"], cell["n"], method="wilson")
            assert row["accuracy_interval"] == pytest.approx([low, high], abs=1e-12)
    # McNemar of "flipped" against the first model, per cell, Holm over the table's cells
    paired = document["paired"]
    assert paired["baseline"] == "random" and "Holm" in paired["correction"]
    tests = paired["models"]["flipped"]["tables"][CELLS]
    raw = []
    for i, (cell, pair) in enumerate(zip(expected["random"], expected["flipped"], strict=True)):
        base, other = cell["flags"], pair["flags"]
        table = [[int((base & other).sum()), int((base & ~other).sum())]]
        table.append([int((~base & other).sum()), int((~base & ~other).sum())])
        raw.append(tables.mcnemar(table, exact=True).pvalue)
        assert (tests[i]["b"], tests[i]["c"]) == (table[0][1], table[1][0])
        assert tests[i]["p"] == pytest.approx(raw[-1], rel=1e-9)
    adjusted = multitest.multipletests(raw, method="holm")[1]
    for test, p in zip(tests, adjusted, strict=True):
        assert test["p_holm"] == pytest.approx(p, rel=1e-9)
        assert test["significant"] == (p < 0.05)


def test_mcnemar_pairs_each_row_with_itself(where, tmp_path) -> None:
    """The discordant counts come from the same rows: computed here over the whole split."""
    paths = _models(where, tmp_path)
    frame = _frame(where)
    right = {}
    for model, path in paths.items():
        given = pd.read_csv(path).set_index(TARGET.id_column)
        right[model] = (
            given.loc[frame[TARGET.id_column], "prediction"].to_numpy() == frame["label"].to_numpy()
        )
    comparison = score_models(
        NAME, {m: p for m, p in paths.items()}, config=CONFIG, baseline="flipped", **where
    )
    test = comparison.paired.overall["random"]
    b = int((right["flipped"] & ~right["random"]).sum())
    c = int((~right["flipped"] & right["random"]).sum())
    assert (test.b, test.c) == (b, c)
    table = [[0, b], [c, 0]]
    assert test.p == pytest.approx(tables.mcnemar(table, exact=True).pvalue, rel=1e-9)
    frame_out = comparison.to_frame()
    assert set(frame_out["model"]) == {"random", "flipped"}
    assert frame_out.loc[frame_out["table"] == CELLS, "accuracy_low"].notna().all()


def test_markdown_and_csv_list_failing_cases_and_statistics(where, tmp_path) -> None:
    paths = _models(where, tmp_path)
    files = [str(paths["random"]), str(paths["flipped"])]
    common = ["score", NAME, "--config", CONFIG, "--predictions", *files, *_opts(where)]
    markdown = run_cli(*common, "--examples", "2", "--baseline", "flipped")
    assert markdown.returncode == 0, markdown.stderr
    text = markdown.stdout
    assert "Content warning" in text and "| cell | model | id | text | gold | prediction |" in text
    assert "p vs flipped (random)" in text and "95% CI" in text
    assert "exact McNemar" in text and "Holm" in text
    document = _cli_json(where, "--predictions", *files, "--examples", "2")
    first = document["models"]["random"]["tables"][CELLS]["rows"][0]
    assert "accuracy_interval" not in first  # intervals only with --stats
    for case in first["failing"]:
        assert f"| {case['id']} | " in text and case["text"].replace("|", "\\|") in text
    csv = run_cli(*common, "--examples", "2", "--stats", "--format", "csv")
    long = pd.read_csv(io.StringIO(csv.stdout), dtype=str, keep_default_na=False)
    cell = long[
        (long["table"] == CELLS) & (long["row"] == long["row"][long["table"] == CELLS].iloc[0])
    ]
    shown = dict(zip(cell["metric"], cell["random"], strict=True))
    assert shown["failing_1_id"] == str(first["failing"][0]["id"])
    assert shown["failing_2_text"] == first["failing"][1]["text"]
    assert float(shown["accuracy_low"]) < float(shown["accuracy"]) < float(shown["accuracy_high"])
    assert "mcnemar_p_holm" in set(cell["metric"])


def test_without_new_flags_the_text_formats_hold_nothing_new(where, tmp_path) -> None:
    paths = _models(where, tmp_path)
    result = run_cli("score", NAME, "--config", CONFIG, "--predictions", str(paths["random"]),
                     "--format", "csv", *_opts(where))  # fmt: skip
    assert not re.search(r"failing|accuracy_low|mcnemar", result.stdout)
    document = _cli_json(where, "--predictions", str(paths["random"]))
    assert document["fingerprint"].startswith("sha256:")
    assert "paired" not in document and "failing" not in json.dumps(document)


def test_bad_flags_are_one_clear_line(where, tmp_path) -> None:
    paths = _models(where, tmp_path)
    common = ["score", NAME, "--predictions", str(paths["random"]), *_opts(where)]
    unknown = run_cli(*common, "--baseline", "nobody")
    assert unknown.returncode == 1 and "'nobody' is none of the models scored: random" in (
        one_error_line(unknown.stderr)
    )
    negative = run_cli(*common, "--examples", "-1")
    assert negative.returncode == 2 and "must be 0 or more" in negative.stderr
    jpeg = run_cli(*common, "--plot", str(tmp_path / "h.jpg"))
    assert jpeg.returncode == 1 and ".png, .svg or .pdf" in one_error_line(jpeg.stderr)
    page = run_cli(*common, "--html", str(tmp_path / "missing" / "r.html"))
    assert page.returncode == 1 and "does not exist" in one_error_line(page.stderr)
    with pytest.raises(Exception, match="whole number"):
        score(NAME, str(paths["random"]), config=CONFIG, examples=-2, **where)


# -- lockfiles -----------------------------------------------------------------------------


def test_score_against_a_lock_records_and_checks_its_fingerprints(where, tmp_path) -> None:
    paths = _models(where, tmp_path)
    lock = tmp_path / "project.lock"
    made = run_cli("lock", f"{NAME}/{CONFIG}", "-o", str(lock), *_opts(where))
    assert made.returncode == 0, made.stderr
    locked = re.findall(r'name = "([^"]+)"\nrows = \d+\nfingerprint = "([^"]+)"', lock.read_text())
    document = _cli_json(where, "--predictions", str(paths["random"]), "--lock", str(lock))
    assert document["lock"]["fingerprints"] == dict(locked)
    assert document["fingerprint"] == dict(locked)[TARGET.eval_split]
    report = score(NAME, str(paths["random"]), config=CONFIG, lock=lock, **where)
    assert report.lock is not None and report.lock.fingerprints == dict(locked)
    # the page and the markdown name it too
    markdown = run_cli("score", NAME, "--config", CONFIG, "--predictions", str(paths["random"]),
                       "--lock", str(lock), *_opts(where)).stdout  # fmt: skip
    assert f"Scored against lockfile `{lock}`" in markdown

    tampered = tmp_path / "tampered.lock"
    digest = dict(locked)[TARGET.eval_split]
    tampered.write_text(lock.read_text().replace(digest, "sha256:" + "0" * 64), encoding="utf-8")
    with pytest.raises(FingerprintError, match="does not match"):
        score(NAME, str(paths["random"]), config=CONFIG, lock=tampered, **where)
    refused = run_cli("score", NAME, "--config", CONFIG, "--predictions", str(paths["random"]),
                      "--lock", str(tampered), "--format", "json", *_opts(where))  # fmt: skip
    assert refused.returncode == 1 and json.loads(refused.stdout)["error"]["code"] == "FINGERPRINT"
    other = next((n, c) for n, c in all_configs() if n != NAME)
    with pytest.raises(LockError, match="does not lock"):
        score(other[0], {}, config=other[1], lock=lock, **where)


# -- LaTeX, SVG and PDF --------------------------------------------------------------------


def test_latex_escapes_what_latex_reads_specially() -> None:
    assert escape("f1_macro & 95% <0.001 #1 {x} ~ ^ \\") == (
        r"f1\_macro \& 95\% \textless{}0.001 \#1 \{x\} \textasciitilde{} "
        r"\textasciicircum{} \textbackslash{}"
    )


def test_latex_tables_are_booktabs_with_the_reports_figures(where, tmp_path) -> None:
    paths = _models(where, tmp_path)
    files = [str(paths["random"]), str(paths["flipped"])]
    result = run_cli("score", NAME, "--config", CONFIG, "--predictions", *files, "--stats",
                     "--format", "latex", *_opts(where))  # fmt: skip
    assert result.returncode == 0, result.stderr
    latex = result.stdout
    document = _cli_json(where, "--predictions", *files, "--stats")
    environments = re.findall(r"\\begin\{tabular\}\{([lr]+)\}\n(.*?)\\end\{tabular\}", latex, re.S)
    assert len(environments) == 1 + len(document["models"]["random"]["tables"])
    for align, body in environments:
        lines = body.splitlines()
        assert lines[0] == r"\toprule" and lines[2] == r"\midrule" and lines[-1] == r"\bottomrule"
        for line in lines[1:2] + lines[3:-1]:
            assert line.endswith(r" \\") and line.count(" & ") == len(align) - 1, line
    for report in document["models"].values():
        for row in report["tables"][CELLS]["rows"]:
            assert f"{row['accuracy']:.3f}" in latex
            low, high = row["accuracy_interval"]
            assert f"[{low:.3f}, {high:.3f}]" in latex
    assert "Holm" in latex and "Wilson" in latex


@pytest.mark.parametrize("suffix", ["svg", "pdf"])
def test_plot_writes_svg_and_pdf_by_suffix(where, tmp_path, suffix: str) -> None:
    pytest.importorskip("matplotlib")
    paths = _models(where, tmp_path)
    figure = tmp_path / f"heatmap.{suffix}"
    result = run_cli("score", NAME, "--config", CONFIG, "--predictions", str(paths["random"]),
                     "--plot", str(figure), "--format", "json", *_opts(where))  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = figure.read_bytes()
    if suffix == "pdf":
        assert data.startswith(b"%PDF-")
        return
    svg = data.decode("utf-8")
    assert "<svg" in svg and "<text" in svg  # values as text, not outlines
    report = json.loads(result.stdout)["models"]["random"]
    table, metric = SCORING.plot
    drawn = re.findall(r">(\d\.\d\d|n/a)</text>", svg)
    values = [row[metric] for row in report["tables"][table]["rows"]]
    expected = [f"{v:.2f}" for v in values if v is not None]
    assert [d for d in drawn if d != "n/a"][: len(expected)] == expected
    again = tmp_path / "again.svg"
    run_cli("score", NAME, "--config", CONFIG, "--predictions", str(paths["random"]),
            "--plot", str(again), *_opts(where))  # fmt: skip
    assert again.read_bytes() == data  # the same figure, byte for byte


def test_compare_takes_one_report(where, tmp_path) -> None:
    paths = _models(where, tmp_path)
    report = score(NAME, str(paths["random"]), config=CONFIG, examples=1, **where)
    single = compare(report)
    assert single.paired is None
    assert "95% CI" in single.to_markdown() and "Failing cases" in single.to_markdown()
    assert single.to_dict()["models"]["model"]["overall_interval"]["accuracy"][0] < 1


def test_group_accuracy_is_sklearns() -> None:
    """The tables' accuracy skips scikit-learn's label checks; the value is its own."""
    from sklearn.metrics import accuracy_score

    from hatemoji_datasets.evaluate.metrics import GOLD, GROUP_METRICS, PREDICTED

    rng = np.random.default_rng(5)
    for size in (1, 2, 3, 20, 999, 3930):
        group = pd.DataFrame({GOLD: rng.integers(0, 2, size), PREDICTED: rng.integers(0, 2, size)})
        expected = accuracy_score(group[GOLD], group[PREDICTED])
        assert GROUP_METRICS["accuracy"](None, group) == expected  # exactly
