"""Every command and Python snippet that README.md and docs/ show is run, in document order.

How a page is run (the conventions its authors follow):

- each `` ```python `` block runs on its own, as a reader who copies only that block
  would run it: its own imports and names, none left by an earlier block (files
  that earlier commands on the page wrote, such as an export, are there);
- each `` ```bash `` block runs with ``bash -e``; a command expected to fail ends in
  ``# exits N`` and must exit with exactly that status;
- `` ```text ``, `` ```toml `` and other fences are shown, never run (use them for
  command synopses and outputs);
- an HTML comment ``<!-- not run: REASON -->`` on the line before a block skips it,
  and the reason is reported; use it only for what cannot run offline (a real
  upload to the Hub).

A page that needs published artefacts which are no part of the repository (the authors'
released predictions and runs on docs/reproducing.md) reads their folder from an environment
variable of ``INPUTS``, which the test sets to that folder under the reference artefacts
(``tests/conftest.py``); a page naming a variable whose folder is absent skips.

A page runs in a fresh copy of the repository's tracked files (so relative paths
such as ``scripts/baselines.py`` work and nothing is written into the checkout),
with the offline mirror, the run's one ``datasets`` cache (``session_cache``: each
dataset is built once, by a page or by another test), and no network. Pages that need
the real data skip without the mirror.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.paths import copy_of_the_repository, reference_path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([A-Za-z0-9_+-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
SKIP = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->\s*$")
RUN = ("python", "bash")
#: Environment variable -> the folder of reference artefacts it names, for pages that use it.
INPUTS = {"HATECHECK_PREDICTIONS": "hatecheck-acl2021", "MHC_RUNS": "mhc-elr-emnlp2022"}
MARK = "@@DOCS@@"
#: Pages another test runs, in the setting they need.
ELSEWHERE = {
    "adding-a-dataset.md": "tests/test_adding_a_dataset.py runs it on a scratch copy whose "
    "package (and its new dataset) is the one imported",
}


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
for block in blocks:
    where = f"line {block['line']}"
    if block["language"] == "python":
        try:  # a namespace of its own: a block runs alone, as copied
            exec(compile(block["code"], where, "exec"), {"__name__": "__docs__"})
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


def _unbound_names(code: str) -> set[str]:
    """Names a block reads that it neither imports nor assigns (builtins aside)."""
    import ast
    import builtins

    tree = ast.parse(code)
    bound, read = set(dir(builtins)) | {"__name__"}, set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return read - bound


def test_every_python_block_runs_on_its_own() -> None:
    """A reader may copy one block: it imports and defines all it uses (checked without
    running it, so this holds without the real data too)."""
    leaning = [
        f"{page.name}:{block.line}: {', '.join(sorted(unbound))}"
        for page in PAGES
        for block in blocks(page)
        if block.language == "python" and (unbound := _unbound_names(block.code))
    ]
    assert leaning == [], "blocks that use what an earlier block defined"


def test_the_exit_status_convention(tmp_path: Path) -> None:
    script = bash_script("false  # exits 1\ntrue\nsh -c 'exit 3'  # exits 3")
    assert subprocess.run(["bash", "-e", "-c", script]).returncode == 0
    wrong = bash_script("true  # exits 2")
    assert subprocess.run(["bash", "-e", "-c", wrong], capture_output=True).returncode == 1


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_page_runs(page: Path, mirror: Path, session_cache: Path, tmp_path: Path) -> None:
    if page.name in ELSEWHERE:
        pytest.skip(ELSEWHERE[page.name])
    found = blocks(page)
    runnable = [b for b in found if b.language in RUN and b.skip is None]
    skipped = [f"line {b.line}: {b.skip}" for b in found if b.language in RUN and b.skip]
    if not runnable:
        pytest.skip("nothing to run" + (f" ({'; '.join(skipped)})" if skipped else ""))
    inputs = {}
    for variable, folder in INPUTS.items():
        if variable in page.read_text(encoding="utf-8"):
            where = reference_path() / folder
            if not where.is_dir():
                pytest.skip(f"{variable}: published artefacts unavailable at {where}")
            inputs[variable] = str(where)
    work = tmp_path / "repository"
    copy_of_the_repository(work)
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
            "HF_DATASETS_CACHE": str(session_cache),
            "HF_HOME": str(tmp_path / "hf-home"),
            "HF_HUB_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1",
            # Where `lm-eval-tasks --path` writes the tasks: not the user's own cache.
            "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
            **inputs,
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
