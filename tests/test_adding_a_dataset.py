"""docs/adding-a-dataset.md, done: on a scratch copy of the repository, its commands copy
HatemojiCheck's folder to ``toy_check``, rename it in ``spec.py`` alone (the folder imports
itself relatively and references its parts relative to itself) and regenerate; then the
shared tests run on the sixth dataset, and nothing outside its folder and the generated
files was edited.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from support.paths import copy_of_the_repository
from test_docs import bash_script, blocks

pytestmark = pytest.mark.slow  # scheduled first: tests/scheduling.py

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "adding-a-dataset.md"
NEW = "toy_check"
#: What the page may add or change: the new folder, its generated files, and the one shared
#: generated file that lists every dataset's tasks.
MAY_CHANGE = (
    f"hatemoji_datasets/datasets/{NEW}/",
    f"cards/{NEW}/",
    f"schemas/{NEW}/",
    f"loading_scripts/{NEW}/",
    f"lm_eval_tasks/{NEW}/",
    "lm_eval_tasks/README.md",
    "README.md",  # the generated datasets table
    "docs/datasets.md",
)

#: The shared tests, at least, that must run (and pass) on the new dataset.
AT_LEAST = 30


def _digests(tree: Path) -> dict[str, str]:
    return {
        path.relative_to(tree).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in tree.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_page_adds_a_dataset_the_shared_tests_run_on(mirror: Path, tmp_path: Path) -> None:
    work = tmp_path / "repository"
    copy_of_the_repository(work)
    before = _digests(work)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HATEMOJI_"))}
    env.update(
        {
            "PYTHONPATH": str(work),  # the package (and its datasets) of the copy
            "HATEMOJI_DATASETS_MIRROR": str(mirror),
            "HF_HOME": str(tmp_path / "hf-home"),
            "HF_HUB_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1",
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        }
    )
    steps = [b for b in blocks(PAGE) if b.language == "bash" and b.skip is None]
    assert len(steps) >= 3
    for step in steps:
        run = subprocess.run(
            ["bash", "-e", "-c", bash_script(step.code)],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert run.returncode == 0, f"line {step.line}:\n{run.stdout[-3000:]}{run.stderr[-3000:]}"

    after = _digests(work)
    edited = sorted(p for p in after if before.get(p) != after[p])
    assert not [p for p in edited if not p.startswith(MAY_CHANGE)], edited
    assert f"cards/{NEW}/README.md" in edited and f"cards/{NEW}/croissant.json" in edited
    assert f"| `{NEW}` | ToyCheck |" in (work / "README.md").read_text(encoding="utf-8")
    assert not set(before) - set(after)  # nothing removed
    new_folder = work / "hatemoji_datasets" / "datasets" / NEW
    assert 'name="toy_check"' in (new_folder / "spec.py").read_text(encoding="utf-8")
    # The copy refers to its own parts: no module names the folder it was copied from.
    original = "hatemoji_datasets.datasets.hatemoji_check"
    assert not [p.name for p in new_folder.glob("*.py") if original in p.read_text("utf-8")]

    report = tmp_path / "report.xml"
    # In one process (-n 0): workers of its own would each collect the whole suite again.
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0"]
        + ["-m", "not real_data", "-k", NEW, f"--junitxml={report}", "tests"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-5000:]
    cases = ElementTree.parse(report).getroot().iter("testcase")
    outcomes = {
        f"{case.get('classname')}::{case.get('name')}": [child.tag for child in case]
        for case in cases
    }
    passed = [name for name, found in outcomes.items() if not found]
    assert all(NEW in name for name in outcomes)
    assert len(passed) >= AT_LEAST, sorted(outcomes)
    assert len(passed) == len(outcomes), sorted(n for n, found in outcomes.items() if found)
    print(f"{len(passed)} shared tests ran and passed on {NEW}")
