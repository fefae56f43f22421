"""Pushing an export to the Hub: one commit that makes the repository equal to it, tagged.

:func:`push` uploads an export in one commit and tags it ``v<version>``, so
``datasets.load_dataset(repo_id, config, revision="v1.0.0")`` pins a version.
``dry_run`` prints the operations and touches no network. ``huggingface_hub``
is imported only when needed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.licences import check_shareable
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.hub.export import export
from hatemoji_datasets.hub.tokens import mask_tokens
from hatemoji_datasets.sources.verify import sha256_of


class HubError(HatemojiDatasetsError):
    """A push to the Hugging Face Hub failed; the message names the step and the cause."""

    code = "HUB"


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
        lines += [
            f"  add {f.path_in_repo} ({f.size:,} bytes, sha256 {f.sha256})" for f in self.files
        ]
        lines.append("  delete any other file of the repository")
        lines.append(f"tag the commit {self.tag}")
        return lines


def plan(name: str, repo_id: str, folder: Path) -> Plan:
    """The push of an export in ``folder`` of dataset ``name`` to ``repo_id``."""
    spec = dataset_spec(name)
    files = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder).as_posix()
        files.append(Upload(relative, path, path.stat().st_size, sha256_of(path)))
    version = spec.version
    return Plan(
        repo_id=repo_id,
        files=tuple(files),
        commit_message=f"{spec.pretty_name} {version}, exported by hatemoji-datasets",
        tag=f"v{version}",
        version=version,
    )


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

    check_repo_id(repo_id)
    check_shareable(dataset_spec(name))  # an upload is always shared
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
            f"pushed {len(the_plan.files):,} files to dataset {repo_id} in commit {revision}, "
            f"tagged {the_plan.tag}"
        )
    return the_plan


def check_repo_id(repo_id: str) -> None:
    """Refuse a repository id the Hub would refuse, and any that is not ``ORG/NAME``.

    The Hub's own rules (``huggingface_hub.utils.validate_repo_id``): letters,
    digits, ``-``, ``_`` and ``.``; no ``--`` or ``..``; no leading or trailing
    ``-`` or ``.``; at most 96 characters; no ``.git`` ending.
    """
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    owner, slash, repo = repo_id.partition("/")
    if not slash or not owner or not repo or "/" in repo:
        raise HubError(f"repository id {repo_id!r} is not ORG/NAME")
    try:
        validate_repo_id(repo_id)
    except HFValidationError as error:
        rule = " ".join(str(error).split()).split(": '", 1)[0]
        message = f"repository id {repo_id!r} is not ORG/NAME the Hub accepts: {rule}"
        raise HubError(message) from None


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
    cause = mask_tokens(" ".join(str(exc).split()) or "no detail", [token])
    if len(cause) > 300:
        cause = cause[:297] + "..."
    return f"push to {repo_id} failed: cannot {what}: {type(exc).__name__}: {cause}"
