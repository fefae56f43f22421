"""Running the command line in the tests: in this process as a child would (``run_cli``),
its JSON findings, its one error line, and what a fresh interpreter imports."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path

#: Libraries a fast path must not import (``imported_after`` reports each).
HEAVY = ("datasets", "pandera", "emoji", "pandas", "scipy")


def imported_after(code: str, cwd: Path | None = None) -> dict[str, bool]:
    """Which of ``HEAVY`` a fresh process has imported after running ``code`` (its output
    muted), checked in ``sys.modules``, not by timing."""
    body = textwrap.indent(textwrap.dedent(code), "    ")
    probe = (
        "import contextlib, io, json, sys\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"{body}\n"
        f"print(json.dumps({{name: name in sys.modules for name in {HEAVY!r}}}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=cwd, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def validate_json(capsys, mirror: Path, name: str, *args: str) -> tuple[int, list[dict]]:
    """``validate ARGS --dataset NAME --format json`` in-process: its exit status and
    findings."""
    from hatemoji_datasets.cli import main

    capsys.readouterr()
    code = main(["validate", *args, "--dataset", name, "--mirror", str(mirror), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)["findings"]


def one_error_line(err: str) -> str:
    """The one ``error: ...`` line a failed command printed, with no traceback."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


class _Captured(io.TextIOWrapper):
    """A standard stream as a pipe would be: UTF-8 text over bytes, not a terminal."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", write_through=True)

    def isatty(self) -> bool:
        return False

    def read_back(self, errors: str) -> str:
        self.flush()
        return self.buffer.getvalue().decode("utf-8", errors)


def run_cli(
    *args: str,
    cwd: Path | None = None,
    env: Mapping[str, str | None] | None = None,
    errors: str = "strict",
) -> subprocess.CompletedProcess[str]:
    """``hatemoji-datasets ARGS`` run in this process, as a child's result: exit status,
    standard output and standard error.

    ``env`` sets variables for the run (``None`` removes one). The streams are pipes, not
    terminals; logging goes to the captured standard error as the command configures it
    in a new process; an exception that escapes ``main`` fails the test, as a traceback
    would. Where the process itself is what is tested (a real exit status, signals, the
    entry points, what a fresh interpreter imports or prints) tests start one instead.
    """
    from hatemoji_datasets.cli import main

    out, err = _Captured(), _Captured()
    saved_env = {key: os.environ.get(key) for key in (env or {})}
    saved_streams, saved_cwd = (sys.stdout, sys.stderr), Path.cwd()
    root = logging.getLogger()
    saved_handlers = root.handlers[:]
    ours = logging.getLogger("hatemoji_datasets")
    saved_level = ours.level
    library = sys.modules.get("datasets")  # its progress bars are the command's to switch
    saved_bars = library.is_progress_bar_enabled() if library else None
    for key, value in (env or {}).items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    root.handlers = []  # as in a new process: the command's basicConfig installs its own
    sys.stdout, sys.stderr = out, err
    try:
        if cwd is not None:
            os.chdir(cwd)
        try:
            status = main(list(args))
        except SystemExit as done:  # --help, --version
            status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.stdout, sys.stderr = saved_streams
        root.handlers = saved_handlers
        ours.setLevel(saved_level)
        if library is not None:
            (library.enable_progress_bars if saved_bars else library.disable_progress_bars)()
        os.chdir(saved_cwd)
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return subprocess.CompletedProcess(
        ["hatemoji-datasets", *args], status, out.read_back(errors), err.read_back(errors)
    )
