"""lm-evaluation-harness: the generated tasks, the harness running them, ``score`` on its logs.

The committed ``lm_eval_tasks/`` is what the generator writes from the
declarations (drift test), and runs as committed: the harness's ``dummy`` model on
``hatemoji_check`` offline, loading the rows through the package from the mirror.
Against the local exports of every dataset, offline, the ``dummy`` model (random
log-likelihoods, no weights) runs every generated task with ``--log_samples``. Both
runs go through ``tests/run_harness.py``, the CLI's calls without indexing the
harness's built-in tasks (docs/downstream.md's test runs the ``lm_eval`` command
itself). ``score`` on each per-sample log gives the harness's own ``acc``, and
HatemojiCheck's per-functionality table equals the log's per-document ``acc`` grouped
by the doc's functionality and perturbation (computed here with pandas).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import REPO

from hatemoji_datasets.cli import main
from hatemoji_datasets.core.errors import PredictionError
from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.evaluate.harness_log import task_of
from hatemoji_datasets.harness.tasks import LOADER, TASKS_FOLDER, check_tasks, task_files

TASKS = REPO / TASKS_FOLDER
#: ``lm_eval run --model dummy --log_samples`` without indexing the built-in tasks.
RUN_HARNESS = Path(__file__).with_name("run_harness.py")


class _TaskLoader(yaml.SafeLoader):
    """The harness's ``!function module.name`` read as the name it gives."""


_TaskLoader.add_constructor("!function", lambda loader, node: ("!function", node.value))


def load_task(relative: str, folder: Path = TASKS) -> dict:
    return yaml.load((folder / relative).read_text(encoding="utf-8"), Loader=_TaskLoader)  # noqa: S506


# -- the committed task files ------------------------------------------------------------


def test_committed_tasks_do_not_drift() -> None:
    assert check_tasks(task_files(), TASKS) == [], "run hatemoji-datasets lm-eval-tasks"


@pytest.mark.parametrize("name", list(specs()))
def test_one_task_per_config_and_a_group_per_dataset(name: str) -> None:
    spec = specs()[name]
    group = load_task(f"{name}/_{name}.yaml")
    assert group["group"] == name
    assert group["task"] == [f"{name}_{config.name}" for config in spec.configs]
    for config in spec.configs:
        task = load_task(f"{name}/{name}_{config.name}.yaml")
        assert task["task"] == f"{name}_{config.name}"
        assert task["test_split"] == config.eval_split
        # Read through the package at the task's version: no Hub copy needed.
        assert "dataset_path" not in task
        assert task["custom_dataset"] == ("!function", LOADER)
        assert task["dataset_kwargs"] == {"dataset": name, "config": config.name}
        assert task["metadata"] == {"version": spec.version}
        assert task["output_type"] == "multiple_choice"
        assert task["doc_to_target"] == "label"


def test_prompts_and_choices() -> None:
    english = load_task("hatemoji_check/hatemoji_check_default.yaml")
    assert english["doc_to_choice"] == ["non-hateful", "hateful"]
    # The prompt is a function in prompts.py beside the YAML (tests/test_lm_eval_prompts.py).
    assert english["doc_to_text"] == ("!function", "prompts.hatemoji_check_default")
    assert load_task("hatemoji_build/hatemoji_build_r6.yaml")["test_split"] == "test"
    for config in ("default", "beep"):
        korean = load_task(f"apeach/apeach_{config}.yaml")
        assert korean["doc_to_choice"] == ["혐오 아님", "혐오"]  # "not hate", "hate"
        assert korean["doc_to_text"] == ("!function", f"prompts.apeach_{config}")
    assert load_task("apeach/apeach_beep.yaml")["test_split"] == "validation"


def test_cli_writes_checks_and_points_at_a_local_export(tmp_path: Path, capsys) -> None:
    out = tmp_path / "tasks"
    assert main(["lm-eval-tasks", "--out", str(out)]) == 0
    assert main(["lm-eval-tasks", "--out", str(out), "--check"]) == 0
    (out / "hatemoji_check" / "hatemoji_check_default.yaml").write_text("task: edited\n")
    (out / "stray.yaml").write_text("x: 1\n")
    assert main(["lm-eval-tasks", "--out", str(out), "--check"]) == 1
    err = capsys.readouterr().err
    assert "hatemoji_check_default.yaml: differs" in err and "stray.yaml: not a generated" in err
    local = tmp_path / "local"
    export = tmp_path / "export"
    assert (
        main(["lm-eval-tasks", "apeach", "--dataset-path", str(export), "--out", str(local)]) == 0
    )
    task = load_task("apeach/apeach_beep.yaml", local)
    assert task["dataset_path"] == str(export.resolve())
    assert "dataset_kwargs" not in task  # a local export is one version already
    assert main(["lm-eval-tasks", "apeach", "hatemoji_check", "--dataset-path", "x"]) == 1
    assert "exactly one NAME" in capsys.readouterr().err


def test_the_hub_variant_is_one_flag_away(tmp_path: Path, capsys) -> None:
    hub = tmp_path / "hub"
    assert main(["lm-eval-tasks", "--hub", "--out", str(hub)]) == 0
    for name, spec in specs().items():
        for config in spec.configs:
            task = load_task(f"{name}/{name}_{config.name}.yaml", hub)
            assert task["dataset_path"] == f"<org>/{name}"  # no card.yaml names a Hub account
            assert task["dataset_name"] == config.name
            assert task["dataset_kwargs"] == {"revision": f"v{spec.version}"}
            assert "custom_dataset" not in task
            committed = load_task(f"{name}/{name}_{config.name}.yaml")
            # The same task, prompt and choices: only where the rows come from differs.
            assert task["task"] == committed["task"]
            assert task["doc_to_choice"] == committed["doc_to_choice"]
            assert task["doc_to_text"] == committed["doc_to_text"]
        prompts = (hub / name / "prompts.py").read_text(encoding="utf-8")
        assert prompts == (TASKS / name / "prompts.py").read_text(encoding="utf-8")
    one = tmp_path / "one"
    assert main(["lm-eval-tasks", "apeach", "--hub", "someone/apeach", "--out", str(one)]) == 0
    assert load_task("apeach/apeach_beep.yaml", one)["dataset_path"] == "someone/apeach"
    capsys.readouterr()
    assert main(["lm-eval-tasks", "--hub", "someone/apeach"]) == 1
    assert "exactly one NAME" in capsys.readouterr().err
    assert main(["lm-eval-tasks", "apeach", "--hub", "--dataset-path", "x"]) == 1
    assert "give one" in capsys.readouterr().err


def test_the_loader_the_committed_tasks_name_is_importable() -> None:
    import importlib

    module, _, function = LOADER.rpartition(".")
    assert callable(getattr(importlib.import_module(module), function))


def _offline_env(root: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HATEMOJI_DATASETS")}
    return env | {
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HOME": str(root / "hf-home"),
        **extra,
    }


@pytest.fixture(scope="module")
def committed_run(mirror: Path, session_cache: Path, tmp_path_factory) -> Path:
    """The per-sample log of the harness's dummy model on the committed ``hatemoji_check``
    tasks, as README.md's reader gets it: offline, the package loading the rows from the
    mirror (no export, no Hub). The ``lm_eval`` command itself runs in docs/downstream.md."""
    pytest.importorskip("lm_eval")
    root = tmp_path_factory.mktemp("lm-eval-committed")
    env = _offline_env(
        root,
        HATEMOJI_DATASETS_MIRROR=str(mirror),
        HF_DATASETS_CACHE=str(session_cache),
        PYTHONPATH=str(REPO),
    )
    command = [sys.executable, str(RUN_HARNESS), str(TASKS), "hatemoji_check", str(root / "out")]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    (model,) = (root / "out").iterdir()
    (log,) = model.glob("samples_hatemoji_check_default_*.jsonl")
    (results,) = model.glob("results_*.json")
    acc = json.loads(results.read_text(encoding="utf-8"))["results"]["hatemoji_check_default"]
    (log.parent / "acc.json").write_text(json.dumps(acc), encoding="utf-8")
    return log


def test_the_committed_tasks_run_offline_through_the_package(
    committed_run: Path, mirror: Path, session_cache: Path
) -> None:
    from hatemoji_datasets.evaluate import score

    acc = json.loads((committed_run.parent / "acc.json").read_text(encoding="utf-8"))
    samples = committed_run.read_text(encoding="utf-8").splitlines()
    assert len(samples) == acc["sample_len"] == 3930  # HatemojiCheck's test cases (the paper)
    report = score(
        "hatemoji_check", committed_run, cache_dir=str(session_cache), mirror=str(mirror)
    )
    assert report.config == "default" and report.n == 3930
    assert report.overall["accuracy"] == pytest.approx(acc["acc,none"], abs=1e-12)


def test_a_log_of_another_datasets_task_names_it(
    committed_run: Path, mirror: Path, session_cache: Path, capsys
) -> None:
    where = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["score", "hatecheck", "--predictions", str(committed_run), *where]) == 1
    err = capsys.readouterr().err
    assert "log of task hatemoji_check_default" in err
    assert "(dataset hatemoji_check, config default), not of hatecheck" in err


# -- the harness on the exports -----------------------------------------------------------


@pytest.fixture(scope="module")
def harness_run(exported, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``{task: per-sample log}`` and ``results``: one dummy run of every generated task."""
    pytest.importorskip("lm_eval")
    root = tmp_path_factory.mktemp("lm-eval")
    tasks = root / "tasks"
    for name in specs():
        from hatemoji_datasets.harness.tasks import write_tasks

        write_tasks(task_files([name], dataset_path=str(exported(name))), tasks)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HATEMOJI_DATASETS")}
    env |= {
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HOME": str(root / "hf-home"),
        "HF_DATASETS_CACHE": str(root / "hf-datasets"),
    }
    command = [sys.executable, str(RUN_HARNESS), str(tasks), ",".join(specs()), str(root / "out")]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    (model,) = (root / "out").iterdir()  # the harness writes one folder per model
    logs = {path.name: path for path in model.glob("samples_*.jsonl")}
    found = {}
    for name, spec in specs().items():
        for config in spec.configs:
            task = f"{name}_{config.name}"
            # By the task the name holds, not by prefix: r5 is a prefix of r5_pair_safe.
            (log,) = [path for path in logs.values() if task_of(path) == task]
            found[task] = log
    (results,) = model.glob("results_*.json")
    found["results"] = results
    return found


def test_score_on_every_log_gives_the_harness_acc(harness_run, mirror: Path, session_cache):
    from hatemoji_datasets.evaluate import score

    results = json.loads(harness_run["results"].read_text(encoding="utf-8"))["results"]
    compared = 0
    for name, spec in specs().items():
        for config in spec.configs:
            task = f"{name}_{config.name}"
            log = harness_run[task]
            report = score(name, log, cache_dir=str(session_cache), mirror=str(mirror))
            assert report.config == config.name and report.split == config.eval_split
            samples = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
            assert report.n == len(samples) == results[task]["sample_len"]
            acc = results[task]["acc,none"]
            assert report.overall["accuracy"] == pytest.approx(acc, abs=1e-12), task
            correct = sum(sample["acc"] for sample in samples)
            assert round(report.overall["accuracy"] * report.n) == correct
            compared += 1
    assert compared == sum(len(spec.configs) for spec in specs().values())


def test_hatemoji_check_per_functionality_table_from_the_log(harness_run, mirror, session_cache):
    from hatemoji_datasets.evaluate import score

    log = harness_run["hatemoji_check_default"]
    report = score("hatemoji_check", log, cache_dir=str(session_cache), mirror=str(mirror))
    samples = pd.DataFrame(
        [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    )
    docs = pd.DataFrame(list(samples["doc"]))
    docs["acc"] = samples["acc"]
    expected = docs.groupby(["functionality", "perturbation"])["acc"].agg(["mean", "size"])
    table = report.table("cells")
    assert len(table.rows) == len(expected) == 28  # the paper's 7 x 4 cells
    functionalities = [row["functionality"] for row in table.rows]
    for row, ((f, p), cell) in zip(table.rows, expected.iterrows(), strict=True):
        assert row["n"] == cell["size"]
        assert row["accuracy"] == pytest.approx(cell["mean"], abs=1e-12), (f, p)
    assert functionalities[0] == "verb_swap" and functionalities[-1] == "emoji_leetspeak"


def test_cli_names_models_by_log_folder_or_names(
    harness_run, tmp_path: Path, mirror: Path, session_cache: Path, capsys
) -> None:
    log = harness_run["apeach_beep"]
    for model in ("model-a", "model-b"):
        (tmp_path / model).mkdir()
        shutil.copy(log, tmp_path / model / log.name)
    logs = [str(tmp_path / model / log.name) for model in ("model-a", "model-b")]
    where = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["score", "apeach", "--predictions", *logs, *where]) == 0
    out = capsys.readouterr().out
    assert "## apeach (beep), split validation" in out
    assert "| metric | model-a | model-b |" in out
    assert main(["score", "apeach", "--predictions", *logs, "--names", "x", "y", *where]) == 0
    assert "| metric | x | y |" in capsys.readouterr().out
    assert main(["score", "apeach", "--predictions", *logs, "--names", "x", *where]) == 1
    assert "--names gives 1 name(s) for 2 predictions file(s)" in capsys.readouterr().err


def test_a_log_of_other_data_is_refused(harness_run, tmp_path: Path, mirror, session_cache):
    from hatemoji_datasets.evaluate import score

    where = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    log = harness_run["hatemoji_build_r6"]
    samples = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    samples[3]["doc"]["round"] = 7  # not the row of its entry_id
    samples[5]["target"] = str(1 - samples[5]["doc"]["label"])
    edited = tmp_path / log.name
    edited.write_text("".join(json.dumps(s) + "\n" for s in samples), encoding="utf-8")
    with pytest.raises(PredictionError) as raised:
        score("hatemoji_build", edited, **where)
    message = str(raised.value)
    assert "1 sample(s) hold a doc that is not the row" in message
    assert str(samples[3]["doc"]["entry_id"]) in message
    assert "target that is not the row's label" in message
    with pytest.raises(PredictionError, match="log of config r6, not all"):
        score("hatemoji_build/all", log, **where)
    broken = tmp_path / "samples_hatemoji_build_r6_2026-01-01T00-00-00.0.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace('"filtered_resps": [', '"filtered_resps": [["x", "False"], ', 1)
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(PredictionError, match="line 3: expected 2 choices"):
        score("hatemoji_build", broken, **where)
