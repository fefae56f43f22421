"""Where things are: the checkout, the mirror and the published artefacts, a run's shared
folder and locks, and a dataset's pinned files in a mirror."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from filelock import FileLock

from hatemoji_datasets.core.checksums import SourceFile
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.core.spec import DatasetSpec
from hatemoji_datasets.sources.settings import MIRROR_ENV
from hatemoji_datasets.sources.verify import sha256_of

REPO = Path(__file__).resolve().parents[2]
DEFAULT_MIRROR = REPO.parent / "shared" / "sources"
FIXTURES = REPO / "tests" / "fixtures"


def _mirror_path() -> Path | None:
    configured = os.environ.get(MIRROR_ENV)
    candidate = Path(configured) if configured else DEFAULT_MIRROR
    return candidate if candidate.is_dir() else None


#: The real mirror, as the run was started with (tests set the environment's to their own).
REAL_MIRROR = _mirror_path()


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


def upstream_path(mirror: Path, url: str) -> Path:
    """Where the mirror keeps the file for ``url``, links resolved (the tests' mirror links
    each host's folder, and ``validate`` refuses a link out of the working tree)."""
    return (mirror / url.split("://", 1)[1]).resolve()


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


def all_configs() -> list[tuple[str, str]]:
    """Every registered ``(dataset, config)``."""
    return [(name, config.name) for name, spec in specs().items() for config in spec.configs]


def combined_mirror(factory: pytest.TempPathFactory, *mirrors: Path) -> Path:
    """One mirror of the run holding every host folder of ``mirrors`` (each a link), made once
    for the whole run (its workers included)."""
    combined = run_folder(factory) / "mirror"
    with run_lock(factory, "mirror"):
        if not combined.is_dir():
            making = combined.with_name("mirror.making")
            shutil.rmtree(making, ignore_errors=True)
            making.mkdir()
            for host in (host for mirror in mirrors for host in mirror.iterdir()):
                (making / host.name).symlink_to(host.resolve(), target_is_directory=True)
            making.rename(combined)
    return combined
