"""The repository stays `ruff check` and `ruff format` clean."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest
from support.paths import REPO


@pytest.mark.parametrize("command", [["check", "."], ["format", "--check", "."]])
def test_ruff(command: list[str]) -> None:
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (it comes with the 'test' extra)")
    result = subprocess.run(
        [sys.executable, "-m", "ruff", *command], cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
