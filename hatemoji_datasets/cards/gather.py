"""A dataset as its card describes it: the declaration, ``card.yaml`` and every config built.

Everything a card says comes from three places: the declaration
(:mod:`hatemoji_datasets.core.spec`: configs, splits, releases, pinned files), the
hand-written ``card.yaml`` of the dataset package (prose, Hub metadata, data
statements, field descriptions, which statistics to tabulate), and the data
itself as it is built (features, split sizes, ``size_categories`` and the
distribution tables, which each config's ``statistics`` computes, so
``hatemoji-datasets info`` shows the same figures).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hatemoji_datasets.cards.lint import Expected
from hatemoji_datasets.core.card_source import REQUIRED_KEYS, card_source
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec

if TYPE_CHECKING:
    import datasets

    from hatemoji_datasets.diff.releases import ReleaseChanges


@dataclass
class BuiltConfig:
    """One config as built: its declaration, data, statistics and split sizes."""

    spec: ConfigSpec
    data: datasets.DatasetDict
    statistics: dict[str, Any]
    #: ``{split: (num_examples, num_bytes)}``
    splits: dict[str, tuple[int, int]]

    @property
    def features(self) -> datasets.Features:
        return next(iter(self.data.values())).features


@dataclass
class Built:
    """A dataset as the card describes it: declaration, ``card.yaml`` and every config."""

    spec: DatasetSpec
    source: dict[str, Any]
    configs: dict[str, BuiltConfig]
    #: ``{source name: local path}`` of the pinned upstream files, fetched and verified
    #: (the Croissant metadata reads them as a Croissant reader would).
    source_paths: dict[str, str] = field(default_factory=dict)
    #: Every release, newest first, with what it changed in the data (the versions table).
    releases: list[ReleaseChanges] = field(default_factory=list)

    def rows_per_source(self) -> dict[str, int]:
        """Rows built from each pinned file: the largest split any config builds from it.

        Configs may read the same pinned file and keep part of it (a config of
        one round of a multi-round file), so each file counts once, with its
        largest split. Configs that re-split their files do not count: their
        splits are not the files'. A split stacked from several files that no
        config reads alone counts under their names joined by ``+``. Joined files
        add no rows.
        """
        per_source: dict[str, int] = {}
        stacked: list[tuple[tuple[str, ...], int]] = []
        for config in self.configs.values():
            if config.spec.resplit:
                continue
            for split in config.spec.split_names:
                sources, rows = config.spec.split_sources(split), config.splits[split][0]
                if len(sources) == 1:
                    per_source[sources[0]] = max(per_source.get(sources[0], 0), rows)
                else:
                    stacked.append((sources, rows))
        for sources, rows in stacked:
            if not all(source in per_source for source in sources):
                known = sum(per_source.get(source, 0) for source in sources)
                unknown = "+".join(s for s in sources if s not in per_source)
                per_source[unknown] = max(per_source.get(unknown, 0), rows - known)
        return per_source

    @property
    def rows(self) -> int:
        """Rows of the dataset, each upstream row counted once.

        A file that a join declares a subset of a config's rows (an indicator
        join: the test suite among all cases) is not counted again.
        """
        subsets = {
            source
            for config in self.configs.values()
            for join in config.spec.joins
            if join.indicator
            for source in join.source_names
        }
        return sum(n for source, n in self.rows_per_source().items() if source not in subsets)

    def expected(self) -> Expected:
        """What a card of this data must say, for :mod:`hatemoji_datasets.cards.lint`."""
        return Expected(
            rows=self.rows,
            configs={
                name: {
                    "features": list(config.features),
                    "splits": {split: rows for split, (rows, _) in config.splits.items()},
                }
                for name, config in self.configs.items()
            },
        )


def build(name: str, *, cache_dir: str | None = None, mirror: str | None = None) -> Built:
    """Build (or load from the cache) every config of dataset ``name``, and every release
    the versions table compares."""
    from hatemoji_datasets.building.prepare import load_verified
    from hatemoji_datasets.diff.releases import release_changes
    from hatemoji_datasets.sources.fetch import fetch_released

    spec = dataset_spec(name)
    configs: dict[str, BuiltConfig] = {}
    paths: dict[str, str] = {}
    for config in spec.configs:
        _, data = load_verified(spec, config, spec.version, cache_dir=cache_dir, mirror=mirror)
        paths.update(fetch_released(spec, config, mirror, cache_dir))
        statistics = spec.load(config.statistics) if config.statistics else None
        splits = {}
        for split, dataset in data.items():
            recorded = (dataset.info.splits or {}).get(split)
            num_bytes = recorded.num_bytes if recorded is not None else dataset.data.nbytes
            splits[split] = (dataset.num_rows, int(num_bytes))
        configs[config.name] = BuiltConfig(
            spec=config,
            data=data,
            statistics=statistics(data) if statistics else {},
            splits=splits,
        )
    current = {(spec.version, name): config.data for name, config in configs.items()}
    releases = release_changes(spec, cache_dir=cache_dir, mirror=mirror, loaded=current)
    return Built(
        spec=spec,
        source=card_values(spec),
        configs=configs,
        source_paths=paths,
        releases=releases,
    )


def card_values(spec: DatasetSpec) -> dict[str, Any]:
    """``card.yaml`` as one mapping (required prose stripped), with the declared pretty name."""
    card = card_source(spec.card_source_path)
    values = {**card.extra, **{key: getattr(card, key) for key in REQUIRED_KEYS}}
    values["pretty_name"] = spec.pretty_name
    return values
