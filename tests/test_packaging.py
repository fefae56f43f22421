"""The package installs as a user installs it: the wheel holds every file it reads.

CI builds the sdist and the wheel, installs the wheel alone into a fresh
environment and runs a smoke test outside the checkout (``.ci/smoke-wheel``,
called by ``.ci/run``). These checks are the fast, offline half: every data
file the package reads at run time is matched by the package-data patterns,
so it lands in the wheel.
"""

from __future__ import annotations

import fnmatch
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PACKAGE = REPO / "hatemoji_datasets"


def _tracked(folder: Path) -> list[Path]:
    done = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--", str(folder)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return [REPO / name for name in done.stdout.decode().split("\0") if name]


def test_every_data_file_the_package_reads_is_in_the_wheel() -> None:
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]["package-data"]["*"]
    data = [
        path
        for path in _tracked(PACKAGE)
        if path.suffix not in (".py", ".pyc")
        and "dummy_data" not in path.parts  # test fixtures: read by the tests only
    ]
    assert {path.name for path in data} >= {"checksums.tsv", "fingerprints.tsv", "card.yaml"}
    missed = [p for p in data if not any(fnmatch.fnmatch(p.name, pat) for pat in patterns)]
    assert missed == []


def test_ci_smoke_tests_the_wheel() -> None:
    run = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    smoke = (REPO / ".ci" / "smoke-wheel").read_text(encoding="utf-8")
    assert '.ci/smoke-wheel "$HATEMOJI_DATASETS_MIRROR"' in run
    assert run.index(".ci/smoke-wheel") < run.rindex("python3 -m pytest")
    assert (
        "python3 -m build" in smoke
        and 'pip install --quiet -c .ci/constraints.txt "${wheels[0]}"' in smoke
    )
    assert 'cd "$scratch"' in smoke  # run outside the checkout
    # The conventions a user checks first: the version, the licence and py.typed in the wheel.
    assert '"$bin/hatemoji-datasets" --version' in smoke
    assert 'endswith("licenses/LICENSE")' in smoke and '"py.typed"' in smoke
    for command in ("list", "build hatemoji_check", "validate new.csv"):
        assert f'"$bin/hatemoji-datasets" {command}' in smoke, command
