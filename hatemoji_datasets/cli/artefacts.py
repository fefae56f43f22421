"""Every generated file of the repository, and how to compute its text: what
``hatemoji-datasets regenerate`` writes or (``--check``) compares.

An :class:`Artefact` is one kind of generated file. Most belong to one dataset
(its card, schemas, loading script, tasks, ``raw_columns.tsv``,
``fingerprints.tsv``); a few are shared, one file or block for every dataset
(the tasks' README, the finding-code table, the release table, the prefilter
ranges, the baseline table), and are regenerated only when no dataset is
named. Some need built data (the card and the release table build, or read
from the cache, every release they describe); the fingerprints rebuild every
release from scratch, so they are recomputed only when asked for.
"""

from __future__ import annotations

import importlib.util
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from hatemoji_datasets.core.file_reads import read_text
from hatemoji_datasets.core.generated import folder_files, repository_root
from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.core.spec import DatasetSpec


@dataclass(frozen=True)
class Where:
    """Where built data comes from: the ``datasets`` cache and the sources' mirror."""

    cache_dir: str | None = None
    mirror: str | None = None


#: ``files(datasets, where)``: ``{path: the text it must hold}``.
Files = Callable[[Sequence[DatasetSpec], Where], dict[Path, str]]


@dataclass(frozen=True)
class Artefact:
    """One kind of generated file."""

    name: str
    #: What the files are, for ``--help`` and docs/cli.md.
    about: str
    files: Files
    #: One file (or block) for every dataset: regenerated only when no dataset is named.
    shared: bool = False
    #: Needs built data (the mirror, or the network, and a cache).
    builds: bool = False
    #: Computed only when asked for (``--fingerprints``, or ``--only NAME``).
    on_request: bool = False
    #: The folder (under the repository) holding one sub-folder per dataset: files there
    #: that nothing generates are reported too.
    folder: str | None = None
    #: Why it cannot be computed here, or None.
    unavailable: Callable[[], str | None] = lambda: None


def _root() -> Path:
    return repository_root()


def _per_dataset(folder: str, render: Callable[[DatasetSpec], dict[str, str]]) -> Files:
    """Files under ``folder/`` from each dataset's ``{path relative to folder: text}``."""

    def files(chosen: Sequence[DatasetSpec], where: Where) -> dict[Path, str]:
        root = _root() / folder
        return {root / rel: text for spec in chosen for rel, text in render(spec).items()}

    return files


def _card(spec: DatasetSpec, where: Where) -> dict[str, str]:
    from hatemoji_datasets.cards.files import rendered_files
    from hatemoji_datasets.cards.gather import build

    built = build(spec.name, cache_dir=where.cache_dir, mirror=where.mirror)
    return {f"{spec.name}/{name}": text for name, text in rendered_files(built).items()}


def _cards(chosen: Sequence[DatasetSpec], where: Where) -> dict[Path, str]:
    root = _root() / "cards"
    return {root / rel: text for spec in chosen for rel, text in _card(spec, where).items()}


def _schemas(chosen: Sequence[DatasetSpec], where: Where) -> dict[Path, str]:
    from hatemoji_datasets.schema.table_schema import exports

    names = {spec.name for spec in chosen}
    root = _root() / "schemas"
    return {root / rel: text for rel, text in exports().items() if rel.split("/")[0] in names}


def _raw_columns(chosen: Sequence[DatasetSpec], where: Where) -> dict[Path, str]:
    from hatemoji_datasets.schema.raw_columns import layout_path
    from hatemoji_datasets.schema.table_schema import layouts

    paths = {layout_path(spec) for spec in chosen}
    return {path: text for path, text in layouts().items() if path in paths}


def _loading_script(spec: DatasetSpec) -> dict[str, str]:
    from hatemoji_datasets.hub.loading_scripts import rendered

    return rendered(spec)


def _tasks(spec: DatasetSpec) -> dict[str, str]:
    from hatemoji_datasets.harness.tasks import dataset_tasks

    return dataset_tasks(spec)


def _tasks_readme(chosen: Sequence[DatasetSpec], where: Where) -> dict[Path, str]:
    from hatemoji_datasets.harness.tasks import README, TASKS_FOLDER, task_files

    return {_root() / TASKS_FOLDER / README: task_files()[README]}


def _fingerprints(chosen: Sequence[DatasetSpec], where: Where) -> dict[Path, str]:
    from hatemoji_datasets.building.recorded import recorded_path, render_recorded
    from hatemoji_datasets.pinning.record import compute_records

    files = {}
    with tempfile.TemporaryDirectory(prefix="hatemoji-fingerprints-") as scratch:
        for spec in chosen:  # built afresh (a scratch cache) unless a cache is given
            records = compute_records(
                spec, cache_dir=where.cache_dir or scratch, mirror=where.mirror
            )
            files[recorded_path(spec)] = render_recorded(records)
    return files


def _block(page: str, render: Callable[[str, Where], str]) -> Files:
    """A generated block of ``page`` (under the repository): the page with it rendered."""

    def files(chosen: Sequence[DatasetSpec], where: Where) -> dict[Path, str]:
        path = _root() / page
        return {path: render(read_text(path), where)}

    return files


def _codes(page: str, where: Where) -> str:
    from hatemoji_datasets.validate.codes import render

    return render(page)


def _readme(chosen: Sequence[DatasetSpec], where: Where) -> dict[Path, str]:
    from hatemoji_datasets.cards.listing import render, render_datasets_page

    readme, page = _root() / "README.md", _root() / "docs/datasets.md"
    return {readme: render(read_text(readme)), page: render_datasets_page(read_text(page))}


def _vocabularies(page: str, where: Where) -> str:
    from hatemoji_datasets.validate.vocabularies import render

    return render(page)


def _releases(page: str, where: Where) -> str:
    from hatemoji_datasets.diff.releases import markdown_table, release_changes, render

    table = markdown_table(
        (name, release_changes(spec, cache_dir=where.cache_dir, mirror=where.mirror))
        for name, spec in specs().items()
    )
    return render(page, table)


def _prefilter(chosen: Sequence[DatasetSpec], where: Where) -> dict[Path, str]:
    from hatemoji_datasets.validate import prefilter_ranges
    from hatemoji_datasets.validate.prefilter import computed_ranges, render

    return {Path(prefilter_ranges.__file__): render(computed_ranges())}


def _prefilter_unavailable() -> str | None:
    import unicodedata

    from hatemoji_datasets.validate import prefilter_ranges

    if unicodedata.unidata_version == prefilter_ranges.UNICODE_VERSION:
        return None
    return (
        f"shipped for Unicode {prefilter_ranges.UNICODE_VERSION}; this Python has "
        f"{unicodedata.unidata_version} and computes its own"
    )


BASELINES_SCRIPT = "scripts/baselines.py"


def _baselines(page: str, where: Where) -> str:
    loader = importlib.util.spec_from_file_location("_baselines", _root() / BASELINES_SCRIPT)
    assert loader is not None and loader.loader is not None
    script = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(script)
    with tempfile.TemporaryDirectory(prefix="hatemoji-baselines-") as scratch:
        table = script.run(
            Path(scratch), cache_dir=where.cache_dir, mirror=where.mirror, show=lambda text: None
        )
    return script.page_with_table(page, table)


def _baselines_unavailable() -> str | None:
    if not (_root() / BASELINES_SCRIPT).is_file():
        return f"no {BASELINES_SCRIPT} in this checkout"
    if importlib.util.find_spec("sklearn") is None:
        return "needs scikit-learn (pip install -e '.[test]')"
    return None


ARTEFACTS: tuple[Artefact, ...] = (
    Artefact("schemas", "pandera YAML and Table Schema of each raw file", _schemas,
             folder="schemas"),
    Artefact("raw_columns", "each dataset's raw_columns.tsv", _raw_columns),
    Artefact("loading_scripts", "Hub loading scripts for datasets < 4",
             _per_dataset("loading_scripts", _loading_script), folder="loading_scripts"),
    Artefact("lm_eval_tasks", "lm-evaluation-harness tasks, one per config",
             _per_dataset("lm_eval_tasks", _tasks), folder="lm_eval_tasks"),
    Artefact("lm_eval_readme", "the task folder's README (every dataset's tasks)",
             _tasks_readme, shared=True),
    Artefact("finding_codes", "the finding-code table of docs/validation.md",
             _block("docs/validation.md", _codes), shared=True),
    Artefact("readme", "the datasets tables of README.md and docs/datasets.md, the licences",
             _readme, shared=True),
    Artefact("vocabularies", "each config's own values, tables of docs/datasets.md",
             _block("docs/datasets.md", _vocabularies), shared=True),
    Artefact("prefilter", "the text rules' Unicode prefilter ranges", _prefilter, shared=True,
             unavailable=_prefilter_unavailable),
    Artefact("cards", "dataset cards and Croissant metadata, from the built data", _cards,
             builds=True, folder="cards"),
    Artefact("releases", "the release table of CHANGELOG.md, every release diffed",
             _block("CHANGELOG.md", _releases), shared=True, builds=True),
    Artefact("baselines", "the baseline table of docs/scoring.md (trains the models)",
             _block("docs/scoring.md", _baselines), shared=True, builds=True,
             unavailable=_baselines_unavailable),
    Artefact("fingerprints", "each dataset's fingerprints.tsv, every release rebuilt",
             _fingerprints, builds=True, on_request=True),
)  # fmt: skip


def artefact_names() -> list[str]:
    return [artefact.name for artefact in ARTEFACTS]


def extra_files(
    artefact: Artefact, chosen: Sequence[DatasetSpec], expected: set[Path]
) -> list[Path]:
    """Files in the datasets' sub-folders of the artefact's folder that nothing generates;
    with every dataset chosen, also sub-folders of no registered dataset (one removed)."""
    if artefact.folder is None:
        return []
    root = _root() / artefact.folder
    folders = [root / spec.name for spec in chosen]
    if len(chosen) == len(specs()) and root.is_dir():
        folders += [p for p in sorted(root.iterdir()) if p.is_dir() and p.name not in specs()]
    found = []
    for folder in folders:
        if folder.is_dir():
            found += [p for p in folder_files(folder) if p not in expected]
    return found
