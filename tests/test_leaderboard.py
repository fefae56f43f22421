"""The leaderboard: many runs, grouped over seeds, against independent computations.

Scores are checked against scikit-learn and pandas on the same predictions (never against
the package's own numbers). The published tables it reproduces are each dataset's own
tests: MHC Spanish in ``test_multilingual_hatecheck_reproducing.py``, the Hatemoji main
table's HateCheck cells in ``test_hatecheck_reproducing.py``; APEACH's two releases in
``test_apeach.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from support.cli import one_error_line
from support.real import HATEMOJI_CHECK

from hatemoji_datasets import load_dataset
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.errors import FingerprintError, PredictionError
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.evaluate import leaderboard
from hatemoji_datasets.evaluate.leaderboards import confusion_scores, layouts
from hatemoji_datasets.evaluate.runs import NamePattern, find_runs
from hatemoji_datasets.harness.tasks import task_name

metrics = pytest.importorskip("sklearn.metrics")

MHC_PATTERN = "{model}_{size}_rs{seed}.csv"


def sklearn_scores(gold, predicted) -> dict[str, float]:
    """The three metrics as scikit-learn computes them, the package's definitions."""
    kw = {"labels": [0, 1], "zero_division": np.nan}
    return {
        "accuracy": metrics.accuracy_score(gold, predicted),
        "f1_hateful": metrics.f1_score(gold, predicted, average="binary", **kw),
        "f1_macro": metrics.f1_score(gold, predicted, average="macro", **kw),
    }


# -- hand-built arrays and names: no dataset needed ------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_confusion_scores_equal_sklearn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    gold = rng.integers(0, 2, n)
    if seed == 4:
        gold[:] = 0  # one class only: F1 of hateful undefined unless predicted
    runs = rng.integers(0, 2, (7, n))
    runs[0] = gold
    runs[1] = 1 - gold
    runs[2] = 0
    runs[3] = 1
    found = confusion_scores(runs, gold)
    for index, predicted in enumerate(runs):
        expected = sklearn_scores(gold, predicted)
        for metric, value in expected.items():
            assert found[metric][index] == pytest.approx(value, nan_ok=True, abs=1e-12), metric


def test_name_pattern_fields() -> None:
    pattern = NamePattern(MHC_PATTERN)
    assert pattern.settings == ("size",)
    assert pattern.match("xlmt_dyn21_en_0_20_rs10.csv") == {
        "model": "xlmt_dyn21_en_0",
        "size": "20",
        "seed": "10",
    }
    assert pattern.match("xlmt_dyn21_en_0_20.csv") is None
    assert NamePattern(r"{model}-{seed:\d+}.csv").match("a-b-7.csv") == {
        "model": "a-b",
        "seed": "7",
    }
    assert NamePattern(r"{model}-{seed:\d+}.csv").match("a-x.csv") is None


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("{size}_rs{seed}.csv", "has no {model} field"),
        ("{model}_{model}.csv", "names the field {model} twice"),
        ("{model}_{seed:[}.csv", "is not a regular expression"),
    ],
)
def test_bad_patterns(pattern: str, message: str) -> None:
    with pytest.raises(PredictionError, match=re.escape(message)):
        NamePattern(pattern)


def _touch(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_text("case_id,prediction\n", encoding="utf-8")
    return folder


def test_runs_from_folders_globs_and_files(tmp_path: Path) -> None:
    runs = _touch(tmp_path / "runs", "a_20_rs1.csv", "a_20_rs2.csv", "b_20_rs1.csv")
    _touch(runs / "deeper", "c_200_rs1.csv")
    (runs / "README.md").write_text("not a run", encoding="utf-8")
    found = find_runs({HATEMOJI_CHECK: runs}, MHC_PATTERN)
    assert sorted((r.model, r.setting, r.seed) for r in found) == [
        ("a", (("size", "20"),), "1"),
        ("a", (("size", "20"),), "2"),
        ("b", (("size", "20"),), "1"),
        ("c", (("size", "200"),), "1"),
    ]
    globbed = find_runs({HATEMOJI_CHECK: str(runs / "a_*.csv")}, MHC_PATTERN)
    assert [r.path.name for r in globbed] == ["a_20_rs1.csv", "a_20_rs2.csv"]
    plain = find_runs({HATEMOJI_CHECK: [runs / "a_20_rs1.csv"]})
    assert [(r.model, r.seed) for r in plain] == [("a_20_rs1", None)]


def test_bad_run_sources_name_the_file(tmp_path: Path) -> None:
    runs = _touch(tmp_path / "runs", "a_20_rs1.csv", "b_20_rs1.csv")
    empty = _touch(tmp_path / "empty")
    cases = {
        f"{empty}: an empty group: the folder holds no .csv or .jsonl file": {
            HATEMOJI_CHECK: empty
        },
        f"{tmp_path}/none*.csv: an empty group: the glob matches no file": {
            HATEMOJI_CHECK: f"{tmp_path}/none*.csv"
        },
        f"{runs}: the pattern '{{model}}-{{seed}}.txt' matches none of its 2 file(s)": {
            HATEMOJI_CHECK: runs
        },
    }
    for message, given in cases.items():
        pattern = "{model}-{seed}.txt" if "pattern" in message else MHC_PATTERN
        with pytest.raises(PredictionError, match=re.escape(message)):
            find_runs(given, pattern)
    _touch(runs, "stray.csv")
    with pytest.raises(PredictionError, match=re.escape(f"{runs / 'stray.csv'}: its name")):
        find_runs({HATEMOJI_CHECK: runs}, MHC_PATTERN)
    with pytest.raises(PredictionError, match="name the dataset config"):
        find_runs([runs / "a_20_rs1.csv"], MHC_PATTERN)


def test_two_runs_claiming_one_seed_are_refused(tmp_path: Path) -> None:
    one = _touch(tmp_path / "one", "a_20_rs1.csv")
    two = _touch(tmp_path / "two", "a_20_rs1.csv")
    config = dataset_spec(HATEMOJI_CHECK).default_config_name
    with pytest.raises(PredictionError) as raised:
        find_runs({HATEMOJI_CHECK: [one, two]}, MHC_PATTERN)
    assert str(raised.value) == (
        f"{two / 'a_20_rs1.csv'}: it and {one / 'a_20_rs1.csv'} both claim model a, size 20, "
        f"seed 1 on {HATEMOJI_CHECK}/{config}; give each run a name of its own (a {{seed}} field?)"
    )
    # The same runs on two configs are two columns, not a clash; the same file twice is named.
    assert (
        len(find_runs({HATEMOJI_CHECK: one, f"{HATEMOJI_CHECK}/{config}:1.0.0": two}, MHC_PATTERN))
        == 2
    )
    with pytest.raises(PredictionError, match="given twice"):
        find_runs({HATEMOJI_CHECK: [one, one / "a_20_rs1.csv"]}, MHC_PATTERN)


def test_the_layouts_name_real_configs() -> None:
    for layout in layouts().values():
        for reference, _ in layout.columns:
            name, _, config = reference.partition("/")
            assert config in dataset_spec(name).config_names, reference
    assert [h for _, h in layouts()["hatemoji"].columns][-2:] == ["HatemojiCheck", "HateCheck"]


# -- runs on the real data ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def gold(mirror: Path, session_cache: Path) -> pd.DataFrame:
    """The plain dataset's scored split: id and gold label."""
    config = dataset_spec(HATEMOJI_CHECK).config()
    split = load_dataset(
        HATEMOJI_CHECK, split=config.eval_split, cache_dir=str(session_cache), mirror=str(mirror)
    )
    return split.select_columns([config.id_column, "label"]).to_pandas()


@pytest.fixture
def board_runs(gold: pd.DataFrame, tmp_path: Path) -> Path:
    """Two models x two settings x three seeds of random predictions, rows shuffled, labels
    as numbers or names."""
    rng = np.random.default_rng(7)
    id_column = gold.columns[0]
    folder = tmp_path / "runs"
    folder.mkdir()
    for model, bias in (("alpha", 0.3), ("beta", 0.7)):
        for size in ("20", "200"):
            for seed in (1, 2, 3):
                predicted = (rng.random(len(gold)) < bias).astype(int)
                frame = pd.DataFrame({id_column: gold[id_column], "prediction": predicted})
                if seed == 2:
                    frame["prediction"] = frame["prediction"].map({0: "non-hateful", 1: "hateful"})
                frame = frame.sample(frac=1, random_state=seed)
                frame.to_csv(folder / f"{model}_{size}_rs{seed}.csv", index=False)
    return folder


def _independent(gold: pd.DataFrame, folder: Path) -> pd.DataFrame:
    """The loop a researcher writes: read each run, align it by id, score it, average."""
    id_column = gold.columns[0]
    truth = gold.set_index(id_column)["label"]
    records = []
    for path in sorted(folder.glob("*.csv")):
        model, size, seed = re.fullmatch(r"(.+)_(.+)_rs(.+)\.csv", path.name).groups()
        run = pd.read_csv(path).set_index(id_column)["prediction"]
        run = run.replace({"hateful": 1, "non-hateful": 0}).astype(int).reindex(truth.index)
        records.append({"model": model, "size": size, **sklearn_scores(truth, run)})
    frame = pd.DataFrame(records).groupby(["model", "size"])
    stds = frame.std(ddof=1).add_suffix("_std")
    return frame.mean().join(stds).join(frame.size().rename("runs"))


def test_groups_equal_an_independent_loop(
    gold: pd.DataFrame, board_runs: Path, mirror: Path, session_cache: Path
) -> None:
    report = leaderboard(
        {HATEMOJI_CHECK: board_runs},
        pattern=MHC_PATTERN,
        cache_dir=str(session_cache),
        mirror=str(mirror),
    )
    expected = _independent(gold, board_runs)
    found = report.to_frame().set_index(["model", "size"])
    assert sorted(found.index) == sorted(expected.index)
    for key, row in expected.iterrows():
        for column in ("accuracy", "f1_hateful", "f1_macro", "accuracy_std", "f1_macro_std"):
            assert found.loc[key, column] == pytest.approx(row[column], abs=1e-12), (key, column)
        assert found.loc[key, "runs"] == row["runs"] == 3
    assert [r.model for r in report.rows] == ["alpha", "alpha", "beta", "beta"]
    column = report.columns[0]
    spec = dataset_spec(HATEMOJI_CHECK)
    recorded = (spec.package_dir / "fingerprints.tsv").read_text(encoding="utf-8")
    assert f"\t{column.split}\t{column.n}\t{column.fingerprint}\t" in recorded
    assert column.version == spec.version and column.n == len(gold)


def test_renderings(board_runs: Path, mirror: Path, session_cache: Path) -> None:
    report = leaderboard(
        {HATEMOJI_CHECK: board_runs},
        pattern=MHC_PATTERN,
        metrics=["f1_macro"],
        names={"alpha": "A_1 & co"},
        cache_dir=str(session_cache),
        mirror=str(mirror),
    )
    cell = report.row("A_1 & co", size="200").cells[report.columns[0].heading]
    mean, std = cell.mean, cell.std
    shown = f"{mean['f1_macro']:.3f} ± {std['f1_macro']:.3f}"
    markdown = report.to_markdown()
    assert f"| A_1 & co | 200 | {shown} | 3 |" in markdown
    assert report.columns[0].fingerprint in markdown
    latex = report.to_latex()
    assert r"\toprule" in latex and r"\midrule" in latex and r"\bottomrule" in latex
    in_latex = shown.replace("±", r"$\pm$")
    assert rf"A\_1 \& co & 200 & {in_latex} & 3 \\" in latex
    page = report.to_html()
    assert page.startswith("<!DOCTYPE html>") and "A_1 &amp; co" in page
    assert "<script" not in page and "http" not in page and "<th scope" in page
    assert shown in page and report.columns[0].fingerprint in page
    document = json.loads(report.to_json())
    assert document["columns"][0]["fingerprint"] == report.columns[0].fingerprint
    assert len(document["runs"]) == 12 and document["metrics"] == ["f1_macro"]
    from io import StringIO

    csv = pd.read_csv(StringIO(report.to_csv()), dtype={"size": str})
    pd.testing.assert_frame_equal(csv, report.to_frame(), check_dtype=False)


def test_odd_but_valid_spellings_score_as_their_plain_twin(
    gold: pd.DataFrame, board_runs: Path, mirror: Path, session_cache: Path, tmp_path: Path
) -> None:
    """A run the quick read cannot take (ids as ``007``, labels as ``1.0``, a JSON Lines file)
    is read as ``score`` reads it, with the same result."""
    plain = board_runs / "alpha_20_rs1.csv"
    frame = pd.read_csv(plain, dtype=str)
    odd = tmp_path / "odd"
    odd.mkdir()
    frame.assign(case_id="00" + frame["case_id"], prediction=frame["prediction"] + ".0").to_csv(
        odd / "alpha_20_rs1.csv", index=False
    )
    frame.astype({"case_id": int, "prediction": int}).to_json(
        odd / "alpha_20_rs2.jsonl", orient="records", lines=True
    )
    where = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    (twin,) = leaderboard({HATEMOJI_CHECK: plain}, **where).runs
    report = leaderboard({HATEMOJI_CHECK: odd}, **where)
    assert sorted(run.model for run in report.runs) == ["alpha_20_rs1", "alpha_20_rs2"]
    assert all(run.scores == twin.scores for run in report.runs)


def _cli(mirror: Path, cache: Path, *args: str) -> int:
    return main(["leaderboard", *args, "--cache-dir", str(cache), "--mirror", str(mirror)])


def test_cli_bad_runs_exit_1_naming_the_file(
    gold: pd.DataFrame, board_runs: Path, mirror: Path, session_cache: Path, capsys
) -> None:
    wrong = board_runs / "alpha_20_rs1.csv"
    frame = pd.read_csv(wrong)
    frame.iloc[0, 0] = 10**9
    frame.to_csv(wrong, index=False)
    where = f"{HATEMOJI_CHECK}={board_runs}"
    assert _cli(mirror, session_cache, where, "--pattern", MHC_PATTERN) == 1
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith(f"error: {wrong}: 1 unknown ") and "1 missing" in line
    assert _cli(mirror, session_cache, where, "--pattern", MHC_PATTERN, "--format", "json") == 1
    document = json.loads(capsys.readouterr().out)
    assert document["exit_code"] == 1 and str(wrong) in document["error"]["message"]
    assert _cli(mirror, session_cache, where, "--pattern", "{model}.jsonl") == 1
    assert "matches none of its 12 file(s)" in one_error_line(capsys.readouterr().err)


def test_cli_writes_each_format(board_runs: Path, mirror: Path, session_cache: Path, capsys):
    where = f"{HATEMOJI_CHECK}={board_runs}"
    out = board_runs.parent / "board.html"
    args = [where, "--pattern", MHC_PATTERN, "--rename", "beta=B", "--format", "html"]
    assert _cli(mirror, session_cache, *args, "-o", str(out)) == 0
    assert '<th scope="row">B</th>' in out.read_text(encoding="utf-8")
    assert _cli(mirror, session_cache, where, "--pattern", MHC_PATTERN, "--format", "csv") == 0
    assert capsys.readouterr().out.startswith("model,size,column,dataset,config,split,version,")


def test_cli_subprocess_has_no_traceback(board_runs: Path, mirror: Path, session_cache: Path):
    (board_runs / "alpha_20_rs1.csv").write_text("case_id,prediction\n1,2\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "hatemoji_datasets", "leaderboard", f"{HATEMOJI_CHECK}={board_runs}"]
        + ["--pattern", MHC_PATTERN, "--cache-dir", str(session_cache), "--mirror", str(mirror)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1 and run.stdout == ""
    assert str(board_runs / "alpha_20_rs1.csv") in one_error_line(run.stderr)


def test_a_sample_log_is_a_run(
    gold: pd.DataFrame, board_runs: Path, mirror: Path, session_cache: Path
) -> None:
    """An lm-eval log (written here as the harness writes one) is scored like its CSV twin;
    its task names the config, its folder the model."""
    spec = dataset_spec(HATEMOJI_CHECK)
    config = spec.config()
    id_column = gold.columns[0]
    folder = board_runs.parent / "logs" / "my-model"
    folder.mkdir(parents=True)
    rng = np.random.default_rng(3)
    predicted = rng.integers(0, 2, len(gold))
    with (folder / f"samples_{task_name(spec, config)}_2026-12-06T05-00-00.000.jsonl").open(
        "w", encoding="utf-8"
    ) as log:
        for position, (row_id, label, guess) in enumerate(
            zip(gold[id_column], gold["label"], predicted, strict=True)
        ):
            likelihoods = [["-0.1", False], ["-2.0", False]][:: 1 if guess == 0 else -1]
            record = {
                "doc_id": position,
                "doc": {id_column: int(row_id), "label": int(label)},
                "target": int(label),
                "filtered_resps": likelihoods,
            }
            log.write(json.dumps(record) + "\n")
    report = leaderboard(
        [board_runs.parent / "logs"], cache_dir=str(session_cache), mirror=str(mirror)
    )
    (run,) = report.runs
    assert run.model == "my-model"
    expected = sklearn_scores(gold["label"], predicted)
    assert run.scores == pytest.approx(expected, abs=1e-12)


def test_lock_pins_the_version_and_checks_fingerprints(
    board_runs: Path, mirror: Path, session_cache: Path, tmp_path: Path
) -> None:
    from hatemoji_datasets.pinning.lock import lock_datasets
    from hatemoji_datasets.pinning.lockfile import write

    where = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    lockfile = tmp_path / "pinned.lock"
    write(lock_datasets([HATEMOJI_CHECK], **where), lockfile)
    report = leaderboard({HATEMOJI_CHECK: board_runs}, pattern=MHC_PATTERN, lock=lockfile, **where)
    locked = re.search(r'fingerprint = "(sha256:[0-9a-f]+)"', lockfile.read_text("utf-8"))
    assert report.columns[0].fingerprint == locked.group(1)
    assert report.lock == str(lockfile) and f"the lockfile {lockfile}" in report.to_markdown()
    tampered = tmp_path / "tampered.lock"
    tampered.write_text(
        lockfile.read_text("utf-8").replace(locked.group(1), "sha256:" + "0" * 64), "utf-8"
    )
    with pytest.raises(FingerprintError, match="does not match"):
        leaderboard({HATEMOJI_CHECK: board_runs}, pattern=MHC_PATTERN, lock=tampered, **where)
