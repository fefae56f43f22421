"""Progress on long work shows where a person watches, and nowhere else.

Standard error attached to a pseudo-terminal (``os.openpty``) gets one line per
fetched file and built split, with sizes; piped, under ``CI`` and with ``--format
json`` it gets none; the Python API shows the same lines and never ``datasets``'
own bars. ``HATEMOJI_DATASETS_PROGRESS_DELAY=0`` shows every step at once, so the
tests need no slow work.
"""

from __future__ import annotations

import csv
import io
import os
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from support.synthetic import KEY, SYNTHETIC, TEXT, mirror_file

from hatemoji_datasets.core import progress

#: The commands here build and validate the tests' synthetic dataset (its two pinned files,
#: ``tests/synthetic/README.md``). Slow: scheduled first (tests/scheduling.py).
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("synthetic")]


def _new_row(mirror: Path) -> str:
    """``test.csv``'s header and first row, made a new row (another id, another text): a
    valid contribution."""
    with mirror_file("test", mirror).open(encoding="utf-8", newline="") as handle:
        rows = csv.reader(handle)
        header, row = next(rows), next(rows)
    row[header.index(KEY)] = "900000"
    row[header.index(TEXT)] += " again"
    written = io.StringIO()
    csv.writer(written, lineterminator="\n").writerows([header, row])
    return written.getvalue()


def _writing_splits(err: str) -> None:
    """``err`` shows each split of the default config written, with its rows."""
    assert "synthetic/default: writing split train (24 rows" in err
    assert "synthetic/default: writing split test (16 rows" in err


def _env(mirror: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "HATEMOJI_DATASETS_MIRROR")}
    return env | {
        "HATEMOJI_DATASETS_MIRROR": str(mirror),
        "HATEMOJI_DATASETS_PROGRESS_DELAY": "0",
        **extra,
    }


def _on_a_terminal(command: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """Run ``command`` with standard error on a pseudo-terminal; its status and stderr."""
    master, slave = os.openpty()
    run = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=slave, env=env, cwd=cwd, stdin=subprocess.DEVNULL
    )
    os.close(slave)
    seen = bytearray()
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # the child closed its end
                break
            if not data:
                break
            seen += data
        elif run.poll() is not None:
            break
    os.close(master)
    return run.wait(timeout=300), seen.decode("utf-8", errors="replace")


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "hatemoji_datasets", *args]


def test_a_build_shows_each_file_and_split_on_a_terminal_only(mirror: Path, tmp_path: Path):
    build = _cli("build", SYNTHETIC, "--cache-dir", str(tmp_path / "cache"), "--force")
    status, err = _on_a_terminal(build, _env(mirror), tmp_path)
    assert status == 0, err
    # Each pinned file with its size (1,107 and 693 bytes), and each split with its rows.
    assert "verifying train (train.csv, 1.1 KiB)" in err
    assert "verifying test (test.csv, 693 B)" in err  # under 1 KiB: in bytes
    _writing_splits(err)
    assert "\r\x1b[K" in err  # redrawn in place
    assert not re.search(r"Generating \w+ split", err)  # no datasets bar beside it
    piped = subprocess.run(build, capture_output=True, text=True, env=_env(mirror), cwd=tmp_path)
    assert piped.returncode == 0 and piped.stderr == ""
    status, err = _on_a_terminal(build, _env(mirror, CI="true"), tmp_path)
    assert status == 0 and err == ""  # a CI log stays quiet, terminal or not


def test_validation_shows_on_a_terminal_but_never_beside_json(mirror: Path, tmp_path: Path):
    (tmp_path / "new_cases.csv").write_text(_new_row(mirror), encoding="utf-8")
    validate = _cli("validate", "new_cases.csv", "--dataset", SYNTHETIC)
    validate += ["--cache-dir", str(tmp_path / "cache")]
    status, err = _on_a_terminal(validate, _env(mirror), tmp_path)
    assert status == 0, err
    size = (tmp_path / "new_cases.csv").stat().st_size
    assert size < 1024 and f"checking new_cases.csv ({size} B)" in err  # with its size
    status, err = _on_a_terminal([*validate, "--format", "json"], _env(mirror), tmp_path)
    assert status == 0 and err == ""


def test_the_python_api_follows_the_same_rule(mirror: Path, tmp_path: Path):
    script = (
        "from hatemoji_datasets import load_dataset\n"
        f"load_dataset({SYNTHETIC!r}, cache_dir={str(tmp_path / 'cache')!r})\n"
    )
    status, err = _on_a_terminal([sys.executable, "-c", script], _env(mirror), tmp_path)
    assert status == 0, err
    _writing_splits(err)
    assert not re.search(r"Generating \w+ split", err) and "it/s" not in err  # no datasets bars
    piped = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=_env(mirror)
    )
    assert piped.returncode == 0 and piped.stderr == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_quick_steps_stay_silent_and_slow_ones_count_bytes(monkeypatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("HATEMOJI_DATASETS_PROGRESS_DELAY", "5")
    progress.configure()
    terminal = _Terminal()
    with progress.step("quick", stream=terminal):
        pass
    assert terminal.getvalue() == ""  # done before the delay: nothing to watch
    monkeypatch.setenv("HATEMOJI_DATASETS_PROGRESS_DELAY", "0")
    with progress.step("fetching x", 2048, stream=terminal) as shown:
        shown.update(1024)
    assert "fetching x: 0 B of 2.0 KiB" in terminal.getvalue()
    assert terminal.getvalue().endswith("fetching x: 2.0 KiB of 2.0 KiB (0.0 s)\n")
    with pytest.raises(RuntimeError), progress.step("broken", stream=terminal):
        raise RuntimeError
    assert terminal.getvalue().endswith("broken (failed)\n")
    piped = io.StringIO()
    with progress.step("anything", stream=piped):
        pass
    assert piped.getvalue() == ""
    progress.configure(quiet=True)
    with progress.step("anything", stream=terminal) as shown:
        pass
    assert not shown.shown
    progress.configure()
