"""The pre-commit hook validates every file, even one whose name starts with ``-``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO, upstream_path

from hatemoji_datasets import cli
from hatemoji_datasets.cli.hook import split_arguments
from hatemoji_datasets.core.registry import dataset_spec


def test_split_arguments() -> None:
    assert split_arguments(["--dataset", "x", "--strict", "a.csv", "-b.csv"]) == (
        ["--dataset", "x", "--strict"],
        ["a.csv", "-b.csv"],
    )
    # Option values are taken whatever they look like; --name=value works too.
    assert split_arguments(["--mirror", "-m", "--config=r6", "-dash.csv", "--strict"]) == (
        ["--mirror", "-m", "--config=r6"],
        ["-dash.csv", "--strict"],  # after the first file, everything is a file
    )
    assert split_arguments(["--full", "--", "--dataset"]) == (["--full"], ["--dataset"])
    assert split_arguments(["-x.csv"]) == ([], ["-x.csv"])


def test_hook_is_declared() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert hook["entry"] == "hatemoji-datasets-validate-hook"
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert f'\n{hook["entry"]} = "hatemoji_datasets.cli.hook:main"\n' in pyproject


@pytest.fixture
def contribution(mirror: Path, tmp_path: Path) -> Path:
    """A folder with ``-dash.csv`` (one released label changed) and ``ok file.csv`` (clean,
    other released rows: ids repeated across a contribution's files are a finding)."""
    url = dataset_spec("hatemoji_check").source_files()["test"].url
    lines = upstream_path(mirror, url).read_text(encoding="utf-8").splitlines(keepends=True)
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "ok file.csv").write_text("".join(lines[:1] + lines[6:11]), encoding="utf-8")
    changed = lines[:6]
    assert changed[1].startswith("0,") and changed[1].endswith(",1,0,1\n")
    changed[1] = changed[1][: -len(",1,0,1\n")] + ",0,0,1\n"
    (folder / "-dash.csv").write_text("".join(changed), encoding="utf-8")
    return folder


def _hook(folder: Path, mirror: Path, *args: str) -> subprocess.CompletedProcess:
    # As pre-commit runs it: entry, then the user's args, then the file names.
    return subprocess.run(
        [sys.executable, "-m", "hatemoji_datasets.cli.hook", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "HOME": str(folder.parent)},
    )


def test_hook_validates_a_file_named_dash(contribution: Path, mirror: Path) -> None:
    options = ["--dataset", "hatemoji_check", "--mirror", str(mirror), "--format", "json"]
    options += ["--cache-dir", str(contribution.parent / "cache")]
    result = _hook(contribution, mirror, *options, "-dash.csv", "ok file.csv")
    assert "unrecognized arguments" not in result.stderr, result.stderr
    report = json.loads(result.stdout)
    assert report["files"] == ["-dash.csv", "ok file.csv"]
    assert result.returncode == 1 == report["exit_code"]
    # The changed label breaks its cell's gold label: the schema owns that finding.
    assert [(v["file"], v["line"], v["column"], v["code"]) for v in report["findings"]] == [
        ("-dash.csv", 2, "label_gold", "HC-LABEL-CELL")
    ]
    assert all(v["file"] == "-dash.csv" for v in report["findings"])


def test_hook_passes_a_clean_file(contribution: Path, mirror: Path) -> None:
    options = ["--dataset", "hatemoji_check", "--mirror", str(mirror), "--strict"]
    options += ["--cache-dir", str(contribution.parent / "cache")]
    result = _hook(contribution, mirror, *options, "ok file.csv")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 error(s), 0 warning(s) in 1 file(s)" in result.stdout


def test_cli_accepts_double_dash_before_files(
    contribution: Path, mirror: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.chdir(contribution)
    status = cli.main(
        ["validate", "--dataset", "hatemoji_check", "--mirror", str(mirror), "--format", "json"]
        + ["--", "-dash.csv"]
    )
    report = json.loads(capsys.readouterr().out)
    assert report["files"] == ["-dash.csv"]
    assert status == 1 and report["findings"]


def test_hook_without_files_succeeds() -> None:
    from hatemoji_datasets.cli.hook import main

    assert main(["--dataset", "hatemoji_check"]) == 0
