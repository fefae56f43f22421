"""The generated loading scripts are stable under ``ruff format`` whatever the dataset's name
(issue 42: for a short name ruff joined a call the generator wrapped, so a reformatted
README looked stale to ``regenerate --check``)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.hub.loading_scripts import rendered

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
#: A short name (the call fits on one line) and a long one (it cannot).
NAMES = ("ab", "a_made_up_dataset_with_a_name_long_enough_to_overflow_a_hundred_columns")


@pytest.mark.parametrize("name", NAMES)
def test_rendered_scripts_are_ruff_format_stable(name: str, tmp_path: Path) -> None:
    spec = dataclasses.replace(next(iter(specs().values())), name=name)
    files = rendered(spec)
    assert set(files) == {f"{name}/{name}.py", f"{name}/README.md"}
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--diff", "--config", str(PYPROJECT)]
        + [str(tmp_path / relative) for relative in files],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "2 files already formatted" in checked.stdout + checked.stderr
