"""A broken dataset folder is the first thing a contributor adding a dataset meets.

A folder that is not a dataset (no ``spec.py``) is skipped. A ``spec.py`` that cannot be
imported, or declares no ``DatasetSpec``, gives one ``error:`` line naming the folder and the
cause, with exit 1, from every command that lists datasets (they ended in a
``ModuleNotFoundError`` / ``SyntaxError`` / ``AttributeError`` traceback); the other datasets
stay registered. Each case runs in a copy of the repository, so the package under test is
never the one the other tests import.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import copy_of_the_repository

from hatemoji_datasets.core.registry import list_datasets

FOLDER = "hatemoji_datasets/datasets/half_done"
BROKEN = {
    "syntax error": (
        "SPEC = (\n",
        "spec.py cannot be imported: SyntaxError: '(' was never closed (line 1)",
    ),
    "missing import": (
        "from .no_such_module import SPEC\n",
        "spec.py cannot be imported: ModuleNotFoundError: "
        "No module named 'hatemoji_datasets.datasets.half_done.no_such_module'",
    ),
    "no SPEC": ("NAME = 'half_done'\n", "spec.py declares no SPEC, not a DatasetSpec"),
    "SPEC of the wrong type": (
        "SPEC = {'name': 'half_done'}\n",
        "spec.py declares a SPEC of type dict, not a DatasetSpec",
    ),
}
COMMANDS = (("list",), ("sources",), ("regenerate", "--check"), ("regenerate",))


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("repository")
    copy_of_the_repository(work)
    return work


def _run(work: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HATEMOJI_"))}
    env["PYTHONPATH"] = str(work)  # the copy's package and its dataset folders
    return subprocess.run(
        [sys.executable, *args], cwd=work, env=env, capture_output=True, text=True, timeout=300
    )


def _with_folder(work: Path, spec_text: str | None) -> Path:
    folder = work / FOLDER
    if folder.exists():
        for path in sorted(folder.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
        folder.rmdir()
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    if spec_text is not None:
        (folder / "spec.py").write_text(spec_text, encoding="utf-8")
    return folder


def test_a_folder_without_a_spec_is_skipped(repository: Path) -> None:
    _with_folder(repository, None)
    listed = _run(repository, "-m", "hatemoji_datasets", "list", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert "half_done" not in listed.stdout and listed.stderr == ""


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_spec_is_one_line_from_every_listing_command(repository: Path, case: str):
    spec_text, cause = BROKEN[case]
    _with_folder(repository, spec_text)
    for command in COMMANDS:
        run = _run(repository, "-m", "hatemoji_datasets", *command)
        assert (run.returncode, run.stdout) == (1, ""), (command, run.stdout, run.stderr)
        assert run.stderr == f"error: dataset folder {FOLDER} is broken: {cause}\n", command
    # The other datasets stay registered, and the broken one is named when asked for.
    others = _run(
        repository, "-c", "from hatemoji_datasets import list_datasets; print(list_datasets())"
    )
    assert others.stdout == f"{list_datasets()}\n", others.stderr
    named = _run(repository, "-m", "hatemoji_datasets", "info", "half_done")
    assert named.returncode == 1
    assert named.stderr == f"error: dataset folder {FOLDER} is broken: {cause}\n"
