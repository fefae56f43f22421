"""The one ``datasets`` builder, driven by a dataset's declaration.

:func:`builder_class_for` makes a ``datasets.ArrowBasedBuilder`` subclass per
:class:`~hatemoji_datasets.spec.DatasetSpec`: its configs, versions and
features come from the declaration; ``_split_generators`` fetches and
verifies the config's pinned files and runs the shared read-validate-transform
pipeline; ``_generate_tables`` yields each split as one Arrow table cast to
the features. A dataset package adds a declaration, a schema and a transform,
and no builder code.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

import datasets
import pyarrow
from datasets.table import table_cast

from hatemoji_datasets import sources
from hatemoji_datasets.metadata import CardSource, read_card_source
from hatemoji_datasets.spec import ConfigSpec, DatasetSpec

log = logging.getLogger("hatemoji_datasets")


@dataclass
class HatemojiConfig(datasets.BuilderConfig):
    """A ``datasets`` config carrying its declaration."""

    spec: ConfigSpec | None = None


class HatemojiBuilder(datasets.ArrowBasedBuilder):
    """A versioned builder whose sources are pinned and whose raw files are validated."""

    SPEC: ClassVar[DatasetSpec]
    BUILDER_CONFIG_CLASS = HatemojiConfig
    config: HatemojiConfig

    def __init__(self, *, mirror: str | None = None, **kwargs: Any) -> None:
        # The mirror only changes where bytes come from, never what is built,
        # so it is kept out of the config (and out of the cache key).
        self.mirror = mirror
        kwargs.setdefault("dataset_name", self.SPEC.name)
        super().__init__(**kwargs)

    @property
    def config_spec(self) -> ConfigSpec:
        assert self.config.spec is not None  # every registered config carries one
        return self.config.spec

    def _info(self) -> datasets.DatasetInfo:
        card = card_source(self.SPEC)
        return datasets.DatasetInfo(
            description=card.description,
            citation=card.citation,
            homepage=card.homepage,
            license=card.license,
            features=self.SPEC.resolve(self.config_spec.features)(
                self.config_spec, str(self.config.version)
            ),
        )

    def _split_generators(
        self, dl_manager: datasets.DownloadManager
    ) -> list[datasets.SplitGenerator]:
        from hatemoji_datasets.pipeline import build_tables  # pandera: only when building

        pinned = self.SPEC.config_sources(self.config_spec)
        log.info("fetching and verifying %d source file(s)", len(pinned))
        paths = sources.fetch(pinned, dl_manager, self.mirror)
        tables = build_tables(self.SPEC, self.config_spec, str(self.config.version), paths)
        generators = []
        for split, table in tables.items():
            generator = datasets.SplitGenerator(name=split, gen_kwargs={"table": table})
            generator.split_info.num_examples = table.num_rows  # real progress totals
            generators.append(generator)
        return generators

    def _generate_tables(self, table: pyarrow.Table):
        yield _table_key(), table_cast(table, self.info.features.arrow_schema)


def _table_key() -> Any:
    # datasets 5 keys tables by (shard, batch); older releases take any key.
    key_type = getattr(datasets.builder, "Key", None)
    return key_type(0, 0) if key_type is not None else 0


@cache
def card_source(spec: DatasetSpec) -> CardSource:
    return read_card_source(spec.card_source_path)


@cache
def builder_class_for(spec: DatasetSpec) -> type[HatemojiBuilder]:
    """The builder class of ``spec``, made once."""
    configs = [
        HatemojiConfig(
            name=config.name,
            version=datasets.Version(spec.version),
            description=config.description,
            spec=config,
        )
        for config in spec.configs
    ]
    class_name = "".join(part.title() for part in spec.name.split("_"))
    # datasets names a builder after its module's last component: the dataset package.
    return type(
        class_name,
        (HatemojiBuilder,),
        {
            "SPEC": spec,
            "BUILDER_CONFIGS": configs,
            "DEFAULT_CONFIG_NAME": spec.default_config_name,
            "__module__": spec.package,
        },
    )
