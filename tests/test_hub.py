"""The Hub export and push (``hatemoji_datasets.hub``).

An export must load with plain ``datasets.load_dataset(folder, config)`` — in a
child process that never imports this package — to the package's rows, order
and features, so its fingerprints equal the recorded ones. When a datasets 3.6
environment is at hand (CI makes ``.venv-datasets36``; or set
``HATEMOJI_DATASETS36_PYTHON``), the export written here under datasets 5 is
also loaded there. The push is tested with ``--dry-run`` and a fake ``HfApi``;
nothing reaches the network.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import datasets
import pyarrow.parquet as pq
import pytest
from packaging.version import Version
from support.paths import REPO, all_configs
from support.synthetic import SYNTHETIC

from hatemoji_datasets.building.fingerprint import fingerprint_table
from hatemoji_datasets.building.recorded import read_recorded
from hatemoji_datasets.cards.croissant.repository import parquet_name
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.features import portable_features
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.hub import export as hub_export
from hatemoji_datasets.hub import parquet as hub_parquet
from hatemoji_datasets.hub import push as hub_push

DATASETS36_PYTHON = os.environ.get("HATEMOJI_DATASETS36_PYTHON") or str(
    REPO / ".venv-datasets36" / "bin" / "python"
)
#: The tests of one export folder, release tag or failure run on the tests' synthetic dataset;
#: those of an export and push that carry the files of several configs on APEACH (named: the
#: synthetic dataset has one config).
SEVERAL = "apeach"


def expected_files(name: str) -> list[str]:
    spec = dataset_spec(name)
    data = [
        parquet_name(config.name, split) for config in spec.configs for split in config.split_names
    ]
    return sorted([".gitattributes", "README.md", "croissant.json", "labels.parquet", *data])


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def package_splits(name: str, config: str, cache: Path, mirror: Path) -> dict[str, Any]:
    from hatemoji_datasets import load_dataset

    return dict(load_dataset(name, config, cache_dir=str(cache), mirror=str(mirror)))


# -- the export ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(specs()))
def test_export_writes_one_repository_per_dataset(name: str, exported) -> None:
    folder = exported(name)
    files = tree(folder)
    assert sorted(files) == expected_files(name)
    assert not any(path.endswith(".py") for path in files)  # datasets 5 refuses those
    # The card is the committed one (tests/test_cards.py keeps it fresh); the Croissant
    # file describes the export's own Parquet files (tests/test_croissant.py reads it).
    cards = REPO / "cards" / name
    assert files["README.md"] == (cards / "README.md").read_bytes()
    assert files["croissant.json"] != (cards / "croissant.json").read_bytes()
    attributes = files[".gitattributes"].decode()
    assert "*.parquet filter=lfs diff=lfs merge=lfs -text\n" in attributes
    for path in files:
        if path.endswith(".parquet"):
            metadata = pq.read_metadata(folder / path)
            assert metadata.num_row_groups >= 1
            assert all(
                metadata.row_group(i).num_rows <= hub_parquet.ROW_GROUP_ROWS
                for i in range(metadata.num_row_groups)
            )


@pytest.mark.parametrize("name", list(specs()))
def test_export_is_byte_for_byte_repeatable(
    name: str, exported, tmp_path: Path, session_cache: Path, mirror: Path
) -> None:
    first = tree(exported(name))
    again = tmp_path / "again"
    where = {"cache_dir": str(session_cache), "mirror": str(mirror), "own_use": True}
    hub_export.export(name, again, **where)
    assert tree(again) == first
    hub_export.export(name, again, **where)  # over itself
    assert tree(again) == first


@pytest.mark.parametrize(("name", "config"), all_configs())
def test_plain_datasets_loads_the_package_data(
    name: str, config: str, exported, plain_load, session_cache: Path, mirror: Path
) -> None:
    """Same splits, rows, order and features as the package; same fingerprints."""
    spec = dataset_spec(name)
    loaded = plain_load(exported(name), config)
    assert loaded.datasets_version == datasets.__version__
    package = package_splits(name, config, session_cache, mirror)
    recorded = read_recorded(spec)
    assert list(loaded.features) == list(package) == spec.config(config).split_names
    for split, ds in package.items():
        assert loaded.features[split] == ds.features.to_dict(), split  # exact, ClassLabel names
        features = datasets.Features.from_dict(loaded.features[split])
        assert features == ds.features
        table = loaded.tables[split]
        assert table.num_rows == ds.num_rows
        got = fingerprint_table(table, features)
        assert got == recorded[spec.version, config, split].fingerprint, split


@pytest.mark.parametrize(("name", "config"), all_configs())
def test_datasets36_loads_an_export_written_under_this_datasets(
    name: str, config: str, exported, plain_load
) -> None:
    """The trap: datasets >= 4 writes features as ``List``, which 3.x cannot read.

    Skips without a datasets 3.6 environment, except in CI (``CI=true``), which makes one.
    """
    if not Path(DATASETS36_PYTHON).is_file():
        missing = f"no datasets 3.6 environment at {DATASETS36_PYTHON} (HATEMOJI_DATASETS36_PYTHON)"
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    spec = dataset_spec(name)
    loaded = plain_load(exported(name), config, python=DATASETS36_PYTHON)
    assert Version(loaded.datasets_version) < Version("4"), loaded.datasets_version
    recorded = read_recorded(spec)
    for split, shape in loaded.features.items():
        assert "List" not in json.dumps(shape)  # 3.6's own spelling: Sequence
        features = datasets.Features.from_dict(shape)
        got = fingerprint_table(loaded.tables[split], features)
        assert got == recorded[spec.version, config, split].fingerprint, split


@pytest.mark.parametrize(("name", "config"), all_configs())
def test_parquet_files_alone_carry_exact_features(
    name: str, config: str, exported, session_cache: Path, mirror: Path
) -> None:
    """Without the card (``load_dataset("parquet", data_files=...)``) the files are exact too.

    With the card, datasets 3.6 and 5.x take features from its ``dataset_info``;
    the files' own ``huggingface`` metadata is what other readers get.
    """
    folder = exported(name)
    for split, ds in package_splits(name, config, session_cache, mirror).items():
        schema = pq.read_schema(folder / parquet_name(config, split))
        assert b"List" not in schema.metadata[b"huggingface"]
        assert datasets.Features.from_arrow_schema(schema) == ds.features
        files = {split: str(folder / parquet_name(config, split))}
        plain = datasets.load_dataset(
            "parquet", data_files=files, split=split, cache_dir=str(session_cache / "parquet")
        )
        assert plain.features == ds.features
        assert plain.num_rows == ds.num_rows


def test_portable_features_use_the_3x_spelling() -> None:
    features = datasets.Features(
        {
            "label": datasets.ClassLabel(names=["no", "yes"]),
            "tags": datasets.Sequence(datasets.ClassLabel(names=["a", "b"])),
            "words": datasets.Sequence(datasets.Value("string")),
        }
    )
    shape = portable_features(features)
    assert shape["tags"] == {
        "feature": {"names": ["a", "b"], "_type": "ClassLabel"},
        "_type": "Sequence",
    }
    assert datasets.Features.from_dict(shape) == features


# -- the export folder --------------------------------------------------------------------


@pytest.mark.usefixtures("synthetic")
def test_export_refuses_a_folder_with_other_files(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "out"
    written = folder / parquet_name("default", "train")  # one the export writes
    written.parent.mkdir(parents=True)
    (folder / "notes.txt").write_text("mine")
    written.write_text("old")
    monkeypatch.setattr("hatemoji_datasets.hub.export.build", _no_build)
    with pytest.raises(hub_export.ExportError, match=r"notes\.txt"):
        hub_export.export(SYNTHETIC, folder)
    assert (folder / "notes.txt").read_text() == "mine"  # nothing removed
    assert written.exists()


@pytest.mark.parametrize("where", ["loader.py", "data/default/x.py", "data/a/b/c.parquet"])
@pytest.mark.usefixtures("synthetic")
def test_export_refuses_foreign_paths(tmp_path: Path, monkeypatch, where: str) -> None:
    path = tmp_path / "out" / where
    path.parent.mkdir(parents=True)
    path.write_text("x")
    monkeypatch.setattr("hatemoji_datasets.hub.export.build", _no_build)
    with pytest.raises(hub_export.ExportError, match="does not write"):
        hub_export.export(SYNTHETIC, tmp_path / "out")
    assert path.exists()


@pytest.mark.usefixtures("synthetic")
def test_export_never_follows_a_symbolic_link(tmp_path: Path, monkeypatch) -> None:
    outside = tmp_path / "outside"
    (outside / "cfg").mkdir(parents=True)
    keep = outside / "cfg" / "test-00000-of-00001.parquet"
    keep.write_text("not the export's")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "data").symlink_to(outside)
    monkeypatch.setattr("hatemoji_datasets.hub.export.build", _no_build)
    with pytest.raises(hub_export.ExportError, match="data"):
        hub_export.export(SYNTHETIC, folder)
    assert keep.read_text() == "not the export's"


@pytest.mark.usefixtures("synthetic")
def test_export_replaces_a_previous_export_and_drops_stale_files(
    exported, tmp_path: Path, session_cache: Path, mirror: Path
) -> None:
    folder = tmp_path / "out"
    stale = folder / "data" / "gone" / "train-00000-of-00001.parquet"
    stale.parent.mkdir(parents=True)
    stale.write_text("a config a previous version had")
    (folder / "README.md").write_text("old card")
    hub_export.export(SYNTHETIC, folder, cache_dir=str(session_cache), mirror=str(mirror))
    assert tree(folder) == tree(exported(SYNTHETIC))


def _no_build(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("a refused folder must be refused before anything is built")


def test_cli_export(exported, tmp_path: Path, session_cache: Path, mirror: Path, capsys) -> None:
    folder = tmp_path / "cli"
    args = ["export", SEVERAL, "--out", str(folder), "--cache-dir", str(session_cache)]
    assert main([*args, "--mirror", str(mirror)]) == 0
    out = capsys.readouterr().out
    for config in dataset_spec(SEVERAL).configs:
        for split in config.split_names:
            assert f"wrote: {folder / parquet_name(config.name, split)}\n" in out
    assert tree(folder) == tree(exported(SEVERAL))


# -- the push -----------------------------------------------------------------------------


class FakeApi:
    """Records the calls ``push`` makes, in order; can fail one of them."""

    def __init__(self, tags: tuple[str, ...] = (), files: tuple[str, ...] = (), fail=None):
        self.calls: list[tuple[str, tuple, dict]] = []
        self.tags, self.files, self.fail = tags, files, fail

    def _record(self, name: str, args: tuple, kwargs: dict) -> None:
        self.calls.append((name, args, kwargs))
        if self.fail is not None and self.fail[0] == name:
            raise self.fail[1]

    def create_repo(self, *args: Any, **kwargs: Any) -> str:
        self._record("create_repo", args, kwargs)
        return f"https://huggingface.co/datasets/{args[0]}"

    def list_repo_refs(self, *args: Any, **kwargs: Any) -> Any:
        self._record("list_repo_refs", args, kwargs)
        return SimpleNamespace(tags=[SimpleNamespace(name=tag) for tag in self.tags])

    def list_repo_files(self, *args: Any, **kwargs: Any) -> list[str]:
        self._record("list_repo_files", args, kwargs)
        return list(self.files)

    def create_commit(self, *args: Any, **kwargs: Any) -> Any:
        self._record("create_commit", args, kwargs)
        self.uploaded = {  # read now: the export is a temporary folder
            op.path_in_repo: Path(op.path_or_fileobj).read_bytes()
            for op in kwargs["operations"]
            if type(op).__name__ == "CommitOperationAdd"
        }
        return SimpleNamespace(oid="c0ffee" * 6 + "ab", commit_url="https://example/commit")

    def create_tag(self, *args: Any, **kwargs: Any) -> None:
        self._record("create_tag", args, kwargs)

    def names(self) -> list[str]:
        return [name for name, _, _ in self.calls]

    def call(self, name: str) -> tuple[tuple, dict]:
        return next((args, kwargs) for n, args, kwargs in self.calls if n == name)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any socket connection or real ``HfApi`` fails the test."""
    import huggingface_hub

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("network access")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(huggingface_hub, "HfApi", refuse)


def test_push_uploads_every_export_file_and_tags_the_commit(
    exported, session_cache: Path, mirror: Path, no_network, capsys
) -> None:
    api = FakeApi(files=(".gitattributes", "README.md", "old.csv"))
    spec = dataset_spec(SEVERAL)
    plan = hub_push.push(
        SEVERAL,
        f"org/{SEVERAL}",
        api=api,
        cache_dir=str(session_cache),
        mirror=str(mirror),
        token="hf_secret_token",
    )
    assert api.names() == [
        "create_repo",
        "list_repo_refs",
        "list_repo_files",
        "create_commit",
        "create_tag",
    ]
    args, kwargs = api.call("create_repo")
    assert args == (f"org/{SEVERAL}",)
    assert kwargs["repo_type"] == "dataset" and kwargs["exist_ok"] is True
    args, kwargs = api.call("create_commit")
    assert kwargs["repo_type"] == "dataset"
    operations = kwargs["operations"]
    added = {op.path_in_repo: op for op in operations if type(op).__name__ == "CommitOperationAdd"}
    deleted = [op.path_in_repo for op in operations if type(op).__name__ == "CommitOperationDelete"]
    assert sorted(added) == expected_files(SEVERAL)
    assert deleted == ["old.csv"]
    reference = tree(exported(SEVERAL))
    assert api.uploaded == reference
    assert kwargs["commit_message"] == plan.commit_message
    args, kwargs = api.call("create_tag")
    assert kwargs["tag"] == f"v{spec.version}" == plan.tag
    assert kwargs["revision"] == "c0ffee" * 6 + "ab"  # the uploaded commit, not main
    assert kwargs["repo_type"] == "dataset"
    out = capsys.readouterr().out
    assert "hf_secret_token" not in out
    assert f"in commit {'c0ffee' * 6 + 'ab'}, tagged v{spec.version}" in out


def test_push_dry_run_prints_the_plan_without_network(
    exported, session_cache: Path, mirror: Path, no_network, capsys
) -> None:
    repo = f"org/{SEVERAL}"
    args = ["push", SEVERAL, "--repo-id", repo, "--dry-run", "--token", "hf_secret"]
    assert main([*args, "--cache-dir", str(session_cache), "--mirror", str(mirror)]) == 0
    out = capsys.readouterr().out
    assert f"create dataset repository {repo} (if missing)" in out
    assert f"tag the commit v{dataset_spec(SEVERAL).version}\n" in out
    assert f"commit to {repo}: {plan_message(SEVERAL)!r}" in out
    for path, content in tree(exported(SEVERAL)).items():
        digest = hashlib.sha256(content).hexdigest()
        assert f"add {path} ({len(content):,} bytes, sha256 {digest})" in out, path
    assert "hf_secret" not in out


def plan_message(name: str) -> str:
    spec = dataset_spec(name)
    return f"{spec.pretty_name} {spec.version}, exported by hatemoji-datasets"


@pytest.mark.usefixtures("synthetic")
def test_push_refuses_to_move_a_released_tag(session_cache: Path, mirror: Path) -> None:
    tag = "v1.0.0"
    api = FakeApi(tags=(tag,))
    with pytest.raises(hub_push.HubError, match=f"already has tag {re.escape(tag)}"):
        hub_push.push(
            SYNTHETIC,
            f"org/{SYNTHETIC}",
            api=api,
            cache_dir=str(session_cache),
            mirror=str(mirror),
        )
    assert "create_commit" not in api.names()


@pytest.mark.parametrize("step", ["create_repo", "create_commit", "create_tag"])
@pytest.mark.usefixtures("synthetic")
def test_network_failures_are_one_line_without_the_token(
    step: str, session_cache: Path, mirror: Path, monkeypatch, capsys
) -> None:
    failure = ConnectionError("Max retries exceeded: token hf_secret_token rejected\nline two")
    api = FakeApi(fail=(step, failure))
    monkeypatch.setattr(hub_push, "push", _with_api(hub_push.push, api))
    args = [
        "push",
        SYNTHETIC,
        "--repo-id",
        f"org/{SYNTHETIC}",
        "--token",
        "hf_secret_token",
    ]
    assert main([*args, "--cache-dir", str(session_cache), "--mirror", str(mirror)]) == 1
    captured = capsys.readouterr()
    assert "hf_secret_token" not in captured.out + captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"error: push to org/{SYNTHETIC} failed: cannot ")
    assert "ConnectionError: Max retries exceeded" in lines[0]
    assert "Traceback" not in captured.err


def _with_api(push: Any, api: FakeApi) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        return push(*args, api=api, **kwargs)

    return call


@pytest.mark.parametrize("repo_id", ["noslash", "org/", "/name", "a/b/c", "org/na me"])
@pytest.mark.usefixtures("synthetic")
def test_push_refuses_a_malformed_repo_id(repo_id: str) -> None:
    with pytest.raises(hub_push.HubError, match="ORG/NAME"):
        hub_push.push(SYNTHETIC, repo_id, dry_run=True)


def test_cli_stays_light() -> None:
    """``--help`` of the new commands imports neither datasets nor huggingface_hub."""
    import subprocess

    code = (
        "import sys\n"
        "from hatemoji_datasets.cli import main\n"
        "for command in ('export', 'push'):\n"
        "    try:\n"
        "        main([command, '--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = {'datasets', 'huggingface_hub', 'pyarrow'} & set(sys.modules)\n"
        "assert not heavy, heavy\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
