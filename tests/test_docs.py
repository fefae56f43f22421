"""Every command and Python snippet that README.md and docs/ show is run, in document order.

How a page is run (the conventions its authors follow):

- each `` ```python `` block runs in one interpreter per page, blocks sharing names,
  so a later block may use what an earlier one defined;
- each `` ```bash `` block runs with ``bash -e``; a command expected to fail ends in
  ``# exits N`` and must exit with exactly that status;
- `` ```text ``, `` ```toml `` and other fences are shown, never run (use them for
  command synopses and outputs);
- an HTML comment ``<!-- not run: REASON -->`` on the line before a block skips it,
  and the reason is reported; use it only for what cannot run offline (a real
  upload to the Hub).

A page runs in a fresh copy of the repository's tracked files (so relative paths
such as ``scripts/baselines.py`` work and nothing is written into the checkout),
with the offline mirror, one ``datasets`` cache shared by every page (each dataset
is built once), and no network. Pages that need the real data skip without the
mirror.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import run_folder

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([A-Za-z0-9_+-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
SKIP = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->\s*$")
RUN = ("python", "bash")
MARK = "@@DOCS@@"


@dataclass(frozen=True)
class Block:
    language: str
    code: str
    line: int
    skip: str | None


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        reason = SKIP.search(before)
        found.append(
            Block(
                match.group(1).lower(),
                match.group(2),
                text.count("\n", 0, match.start()) + 1,
                reason.group(1) if reason else None,
            )
        )
    return found


#: Runs one page's blocks in order; prints one JSON line per block.
DRIVER = r"""
import json, subprocess, sys, traceback
blocks = json.load(open(sys.argv[1], encoding="utf-8"))
namespace = {"__name__": "__docs__"}
for block in blocks:
    where = f"line {block['line']}"
    if block["language"] == "python":
        try:
            exec(compile(block["code"], where, "exec"), namespace)
        except BaseException:
            print("@@DOCS@@" + json.dumps({"line": block["line"], "error": traceback.format_exc()}))
            sys.exit(1)
    else:
        run = subprocess.run(["bash", "-e", "-c", block["script"]], capture_output=True, text=True)
        if run.returncode != 0:
            report = {"line": block["line"], "error": run.stdout[-3000:] + run.stderr[-3000:]}
            print("@@DOCS@@" + json.dumps(report))
            sys.exit(1)
    print("@@DOCS@@" + json.dumps({"line": block["line"], "ok": True}), flush=True)
"""


def bash_script(code: str) -> str:
    """The block with each ``CMD  # exits N`` turned into a check of that status."""
    lines = []
    for line in code.splitlines():
        expected = re.search(r"#\s*exits\s+(\d+)\s*$", line)
        if expected:
            command = line[: expected.start()].rstrip()
            status = expected.group(1)
            lines.append(
                f"{{ {command} ; }} && status=0 || status=$?; "
                f'[ "$status" -eq {status} ] || {{ echo "exit status $status, '
                f'expected {status}: {command}" >&2; exit 1; }}'
            )
        else:
            lines.append(line)
    return "\n".join(lines)


def test_every_page_has_runnable_blocks() -> None:
    assert (ROOT / "docs").is_dir()
    for page in PAGES:
        assert any(b.language in RUN for b in blocks(page)) or page.name in ("architecture.md",), (
            f"{page.name} shows nothing that runs"
        )


def test_the_exit_status_convention(tmp_path: Path) -> None:
    script = bash_script("false  # exits 1\ntrue\nsh -c 'exit 3'  # exits 3")
    assert subprocess.run(["bash", "-e", "-c", script]).returncode == 0
    wrong = bash_script("true  # exits 2")
    assert subprocess.run(["bash", "-e", "-c", wrong], capture_output=True).returncode == 1


def docs_cache(factory: pytest.TempPathFactory) -> Path:
    """The datasets cache every page's commands share, for the whole run: its workers run
    pages side by side (builds into it are atomic)."""
    cache = run_folder(factory) / "docs-cache"
    cache.mkdir(exist_ok=True)
    return cache


def _copy_of_the_repository(target: Path) -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, tracked):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            destination = target / os.fsdecode(name)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_page_runs(
    page: Path, mirror: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    found = blocks(page)
    runnable = [b for b in found if b.language in RUN and b.skip is None]
    skipped = [f"line {b.line}: {b.skip}" for b in found if b.language in RUN and b.skip]
    if not runnable:
        pytest.skip("nothing to run" + (f" ({'; '.join(skipped)})" if skipped else ""))
    work = tmp_path / "repository"
    _copy_of_the_repository(work)
    plan = [
        {"language": b.language, "line": b.line, "code": b.code, "script": bash_script(b.code)}
        for b in runnable
    ]
    plan_file = tmp_path / "blocks.json"
    plan_file.write_text(json.dumps(plan), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HATEMOJI_"))}
    env.update(
        {
            "HATEMOJI_DATASETS_MIRROR": str(mirror),
            "HF_DATASETS_CACHE": str(docs_cache(tmp_path_factory)),
            "HF_HOME": str(tmp_path / "hf-home"),
            "HF_HUB_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1",
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        }
    )
    run = subprocess.run(
        [sys.executable, "-c", DRIVER, str(plan_file)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    reports = [
        json.loads(line[len(MARK) :]) for line in run.stdout.splitlines() if line.startswith(MARK)
    ]
    failed = [r for r in reports if "error" in r]
    assert not failed, f"{page.name} {failed[0]['line'] if failed else ''}:\n" + (
        failed[0]["error"] if failed else run.stderr[-3000:]
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert [r["line"] for r in reports] == [b.line for b in runnable]
    if skipped:
        print(f"{page.name}: not run: {'; '.join(skipped)}")
