"""lm-evaluation-harness: the generated tasks, the harness running them, ``score`` on its logs.

The committed ``lm_eval_tasks/`` is what the generator writes from the
declarations (drift test), and runs as committed: the harness's ``dummy`` model on the
plain dataset's tasks (support.real) offline, loading the rows through the package from
the mirror.
Against the local exports of every dataset, offline, the ``dummy`` model (random
log-likelihoods, no weights) runs every generated task with ``--log_samples``. Both
runs go through ``tests/run_harness.py``, the CLI's calls without indexing the
harness's built-in tasks (docs/downstream.md's test runs the ``lm_eval`` command
itself). ``score`` on each per-sample log gives the harness's own ``acc``, and each score
table a dataset's ``testing.py`` states (``SCORE_TABLES``) equals the log's per-document
``acc`` grouped by the doc's columns the table is declared by (computed here with pandas).
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
from conftest import dataset_facts, declaring
from support.paths import REPO
from support.real import HATEMOJI_CHECK

from hatemoji_datasets.cli import main
from hatemoji_datasets.core.columns import TEXT_COLUMN
from hatemoji_datasets.core.errors import PredictionError
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.core.scoring import Breakdown
from hatemoji_datasets.evaluate.harness_log import task_of
from hatemoji_datasets.harness.tasks import LOADER, TASKS_FOLDER, check_tasks, task_files

TASKS = REPO / TASKS_FOLDER
#: Every registered dataset; the first stands for any where one is enough.
DATASETS = list(specs())
ANY = DATASETS[0]
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
def test_two_tasks_per_config_and_groups_per_dataset(name: str) -> None:
    """Each config's multiple-choice task and its generative twin; the dataset's group of
    each kind, where each stack's parts stand as the stack's group."""
    spec = specs()[name]
    stacked = {part: stack for stack in spec.stacks for part in stack.parts}
    for kind in ("", "_gen"):
        group = load_task(f"{name}/_{name}{kind}.yaml")
        assert group["group"] == f"{name}{kind}"
        expected = []
        for config in spec.configs:
            stack = stacked.get(config.name)
            member = f"{name}_{stack.name}{kind}" if stack else f"{name}_{config.name}{kind}"
            expected += [member] if member not in expected else []
        assert group["task"] == expected
        assert "aggregate_metric_list" not in group  # its configs overlap
    for config in spec.configs:
        task = load_task(f"{name}/{name}_{config.name}.yaml")
        twin = load_task(f"{name}/{name}_{config.name}_gen.yaml")
        assert task["task"] == f"{name}_{config.name}"
        assert twin["task"] == f"{name}_{config.name}_gen"
        for one in (task, twin):
            assert one["test_split"] == config.eval_split
            # Read through the package at the task's version: no Hub copy needed.
            assert "dataset_path" not in one
            assert one["custom_dataset"] == ("!function", LOADER)
            assert one["dataset_kwargs"] == {"dataset": name, "config": config.name}
            assert one["metadata"] == {"version": spec.version}
            assert one["doc_to_target"] == "label"
            assert one["doc_to_choice"] == task["doc_to_choice"]
        assert task["output_type"] == "multiple_choice"
        assert twin["output_type"] == "generate_until"
        f1 = {"metric": "f1", "aggregation": ("!function", "prompts.hateful_f1")}
        assert [m["metric"] for m in task["metric_list"]] == ["acc", "f1"]
        assert [m["metric"] for m in twin["metric_list"]] == ["exact_match", "f1"]
        assert task["metric_list"][1].items() >= f1.items()
        assert twin["metric_list"][1].items() >= f1.items()
        (pipeline,) = twin["filter_list"]
        assert pipeline["name"] == "label"
        assert [step["function"] for step in pipeline["filter"]] == [
            "regex",
            "lowercase",
            "map",
            "take_first",
        ]


@pytest.mark.parametrize("name", declaring("SPLITS"))
def test_each_stack_is_its_whole_config_and_its_group_aggregates_by_size(name: str) -> None:
    """A stack's parts hold as many rows as its whole config (testing.py's SPLITS), and its
    groups aggregate acc (exact_match) and f1 over them, weighted by size."""
    spec = dataset_spec(name)
    rows = dataset_facts(name).SPLITS
    for stack in spec.stacks:
        split = spec.config(stack.whole).eval_split
        assert sum(rows[part][split] for part in stack.parts) == rows[stack.whole][split]
        for kind, metrics, filtered in (
            ("", ["acc", "f1"], "none"),
            ("_gen", ["exact_match", "f1"], "label"),
        ):
            group = load_task(f"{name}/_{name}_{stack.name}{kind}.yaml")
            assert group["task"] == [f"{name}_{part}{kind}" for part in stack.parts]
            assert group["aggregate_metric_list"] == [
                {
                    "metric": m,
                    "aggregation": "mean",
                    "weight_by_size": True,
                    "filter_list": [filtered],
                }
                for m in metrics
            ]


@pytest.mark.parametrize("name", DATASETS)
def test_prompts_and_choices(name: str) -> None:
    """Each task's choices are the words its ``testing.py`` states (``TASK_CHOICES``, where
    the card words them), else the label's names (``LABEL_NAMES``); its prompt is a function
    in prompts.py beside the YAML (tests/test_lm_eval_prompts.py)."""
    facts = dataset_facts(name)
    choices = getattr(facts, "TASK_CHOICES", None) or facts.LABEL_NAMES
    assert choices, f"{name}: testing.py states neither TASK_CHOICES nor LABEL_NAMES"
    for config in specs()[name].configs:
        task = load_task(f"{name}/{name}_{config.name}.yaml")
        assert task["doc_to_choice"] == list(choices)
        assert task["doc_to_text"] == ("!function", f"prompts.{name}_{config.name}")
        assert task["test_split"] == config.eval_split


def test_cli_writes_checks_and_points_at_a_local_export(tmp_path: Path, capsys) -> None:
    configs = dataset_spec(ANY).configs
    first, last = (f"{ANY}_{config.name}.yaml" for config in (configs[0], configs[-1]))
    out = tmp_path / "tasks"
    assert main(["lm-eval-tasks", "--out", str(out)]) == 0
    assert main(["lm-eval-tasks", "--out", str(out), "--check"]) == 0
    (out / ANY / first).write_text("task: edited\n")
    (out / "stray.yaml").write_text("x: 1\n")
    assert main(["lm-eval-tasks", "--out", str(out), "--check"]) == 1
    err = capsys.readouterr().err
    assert f"{first}: differs" in err and "stray.yaml: not a generated" in err
    local = tmp_path / "local"
    export = tmp_path / "export"
    assert main(["lm-eval-tasks", ANY, "--dataset-path", str(export), "--out", str(local)]) == 0
    task = load_task(f"{ANY}/{last}", local)
    assert task["dataset_path"] == str(export.resolve())
    assert "dataset_kwargs" not in task  # a local export is one version already
    assert main(["lm-eval-tasks", *DATASETS[:2], "--dataset-path", "x"]) == 1
    assert "exactly one NAME" in capsys.readouterr().err


def test_one_datasets_tasks_leave_the_others_and_the_readme_alone(tmp_path: Path, capsys) -> None:
    """``lm-eval-tasks NAME`` writes NAME's files only; the shared README keeps every
    dataset's rows, and the folder still checks clean, whole or for NAME alone."""
    out = tmp_path / "tasks"
    shutil.copytree(TASKS, out, ignore=shutil.ignore_patterns("__pycache__"))
    readme = (out / "README.md").read_text(encoding="utf-8")
    (out / ANY / "prompts.py").unlink()
    assert main(["lm-eval-tasks", ANY, "--out", str(out)]) == 0
    written = [line.removeprefix("wrote: ") for line in capsys.readouterr().out.splitlines()]
    assert written and all(Path(path).parent == out / ANY for path in written)
    assert (out / "README.md").read_text(encoding="utf-8") == readme
    assert all(f"| `{name}_" in readme for name in DATASETS)
    assert main(["lm-eval-tasks", "--out", str(out), "--check"]) == 0
    assert main(["lm-eval-tasks", ANY, "--out", str(out), "--check"]) == 0
    (out / ANY / "stray.yaml").write_text("x: 1\n")
    assert main(["lm-eval-tasks", ANY, "--out", str(out), "--check"]) == 1
    assert "stray.yaml: not a generated file" in capsys.readouterr().err


def test_the_path_command_writes_the_tasks_where_any_install_finds_them(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert main(["lm-eval-tasks", "--path"]) == 0
    folder = Path(capsys.readouterr().out.strip())
    assert folder.is_relative_to(tmp_path / "cache")
    assert check_tasks(task_files(), folder) == []  # the committed tasks, byte for byte
    (folder / ANY / f"{ANY}_removed_since.yaml").write_text("task: gone\n")
    (folder / "README.md").write_text("stale\n")
    assert main(["lm-eval-tasks", "--path"]) == 0
    assert Path(capsys.readouterr().out.strip()) == folder
    assert check_tasks(task_files(), folder) == []  # brought up to date, the stray removed
    assert main(["lm-eval-tasks", "--path", ANY, "--check"]) == 1
    assert "--path prints the folder" in capsys.readouterr().err


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
    repo, last = f"someone/{ANY}", dataset_spec(ANY).configs[-1].name
    assert main(["lm-eval-tasks", ANY, "--hub", repo, "--out", str(one)]) == 0
    assert load_task(f"{ANY}/{ANY}_{last}.yaml", one)["dataset_path"] == repo
    capsys.readouterr()
    assert main(["lm-eval-tasks", "--hub", repo]) == 1
    assert "exactly one NAME" in capsys.readouterr().err
    assert main(["lm-eval-tasks", ANY, "--hub", "--dataset-path", "x"]) == 1
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


#: The committed tasks run here are the plain dataset's (support.real); its default
#: config's task is scored.
COMMITTED_TASK = f"{HATEMOJI_CHECK}_{dataset_spec(HATEMOJI_CHECK).default_config_name}"


@pytest.fixture(scope="module")
def committed_run(mirror: Path, session_cache: Path, tmp_path_factory) -> Path:
    """The per-sample log of the harness's dummy model on the plain dataset's committed
    tasks (its group), its default config's, as README.md's reader gets it: offline, the
    package loading the rows from the mirror (no export, no Hub). The ``lm_eval`` command
    itself runs in docs/downstream.md."""
    pytest.importorskip("lm_eval")
    root = tmp_path_factory.mktemp("lm-eval-committed")
    env = _offline_env(
        root,
        HATEMOJI_DATASETS_MIRROR=str(mirror),
        HF_DATASETS_CACHE=str(session_cache),
        PYTHONPATH=str(REPO),
    )
    command = [sys.executable, str(RUN_HARNESS), str(TASKS), HATEMOJI_CHECK, str(root / "out")]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    (model,) = (root / "out").iterdir()
    (log,) = [path for path in model.glob("samples_*.jsonl") if task_of(path) == COMMITTED_TASK]
    (results,) = model.glob("results_*.json")
    acc = json.loads(results.read_text(encoding="utf-8"))["results"][COMMITTED_TASK]
    (log.parent / "acc.json").write_text(json.dumps(acc), encoding="utf-8")
    return log


@pytest.mark.slow
def test_the_committed_tasks_run_offline_through_the_package(
    committed_run: Path, mirror: Path, session_cache: Path
) -> None:
    from hatemoji_datasets.evaluate import score

    config = dataset_spec(HATEMOJI_CHECK).config()
    rows = dataset_facts(HATEMOJI_CHECK).SPLITS[config.name][config.eval_split]
    acc = json.loads((committed_run.parent / "acc.json").read_text(encoding="utf-8"))
    samples = committed_run.read_text(encoding="utf-8").splitlines()
    assert len(samples) == acc["sample_len"] == rows  # every row of the evaluation split
    report = score(HATEMOJI_CHECK, committed_run, cache_dir=str(session_cache), mirror=str(mirror))
    assert report.config == config.name and report.n == rows
    assert report.overall["accuracy"] == pytest.approx(acc["acc,none"], abs=1e-12)


def test_a_log_of_another_datasets_task_names_it(
    committed_run: Path, mirror: Path, session_cache: Path, capsys
) -> None:
    other = next(name for name in DATASETS if name != HATEMOJI_CHECK)
    config = dataset_spec(HATEMOJI_CHECK).default_config_name
    where = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["score", other, "--predictions", str(committed_run), *where]) == 1
    err = capsys.readouterr().err
    assert f"log of task {COMMITTED_TASK}" in err
    assert f"(dataset {HATEMOJI_CHECK}, config {config}), not of {other}" in err


# -- the harness on the exports -----------------------------------------------------------


@pytest.fixture(scope="module")
def export_tasks(exported, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every generated task, reading the local exports."""
    from hatemoji_datasets.harness.tasks import write_tasks

    tasks = tmp_path_factory.mktemp("lm-eval-tasks")
    for name in specs():
        write_tasks(task_files([name], dataset_path=str(exported(name))), tasks)
    return tasks


def _run_on_exports(tasks: Path, names: list[str], root: Path, model: str = "dummy") -> Path:
    """``run_harness.py`` offline on the export-reading ``tasks``; the model's folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HATEMOJI_DATASETS")}
    env |= {
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HOME": str(root / "hf-home"),
        "HF_DATASETS_CACHE": str(root / "hf-datasets"),
    }
    command = [sys.executable, str(RUN_HARNESS), str(tasks), ",".join(names), str(root / "out")]
    done = subprocess.run(
        [*command, model], cwd=root, env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-4000:]
    (folder,) = (root / "out").iterdir()  # the harness writes one folder per model
    return folder


def _logs(folder: Path, names: list[str], kind: str = "") -> dict[str, Path]:
    """``{task: per-sample log}`` of the ``kind`` of task of every config of ``names``, and
    ``results``."""
    logs = list(folder.glob("samples_*.jsonl"))
    found = {}
    for name in names:
        for config in dataset_spec(name).configs:
            task = f"{name}_{config.name}{kind}"
            # By the task the name holds, not by prefix: r5 is a prefix of r5_pair_safe.
            (log,) = [path for path in logs if task_of(path) == task]
            found[task] = log
    (results,) = folder.glob("results_*.json")
    found["results"] = results
    return found


@pytest.fixture(scope="module")
def harness_run(export_tasks: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``{task: per-sample log}`` and ``results``: one dummy run of every dataset's group."""
    pytest.importorskip("lm_eval")
    root = tmp_path_factory.mktemp("lm-eval")
    return _logs(_run_on_exports(export_tasks, DATASETS, root), DATASETS)


def _rows_of(name: str) -> int:
    """The rows every config of ``name`` scores (``testing.py``'s SPLITS)."""
    spec = dataset_spec(name)
    return sum(dataset_facts(name).SPLITS[c.name][c.eval_split] for c in spec.configs)


#: The datasets the generative run covers: all but the one scoring the most rows (the
#: twins differ from the multiple-choice tasks in nothing that depends on the dataset but
#: the wording, and the largest took most of the run's time).
GENERATIVE = sorted(DATASETS, key=_rows_of)[:-1] if len(DATASETS) > 1 else DATASETS


@pytest.fixture(scope="module")
def generative_run(export_tasks: Path, tmp_path_factory: pytest.TempPathFactory):
    """``{task: per-sample log}`` and ``results``: the generative groups of GENERATIVE, run
    by tests/run_harness.py's ``replies`` chat model with its chat template applied."""
    pytest.importorskip("lm_eval")
    root = tmp_path_factory.mktemp("lm-eval-gen")
    groups = [f"{name}_gen" for name in GENERATIVE]
    return _logs(_run_on_exports(export_tasks, groups, root, "replies"), GENERATIVE, "_gen")


@pytest.mark.slow
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
            # The harness's F1 is the report's F1 of hateful, and both are the log's.
            f1 = results[task]["f1,none"]
            assert report.overall["f1_hateful"] == pytest.approx(f1, abs=1e-12), task
            assert f1 == pytest.approx(_hateful_f1(_mc_pairs(samples)), abs=1e-12), task
            compared += 1
    assert compared == sum(len(spec.configs) for spec in specs().values())


def _mc_pairs(samples: list[dict]) -> list[tuple[int, int]]:
    """(gold, predicted) label ids of a multiple-choice log: the first choice of the highest
    log-likelihood, as the harness's acc takes it."""
    pairs = []
    for sample in samples:
        likelihoods = [float(choice[0]) for choice in sample["filtered_resps"]]
        pairs.append((sample["doc"]["label"], likelihoods.index(max(likelihoods))))
    return pairs


def _hateful_f1(pairs: list[tuple[int, int]]) -> float:
    """F1 of label 1 by its definition, 2 TP / (2 TP + FP + FN): any prediction but 1 (an
    unparsed reply too) where the gold is 1 is a miss."""
    tp = sum(gold == 1 and pred == 1 for gold, pred in pairs)
    fp = sum(gold != 1 and pred == 1 for gold, pred in pairs)
    fn = sum(gold == 1 and pred != 1 for gold, pred in pairs)
    return 2 * tp / (2 * tp + fp + fn)


def _check_stack_aggregates(
    run: dict[str, Path], names: list[str], kind: str, metric: str, correct
) -> int:
    """Each stack group's aggregate: the accuracy of all its parts' documents, and the F1
    its parts' F1 weighted by their documents; the number of groups checked."""
    results = json.loads(run["results"].read_text(encoding="utf-8"))["results"]
    checked = 0
    for name in names:
        for stack in dataset_spec(name).stacks:
            group = results[f"{name}_{stack.name}{kind}"]
            parts = [f"{name}_{part}{kind}" for part in stack.parts]
            samples = [
                [json.loads(line) for line in run[part].read_text(encoding="utf-8").splitlines()]
                for part in parts
            ]
            pooled = [correct(sample) for each in samples for sample in each]
            assert group[metric] == pytest.approx(sum(pooled) / len(pooled), abs=1e-12)
            f1s = [results[part][metric.replace(metric.split(",")[0], "f1")] for part in parts]
            sizes = [len(each) for each in samples]
            weighted = sum(f * n for f, n in zip(f1s, sizes)) / sum(sizes)
            assert group[metric.replace(metric.split(",")[0], "f1")] == pytest.approx(weighted)
            checked += 1
    return checked


def test_the_stack_groups_aggregate_acc_and_f1_weighted_by_size(harness_run) -> None:
    """Multilingual HateCheck's languages, HatemojiBuild's rounds: lm-eval reports each
    group's aggregate, weighted by size (computed here from the logs)."""
    checked = _check_stack_aggregates(harness_run, DATASETS, "", "acc,none", lambda s: s["acc"])
    assert checked == sum(len(spec.stacks) for spec in specs().values()) > 0


# -- the generative twins ------------------------------------------------------------------


def _first_label(reply: str, choices: list[str]) -> str:
    """The first label name in ``reply``, case-insensitively (the longer name where two start
    at the same place), else ``unparsed``: found with str.find, not a regular expression."""
    lowered = reply.lower()
    found = [(lowered.find(c.lower()), -len(c), c) for c in choices if c.lower() in lowered]
    return min(found)[2] if found else "unparsed"


def test_score_on_every_generative_log_gives_the_harness_figures(
    generative_run, mirror: Path, session_cache: Path
) -> None:
    """Chat-templated replies of every kind (a label alone, other cases, extra words, both
    labels, neither, empty): the harness's exact_match and F1 are the report's accuracy and
    F1 of hateful, and its unparsed replies the report's, as read here independently."""
    from hatemoji_datasets.evaluate import score

    results = json.loads(generative_run["results"].read_text(encoding="utf-8"))["results"]
    kinds = set()
    for name in GENERATIVE:
        for config in dataset_spec(name).configs:
            task = f"{name}_{config.name}_gen"
            log = generative_run[task]
            choices = load_task(f"{name}/{task}.yaml")["doc_to_choice"]
            samples = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
            assert all(s["arguments"]["gen_args_0"]["arg_0"].startswith("<user>") for s in samples)
            replies = [sample["resps"][0][0] for sample in samples]
            parsed = [_first_label(reply, choices) for reply in replies]
            assert [sample["filtered_resps"] for sample in samples] == [[p] for p in parsed]
            kinds |= {(reply, label) for reply, label in zip(replies, parsed)}
            report = score(name, log, cache_dir=str(session_cache), mirror=str(mirror))
            assert report.n == len(samples) == results[task]["sample_len"]
            assert not report.has_scores
            assert report.overall["unparsed"] == parsed.count("unparsed")
            exact = results[task]["exact_match,label"]
            assert report.overall["accuracy"] == pytest.approx(exact, abs=1e-12), task
            pairs = [
                (s["doc"]["label"], choices.index(p) if p in choices else -1)
                for s, p in zip(samples, parsed)
            ]
            assert exact == pytest.approx(sum(g == p for g, p in pairs) / len(pairs), abs=1e-12)
            f1 = results[task]["f1,label"]
            assert f1 == pytest.approx(_hateful_f1(pairs), abs=1e-12), task
            assert report.overall["f1_hateful"] == pytest.approx(f1, abs=1e-12), task
    # Every kind of reply came up, each read as the rule says.
    assert ("The text is HATEFUL, not non-hateful", "hateful") in kinds
    assert ("non-hateful, though some read it as hateful", "non-hateful") in kinds
    assert ("Non-Hateful.", "non-hateful") in kinds and ("", "unparsed") in kinds
    assert ("hate", "unparsed") in kinds and ("혐오 아님", "혐오 아님") in kinds


def test_the_generative_stack_groups_aggregate_too(generative_run) -> None:
    checked = _check_stack_aggregates(
        generative_run, GENERATIVE, "_gen", "exact_match,label", lambda s: s["exact_match"]
    )
    assert checked == sum(len(dataset_spec(name).stacks) for name in GENERATIVE) > 0


def test_a_generative_log_filtered_another_way_is_refused(
    generative_run, tmp_path: Path, mirror: Path, session_cache: Path
) -> None:
    from hatemoji_datasets.evaluate import score

    config = dataset_spec(HATEMOJI_CHECK).default_config_name
    log = generative_run[f"{HATEMOJI_CHECK}_{config}_gen"]
    samples = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    samples[2]["resps"] = [["Hateful, clearly"]]
    samples[2]["filtered_resps"] = ["non-hateful"]
    edited = tmp_path / log.name
    edited.write_text("".join(json.dumps(s) + "\n" for s in samples), encoding="utf-8")
    with pytest.raises(PredictionError, match='line 3: the harness read the reply "Hateful, '):
        score(HATEMOJI_CHECK, edited, cache_dir=str(session_cache), mirror=str(mirror))


def _stated_tables() -> list[tuple[str, str, str]]:
    """Each ``(dataset, config, table)`` whose rows ``testing.py`` states (``SCORE_TABLES``),
    of the tables of every scored row with an accuracy."""
    stated = []
    for name in declaring("SCORE_TABLES"):
        for config, tables in dataset_facts(name).SCORE_TABLES.items():
            stated += [
                (name, config, declared.name)
                for declared in dataset_spec(name).config(config).scoring.breakdowns
                if declared.name in tables
                and isinstance(declared, Breakdown)
                and declared.rows is None
                and "accuracy" in declared.metrics
            ]
    return stated


@pytest.mark.parametrize(("name", "config", "table"), _stated_tables())
def test_a_stated_score_table_from_the_log(
    name: str, config: str, table: str, harness_run, mirror, session_cache
) -> None:
    """The table equals the log's per-document ``acc`` grouped by the columns it is declared
    by, and has the rows ``testing.py`` states."""
    from hatemoji_datasets.evaluate import score

    log = harness_run[f"{name}_{config}"]
    report = score(name, log, cache_dir=str(session_cache), mirror=str(mirror))
    samples = pd.DataFrame(
        [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    )
    docs = pd.DataFrame(list(samples["doc"]))
    docs["acc"] = samples["acc"]
    declared = next(
        b for b in dataset_spec(name).config(config).scoring.breakdowns if b.name == table
    )
    expected = docs.groupby(list(declared.by))["acc"].agg(["mean", "size"])
    rows, first, last = dataset_facts(name).SCORE_TABLES[config][table]
    found = report.table(table).rows
    assert len(found) == len(expected) == rows
    for row, (key, cell) in zip(found, expected.iterrows(), strict=True):
        assert row["n"] == cell["size"]
        assert row["accuracy"] == pytest.approx(cell["mean"], abs=1e-12), key
    assert {column: found[0][column] for column in first} == first
    assert {column: found[-1][column] for column in last} == last


def test_cli_names_models_by_log_folder_or_names(
    harness_run, tmp_path: Path, mirror: Path, session_cache: Path, capsys
) -> None:
    config = dataset_spec(ANY).configs[-1]
    log = harness_run[f"{ANY}_{config.name}"]
    for model in ("model-a", "model-b"):
        (tmp_path / model).mkdir()
        shutil.copy(log, tmp_path / model / log.name)
    logs = [str(tmp_path / model / log.name) for model in ("model-a", "model-b")]
    where = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["score", ANY, "--predictions", *logs, *where]) == 0
    out = capsys.readouterr().out
    assert f"## {ANY} ({config.name}), split {config.eval_split}" in out
    assert "| metric | model-a | model-b |" in out
    assert main(["score", ANY, "--predictions", *logs, "--names", "x", "y", *where]) == 0
    assert "| metric | x | y |" in capsys.readouterr().out
    assert main(["score", ANY, "--predictions", *logs, "--names", "x", *where]) == 1
    assert "--names gives 1 name(s) for 2 predictions file(s)" in capsys.readouterr().err


def _rows_scored(name: str, config: str) -> int:
    return dataset_facts(name).SPLITS[config][dataset_spec(name).config(config).eval_split]


#: A config other than its dataset's default, whose rows have ids: of those, the one scoring
#: the fewest rows (``testing.py``'s SPLITS).
LOGGED = min(
    (
        (name, config.name)
        for name, spec in specs().items()
        for config in spec.configs
        if config.name != spec.default_config_name and config.id_column
    ),
    key=lambda pair: _rows_scored(*pair),
)


def test_a_log_of_other_data_is_refused(harness_run, tmp_path: Path, mirror, session_cache):
    from hatemoji_datasets.evaluate import score

    name, config = LOGGED
    spec = dataset_spec(name)
    id_column = spec.config(config).id_column
    where = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    log = harness_run[f"{name}_{config}"]
    samples = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    samples[3]["doc"][TEXT_COLUMN] += " (edited)"  # not the row of its id
    samples[5]["target"] = str(1 - samples[5]["doc"]["label"])
    edited = tmp_path / log.name
    edited.write_text("".join(json.dumps(s) + "\n" for s in samples), encoding="utf-8")
    with pytest.raises(PredictionError) as raised:
        score(name, edited, **where)
    message = str(raised.value)
    assert "1 sample(s) hold a doc that is not the row" in message
    assert str(samples[3]["doc"][id_column]) in message
    assert "target that is not the row's label" in message
    default = spec.default_config_name
    with pytest.raises(PredictionError, match=f"log of config {config}, not {default}"):
        score(f"{name}/{default}", log, **where)
    broken = tmp_path / f"samples_{name}_{config}_2026-01-01T00-00-00.0.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace('"filtered_resps": [', '"filtered_resps": [["x", "False"], ', 1)
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(PredictionError, match="line 3: expected 2 choices"):
        score(name, broken, **where)
