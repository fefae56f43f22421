"""The digests of a build's files, recorded when it is written and checked before it is served.

``datasets`` keeps a build as a folder (``CACHE/<name>/<config>/<version>/``)
of Arrow files, ``dataset_info.json`` and ``LICENSE``, and serves whatever the
Arrow files hold. When a build is written, :func:`record` stores the size and
sha256 of each of those files in ``hatemoji_manifest.json`` beside them (a
file ``datasets`` never reads); every load calls :func:`check` first, so a
file that was edited in place, replaced, cut short or deleted is refused
before ``datasets`` opens it. ``info``'s stored summary is recorded too
(:func:`add`) and checked when it is read.

The files are small (about 1 MiB per split), so hashing them costs
milliseconds. The manifest guards against damage and careless edits; someone
who can write the cache can rewrite the manifest too, which is what lockfiles
(``verify``, ``load_dataset(lock=)``) guard against: they recompute every
fingerprint from the rows.

Only the standard library is imported (``info`` checks a build without ``datasets``).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from hatemoji_datasets.core.errors import InputError, OutputError
from hatemoji_datasets.core.file_reads import open_regular, read_bytes, read_json
from hatemoji_datasets.core.file_writes import write_text

MANIFEST_FILE = "hatemoji_manifest.json"
#: Bump when the layout changes; a manifest of another format is damage.
MANIFEST_FORMAT = 1
#: Files of a build folder that are not the build: the manifest itself, and the
#: ``cache-*.arrow`` files ``Dataset.map`` and friends write beside a build.
_NOT_RECORDED_PREFIXES = ("cache-", ".")
_CHUNK = 1 << 20


class Damage(Exception):
    """A build folder differs from its manifest; the message says how, in one line."""


def _digest(path: Path) -> tuple[int, str]:
    """Size and sha256 of a regular file; Damage for anything else (a FIFO never blocks)."""
    try:
        descriptor = open_regular(path)
    except InputError as error:
        raise Damage(f"{path.name} {error.finding.message}") from None
    digest = hashlib.sha256()
    size = 0
    try:
        with os.fdopen(descriptor, "rb") as handle:
            for block in iter(lambda: handle.read(_CHUNK), b""):
                digest.update(block)
                size += len(block)
    except OSError as exc:
        raise Damage(f"{path.name} cannot be read ({exc.strerror or exc})") from None
    return size, digest.hexdigest()


def _recorded_names(folder: Path) -> list[str]:
    """The files of a freshly written build: everything but the manifest and map caches."""
    return sorted(
        entry.name
        for entry in os.scandir(folder)
        if entry.is_file(follow_symlinks=False)
        and entry.name != MANIFEST_FILE
        and not entry.name.startswith(_NOT_RECORDED_PREFIXES)
        and not entry.name.endswith((".lock", ".tmp"))
    )


def record(folder: str | os.PathLike[str], *, exclude: tuple[str, ...] = ()) -> None:
    """Write the manifest of a build folder: size and sha256 of each of its files.

    ``exclude``: files not to record (a stored summary this package did not
    vouch for, when a build from before manifests is adopted).
    """
    root = Path(folder)
    files = {}
    for name in _recorded_names(root):
        if name in exclude:
            continue
        try:
            size, sha256 = _digest(root / name)
        except Damage as damage:
            raise OutputError(f"cannot record the digests of {root}: {damage}") from None
        files[name] = {"size": size, "sha256": sha256}
    _write(root, files)


def _write(root: Path, files: dict[str, dict[str, object]]) -> None:
    document = {"format": MANIFEST_FORMAT, "files": dict(sorted(files.items()))}
    write_text(root / MANIFEST_FILE, json.dumps(document, indent=1) + "\n")


def exists(folder: str | os.PathLike[str]) -> bool:
    return (Path(folder) / MANIFEST_FILE).is_file()


def _read(root: Path) -> dict[str, tuple[int, str]]:
    """``{file name: (size, sha256)}`` of the manifest; Damage when it is not one."""
    try:
        document = read_json(root / MANIFEST_FILE, limit=1 << 20)
    except InputError as error:
        why = error.finding.message
        raise Damage(f"its manifest {MANIFEST_FILE} cannot be read ({why})") from None
    if not isinstance(document, dict):
        raise Damage(f"its manifest {MANIFEST_FILE} is not one this package wrote")
    files = document.get("files")
    if document.get("format") != MANIFEST_FORMAT or not isinstance(files, dict) or not files:
        raise Damage(f"its manifest {MANIFEST_FILE} is not one this package wrote")
    found = {}
    for name, entry in files.items():
        size = entry.get("size") if isinstance(entry, dict) else None
        sha256 = entry.get("sha256") if isinstance(entry, dict) else None
        if (
            not isinstance(size, int)
            or not isinstance(sha256, str)
            or os.path.basename(name) != name
        ):
            raise Damage(f"its manifest {MANIFEST_FILE} is not one this package wrote")
        found[name] = (size, sha256)
    return found


def check(folder: str | os.PathLike[str], *, dataset_name: str, skip: tuple[str, ...] = ()) -> None:
    """Raise :class:`Damage` unless every recorded file of the build is as it was written.

    Files named in ``skip`` are not checked (``load_dataset`` does not read
    the stored summary). A data file of the dataset (``NAME-*.arrow``) that the
    manifest does not list is damage too: ``datasets`` would read it.
    """
    root = Path(folder)
    recorded = _read(root)
    for name, (size, sha256) in recorded.items():
        if name in skip:
            continue
        path = root / name
        if not path.exists() and not path.is_symlink():
            raise Damage(f"{name} is missing")
        found_size, found_sha256 = _digest(path)
        if found_size != size:
            raise Damage(f"{name} has {found_size:,} bytes where the build wrote {size:,}")
        if found_sha256 != sha256:
            raise Damage(f"{name} was changed after the build wrote it (its sha256 differs)")
    prefix = f"{dataset_name}-"
    for name in _recorded_names(root):
        if name.startswith(prefix) and name not in recorded:
            raise Damage(f"{name} was added after the build was written")


def verified_file(folder: str | os.PathLike[str], name: str) -> bytes | None:
    """The bytes of a recorded file if they are the recorded ones; None otherwise."""
    root = Path(folder)
    try:
        size, sha256 = _read(root)[name]
        data = read_bytes(root / name, limit=size)
    except (Damage, KeyError, InputError):
        return None
    if len(data) != size or hashlib.sha256(data).hexdigest() != sha256:
        return None
    return data


def add(folder: str | os.PathLike[str], name: str) -> None:
    """Record (or re-record) one more file of a build folder, e.g. the stored summary.

    Only a folder with a valid manifest gains one; the caller ignores OutputError.
    """
    root = Path(folder)
    try:
        files = {key: {"size": s, "sha256": h} for key, (s, h) in _read(root).items()}
    except Damage:
        return
    try:
        size, sha256 = _digest(root / name)
    except Damage:
        return
    files[name] = {"size": size, "sha256": sha256}
    _write(root, files)
