"""The shipped tasks run from anywhere: the package installed from its wheel, the harness's own
``lm_eval`` command run in a folder outside the checkout, offline.

The wheel is built from a copy of the package's tracked files (nothing is written
into the checkout) and installed alone into a folder that leads ``PYTHONPATH``, so
``hatemoji_datasets`` is imported from the wheel (checked), beside this
environment's lm-eval and the package's dependencies. Then, as README's reader:
``hatemoji-datasets lm-eval-tasks --path`` gives the folder for ``--include_path``,
``lm_eval --model dummy`` runs HatemojiCheck's generative task on every row with
``--log_samples``, and ``score`` on its log gives the harness's own figures (the
dummy model replies ``lol``: every reply unparsed, every figure 0; tests/test_lm_eval.py
compares the figures of every task of both kinds on varied replies). CI's
``.ci/smoke-wheel`` installs the wheel into a fresh environment; this is the fast half
that needs lm-eval.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import REPO

DATASET = "hatemoji_check"
TASK = f"{DATASET}_default_gen"


def _tracked(folder: Path) -> list[str]:
    done = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=False
    )
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return [name for name in done.stdout.decode().split("\0") if name]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding only the package as its wheel installs it."""
    pytest.importorskip("lm_eval")
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    for name in _tracked(REPO):
        if name == "pyproject.toml" or name == "README.md" or name.startswith("hatemoji_datasets/"):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    build = [*pip, "wheel", "--no-deps", "-w", str(root / "dist")]
    subprocess.run([*build, str(source)], check=True, capture_output=True, cwd=root)
    (wheel,) = (root / "dist").glob("*.whl")
    target = root / "site"
    install = [*pip, "install", "--no-deps", "--no-index", "--target", str(target)]
    subprocess.run([*install, str(wheel)], check=True, capture_output=True, cwd=root)
    return target


def test_the_wheel_runs_the_tasks_outside_the_checkout(
    installed: Path, mirror: Path, session_cache: Path, tmp_path: Path
) -> None:
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HATEMOJI_"))}
    env |= {
        "PYTHONPATH": str(installed),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "HATEMOJI_DATASETS_MIRROR": str(mirror),
        "HF_DATASETS_CACHE": str(session_cache),
        "HF_HOME": str(tmp_path / "hf-home"),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
    }

    def run(*command: str) -> str:
        done = subprocess.run(
            [sys.executable, *command],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, done.stderr[-4000:]
        return done.stdout

    imported = run("-c", "import hatemoji_datasets; print(hatemoji_datasets.__file__)")
    assert Path(imported.strip()).is_relative_to(installed)  # the wheel's, not the checkout's
    package = ["-m", "hatemoji_datasets"]
    folder = Path(run(*package, "lm-eval-tasks", "--path").strip())
    assert folder.is_relative_to(tmp_path / "cache") and (folder / DATASET).is_dir()
    run(
        "-m", "lm_eval", "--model", "dummy", "--include_path", str(folder),
        "--tasks", TASK, "--log_samples", "--output_path", "results",
    )  # fmt: skip
    (model,) = (work / "results").iterdir()
    (results,) = model.glob("results_*.json")
    figures = json.loads(results.read_text(encoding="utf-8"))["results"]
    (log,) = model.glob(f"samples_{TASK}_2*.jsonl")
    report = json.loads(run(*package, "score", DATASET, "--predictions", str(log),
                            "--format", "json"))  # fmt: skip
    assert list(report["models"]) == ["dummy"]  # the model lm-eval records
    overall = report["models"]["dummy"]["overall"]
    samples = log.read_text(encoding="utf-8").splitlines()
    assert overall["n"] == len(samples) == figures[TASK]["sample_len"] > 0
    assert overall["accuracy"] == pytest.approx(figures[TASK]["exact_match,label"], abs=1e-12)
    assert overall["f1_hateful"] == pytest.approx(figures[TASK]["f1,label"], abs=1e-12)
    assert overall["unparsed"] == sum('"filtered_resps": ["unparsed"]' in s for s in samples)
