"""Lockfiles as a hostile or careless user writes them: one line, the README's exit status.

Unreadable (missing, special, binary, not TOML, nested too deeply) exits 2; a
lock that locks nothing, or entries that are malformed or unknown, exit 1, each
entry reported once while the valid ones still print ``ok:``. Each test failed
on 3eb3066 (tracebacks, a hang, exit 1 for unreadable files, 160,400 lines).

The lock is of the tests' synthetic dataset (``tests/synthetic/README.md``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.cli import one_error_line
from support.synthetic import SYNTHETIC, registered

from hatemoji_datasets import load_dataset
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.errors import LockError

pytestmark = pytest.mark.usefixtures("synthetic")
#: A config other datasets have (HateCheck's ``all``) and the synthetic one lacks.
OTHERS_CONFIG = "all"

HEADER = 'lock_format = 1\npackage = "hatemoji-datasets"\npackage_version = "0.2.0"\n'


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture(scope="module")
def valid_lock(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The text of a real lock of the dataset, and the cache it was built in."""
    folder = tmp_path_factory.mktemp("hostile-lock")
    cache = folder / "cache"
    path = folder / "hatemoji.lock"
    args = ["lock", SYNTHETIC, "-o", str(path), "--cache-dir", str(cache)]
    with registered():  # made before the test's own registration
        assert main([*args, "--mirror", str(mirror)]) == 0
    return path.read_text(encoding="utf-8"), cache


@pytest.fixture
def verify(capsys: pytest.CaptureFixture[str]):
    """``verify(path, cache, mirror)``: ``hatemoji-datasets verify`` in this process."""

    def run(path: Path, cache: Path, mirror: Path) -> Run:
        capsys.readouterr()
        code = main(["verify", str(path), "--cache-dir", str(cache), "--mirror", str(mirror)])
        out, err = capsys.readouterr()
        return Run(code, out, err)

    return run


def _verify_in_child(path: Path, cache: Path, mirror: Path) -> subprocess.CompletedProcess:
    """In a child process with a timeout: a FIFO must not hang the test run."""
    return subprocess.run(
        [sys.executable, "-m", "hatemoji_datasets", "verify", str(path)]
        + ["--cache-dir", str(cache), "--mirror", str(mirror)],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=60,
    )


def _one_line(done: Run | subprocess.CompletedProcess, status: int) -> str:
    assert done.returncode == status, (done.returncode, done.stdout, done.stderr)
    return one_error_line(done.stderr)


def _entries(lock_text: str) -> tuple[str, str]:
    """The lock's header and its one ``[[dataset]]`` entry (with sources and splits)."""
    head, _, entry = lock_text.partition("[[dataset]]")
    return head, "[[dataset]]" + entry


# -- unreadable: exit 2 ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (None, "FILE-NOT-FOUND"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "FILE-NOT-UTF8"),
        (b"lock_format = 1\n[[dataset]\nname = 'x'\n", "FILE-UNPARSEABLE"),
        (("x = " + "[" * 10_000 + "]" * 10_000 + "\n").encode(), "FILE-UNPARSEABLE"),
        (b"", "FILE-EMPTY"),
    ],
    ids=["missing", "binary", "malformed", "10,000 deep", "empty"],
)
def test_an_unreadable_lock_exits_2_in_our_words(
    tmp_path: Path, mirror: Path, verify, content: bytes | None, code: str
) -> None:
    path = tmp_path / "hatemoji.lock"
    if content is not None:
        path.write_bytes(content)
    line = _one_line(verify(path, tmp_path / "cache", mirror), 2)
    assert f"cannot read the lockfile {path}" in line and code in line
    assert "codec" not in line and "UnboundLocalError" not in line
    with pytest.raises(LockError, match=code) as raised:
        load_dataset(SYNTHETIC, lock=path, cache_dir=str(tmp_path / "cache"))
    assert raised.value.exit_code == 2


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_a_special_file_is_refused_unread(tmp_path: Path, mirror: Path, special: str) -> None:
    if special == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        path = tmp_path / "hatemoji.lock"
        os.mkfifo(path)
    else:
        path = Path(special)
        if not path.exists():
            pytest.skip(f"no {special} here")
    # A FIFO nobody writes to would block a plain open() for ever; /dev/zero never ends.
    line = _one_line(_verify_in_child(path, tmp_path / "cache", mirror), 2)
    assert "FILE-NOT-REGULAR" in line


# -- readable, but not a lock of anything: exit 1 ----------------------------------------------


def test_a_lock_that_locks_nothing_is_an_error(tmp_path: Path, mirror: Path, verify) -> None:
    path = tmp_path / "hatemoji.lock"
    path.write_text(HEADER, encoding="utf-8")
    line = _one_line(verify(path, tmp_path / "cache", mirror), 1)
    assert "locks no datasets" in line
    with pytest.raises(LockError, match="locks no datasets"):
        load_dataset(SYNTHETIC, lock=path, cache_dir=str(tmp_path / "cache"))


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            ('version = "1.0.0"', "version = { major = 1 }"),
            "version must be a string, not a table",
        ),
        (("rows = 24", 'rows = "many"'), "split 1: rows must be an integer, not a string"),
        (  # both of its sources' tables made other tables, "source" a number
            (
                (
                    '[[dataset.source]]\nname = "train"',
                    'source = 3\n[[dataset.s0]]\nname = "train"',
                ),
                ('[[dataset.source]]\nname = "test"', '[[dataset.s0]]\nname = "test"'),
            ),
            "source must be an array",
        ),
        ((f'name = "{SYNTHETIC}"', "name = 7"), "name must be a string, not an integer"),
    ],
    ids=["version a table", "rows a string", "source a number", "name a number"],
)
def test_a_malformed_entry_is_reported_once_and_the_valid_one_still_holds(
    valid_lock: tuple[str, Path], mirror: Path, tmp_path: Path, verify, change, problem: str
) -> None:
    text, cache = valid_lock
    head, entry = _entries(text)
    path = tmp_path / "hatemoji.lock"
    changed = entry
    for old, new in change if isinstance(change[0], tuple) else (change,):
        assert old in changed
        changed = changed.replace(old, new, 1)
    path.write_text(head + entry + "\n" + changed, encoding="utf-8")
    done = verify(path, cache, mirror)
    _one_line(done, 1)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ok: synthetic/default:1.0.0 (train sha256:")
    assert len(lines) == 2 and lines[1].startswith("differs: entry 2") and problem in lines[1]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            ('version = "1.0.0"', 'version = "9.9.9"'),
            "unknown version '9.9.9' of synthetic",
        ),
        ((f'name = "{SYNTHETIC}"', 'name = "no_such"'), "unknown dataset 'no_such'"),
        (
            ('config = "default"', f'config = "{OTHERS_CONFIG}"'),
            f"unknown config '{OTHERS_CONFIG}'",
        ),
    ],
    ids=["unknown version", "unknown dataset", "unknown config"],
)
def test_an_unknown_entry_after_a_valid_one(
    valid_lock: tuple[str, Path], mirror: Path, tmp_path: Path, verify, change, problem: str
) -> None:
    text, cache = valid_lock
    head, entry = _entries(text)
    path = tmp_path / "hatemoji.lock"
    path.write_text(head + entry + "\n" + entry.replace(*change, 1) * 2, encoding="utf-8")
    done = verify(path, cache, mirror)
    assert "1 of 3" not in done.stderr and "2 of 3 locked dataset(s) differ" in done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ok: synthetic/default:1.0.0")
    assert len(lines) == 3 and all(problem in line for line in lines[1:]), lines


def test_401_entries_print_401_lines(
    valid_lock: tuple[str, Path], mirror: Path, tmp_path: Path, verify
) -> None:
    text, cache = valid_lock
    head, entry = _entries(text)
    unknown = entry.replace(f'name = "{SYNTHETIC}"', 'name = "no_such"', 1)
    path = tmp_path / "hatemoji.lock"
    path.write_text(head + entry + "\n" + unknown * 400, encoding="utf-8")
    done = verify(path, cache, mirror)
    _one_line(done, 1)
    assert "400 of 401 locked dataset(s) differ" in done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 401 and lines[0].startswith("ok: ")
