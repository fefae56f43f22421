"""The data-validation workflow: no shell injection, least privilege, pinned actions and
installs, every file name passed intact, and a failing ``git diff`` fails the step."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
import yaml
from support.paths import REPO
from support.synthetic import SYNTHETIC

WORKFLOW = REPO / ".github" / "workflows" / "validate-data.yml"
STEP = "Validate changed data files"
# Names that break naive shell: non-ASCII, spaces, a leading dash, quotes, a newline.
NAMES = [
    "données/ünïcödé 😀.csv",
    "with space.csv",
    "-dash.csv",
    "--dataset.tsv",
    "quote'and\"double.csv",
    "new\nline.csv",
    "sub dir/$(touch pwned).tsv",
]


#: The step validates for a dataset named (the stub validator only records its arguments),
#: and for a config that is not its dataset's default: APEACH's ``beep``.
NAME, CONFIG = "apeach", "beep"


def _workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _steps() -> list[dict]:
    return [step for job in _workflow()["jobs"].values() for step in job["steps"]]


def _step(name: str) -> dict:
    return next(step for step in _steps() if step.get("name") == name)


def test_no_expressions_inside_scripts() -> None:
    for step in _steps():
        assert "${{" not in step.get("run", ""), step


def test_token_can_only_read() -> None:
    assert _workflow()["permissions"] == {"contents": "read"}


def test_actions_pinned_by_commit() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    uses = [step["uses"] for step in _steps() if "uses" in step]
    assert uses
    for use in uses:
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", use), use
        # ... with a comment naming the version
        assert re.search(re.escape(use) + r" # v\d+\.\d+\.\d+", text), use


#: A release from PyPI, or (before the first release) the repository at a fixed commit.
PINNED = re.compile(
    r"hatemoji-datasets==\d+\.\d+\.\d+"
    r"|hatemoji-datasets @ git\+https://[\w.-]+/[\w.-]+/[\w.-]+@[0-9a-f]{40}"
)


def test_validator_is_pinned_in_one_place() -> None:
    package = _workflow()["env"]["PACKAGE"]
    assert PINNED.fullmatch(package), package
    text = WORKFLOW.read_text(encoding="utf-8")
    assert text.count(package) == 1  # set once, at the top; every step reads $PACKAGE
    scripts = "\n".join(step.get("run", "") for step in _steps())
    assert 'pip install "$PACKAGE"' in scripts
    assert "pip install ." not in scripts and "pyproject" not in scripts


def test_the_same_install_is_named_wherever_installing_is_explained() -> None:
    """Before a release ``pip install hatemoji-datasets`` does not resolve: every page that
    tells a user to install names the workflow's pinned install next to it."""
    package = _workflow()["env"]["PACKAGE"]
    pages = sorted((REPO / "loading_scripts").glob("*/README.md"))
    pages.append(REPO / "docs" / "install.md")
    assert len(pages) >= 4
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "pip install hatemoji-datasets" in text, page
        assert f"pip install '{package}'" in text, page


def test_diff_is_nul_separated_with_pathspec_separator() -> None:
    script = _step(STEP)["run"]
    assert re.search(r"git -c core\.quotePath=false diff -z --name-only", script)
    assert "-- '*.csv' '*.tsv'" in script
    assert "mapfile -d ''" in script
    assert re.search(r"--format github\s*\\?\s*-- \"\$\{files\[@\]\}\"", script)
    assert "set -euo pipefail" in script
    assert _step(STEP)["env"]["BASE_REF"] == "${{ github.base_ref }}"


needs_tools = pytest.mark.skipif(
    shutil.which("git") is None or shutil.which("bash") is None,
    reason="running the workflow script needs git and bash",
)


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


@pytest.fixture
def pull_request(tmp_path: Path) -> Path:
    """A clone-like repository: origin/main is the base, HEAD adds and edits data files."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "ci@example.org")
    _git(repo, "config", "user.name", "ci")
    (repo / "kept.csv").write_text("a\n1\n", encoding="utf-8")
    (repo / "gone.csv").write_text("a\n1\n", encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    _git(repo, "checkout", "-q", "-b", "contribution")
    for name in NAMES:
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("a\n2\n", encoding="utf-8")
    (repo / "kept.csv").write_text("a\n1\n3\n", encoding="utf-8")
    (repo / "notes.txt").write_text("not data\n", encoding="utf-8")
    (repo / "gone.csv").unlink()  # deleted files are not validated
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "contribution")
    return repo


def _run_step(repo: Path, tmp_path: Path, **env: str) -> tuple[subprocess.CompletedProcess, list]:
    """Run the step's script as GitHub would, with a stub validator that records its argv."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    record = tmp_path / "argv"
    stub = bin_dir / "hatemoji-datasets"
    stub.write_text('#!/usr/bin/env bash\nprintf \'%s\\0\' "$@" > "$ARGV_FILE"\n', "utf-8")
    stub.chmod(stub.stat().st_mode | stat.S_IXUSR)
    script = tmp_path / "step.sh"
    script.write_text(_step(STEP)["run"], encoding="utf-8")
    variables = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "ARGV_FILE": str(record),
        "DATASET": SYNTHETIC,
        "CONFIG": "",
        "BASE_REF": "main",
        "GITHUB_ACTIONS": "true",
        **env,
    }
    result = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=repo,
        env=variables,
        capture_output=True,
        text=True,
        timeout=60,
    )
    argv = record.read_bytes().split(b"\0")[:-1] if record.exists() else None
    return result, [a.decode("utf-8") for a in argv] if argv is not None else None


@needs_tools
def test_step_passes_every_file_name_intact(pull_request: Path, tmp_path: Path) -> None:
    result, argv = _run_step(pull_request, tmp_path)
    assert result.returncode == 0, result.stderr
    assert argv is not None, result.stdout + result.stderr
    head = ["validate", "--dataset", SYNTHETIC, "--format", "github", "--"]
    assert argv[: len(head)] == head
    assert sorted(argv[len(head) :]) == sorted([*NAMES, "kept.csv"])
    assert not (pull_request / "pwned").exists()


@needs_tools
def test_step_passes_the_config(pull_request: Path, tmp_path: Path) -> None:
    result, argv = _run_step(pull_request, tmp_path, CONFIG=CONFIG, DATASET=NAME)
    assert result.returncode == 0, result.stderr
    assert argv[:7] == [
        "validate",
        "--dataset",
        NAME,
        "--config",
        CONFIG,
        "--format",
        "github",
    ]


@needs_tools
def test_step_fails_closed_on_unknown_base(pull_request: Path, tmp_path: Path) -> None:
    result, argv = _run_step(pull_request, tmp_path, BASE_REF="no-such-branch")
    assert result.returncode != 0
    assert "no data files changed" not in result.stdout
    assert argv is None


@needs_tools
def test_step_without_data_changes(pull_request: Path, tmp_path: Path) -> None:
    _git(pull_request, "update-ref", "refs/remotes/origin/main", "HEAD")
    result, argv = _run_step(pull_request, tmp_path)
    assert result.returncode == 0 and "no data files changed" in result.stdout
    assert argv is None
