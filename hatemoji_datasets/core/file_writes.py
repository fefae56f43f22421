"""The one guarded write every command goes through.

A file is written to a temporary file in the destination folder and renamed
over the destination only once complete (:func:`write_text`, :func:`write_bytes`,
:func:`writing`), so a reader never sees half a file; the clean-up after a
failure cannot itself raise. A missing, read-only, full or not-a-folder
destination is one :class:`~hatemoji_datasets.core.errors.OutputError` line (exit
status 1), and the ``check_*`` functions say so before any long work.

Only the standard library is imported.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from hatemoji_datasets.core.errors import OutputError

_REASONS = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
}


def _reason(exc: OSError) -> str:
    return _REASONS.get(exc.errno or 0) or exc.strerror or str(exc) or type(exc).__name__


def _not_a_folder(folder: Path) -> Path | None:
    """The first of ``folder`` and its parents that exists but is not a folder, if any."""
    return next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)


def output_error(path: str | os.PathLike[str], exc: OSError) -> OutputError:
    """One line naming the destination and why it cannot be written."""
    target = Path(path)
    folder = target.parent
    if isinstance(exc, IsADirectoryError) or target.is_dir():
        return OutputError(f"cannot write {target}: it is a folder")
    if isinstance(exc, NotADirectoryError | FileNotFoundError):
        blocked = _not_a_folder(folder)
        if blocked is not None:
            return OutputError(f"cannot write {target}: {blocked} is not a folder")
        if not folder.exists():
            return OutputError(f"cannot write {target}: the folder {folder} does not exist")
    return OutputError(f"cannot write {target}: {_reason(exc)}")


def _check_target(target: Path) -> None:
    """Only a regular file (or nothing) is replaced: never a folder, device, FIFO, socket or
    symbolic link (renaming over a link replaces the link, as ``/dev/stdout`` would be)."""
    if target.is_symlink():
        raise OutputError(
            f"cannot write {target}: it is a symbolic link; give the file it points to"
        )
    try:
        status = os.stat(target)
    except OSError:
        return  # nothing there (or nothing to stat): the write names any problem
    if stat.S_ISDIR(status.st_mode):
        raise OutputError(f"cannot write {target}: it is a folder")
    if not stat.S_ISREG(status.st_mode):
        raise OutputError(f"cannot write {target}: it is not a regular file (device, FIFO...)")


def check_destination(path: str | os.PathLike[str]) -> None:
    """Fail early, before any work, when ``path`` clearly cannot be written.

    The write itself is still guarded: this only spares a long build whose
    result could not be kept (a missing folder, a file in the way, no access).
    """
    target = Path(path)
    folder = target.parent
    _check_target(target)
    blocked = _not_a_folder(folder)
    if blocked is not None:
        raise OutputError(f"cannot write {target}: {blocked} is not a folder")
    if not folder.is_dir():
        raise OutputError(f"cannot write {target}: the folder {folder} does not exist")
    _check_writable(folder, f"cannot write {target}")


def _check_writable(folder: Path, what: str) -> None:
    if _read_only(folder):
        raise OutputError(f"{what}: {_REASONS[errno.EROFS]}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{what}: permission denied")


def _read_only(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & getattr(os, "ST_RDONLY", 0))
    except (OSError, AttributeError):
        return False


def check_folder_destination(folder: str | os.PathLike[str]) -> None:
    """Fail early when files cannot be written into ``folder``.

    ``folder`` itself may be new (it is made when written), but its parent must
    exist: as for a file, a missing parent is refused, never created.
    """
    path = Path(folder)
    blocked = _not_a_folder(path)
    if blocked is not None:
        raise OutputError(f"cannot write into {path}: {blocked} is not a folder")
    existing = path if path.is_dir() else path.parent
    if not existing.is_dir():
        raise OutputError(f"cannot write into {path}: the folder {existing} does not exist")
    _check_writable(existing, f"cannot write into {path}")


def make_folder(
    folder: str | os.PathLike[str], *, within: str | os.PathLike[str] | None = None
) -> Path:
    """Create ``folder`` if missing; OutputError when it cannot be.

    Only ``folder`` is made, or, with ``within`` (a folder the command writes, which
    holds ``folder``), the folders from ``within`` down to it: the parent of the
    outermost folder made must exist. A missing parent is refused, never created.
    """
    path = Path(folder)
    if path.is_dir():
        return path
    outermost = Path(within) if within is not None else path
    blocked = _not_a_folder(path)
    if blocked is not None:
        raise OutputError(f"cannot write into {path}: {blocked} is not a folder")
    if not outermost.parent.is_dir():
        raise OutputError(f"cannot write into {path}: the folder {outermost.parent} does not exist")
    try:
        path.mkdir(parents=within is not None, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write into {path}: {_reason(exc)}") from None
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _discard(path: str) -> None:
    with suppress(OSError):  # nothing more can be done; the name is hidden and unique
        os.unlink(path)


@contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[str]:
    """A temporary path beside ``path``; once the body returns it becomes ``path``.

    For writers that want a path (pyarrow, matplotlib). On any failure the
    temporary file is removed and ``path`` is left as it was.
    """
    target = Path(path)
    _check_target(target)
    try:
        descriptor, partial = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
        )
    except OSError as exc:
        raise output_error(target, exc) from None
    done = False
    try:
        os.close(descriptor)
        yield partial
        os.chmod(partial, 0o666 & ~_umask())
        os.replace(partial, target)
        done = True
    except OSError as exc:
        raise output_error(target, exc) from None
    finally:
        if not done:
            _discard(partial)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically; OutputError naming the cause when it cannot."""
    with writing(path) as partial:
        descriptor = os.open(partial, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view) :]
        finally:
            os.close(descriptor)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` as UTF-8 with ``\\n`` line ends, atomically."""
    write_bytes(path, text.encode("utf-8"))
