"""Shared fixtures: the offline mirror of the real upstream files (with the synthetic
dataset's beside them), mirrors of small files pinned by their own digests (dummy data and
corrupted copies), builds, exports and isolated caches. Plain helpers are in ``support/``.

Every test that needs the real upstream files uses the ``mirror`` fixture and is
marked ``real_data`` automatically, so ``pytest -m "not real_data"`` runs without it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from types import ModuleType

import pytest
from support import synthetic as synthetic_dataset
from support.paths import (
    DEFAULT_MIRROR,
    REAL_MIRROR,
    REFERENCE_ENV,
    reference_path,
    repin,
    run_folder,
    run_lock,
    source_url,
    upstream_path,
)
from support.plain_load import PLAIN_LOAD, PlainLoad

from hatemoji_datasets.core.registry import EXTRA_ENV, dataset_spec, specs
from hatemoji_datasets.sources.settings import MIRROR_ENV

DUMMY_DATA = "dummy_data"


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (its hook is plain)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if {"mirror", "reference"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.real_data)
    for item, group in _worker_groups(items).items():
        item.add_marker(pytest.mark.xdist_group(group))


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_GroupedIds(), "hatemoji-grouped-ids")


class _GroupedIds:
    """Each grouped test's id ends in ``@GROUP`` on a worker of ``--dist loadgroup``, which
    is how the controller groups them. pytest-xdist 3.8 writes the suffix to a field pytest
    9.2 no longer reads (pytest-xdist issue 1386), so every test would be scheduled alone
    and a module's shared fixture made on each worker, again each time a worker comes back
    to the module; this writes it where pytest keeps a node's id, unless xdist did."""

    @pytest.hookimpl(trylast=True)  # after pytest-xdist's own pass
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]):
        if not getattr(config.option, "loadgroup", False):
            return
        from _pytest.nodeid import NodeId

        for item in items:
            names = sorted({_group_name(mark) for mark in item.iter_markers("xdist_group")})
            if names and "@" not in item.nodeid.rpartition("]")[2]:
                item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")
        _longest_first(items)


#: The tests (node id prefixes) that take longest, alone or with the rest of their group,
#: longest first, as ``--durations`` measured them. Workers take work in collection order
#: (``--no-loadscope-reorder``), so these start first and the run does not end waiting on
#: one of them; a name no longer collected only loses its place.
LONGEST_FIRST = (
    "tests/test_lm_eval.py::test_score_on_every_log_gives_the_harness_acc",
    "tests/test_docs.py::test_page_runs[docs/benchmarks.md]",
    "tests/test_croissant.py::test_export_croissant_yields_every_field_of_every_config[multi",
    "tests/test_adding_a_dataset.py",
    "tests/test_docs.py::test_page_runs[docs/scoring.md]",
    "tests/test_croissant.py::test_committed_croissant_yields_the_package_data_from_upstream[multi",
    "tests/test_schema_checks.py::test_edited_real_files_find_what_pandera_finds[multilingual_hatecheck-all]",
    "tests/test_lm_eval.py::test_the_committed_tasks_run_offline_through_the_package",
    "tests/test_docs.py::test_page_runs[docs/versions.md]",
    "tests/test_docs.py::test_page_runs[docs/downstream.md]",
    "tests/test_validate_properties.py::test_arbitrary_rows_of_paired_entries",
    "tests/test_screen.py::test_a_file_the_screen_calls_clean_has_no_finding[hatemoji_build",
    "tests/test_hostile_reports.py",
    "tests/test_multilingual_hatecheck.py",
    "tests/test_docs.py::test_page_runs[docs/cli.md]",
    "tests/test_hostile_inputs.py::test_unreadable_inputs_exit_2_in_every_run",
    "tests/test_features.py::test_contains_emoji_matches_the_emoji_package_on_real_texts",
    "tests/test_versions.py::test_recorded_fingerprints_match_fresh_builds",
    "tests/test_docs.py::test_page_runs[docs/security.md]",
    "tests/test_schema_checks.py::test_small_frames_find_what_pandera_finds",
    "tests/test_croissant.py::test_export_croissant_yields_every_field_of_every_config",
    "tests/test_docs.py::test_page_runs",
    "tests/test_independent_findings.py",
    "tests/test_progress.py",
    "tests/test_schema_checks.py::test_edited_real_files_find_what_pandera_finds",
)


def _longest_first(items: list[pytest.Item]) -> None:
    """Reorder ``items`` so the tests of :data:`LONGEST_FIRST` (with their groups) come first,
    in its order; the rest keep theirs."""

    def rank(item: pytest.Item) -> int:
        return next(
            (at for at, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix)),
            len(LONGEST_FIRST),
        )

    def group(item: pytest.Item) -> str:  # the ``@GROUP`` an id ends in, past any parameters
        _, at, name = item.nodeid.rpartition("]")[2].rpartition("@")
        return name if at else ""

    groups: dict[str, int] = {}
    for item in items:
        if group(item):
            groups[group(item)] = min(groups.get(group(item), len(LONGEST_FIRST)), rank(item))

    def key(item: pytest.Item) -> int:
        return groups[group(item)] if group(item) else rank(item)

    items.sort(key=key)  # stable: ties keep collection order


def _group_name(mark: pytest.Mark) -> str:
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


def _shared_fixtures(item: pytest.Item) -> set[str]:
    """The fixtures of the item's own module, longer-lived than one test, that it uses."""
    module = item.nodeid.split("::", 1)[0]
    info = getattr(item, "_fixtureinfo", None)
    return {
        name
        for name in getattr(info, "names_closure", ())
        for fixturedef in info.name2fixturedefs.get(name, ())
        if fixturedef.scope != "function" and fixturedef.baseid == module
    }


def _worker_groups(items: list[pytest.Item]) -> dict[pytest.Item, str]:
    """The tests of a module that share a fixture the module defines for longer than one test
    run on one worker (``--dist loadgroup``), so each such fixture is made once: one group
    per set of such fixtures that tests use together (a module's fixtures no test shares
    run side by side). The shared fixtures here are made once for the whole run whichever
    worker asks first."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    used = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        names = sorted(f"{module}::{name}" for name in _shared_fixtures(item))
        if names:
            used[item] = names
            for other in names:
                parent[root(other)] = root(names[0])
    members: dict[str, set[str]] = {}
    for key in list(parent):
        members.setdefault(root(key), set()).add(key)
    named = {top: min(keys) for top, keys in members.items()}  # a stable name per group
    return {item: named[root(names[0])] for item, names in used.items()}


@pytest.fixture(scope="session")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The offline mirror of upstream files with the synthetic dataset's beside them (a link
    per host, made once a run); tests that need the real data skip without it."""
    if REAL_MIRROR is None:
        pytest.skip(
            f"real upstream data unavailable: set {MIRROR_ENV} or place the mirror at "
            f"{DEFAULT_MIRROR}"
        )
    combined = run_folder(tmp_path_factory) / "mirror"
    with run_lock(tmp_path_factory, "mirror"):
        if not combined.is_dir():
            making = combined.with_name("mirror.making")
            shutil.rmtree(making, ignore_errors=True)
            making.mkdir()
            for host in (*REAL_MIRROR.iterdir(), *synthetic_dataset.MIRROR.iterdir()):
                (making / host.name).symlink_to(host.resolve(), target_is_directory=True)
            making.rename(combined)
    return combined


@pytest.fixture
def synthetic(monkeypatch: pytest.MonkeyPatch) -> str:
    """The tests' synthetic dataset, registered for this test (and the processes it starts):
    its name. See ``tests/synthetic/README.md``."""
    monkeypatch.setenv(EXTRA_ENV, str(synthetic_dataset.FOLDER))
    return synthetic_dataset.SYNTHETIC


@pytest.fixture(scope="session")
def reference() -> Path:
    """The folder of published artefacts; tests that need it skip without it."""
    path = reference_path()
    if not path.is_dir():
        pytest.skip(f"published artefacts unavailable: set {REFERENCE_ENV} or place them at {path}")
    return path


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the whole run, shared by its workers, so each real dataset is built once.

    Builds into it are atomic (``datasets`` writes an ``.incomplete`` folder under its own
    lock, the manifest inside it); :func:`real_build` also takes the run's lock per config.
    """
    cache = run_folder(tmp_path_factory) / "hf-cache"
    cache.mkdir(exist_ok=True)
    return cache


@pytest.fixture(autouse=True)
def _code_sees_the_tests_mirror(request: pytest.FixtureRequest, monkeypatch) -> None:
    """A test that reads the mirror and the code it calls see the same one: the environment
    names the tests' mirror (the real files and the synthetic dataset's)."""
    if "mirror" in request.fixturenames:
        monkeypatch.setenv(MIRROR_ENV, str(request.getfixturevalue("mirror")))


@pytest.fixture
def isolated_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No mirror from the environment: tests pass it explicitly when they want one."""
    monkeypatch.delenv(MIRROR_ENV, raising=False)


def dummy_data_dir(name: str) -> Path:
    """The dataset's ``dummy_data/`` folder, laid out like the mirror."""
    return dataset_spec(name).package_dir / DUMMY_DATA


def dataset_facts(name: str) -> ModuleType:
    """What the shared tests expect of dataset ``name``, stated in the module of its folder
    its declaration names (``testing=Ref("testing")``: split sizes, card statements, Hub
    language ...)."""
    spec = dataset_spec(name)
    assert spec.testing is not None, f"{name} declares no testing module (testing=Ref(...))"
    return spec.load(spec.testing)


def declaring(fact: str) -> list[str]:
    """Every registered dataset whose ``testing.py`` states ``fact`` (a test of known output
    is parametrised over them, so a copied folder is tested too)."""
    return [name for name in specs() if getattr(dataset_facts(name), fact, None) is not None]


#: An edit of a raw file, as ``testing.py`` states it (lines count from 1, the header's
#: included): ``("field", line, index, value)`` sets a delimited field (no quoted delimiter
#: before it; a negative index counts from the end), ``("replace", line, old, new)`` the
#: line's first ``old`` (``str``, or ``bytes`` where they are no UTF-8), ``("same id",
#: line, as_line)`` copies another line's first field, ``("truncate", line)`` cuts the line
#: after its first 12 bytes.
Edit = tuple


def edited(data: bytes, edits: Iterable[Edit], delimiter: str = ",") -> bytes:
    """``data`` with each edit applied in turn."""
    lines = data.splitlines(keepends=True)
    sep = delimiter.encode()

    def raw(value: str | bytes | int) -> bytes:
        return value if isinstance(value, bytes) else str(value).encode()

    for kind, line, *args in edits:
        text = lines[line - 1]
        body = text.rstrip(b"\r\n")
        if kind == "field":
            index, value = args
            fields = body.split(sep)
            fields[index] = raw(value)
            text = sep.join(fields) + text[len(body) :]
        elif kind == "replace":
            old, new = map(raw, args)
            assert old in text, (line, old)
            text = text.replace(old, new, 1)
        elif kind == "same id":
            (other,) = args
            text = lines[other - 1].split(sep, 1)[0] + sep + text.split(sep, 1)[1]
        elif kind == "truncate":
            text = text[:12] + b"\n"
        else:
            raise ValueError(f"unknown edit {kind!r}")
        lines[line - 1] = text
    return b"".join(lines)


def delimiter_of(name: str, source: str) -> str:
    """The field delimiter of pinned file ``source`` (as the first config reading it says)."""
    spec = dataset_spec(name)
    return next(c.raw_format for c in spec.configs if source in c.source_names).delimiter


def broken_dummy(name: str) -> dict[str, bytes]:
    """The dummy files ``BROKEN`` of the dataset's ``testing.py`` edits, edited: the raw
    schema rejects them (``BROKEN_FINDINGS`` says where), for ``fake_mirror(name, ...)``."""
    return {
        source: edited(
            upstream_path(dummy_data_dir(name), source_url(name, source)).read_bytes(),
            edits,
            delimiter_of(name, source),
        )
        for source, edits in dataset_facts(name).BROKEN.items()
    }


def check_one_file(model, path: str, fmt) -> list:
    """Every finding of one raw file against one schema, read as builds read it."""
    from hatemoji_datasets.raw.files import read_for
    from hatemoji_datasets.schema.engine import check_frame

    raw = read_for(model, path, fmt)
    _, found = check_frame(model, raw.table.to_pandas(), file=raw.path, places=raw.places)
    return found


FakeMirror = Callable[..., Path]


@pytest.fixture
def fake_mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeMirror:
    """Make a mirror of a dataset's dummy data, with some files replaced, and pin it.

    ``fake_mirror(name, {source: path_or_bytes})`` copies ``dummy_data/`` of ``name``,
    overwrites the given sources and repins the dataset to the copies' digests.
    """
    made = 0

    def make(name: str, replace: Mapping[str, Path | bytes] | None = None) -> Path:
        nonlocal made
        made += 1
        root = tmp_path / f"fake-mirror-{made}"
        shutil.copytree(dummy_data_dir(name), root)
        for source, content in (replace or {}).items():
            target = upstream_path(root, source_url(name, source))
            data = content if isinstance(content, bytes) else Path(content).read_bytes()
            target.write_bytes(data)
        repin(monkeypatch, root, [name])
        return root

    return make


@pytest.fixture(scope="session")
def dummy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache of dummy-data builds for the session (never shared with real builds)."""
    return tmp_path_factory.mktemp("hf-cache-dummy")


@pytest.fixture(scope="session")
def dummy_build(dummy_cache: Path) -> Iterator[Callable[[str, str], object]]:
    """``dummy_build(name, config)``: the config built from dummy data, once per session."""
    from hatemoji_datasets import load_dataset

    built: dict[tuple[str, str], object] = {}

    def load(name: str, config: str):
        if (name, config) not in built:
            with pytest.MonkeyPatch.context() as patch:
                patch.delenv(MIRROR_ENV, raising=False)
                repin(patch, dummy_data_dir(name), [name])
                built[name, config] = load_dataset(
                    name, config, cache_dir=str(dummy_cache), mirror=str(dummy_data_dir(name))
                )
        return built[name, config]

    yield load


@pytest.fixture(scope="session")
def real_build(
    mirror: Path, session_cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str, str], object]:
    """``real_build(name, config)``: the config built from the real files, once per run
    (a worker that finds it built loads and checks it once)."""
    from hatemoji_datasets import load_dataset

    built: dict[tuple[str, str], object] = {}

    def load(name: str, config: str):
        if (name, config) not in built:
            with run_lock(tmp_path_factory, f"build-{name}-{config}"):
                built[name, config] = load_dataset(
                    name, config, cache_dir=str(session_cache), mirror=str(mirror)
                )
        return built[name, config]

    return load


@pytest.fixture(scope="session")
def pristine_cache(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """``pristine_cache(name, config)``: a cache of the run that holds that config's build,
    made once for the whole run and never written to afterwards (only copied from)."""
    from hatemoji_datasets import load_dataset

    root = run_folder(tmp_path_factory) / "pristine"

    def get(name: str, config: str = "default") -> Path:
        cache = root / f"{name}-{config}"
        with run_lock(tmp_path_factory, f"pristine-{name}-{config}"):
            if not cache.is_dir():
                making = root / f"{name}-{config}.making"
                shutil.rmtree(making, ignore_errors=True)
                load_dataset(name, config, cache_dir=str(making), mirror=str(mirror))
                making.rename(cache)
        return cache

    return get


@pytest.fixture
def fresh_build(pristine_cache: Callable[..., Path], tmp_path: Path) -> Callable[..., Path]:
    """``fresh_build(name, config)``: a new cache of this test's own holding that config's
    build, exactly as a build writes it (a copy of the run's pristine one), to damage at will."""
    made = 0

    def make(name: str, config: str = "default") -> Path:
        nonlocal made
        made += 1
        cache = tmp_path / ("cache" if made == 1 else f"cache-{made}")
        shutil.copytree(pristine_cache(name, config), cache, symlinks=True)
        return cache

    return make


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mirror: Path) -> Path:
    """A working tree to validate in, as the current folder (the symlink policy is relative
    to it), with the real mirror configured."""
    tree = tmp_path / "tree"
    tree.mkdir()
    monkeypatch.chdir(tree)
    monkeypatch.setenv(MIRROR_ENV, str(mirror))
    return tree


@pytest.fixture(scope="session")
def card_data(mirror: Path, session_cache: Path) -> Callable[[str], object]:
    """``card_data(name)``: what dataset ``name``'s card is rendered from, once a session."""
    from hatemoji_datasets.cards.gather import build

    found: dict[str, object] = {}

    def get(name: str):
        if name not in found:
            found[name] = build(name, cache_dir=str(session_cache), mirror=str(mirror))
        return found[name]

    return get


@pytest.fixture(scope="session")
def where(mirror: Path, session_cache: Path) -> dict[str, str]:
    """The real data's options for ``load_dataset`` and ``score``."""
    return {"cache_dir": str(session_cache), "mirror": str(mirror)}


@pytest.fixture(scope="session")
def plain_load(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., PlainLoad]:
    """``plain_load(folder, config, python=sys.executable)``: a child's plain load.

    One child per export and interpreter loads every config of the export, once for the
    whole run (its workers included); each call reads back one config.
    """
    import hashlib
    import json

    import pyarrow as pa

    def load(folder: Path, config: str, python: str = sys.executable) -> PlainLoad:
        key = hashlib.sha256(f"{folder}\0{python}".encode()).hexdigest()[:16]
        out = run_folder(tmp_path_factory) / "plain" / key
        with run_lock(tmp_path_factory, f"plain-{key}"):
            if not (out / "done").is_file():
                shutil.rmtree(out, ignore_errors=True)
                (out / "rows").mkdir(parents=True)
                env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", MIRROR_ENV)}
                env["HF_HUB_OFFLINE"] = "1"
                done = subprocess.run(
                    [python, "-c", PLAIN_LOAD, str(folder), str(out / "cache"), str(out / "rows")],
                    cwd=out,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=900,
                )
                assert done.returncode == 0, done.stderr[-3000:]
                (out / "done").write_text("")
        rows = out / "rows" / config
        saved = json.loads((rows / "features.json").read_text())
        tables = {
            split: pa.ipc.open_file(str(rows / f"{split}.arrow")).read_all()
            for split in saved["splits"]
        }
        return PlainLoad(saved["version"], saved["splits"], tables)

    return load


@pytest.fixture(scope="session")
def exported(mirror: Path, session_cache: Path, tmp_path_factory: pytest.TempPathFactory):
    """``exported(name)``: the dataset's export, written once for the whole run (its
    workers included) and never written to afterwards."""
    root = run_folder(tmp_path_factory) / "export"

    def get(name: str) -> Path:
        folder = root / name / name
        with run_lock(tmp_path_factory, f"export-{name}"):
            if not (root / name / "done").is_file():
                from hatemoji_datasets.hub.export import export

                folder.parent.mkdir(parents=True, exist_ok=True)  # export makes only --out
                export(name, folder, cache_dir=str(session_cache), mirror=str(mirror))
                (root / name / "done").write_text("")
        return folder

    return get
