"""The pre-commit hook validates every file, even one whose name starts with ``-``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support.paths import REPO
from support.synthetic import FAULT_PLACE, REGISTERED, SYNTHETIC, head_with_fault, mirror_file

from hatemoji_datasets import cli
from hatemoji_datasets.cli.hook import split_arguments


def test_split_arguments() -> None:
    assert split_arguments(["--dataset", "x", "--strict", "a.csv", "-b.csv"]) == (
        ["--dataset", "x", "--strict"],
        ["a.csv", "-b.csv"],
    )
    # Option values are taken whatever they look like; --name=value works too.
    assert split_arguments(["--mirror", "-m", "--config=c", "-dash.csv", "--strict"]) == (
        ["--mirror", "-m", "--config=c"],
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


pytestmark = pytest.mark.usefixtures("synthetic")


@pytest.fixture
def contribution(mirror: Path, tmp_path: Path) -> tuple[Path, tuple[int, str, str]]:
    """A folder with ``-dash.csv`` (the synthetic ``test.csv``'s first five rows, its third
    line no complaint: ``support.synthetic.head_with_fault``) and ``ok file.csv`` (clean, the
    five released rows after them: ids repeated across a contribution's files are a
    finding); and the place of the finding that names the fault."""
    broken = head_with_fault(mirror)
    lines = mirror_file("test", mirror).read_bytes().splitlines(True)
    assert len(broken.splitlines()) == 6  # the header and ids 25-29
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "ok file.csv").write_bytes(b"".join(lines[:1] + lines[6:11]))  # ids 30-34
    (folder / "-dash.csv").write_bytes(broken)
    return folder, FAULT_PLACE


def _hook(folder: Path, mirror: Path, *args: str) -> subprocess.CompletedProcess:
    # As pre-commit runs it: entry, then the user's args, then the file names.
    return subprocess.run(
        [sys.executable, "-m", "hatemoji_datasets.cli.hook", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "HOME": str(folder.parent), **REGISTERED},
    )


def test_hook_validates_a_file_named_dash(contribution: tuple, mirror: Path) -> None:
    folder, (line, column, code) = contribution
    options = ["--dataset", SYNTHETIC, "--mirror", str(mirror), "--format", "json"]
    options += ["--cache-dir", str(folder.parent / "cache")]
    result = _hook(folder, mirror, *options, "-dash.csv", "ok file.csv")
    assert "unrecognized arguments" not in result.stderr, result.stderr
    report = json.loads(result.stdout)
    assert report["files"] == ["-dash.csv", "ok file.csv"]
    assert result.returncode == 1 == report["exit_code"]
    # The broken released row is named by the schema's finding alone (not as a changed row).
    assert [(v["file"], v["line"], v["column"], v["code"]) for v in report["findings"]] == [
        ("-dash.csv", line, column, code)
    ]
    assert all(v["file"] == "-dash.csv" for v in report["findings"])


def test_hook_passes_a_clean_file(contribution: tuple, mirror: Path) -> None:
    folder, _ = contribution
    options = ["--dataset", SYNTHETIC, "--mirror", str(mirror), "--strict"]
    options += ["--cache-dir", str(folder.parent / "cache")]
    result = _hook(folder, mirror, *options, "ok file.csv")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 error(s), 0 warning(s) in 1 file(s)" in result.stdout


def test_cli_accepts_double_dash_before_files(
    contribution: tuple, mirror: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.chdir(contribution[0])
    status = cli.main(
        ["validate", "--dataset", SYNTHETIC, "--mirror", str(mirror), "--format", "json"]
        + ["--", "-dash.csv"]
    )
    report = json.loads(capsys.readouterr().out)
    assert report["files"] == ["-dash.csv"]
    assert status == 1 and report["findings"]


def test_hook_without_files_succeeds() -> None:
    from hatemoji_datasets.cli.hook import main

    assert main(["--dataset", SYNTHETIC]) == 0
