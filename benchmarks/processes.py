"""Running one measured child process: wall time from outside, its own report, peak memory.

A child is a whole fresh process started from a program under ``children/`` (or a
console script); it prints its report as one JSON line after ``MARK``. With
``Limits``, a watcher polls its peak memory and stops it past a time limit or a
memory cap, and the stop is a result, not a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

CHILDREN = Path(__file__).resolve().parent / "children"
TIMEOUT = 1800.0
#: Labels of the children that failed: the run then exits 1 (so --smoke in CI fails).
FAILED: list[str] = []
MARK = "@@BENCH@@"


@dataclass(frozen=True)
class Limits:
    """A child's own limits: stopped past ``timeout`` seconds or ``cap_mb`` of peak memory
    (its ``VmHWM``, polled), and the exit codes that are results, not failures."""

    timeout: float
    cap_mb: float
    ok: tuple[int, ...] = (0,)


class Watch(threading.Thread):
    """Polls a child's peak memory; kills it past its limits, and says why."""

    def __init__(self, proc: subprocess.Popen, limits: Limits) -> None:
        super().__init__(daemon=True)
        self.proc, self.limits = proc, limits
        self.done = threading.Event()
        self.reason: str | None = None
        self.peak_mb: float | None = None

    def run(self) -> None:
        start = time.perf_counter()
        while not self.done.wait(0.25):
            try:
                with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as status:
                    hwm = next((line for line in status if line.startswith("VmHWM:")), None)
                if hwm:
                    self.peak_mb = int(hwm.split()[1]) / 1024
            except (OSError, ValueError):
                pass
            if time.perf_counter() - start > self.limits.timeout:
                self.reason = f"timed out ({self.limits.timeout:,.0f} s)"
            elif self.peak_mb is not None and self.peak_mb > self.limits.cap_mb:
                self.reason = f"over the memory cap ({self.limits.cap_mb:,.0f} MB)"
            if self.reason:
                self.proc.kill()
                return


def run_child(
    cmd: list[str],
    env: dict[str, str],
    label: str,
    cwd: str | None = None,
    limits: Limits | None = None,
):
    """Run one whole process; wall time from outside, its report, peak RSS; None on failure.

    With ``limits``, a child stopped at them is a result too (``killed`` says why, and
    ``peak_mb`` is its last ``VmHWM`` seen), and so is an exit code in ``limits.ok``.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=err, env=env, cwd=cwd or tempfile.gettempdir()
        )
        watch = Watch(proc, limits) if limits else threading.Timer(TIMEOUT, proc.kill)
        watch.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)  # rusage of this one child
        finally:
            if isinstance(watch, Watch):
                watch.done.set()
                watch.join()
            else:
                watch.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    result = {"wall": wall, "step": None, "peak_mb": usage.ru_maxrss / 1024, "peak_src": "rusage"}
    if isinstance(watch, Watch) and watch.reason:
        peak = watch.peak_mb if watch.peak_mb is not None else result["peak_mb"]
        print(f"\n[stopped] {label}: {watch.reason} at {peak:,.0f} MB\n", file=sys.stderr)
        return {**result, "peak_mb": peak, "killed": watch.reason, "exit_code": proc.returncode}
    if proc.returncode not in (limits.ok if limits else (0,)):
        tail = "\n".join(stderr.strip().splitlines()[-25:]) or stdout[-2000:]
        print(f"\n[error] {label}: exit code {proc.returncode}\n{tail}\n", file=sys.stderr)
        FAILED.append(label)
        return None
    for line in reversed(stdout.splitlines()):
        if line.startswith(MARK):
            import json  # late: the harness stays small until a report is read

            result.update(json.loads(line[len(MARK) :]), peak_src="VmHWM")
            break
    return result


def child(program: str, args: dict) -> list[str]:
    import json

    return [sys.executable, str(CHILDREN / program), json.dumps(args)]


def byte_compile(env: dict[str, str]) -> bool:
    """Byte-compile the package the children import, once and untimed, as ``pip install``
    does: its children then load it from bytecode, as they load ``datasets``. Without
    it, an editable install under ``PYTHONDONTWRITEBYTECODE`` has every package child
    compile each of its modules from source (about 0.1 s a process) and no baseline
    child anything. Whether it worked."""
    code = (
        "import compileall, os, sys, hatemoji_datasets as p; "
        "sys.exit(not compileall.compile_dir(os.path.dirname(p.__file__), quiet=2))"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True)
    return done.returncode == 0


def tool(name: str) -> list[str] | None:
    """A console script of this environment (beside its Python), or on PATH."""
    script = Path(sys.executable).parent / name
    if script.exists():
        return [str(script)]
    found = shutil.which(name)
    return [found] if found else None


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
