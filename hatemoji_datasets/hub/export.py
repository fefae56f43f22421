"""The Hub export and push: one Hugging Face dataset repository per dataset.

:func:`export` writes the repository of a dataset's current version, every
config, into a folder::

    README.md                                   the card (configs, dataset_info)
    croissant.json                              Croissant 1.0 metadata
    .gitattributes                              the Hub's LFS lines
    data/<config>/<split>-00000-of-00001.parquet

Plain ``datasets.load_dataset(folder_or_repo, config)`` reads it without this
package, with the package's features (ClassLabel names, lists of ClassLabel)
and rows, under ``datasets`` 3.6 through 5.x. The Parquet files are written
with pyarrow, not ``Dataset.to_parquet``: datasets >= 4 would embed features
with the ``List`` type, which 3.x cannot read. Each file's schema metadata
(``huggingface``) holds the features in the form every release reads
(``Sequence`` for lists, as the card's ``sequence:``), so the files are exact
on their own too. Output is deterministic: fixed row groups, compression and
no timestamps, so a re-export gives the same bytes.

:func:`push` uploads an export in one commit and tags it ``v<version>``, so
``datasets.load_dataset(repo_id, config, revision="v1.0.0")`` pins a version.
``dry_run`` prints the operations and touches no network.

``huggingface_hub`` and ``pyarrow`` are imported only when needed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hatemoji_datasets.errors import HatemojiDatasetsError
from hatemoji_datasets.registry import dataset_spec

if TYPE_CHECKING:
    import datasets
    import pyarrow as pa

README = "README.md"
CROISSANT = "croissant.json"
GITATTRIBUTES = ".gitattributes"
DATA = "data"
#: Rows per Parquet row group: small enough for streaming, fixed for identical bytes.
ROW_GROUP_ROWS = 1000
COMPRESSION = "snappy"
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


class ExportError(HatemojiDatasetsError):
    """An export folder cannot be written (it holds files the export does not own)."""


class HubError(HatemojiDatasetsError):
    """A push to the Hugging Face Hub failed; the message names the step and the cause."""


def parquet_name(config: str, split: str) -> str:
    """Where a split lies in the repository (the card's ``data/<config>/<split>-*.parquet``)."""
    return f"{DATA}/{config}/{split}-00000-of-00001.parquet"


# -- features in the form every datasets release reads -----------------------------------


def portable_features(features: Any) -> Any:
    """``Features.to_dict()`` as datasets 3.x writes it: lists as ``Sequence``.

    datasets 3.6 and 5.x both read it back (``Features.from_dict``) to the
    features they build themselves; datasets >= 4's own ``List`` form is
    unknown to 3.x ("Feature type 'List' not found").
    """
    import datasets

    if isinstance(features, dict):  # Features, or a struct
        return {name: portable_features(feature) for name, feature in features.items()}
    if isinstance(features, datasets.ClassLabel):
        return {"names": list(features.names), "_type": "ClassLabel"}
    if isinstance(features, datasets.Value):
        return {"dtype": features.dtype, "_type": "Value"}
    if isinstance(features, list):
        features = features[0]
        return {"feature": portable_features(features), "_type": "Sequence"}
    inner = getattr(features, "feature", None)
    kind = type(features).__name__
    if kind in ("Sequence", "List") and inner is not None:
        if getattr(features, "length", -1) not in (-1, None):
            raise TypeError(f"no portable form for fixed-length {features!r}")
        return {"feature": portable_features(inner), "_type": "Sequence"}
    raise TypeError(f"no portable form for feature {features!r}")


def hub_table(dataset: datasets.Dataset) -> pa.Table:
    """The split's Arrow table with the portable features as its ``huggingface`` metadata."""
    table = dataset.with_format("arrow")[:] if dataset._indices is not None else dataset.data.table
    table = table.select(list(dataset.features))
    metadata = {"info": {"features": portable_features(dataset.features)}}
    text = json.dumps(metadata, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return table.replace_schema_metadata({b"huggingface": text.encode()})


def write_parquet(table: pa.Table, path: Path) -> None:
    """Write ``table`` the same way every time (row groups, compression, statistics)."""
    import pyarrow.parquet as pq

    pq.write_table(
        table,
        path,
        row_group_size=ROW_GROUP_ROWS,
        compression=COMPRESSION,
        write_statistics=True,
        use_dictionary=True,
    )


# -- the export ---------------------------------------------------------------------------


def owned(relative: str) -> bool:
    """Whether a file at ``relative`` (POSIX) is one an export writes, and may replace."""
    if relative in (README, CROISSANT, GITATTRIBUTES):
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
        more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        raise ExportError(
            f"cannot export into {folder}: it holds files an export does not write "
            f"({shown}{more}); use an empty or new folder, or one a previous export wrote"
        )
    return mine


def _clear(folder: Path, previous: list[Path]) -> None:
    """Delete a previous export's files (and its emptied ``data/`` folders)."""
    for path in previous:
        path.unlink()
    data = folder / DATA
    if data.is_dir():
        for sub in data.iterdir():
            sub.rmdir()  # empty now: only owned files were under data/<config>/
        data.rmdir()


def export(
    name: str,
    out_dir: str | os.PathLike[str],
    *,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> list[Path]:
    """Write the Hub repository of dataset ``name`` (current version, every config).

    ``out_dir`` may be new, empty, or hold a previous export, whose files are
    replaced (stale configs and splits go); a folder holding anything else is
    refused with :class:`ExportError` before anything is built or written.
    Returns the written files: ``README.md``, ``croissant.json``,
    ``.gitattributes``, then each config's splits in declaration order.
    """
    from hatemoji_datasets.cards import build, rendered_files

    spec = dataset_spec(name)
    folder = Path(out_dir)
    _previous_export(folder)  # refuse a foreign folder before building anything
    built = build(spec.name, cache_dir=cache_dir, mirror=mirror)
    _clear(folder, _previous_export(folder))
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    texts = rendered_files(built)
    for file_name, text in (
        (README, texts[README]),
        (CROISSANT, texts[CROISSANT]),
        (GITATTRIBUTES, GITATTRIBUTES_TEXT),
    ):
        path = folder / file_name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    for config_name, config in built.configs.items():
        for split in config.spec.split_names:
            path = folder / parquet_name(config_name, split)
            path.parent.mkdir(parents=True, exist_ok=True)
            write_parquet(hub_table(config.data[split]), path)
            written.append(path)
    return written


# -- the push -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Upload:
    """One file of the commit."""

    path_in_repo: str
    local: Path
    size: int
    sha256: str


@dataclass(frozen=True)
class Plan:
    """What a push does: the repository, the files, the commit message and the tag."""

    repo_id: str
    files: tuple[Upload, ...]
    commit_message: str
    tag: str
    version: str

    def describe(self) -> list[str]:
        lines = [
            f"create dataset repository {self.repo_id} (if missing)",
            f"commit to {self.repo_id}: {self.commit_message!r}",
        ]
        lines += [f"  add {f.path_in_repo} ({f.size} bytes, sha256 {f.sha256})" for f in self.files]
        lines.append("  delete any other file of the repository")
        lines.append(f"tag the commit {self.tag}")
        return lines


def plan(name: str, repo_id: str, folder: Path) -> Plan:
    """The push of an export in ``folder`` of dataset ``name`` to ``repo_id``."""
    spec = dataset_spec(name)
    files = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder).as_posix()
        files.append(Upload(relative, path, path.stat().st_size, _sha256(path)))
    version = spec.version
    return Plan(
        repo_id=repo_id,
        files=tuple(files),
        commit_message=f"{spec.pretty_name} {version}, exported by hatemoji-datasets",
        tag=f"v{version}",
        version=version,
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def push(
    name: str,
    repo_id: str,
    *,
    token: str | None = None,
    dry_run: bool = False,
    api: Any = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
    out_dir: str | os.PathLike[str] | None = None,
    private: bool = False,
    echo: Callable[[str], None] = print,
) -> Plan:
    """Export dataset ``name`` and upload it to the Hub dataset repository ``repo_id``.

    One commit makes the repository equal to the export (files it does not
    hold are deleted), and that commit is tagged ``v<version>``. A tag that
    already exists is refused before anything is uploaded: a released
    version's revision never moves. ``dry_run`` prints the plan and makes no
    network call. ``api`` is an ``huggingface_hub.HfApi`` (made with ``token``
    when not given). Failures raise :class:`HubError` naming the step and the
    cause, never the token.
    """
    import tempfile

    _check_repo_id(repo_id)
    with tempfile.TemporaryDirectory(prefix="hatemoji-export-") as scratch:
        folder = Path(out_dir) if out_dir is not None else Path(scratch) / "export"
        export(name, folder, cache_dir=cache_dir, mirror=mirror)
        the_plan = plan(name, repo_id, folder)
        if dry_run:
            echo("dry run: nothing is uploaded")
            for line in the_plan.describe():
                echo(line)
            return the_plan
        if api is None:
            from huggingface_hub import HfApi

            api = HfApi(token=token)
        revision = _upload(api, the_plan, token=token, private=private)
        echo(
            f"pushed {len(the_plan.files)} files to dataset {repo_id} in commit {revision}, "
            f"tagged {the_plan.tag}"
        )
    return the_plan


def _check_repo_id(repo_id: str) -> None:
    owner, slash, repo = repo_id.partition("/")
    if not slash or not owner or not repo or "/" in repo or any(c.isspace() for c in repo_id):
        raise HubError(f"repository id {repo_id!r} is not ORG/NAME")


def _upload(api: Any, the_plan: Plan, *, token: str | None, private: bool) -> str:
    """Create the repository, commit the export to it and tag that commit; its revision."""
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete

    repo_id, kind = the_plan.repo_id, "dataset"

    def step(what: str, call: Callable[[], Any]) -> Any:
        try:
            return call()
        except HatemojiDatasetsError:
            raise
        except Exception as exc:  # the network boundary: every failure, one line
            raise HubError(_describe_failure(what, repo_id, exc, token)) from None

    step(
        "create the repository",
        lambda: api.create_repo(repo_id, repo_type=kind, exist_ok=True, private=private),
    )
    refs = step("read its tags", lambda: api.list_repo_refs(repo_id, repo_type=kind))
    if the_plan.tag in {ref.name for ref in getattr(refs, "tags", None) or ()}:
        raise HubError(
            f"{repo_id} already has tag {the_plan.tag}: a released version is never moved; "
            f"bump the dataset version to publish changed data"
        )
    present = step("list its files", lambda: api.list_repo_files(repo_id, repo_type=kind))
    ours = {upload.path_in_repo for upload in the_plan.files}
    operations: list[Any] = [
        CommitOperationAdd(path_in_repo=upload.path_in_repo, path_or_fileobj=str(upload.local))
        for upload in the_plan.files
    ]
    operations += [CommitOperationDelete(path_in_repo=path) for path in sorted(set(present) - ours)]
    commit = step(
        "upload the files",
        lambda: api.create_commit(
            repo_id,
            operations=operations,
            commit_message=the_plan.commit_message,
            repo_type=kind,
        ),
    )
    revision = getattr(commit, "oid", None)
    if not revision:
        raise HubError(f"the upload to {repo_id} returned no commit to tag")
    step(
        f"tag the commit {the_plan.tag}",
        lambda: api.create_tag(
            repo_id,
            tag=the_plan.tag,
            revision=revision,
            tag_message=the_plan.commit_message,
            repo_type=kind,
        ),
    )
    return revision


def _describe_failure(what: str, repo_id: str, exc: BaseException, token: str | None) -> str:
    cause = " ".join(str(exc).split()) or "no detail"
    for secret in (token, os.environ.get("HF_TOKEN")):
        if secret:
            cause = cause.replace(secret, "***")
    if len(cause) > 300:
        cause = cause[:297] + "..."
    return f"push to {repo_id} failed: cannot {what}: {type(exc).__name__}: {cause}"
