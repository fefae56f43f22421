"""The Hub export: one Hugging Face dataset repository per dataset, written into a folder::

    README.md                                   the card (configs, dataset_info)
    croissant.json                              Croissant 1.0 metadata of these files
    .gitattributes                              the Hub's LFS lines
    labels.parquet                              every ClassLabel name: config, feature, id, name
    data/<config>/<split>-00000-of-00001.parquet

Plain ``datasets.load_dataset(folder_or_repo, config)`` reads it without this
package, with the package's features (ClassLabel names, lists of ClassLabel)
and rows, under ``datasets`` 3.6 through 5.x (the card's ``configs`` name each
config's files, so the label table is no config's data). ``croissant.json``
describes the Parquet files as written, with their SHA-256, so a Croissant
reader reads every field of every config; SQL engines join ``labels.parquet``
to show names.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hatemoji_datasets.cards.body import card_text
from hatemoji_datasets.cards.croissant.export import WrittenFile, export_metadata
from hatemoji_datasets.cards.croissant.repository import (
    CROISSANT,
    DATA,
    GITATTRIBUTES,
    LABELS,
    README,
    parquet_name,
)
from hatemoji_datasets.cards.files import write_card_files
from hatemoji_datasets.cards.gather import Built, build
from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.file_writes import (
    check_folder_destination,
    make_folder,
    output_error,
    writing,
)
from hatemoji_datasets.core.licences import check_shareable
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.hub.parquet import hub_table, labels_table, write_parquet
from hatemoji_datasets.version import __version__

#: The LFS lines of a new Hub repository (the binary formats a dataset may hold).
GITATTRIBUTES_TEXT = "".join(
    f"{pattern} filter=lfs diff=lfs merge=lfs -text\n"
    for pattern in (
        "*.7z", "*.arrow", "*.bin", "*.bz2", "*.ckpt", "*.ftz", "*.gz", "*.h5", "*.joblib",
        "*.lfs.*", "*.lz4", "*.mds", "*.mlmodel", "*.model", "*.msgpack", "*.npy", "*.npz",
        "*.onnx", "*.ot", "*.parquet", "*.pb", "*.pickle", "*.pkl", "*.pt", "*.pth", "*.rar",
        "*.safetensors", "saved_model/**/*", "*.tar.*", "*.tar", "*.tflite", "*.tgz", "*.wasm",
        "*.xz", "*.zip", "*.zst", "*tfevents*",
    )
)  # fmt: skip


#: The hidden folder inside the export folder that a run writes into before it moves its
#: files into place; one left by a killed run is removed by the next export.
STAGING_PREFIX = ".export-partial-"


class ExportError(HatemojiDatasetsError):
    """An export folder cannot be written (it holds files the export does not own)."""

    code = "EXPORT"


def owned(relative: str) -> bool:
    """Whether a file at ``relative`` (POSIX) is one an export writes, and may replace."""
    if relative in (README, CROISSANT, GITATTRIBUTES, LABELS):
        return True
    parts = relative.split("/")
    return len(parts) == 3 and parts[0] == DATA and parts[2].endswith(".parquet")


def _owned_folder(relative: str) -> bool:
    parts = relative.split("/")
    return parts[0] == DATA and len(parts) <= 2


def _previous_export(folder: Path) -> list[Path]:
    """The files of a previous export in ``folder``; anything else in it is refused.

    Symbolic links are never followed: one anywhere in the folder is refused,
    so clearing the previous export cannot touch anything outside ``folder``.
    """
    if not folder.exists() and not folder.is_symlink():
        return []
    if folder.is_symlink() or not folder.is_dir():
        raise ExportError(f"cannot export into {folder}: not a folder")
    mine: list[Path] = []
    foreign: list[str] = []
    for root, dirs, files in os.walk(folder):
        if Path(root) == folder:  # a killed run's staging folder is the export's own
            staged = [d for d in dirs if d.startswith(STAGING_PREFIX)]
            mine += [folder / d for d in staged if not (folder / d).is_symlink()]
            dirs[:] = [d for d in dirs if d not in staged or (folder / d).is_symlink()]
        for entry in [*dirs, *files]:
            path = Path(root, entry)
            relative = path.relative_to(folder).as_posix()
            if path.is_symlink():
                foreign.append(relative)
            elif entry not in files:
                if not _owned_folder(relative):
                    foreign.append(relative + "/")
            elif owned(relative):
                mine.append(path)
            else:
                foreign.append(relative)
        dirs[:] = [d for d in dirs if not Path(root, d).is_symlink()]
    if foreign:
        shown = ", ".join(sorted(foreign)[:5])
        more = f" and {len(foreign) - 5:,} more" if len(foreign) > 5 else ""
        raise ExportError(
            f"cannot export into {folder}: it holds files an export does not write "
            f"({shown}{more}); use an empty or new folder, or one a previous export wrote"
        )
    return mine


def _clear(folder: Path, previous: list[Path]) -> None:
    """Delete a previous export's files (and its emptied ``data/`` folders)."""
    try:
        for path in previous:
            if path.is_dir():  # a killed run's staging folder
                shutil.rmtree(path)
            else:
                path.unlink()
        data = folder / DATA
        if data.is_dir():
            for sub in data.iterdir():
                sub.rmdir()  # empty now: only owned files were under data/<config>/
            data.rmdir()
    except OSError as exc:
        raise output_error(exc.filename or folder, exc) from None


def export(
    name: str,
    out_dir: str | os.PathLike[str],
    *,
    cache_dir: str | None = None,
    mirror: str | None = None,
    own_use: bool = False,
) -> list[Path]:
    """Write the Hub repository of dataset ``name`` (current version, every config).

    A dataset whose licence forbids sharing adapted material (NoDerivatives) is refused
    with :class:`~hatemoji_datasets.core.licences.LicenceError` unless ``own_use`` says
    the copy is for the user alone; its card then says so.

    ``out_dir`` may be new, empty, or hold a previous export, whose files are
    replaced (stale configs and splits go); a folder holding anything else is
    refused with :class:`ExportError` before anything is built or written.
    Returns the written files: ``README.md``, ``croissant.json``,
    ``.gitattributes``, ``labels.parquet``, then each config's splits in
    declaration order. ``croissant.json`` is written last, from the SHA-256 of
    the Parquet files as written. Every file is written into a hidden staging
    folder first and moved into place once all are whole, so a run that fails
    (a full disk) leaves the folder as it was, a previous export included.
    """
    spec = dataset_spec(name)
    check_shareable(spec, own_use=own_use)
    folder = Path(out_dir)
    _previous_export(folder)  # refuse a foreign folder before building anything
    check_folder_destination(folder)
    built = build(spec.name, cache_dir=cache_dir, mirror=mirror)
    with exporting_into(folder):
        return _replace_export(built, folder)


@contextmanager
def exporting_into(folder: Path) -> Iterator[None]:
    """One export at a time into the folders beside ``folder``: a second run waits.

    Two runs into one ``--out`` would each take the other's staging folder for a killed
    run's and clear it, or clear the files the other had just moved in. The lock is on the
    parent folder itself (``flock``), so no lock file is left behind; the kernel releases
    it when a run ends, however it ends. Where ``flock`` is missing (Windows) runs are not
    serialised.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    try:
        descriptor = os.open(folder.absolute().parent, os.O_RDONLY)
    except OSError as exc:
        raise output_error(exc.filename or folder, exc) from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def _replace_export(built: Built, folder: Path) -> list[Path]:
    """Write ``built`` into a staging folder inside ``folder``, then move it into place."""
    previous = _previous_export(folder)  # again: the folder may have changed while waiting
    created = not folder.exists()
    make_folder(folder)
    staging: Path | None = None
    done = False
    try:
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder))
        relatives = _write_repository(built, staging)
        _clear(folder, previous)
        for relative in relatives:  # renames within one folder: nothing left to run out of
            make_folder((folder / relative).parent, within=folder)
            os.replace(staging / relative, folder / relative)
        done = True
    except OSError as exc:
        raise output_error(exc.filename or folder, exc) from None
    finally:  # a failed run leaves the folder as it found it (a new folder is removed)
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        if not done and created:
            shutil.rmtree(folder, ignore_errors=True)
    return [folder / relative for relative in relatives]


def _write_repository(built: Built, folder: Path) -> list[str]:
    """Write every file of the repository into ``folder``; their paths, as ``export`` lists
    them (``croissant.json`` written last, from the Parquet files' SHA-256 as written)."""
    # The card only: the export's croissant.json describes its Parquet files, not upstream's.
    write_card_files({README: card_text(built), GITATTRIBUTES: GITATTRIBUTES_TEXT}, folder)
    features = {config_name: config.features for config_name, config in built.configs.items()}
    with writing(folder / LABELS) as partial:
        write_parquet(labels_table(features), Path(partial))
    labels = _written(folder, LABELS)
    parquet: dict[tuple[str, str], WrittenFile] = {}
    for config_name, config in built.configs.items():
        for split in config.spec.split_names:
            relative = parquet_name(config_name, split)
            make_folder((folder / relative).parent, within=folder)
            with writing(folder / relative) as partial:
                write_parquet(hub_table(config.data[split]), Path(partial))
            parquet[config_name, split] = _written(folder, relative)
    metadata = export_metadata(built, parquet, labels, f"hatemoji-datasets {__version__}")
    text = json.dumps(metadata, ensure_ascii=False, indent=2) + "\n"
    write_card_files({CROISSANT: text}, folder)
    return [README, CROISSANT, GITATTRIBUTES, LABELS, *(file.path for file in parquet.values())]


def _written(folder: Path, relative: str) -> WrittenFile:
    """A file as written: its repository path, size and SHA-256 of its bytes."""
    data = (folder / relative).read_bytes()
    return WrittenFile(relative, len(data), hashlib.sha256(data).hexdigest())
