"""Shared fixtures: the offline mirror of the real upstream files (with the synthetic
dataset's beside them), mirrors of small files pinned by their own digests (dummy data and
corrupted copies), builds, exports and isolated caches. Plain helpers are in ``support/``.

Every test that needs the real upstream files uses the ``mirror`` fixture and is
marked ``real_data`` automatically, so ``pytest -m "not real_data"`` runs without it.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType

import pytest
from support import synthetic as synthetic_dataset
from support.paths import (
    DEFAULT_MIRROR,
    REAL_MIRROR,
    REFERENCE_ENV,
    combined_mirror,
    reference_path,
    repin,
    run_folder,
    run_lock,
    source_url,
    upstream_path,
)
from support.plain_load import PlainLoad, load_plainly

from hatemoji_datasets.core.edits import edited
from hatemoji_datasets.core.registry import EXTRA_ENV, dataset_spec, specs
from hatemoji_datasets.sources.settings import MIRROR_ENV

DUMMY_DATA = "dummy_data"


#: How the suite spreads over workers: tests/scheduling.py says why.
pytest_plugins = ["scheduling"]


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if {"mirror", "reference"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.real_data)


@pytest.fixture(scope="session")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The offline mirror of upstream files with the synthetic dataset's beside them (a link
    per host, made once a run); tests that need the real data skip without it."""
    if REAL_MIRROR is None:
        pytest.skip(
            f"real upstream data unavailable: set {MIRROR_ENV} or place the mirror at "
            f"{DEFAULT_MIRROR}"
        )
    return combined_mirror(tmp_path_factory, REAL_MIRROR, synthetic_dataset.MIRROR)


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

    def load(folder: Path, config: str, python: str = sys.executable) -> PlainLoad:
        return load_plainly(folder, config, python, tmp_path_factory)

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
                # A test's own copy, never shared: a NoDerivatives licence allows it.
                where = {"cache_dir": str(session_cache), "mirror": str(mirror)}
                export(name, folder, **where, own_use=True)
                (root / name / "done").write_text("")
        return folder

    return get
