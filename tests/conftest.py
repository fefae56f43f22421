"""Shared fixtures: the offline mirror of the real upstream files, mirrors of small files
pinned by their own digests (dummy data and corrupted copies), and isolated caches.

Every test that needs the real upstream files uses the ``mirror`` fixture and is
marked ``real_data`` automatically, so ``pytest -m "not real_data"`` runs without it.
"""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from filelock import FileLock
from support import synthetic as synthetic_dataset

from hatemoji_datasets.core.checksums import SourceFile
from hatemoji_datasets.core.registry import EXTRA_ENV, dataset_spec, specs
from hatemoji_datasets.core.spec import DatasetSpec
from hatemoji_datasets.sources.settings import MIRROR_ENV
from hatemoji_datasets.sources.verify import sha256_of

REPO = Path(__file__).resolve().parents[1]
DEFAULT_MIRROR = REPO.parent / "shared" / "sources"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
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


def _mirror_path() -> Path | None:
    configured = os.environ.get(MIRROR_ENV)
    candidate = Path(configured) if configured else DEFAULT_MIRROR
    return candidate if candidate.is_dir() else None


#: The real mirror, as the run was started with (tests set the environment's to their own).
REAL_MIRROR = _mirror_path()


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


#: Published artefacts of the papers (e.g. authors' released predictions), kept beside
#: the mirror (its sibling ``reference/``) and never copied into the repository;
#: ``HATEMOJI_DATASETS_REFERENCE`` names another folder.
REFERENCE_ENV = "HATEMOJI_DATASETS_REFERENCE"


def reference_path() -> Path:
    """Where the published artefacts are: as configured, else beside the mirror."""
    configured = os.environ.get(REFERENCE_ENV)
    if configured:
        return Path(configured)
    return (REAL_MIRROR or DEFAULT_MIRROR).parent / "reference"


@pytest.fixture(scope="session")
def reference() -> Path:
    """The folder of published artefacts; tests that need it skip without it."""
    path = reference_path()
    if not path.is_dir():
        pytest.skip(f"published artefacts unavailable: set {REFERENCE_ENV} or place them at {path}")
    return path


def run_folder(factory: pytest.TempPathFactory) -> Path:
    """This run's temporary folder, shared by every worker of the run (``pytest -n``)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def run_lock(factory: pytest.TempPathFactory, name: str) -> Iterator[None]:
    """Hold the run's lock ``name``: one worker makes a shared thing while the others wait."""
    locks = run_folder(factory) / "locks"
    locks.mkdir(exist_ok=True)
    with FileLock(str(locks / f"{name}.lock")):
        yield


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


#: Libraries a fast path must not import (``imported_after`` reports each).
HEAVY = ("datasets", "pandera", "emoji", "pandas", "scipy")


def imported_after(code: str, cwd: Path | None = None) -> dict[str, bool]:
    """Which of ``HEAVY`` a fresh process has imported after running ``code`` (its output
    muted), checked in ``sys.modules``, not by timing."""
    body = textwrap.indent(textwrap.dedent(code), "    ")
    probe = (
        "import contextlib, io, json, sys\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"{body}\n"
        f"print(json.dumps({{name: name in sys.modules for name in {HEAVY!r}}}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=cwd, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def upstream_path(mirror: Path, url: str) -> Path:
    """Where the mirror keeps the file for ``url``."""
    return mirror / url.split("://", 1)[1]


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


def _plain(name: str) -> bool:
    """Whether the default config reads one comma-separated file, in one format, of rows
    that stand alone (no ``PARTNER_COPIES``) keyed by their id or text: a row whose id and
    text change is a new row."""
    config = dataset_spec(name).config()
    return (
        len(config.source_names) == 1
        and len(config.parts) == 1
        and config.raw_format.delimiter == ","
        and config.key_column in (config.id_column, config.text_column)
        and getattr(dataset_facts(name), "PARTNER_COPIES", None) is None
    )


def _bytes_read(name: str) -> int:
    """Bytes the default config reads."""
    spec = dataset_spec(name)
    return sum(pin.size for pin in spec.config_sources(spec.config()).values())


#: The dataset a shared test of one mechanism (a command, a cache, a hostile input) runs on,
#: taken by rule so that no shared test names one: the plain dataset (``_plain``) whose
#: default config reads the fewest bytes. Its facts come from its ``testing.py``.
PLAIN = min(filter(_plain, specs()), key=_bytes_read)


def source_url(name: str, source: str) -> str:
    return dataset_spec(name).source_files()[source].url


def source_lines(mirror: Path, name: str, source: str) -> list[bytes]:
    """The lines (ends kept) of a pinned file of ``name`` in ``mirror``."""
    return upstream_path(mirror, source_url(name, source)).read_bytes().splitlines(keepends=True)


def upstream_name(name: str, source: str) -> str:
    """The file name upstream gives a pinned file (what a contributor's copy is called)."""
    return Path(source_url(name, source)).name.replace("%20", " ")


def write_lines(folder: Path, file_name: str, lines: list[bytes]) -> str:
    path = folder / file_name
    path.write_bytes(b"".join(lines))
    return str(path)


def validate_json(capsys, mirror: Path, name: str, *args: str) -> tuple[int, list[dict]]:
    """``validate ARGS --dataset NAME --format json`` in-process: its exit status and
    findings."""
    from hatemoji_datasets.cli import main

    capsys.readouterr()
    code = main(["validate", *args, "--dataset", name, "--mirror", str(mirror), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)["findings"]


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


# -- mirrors of small files, pinned by their own digests ----------------------------------


def repin(monkeypatch: pytest.MonkeyPatch, mirror: Path, names: list[str]) -> None:
    """Pin every source of datasets ``names`` to the file ``mirror`` holds for it.

    Names, URLs and licences stay as ``checksums.tsv`` says; size and sha256 are
    the mirror file's. Sources the mirror lacks keep their real pin.
    """
    original = DatasetSpec.source_files
    pinned: dict[str, dict[str, SourceFile]] = {}
    for name in names:
        files = dict(original(dataset_spec(name)))
        for source, pin in files.items():
            local = upstream_path(mirror, pin.url)
            if local.is_file():
                files[source] = SourceFile(
                    source, pin.url, local.stat().st_size, sha256_of(local), pin.license
                )
        pinned[name] = files

    def source_files(self: DatasetSpec) -> dict[str, SourceFile]:
        return pinned[self.name] if self.name in pinned else original(self)

    monkeypatch.setattr(DatasetSpec, "source_files", source_files)


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


def copy_of_the_repository(target: Path) -> None:
    """Copy the checkout's files (tracked, and new ones git does not ignore) to ``target``;
    skip the test outside a git checkout."""
    import subprocess

    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    for name in filter(None, listed.stdout.split(b"\0")):
        source = REPO / os.fsdecode(name)
        if source.is_file():
            destination = target / os.fsdecode(name)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)


# -- committed cards, and what they are rendered from ---------------------------------------


def committed_card(name: str) -> str:
    """The committed ``cards/<name>/README.md``."""
    return (REPO / "cards" / name / "README.md").read_text(encoding="utf-8")


def card_table(text: str, title: str) -> dict[str, dict[str, str]]:
    """The markdown table under ``#### title``: ``{row: {column: cell}}``, thousands
    separators dropped."""
    lines = text.splitlines()
    start = lines.index(f"#### {title}")
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    header, body = rows[0], rows[2:]
    return {
        row[0].strip("*"): dict(zip(header[1:], (cell.replace(",", "") for cell in row[1:])))
        for row in body
    }


def card_frame(data):
    """Every split of a ``DatasetDict`` as one pandas frame, with a ``split`` column."""
    import pandas as pd

    return pd.concat([data[split].to_pandas().assign(split=split) for split in data])


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


# -- scoring against independent computations ----------------------------------------------


@pytest.fixture(scope="session")
def where(mirror: Path, session_cache: Path) -> dict[str, str]:
    """The real data's options for ``load_dataset`` and ``score``."""
    return {"cache_dir": str(session_cache), "mirror": str(mirror)}


_FRAMES: dict[tuple[str, str, str], object] = {}


def frame_of(name: str, config: str, split: str, where: dict[str, str]):
    """One split as a pandas frame, loaded once a session."""
    from hatemoji_datasets import load_dataset

    key = (name, config, split)
    if key not in _FRAMES:
        _FRAMES[key] = load_dataset(name, config, split=split, **where).to_pandas()
    return _FRAMES[key]


def ids_of(frame, id_column: str) -> list[int]:
    return list(range(len(frame))) if id_column == "index" else frame[id_column].tolist()


def predictions_frame(frame, id_column: str, labels):
    import pandas as pd

    return pd.DataFrame({id_column: ids_of(frame, id_column), "prediction": labels})


def random_labels(frame, seed: int = 7):
    import numpy as np

    return np.random.default_rng(seed).integers(0, 2, len(frame))


def load_names(where: dict[str, str], name: str, column: str, config: str | None = None):
    """The ClassLabel names of ``column`` in the config's evaluation split."""
    from hatemoji_datasets import load_dataset

    split = dataset_spec(name).config(config).eval_split
    return load_dataset(name, config, split=split, **where).features[column].names


def one_error_line(err: str) -> str:
    """The one ``error: ...`` line a failed command printed, with no traceback."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


class _Captured(io.TextIOWrapper):
    """A standard stream as a pipe would be: UTF-8 text over bytes, not a terminal."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", write_through=True)

    def isatty(self) -> bool:
        return False

    def read_back(self, errors: str) -> str:
        self.flush()
        return self.buffer.getvalue().decode("utf-8", errors)


def run_cli(
    *args: str,
    cwd: Path | None = None,
    env: Mapping[str, str | None] | None = None,
    errors: str = "strict",
) -> subprocess.CompletedProcess[str]:
    """``hatemoji-datasets ARGS`` run in this process, as a child's result: exit status,
    standard output and standard error.

    ``env`` sets variables for the run (``None`` removes one). The streams are pipes, not
    terminals; logging goes to the captured standard error as the command configures it
    in a new process; an exception that escapes ``main`` fails the test, as a traceback
    would. Where the process itself is what is tested (a real exit status, signals, the
    entry points, what a fresh interpreter imports or prints) tests start one instead.
    """
    from hatemoji_datasets.cli import main

    out, err = _Captured(), _Captured()
    saved_env = {key: os.environ.get(key) for key in (env or {})}
    saved_streams, saved_cwd = (sys.stdout, sys.stderr), Path.cwd()
    root = logging.getLogger()
    saved_handlers = root.handlers[:]
    ours = logging.getLogger("hatemoji_datasets")
    saved_level = ours.level
    library = sys.modules.get("datasets")  # its progress bars are the command's to switch
    saved_bars = library.is_progress_bar_enabled() if library else None
    for key, value in (env or {}).items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    root.handlers = []  # as in a new process: the command's basicConfig installs its own
    sys.stdout, sys.stderr = out, err
    try:
        if cwd is not None:
            os.chdir(cwd)
        try:
            status = main(list(args))
        except SystemExit as done:  # --help, --version
            status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.stdout, sys.stderr = saved_streams
        root.handlers = saved_handlers
        ours.setLevel(saved_level)
        if library is not None:
            (library.enable_progress_bars if saved_bars else library.disable_progress_bars)()
        os.chdir(saved_cwd)
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return subprocess.CompletedProcess(
        ["hatemoji-datasets", *args], status, out.read_back(errors), err.read_back(errors)
    )


def all_configs() -> list[tuple[str, str]]:
    """Every registered ``(dataset, config)``."""
    return [(name, config.name) for name, spec in specs().items() for config in spec.configs]


# -- plain `datasets`, without this package ------------------------------------------------

#: Run in a child process: load every config of an export with plain
#: ``datasets.load_dataset`` and save, per config and split, the features (``to_dict``) and
#: the rows (an Arrow IPC file). The child never imports this package (checked), so nothing
#: of it can help the load.
PLAIN_LOAD = """
import json, sys
from pathlib import Path
import datasets
import pyarrow as pa
folder, cache, out = sys.argv[1:4]
for config in datasets.get_dataset_config_names(folder):
    data = datasets.load_dataset(folder, config, cache_dir=cache)
    found = {}
    Path(out, config).mkdir()
    for split, ds in data.items():
        table = ds.with_format("arrow")[:]
        with pa.OSFile(str(Path(out, config, split + ".arrow")), "wb") as sink:
            with pa.ipc.new_file(sink, table.schema) as writer:
                writer.write_table(table)
        found[split] = ds.features.to_dict()
    assert not any(m.startswith("hatemoji_datasets") for m in sys.modules), "package imported"
    Path(out, config, "features.json").write_text(
        json.dumps({"version": datasets.__version__, "splits": found})
    )
"""


@dataclass
class PlainLoad:
    """What plain ``datasets`` loaded: its version, and per split features and rows."""

    datasets_version: str
    features: dict[str, dict]
    tables: dict[str, object]


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


# -- the plain dataset (PLAIN): its file, its rows made new, its enumerated column -------


def plain_file(mirror: Path) -> Path:
    """The mirror's copy of the one file ``PLAIN``'s default config reads."""
    spec = dataset_spec(PLAIN)
    (pin,) = spec.config_sources(spec.config()).values()
    return upstream_path(mirror, pin.url)


#: The key of the first new row a test makes (``new_row``), above the ids released.
NEW_KEY = 90_001


def new_row(released: Mapping[str, str], number: int = 0) -> dict[str, str]:
    """A released row of ``PLAIN``'s file made new: key ``NEW_KEY + number`` (where rows are
    keyed by an id) and its text with " again" added; the other cells as released."""
    config = dataset_spec(PLAIN).config()
    row = {**released, config.text_column: released[config.text_column] + " again"}
    if config.key_column != config.text_column:
        row[config.key_column] = str(NEW_KEY + number)
    return row


def enumerated(name: str) -> tuple[str, list[str]]:
    """The string column of the default config's raw model that allows the most values (the
    first of those tied), and the values it allows, as the model declares them."""
    spec = dataset_spec(name)
    columns = spec.load(spec.config().schema).to_schema().columns
    allowed = {
        column: list(check.statistics["allowed_values"])
        for column, definition in columns.items()
        for check in definition.checks
        if check.name == "isin"
        and all(isinstance(value, str) for value in check.statistics["allowed_values"])
    }
    column = max(allowed, key=lambda each: len(allowed[each]))  # the first of those tied
    return column, allowed[column]


# -- the plain dataset's stated fault, for tests of the contribution gate -----------------


def plain_fault() -> tuple[str, tuple, tuple[int, str, str], tuple[str, str]]:
    """The first of ``PLAIN``'s ``CORRUPTED_COPIES`` that ``validate`` rejects (exit status 1)
    naming both the value found and the one expected: ``(source, edit, (line, column, code),
    (value, expected))``. A test of the gate's reports puts it into released rows."""
    stated = getattr(dataset_facts(PLAIN), "CORRUPTED_COPIES", None) or {}
    for source, edit, status, place, named in stated.values():
        default = source in dataset_spec(PLAIN).config().source_names
        if default and status == 1 and named is not None and None not in named:
            return source, edit, place, named
    raise LookupError(
        f"{PLAIN}'s testing.py states no CORRUPTED_COPIES case with exit status 1 "
        "naming the value found and the one expected"
    )


def head_with_fault(mirror: Path, rows: int = 5) -> tuple[bytes, tuple[int, str, str]]:
    """The header and at least ``rows`` first rows of ``PLAIN``'s pinned file with
    :func:`plain_fault`'s edit put in (a re-submission of released rows, one of them broken),
    and the place of the finding that names it."""
    source, edit, place, _ = plain_fault()
    lines = source_lines(mirror, PLAIN, source)
    head = b"".join(lines[: max(rows + 1, edit[1])])
    return edited(head, [edit], delimiter_of(PLAIN, source)), place
