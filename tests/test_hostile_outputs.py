"""Every file a command writes goes through one guarded write: one line and exit 1 when the
destination is missing, not a folder, read-only or full; never a half-written file.

The writers: ``lock -o``, ``export --out``, ``card --out``, ``score --plot``,
``fingerprints --write``, ``export-schemas --output`` and the summary ``info``
stores. A full disk is simulated by making ``os.write`` fail with ENOSPC, a
read-only file system by making the temporary file's creation fail with EROFS;
a read-only folder is made with ``chmod`` (skipped as root, which chmod does not
bind). Each failed on 3eb3066 with an OSError, NotADirectoryError or "No space
left" traceback (for ``lock -o``, from the clean-up after the failed write).

The writers write the tests' synthetic dataset (``tests/synthetic/README.md``).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from support.synthetic import SYNTHETIC, registered

from hatemoji_datasets import load_dataset
from hatemoji_datasets.cli import main
from hatemoji_datasets.core import file_writes
from hatemoji_datasets.pinning import record

pytestmark = pytest.mark.usefixtures("synthetic")

OLD = "an older file, left as it was\n"


@pytest.fixture(scope="module")
def warm_cache(pristine_cache, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The dataset built before any write is made to fail (a copy of the run's build)."""
    cache = tmp_path_factory.mktemp("outputs") / "cache"
    with registered():  # made before the test's own registration
        shutil.copytree(pristine_cache(SYNTHETIC), cache, symlinks=True)
    return cache


def _predictions(folder: Path, cache: Path) -> Path:
    """Every row of the evaluation split (``test``, ids 25-40) predicted as label 1."""
    path = folder / "always.csv"
    rows = "".join(f"{i},1\n" for i in range(25, 41))
    path.write_text("sentence_id,prediction\n" + rows, encoding="utf-8")
    return path


#: writer -> (argv for a destination, a scratch folder and the cache; whether the
#: destination is a file or a folder).
WRITERS: dict[str, tuple[Callable[[Path, Path, Path], list[str]], str]] = {
    "lock -o": (lambda dest, *_: ["lock", SYNTHETIC, "-o", str(dest)], "file"),
    "export --out": (lambda dest, *_: ["export", SYNTHETIC, "--out", str(dest)], "folder"),
    "card --out": (lambda dest, *_: ["card", SYNTHETIC, "--out", str(dest)], "folder"),
    "score --plot": (
        lambda dest, work, cache: [
            "score",
            SYNTHETIC,
            "--predictions",
            str(_predictions(work, cache)),
            "--plot",
            str(dest.with_suffix(".png")),
        ],
        "file",
    ),
    "fingerprints --write": (lambda *_: ["fingerprints", SYNTHETIC, "--write"], "file"),
    "export-schemas": (lambda dest, *_: ["export-schemas", "--output", str(dest)], "folder"),
}


def _run(
    writer: str, dest: Path, work: Path, cache: Path, mirror: Path, monkeypatch, capsys
) -> tuple[int, str, str]:
    argv, _ = WRITERS[writer]
    if writer == "fingerprints --write":  # never the package's own file
        monkeypatch.setattr(record, "recorded_path", lambda spec: dest)
    args = argv(dest, work, cache)
    if writer != "export-schemas":
        args += ["--cache-dir", str(cache), "--mirror", str(mirror)]
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _assert_one_line(code: int, err: str, *names: object) -> None:
    assert code == 1, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot write"), err
    assert all(str(name) in lines[0] for name in names), (names, lines[0])


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*.tmp")) if folder.is_dir() else []


@pytest.mark.parametrize("writer", list(WRITERS))
def test_under_a_regular_file(
    writer: str, tmp_path: Path, warm_cache: Path, mirror: Path, monkeypatch, capsys
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    dest = blocker / "sub" / "out"
    code, _, err = _run(writer, dest, tmp_path, warm_cache, mirror, monkeypatch, capsys)
    _assert_one_line(code, err, blocker, "is not a folder")
    assert blocker.read_text(encoding="utf-8") == "not a folder"


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_missing_folder(
    writer: str, tmp_path: Path, warm_cache: Path, mirror: Path, monkeypatch, capsys
) -> None:
    """A missing parent is refused, never made: for a file (``score --plot`` made it, at the
    top of the file system as root, until 0.3.0) and for a folder a command writes."""
    missing = tmp_path / "no-such-folder"
    dest = missing / "deeper" / "out"
    code, out, err = _run(writer, dest, tmp_path, warm_cache, mirror, monkeypatch, capsys)
    _assert_one_line(code, err, "does not exist")
    assert not missing.exists() and out == ""


def _enospc(*args: object, **kwargs: object) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _erofs(*args: object, **kwargs: object) -> tuple[int, str]:
    raise OSError(errno.EROFS, os.strerror(errno.EROFS))


@pytest.mark.parametrize("writer", list(WRITERS))
@pytest.mark.parametrize(
    ("failure", "reason"),
    [("full disk", "no space left on the device"), ("read-only", "the file system is read-only")],
)
def test_a_full_or_read_only_destination(
    writer: str,
    failure: str,
    reason: str,
    tmp_path: Path,
    warm_cache: Path,
    mirror: Path,
    monkeypatch,
    capsys,
) -> None:
    kind = WRITERS[writer][1]
    folder = tmp_path / "out"
    folder.mkdir()
    dest = folder / "x.lock" if kind == "file" else folder / "export"
    old = dest.with_suffix(".png") if writer == "score --plot" else dest
    if kind == "file":
        old.write_text(OLD, encoding="utf-8")
    if failure == "full disk":
        monkeypatch.setattr(file_writes.os, "write", _enospc)
    else:
        monkeypatch.setattr(file_writes.tempfile, "mkstemp", _erofs)
    code, out, err = _run(writer, dest, tmp_path, warm_cache, mirror, monkeypatch, capsys)
    _assert_one_line(code, err, reason)
    assert _leftovers(folder) == []
    if kind == "file":
        assert old.read_text(encoding="utf-8") == OLD  # never half-written
    if writer == "score --plot":
        assert out == ""  # the plot fails before the report is printed


@pytest.mark.skipif(
    os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root ignores chmod"
)
@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_read_only_folder(
    writer: str, tmp_path: Path, warm_cache: Path, mirror: Path, monkeypatch, capsys
) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        dest = folder / "out"
        code, _, err = _run(writer, dest, tmp_path, warm_cache, mirror, monkeypatch, capsys)
        _assert_one_line(code, err, "permission denied")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(stat.S_IRWXU)


def test_info_answers_when_its_summary_cannot_be_stored(
    tmp_path: Path, mirror: Path, monkeypatch, capsys
) -> None:
    cache = tmp_path / "cache"
    load_dataset(SYNTHETIC, cache_dir=str(cache), mirror=str(mirror))
    monkeypatch.setattr(file_writes.os, "write", _enospc)
    capsys.readouterr()
    assert main(["info", SYNTHETIC, "--cache-dir", str(cache), "--mirror", str(mirror)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Synthetic sentences (tests only): ") and err == ""
    assert not list(cache.rglob("hatemoji_summary.json")) and _leftovers(cache) == []


def test_a_write_replaces_the_file_whole(tmp_path: Path) -> None:
    """The guarded write itself: permissions follow the umask, nothing else is left."""
    path = tmp_path / "x.txt"
    path.write_text("old", encoding="utf-8")
    file_writes.write_text(path, "new ✓\n")
    assert path.read_text(encoding="utf-8") == "new ✓\n"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.txt"]


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_a_special_or_linked_destination_is_never_replaced(
    kind: str, tmp_path: Path, warm_cache: Path, mirror: Path, monkeypatch, capsys
) -> None:
    """Renaming over a FIFO, a device or a link would replace it with a regular file
    (``-o /dev/stdout`` replaced the link in /dev): each is refused, left as it was.
    (No device here: a regression would replace it.)"""
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        dest = tmp_path / "x.lock"
        os.mkfifo(dest)
    elif kind == "symlink":
        pointed = tmp_path / "elsewhere.lock"
        pointed.write_text(OLD, encoding="utf-8")
        dest = tmp_path / "x.lock"
        dest.symlink_to(pointed)
    before = os.lstat(dest)
    code, _, err = _run("lock -o", dest, tmp_path, warm_cache, mirror, monkeypatch, capsys)
    reason = "symbolic link" if kind == "symlink" else "not a regular file"
    _assert_one_line(code, err, dest, reason)
    after = os.lstat(dest)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    if kind == "symlink":
        assert pointed.read_text(encoding="utf-8") == OLD


def _fail_the_croissant_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that fills up once the Parquet files are written: ``croissant.json``, the last
    file an export writes, cannot be."""
    real_write = os.write

    def write(descriptor: int, data: bytes) -> int:
        if bytes(data[:40]).lstrip().startswith(b'{\n  "@context"'):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(descriptor, data)

    monkeypatch.setattr(file_writes.os, "write", write)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.mark.parametrize("before", ["no folder", "a previous export"])
def test_an_export_that_fails_midway_leaves_the_folder_as_it_was(
    before: str, tmp_path: Path, warm_cache: Path, mirror: Path, monkeypatch, capsys
) -> None:
    dest = tmp_path / "export"
    if before == "a previous export":
        _run("export --out", dest, tmp_path, warm_cache, mirror, monkeypatch, capsys)
        (dest / "data" / "default" / "stale-00000-of-00001.parquet").write_bytes(b"PAR1 old")
    old = _snapshot(dest) if dest.exists() else None
    _fail_the_croissant_write(monkeypatch)
    code, _, err = _run("export --out", dest, tmp_path, warm_cache, mirror, monkeypatch, capsys)
    _assert_one_line(code, err, "no space left on the device")
    if old is None:
        assert not dest.exists()  # Parquet files were written, then taken back with the folder
    else:
        assert _snapshot(dest) == old  # not a mix of two exports, nor a previous one lost
        assert [p.name for p in dest.iterdir() if p.name.startswith(".export")] == []


def test_a_killed_exports_staging_folder_is_cleared_and_a_linked_one_refused(
    tmp_path: Path, warm_cache: Path, mirror: Path, monkeypatch, capsys
) -> None:
    dest = tmp_path / "export"
    _run("export --out", dest, tmp_path, warm_cache, mirror, monkeypatch, capsys)
    (dest / ".export-partial-killed" / "data").mkdir(parents=True)
    (dest / ".export-partial-killed" / "data" / "half.parquet").write_bytes(b"PAR1")
    code, _, err = _run("export --out", dest, tmp_path, warm_cache, mirror, monkeypatch, capsys)
    assert code == 0, err
    assert not (dest / ".export-partial-killed").exists()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("kept", encoding="utf-8")
    (dest / ".export-partial-link").symlink_to(outside, target_is_directory=True)
    code, _, err = _run("export --out", dest, tmp_path, warm_cache, mirror, monkeypatch, capsys)
    assert code == 1 and ".export-partial-link" in err and "Traceback" not in err
    assert (outside / "keep.txt").read_text(encoding="utf-8") == "kept"
