"""The base class every dataset builder of the package derives from.

It holds what all builders share: the card source and pinned sources read from
the dataset's own package folder, verified downloads (through the mirror when
one is set), validation of raw files before anything is written, and the
version bookkeeping. A dataset module adds constants, configs, features and a
generator, nothing more.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import datasets
import pandas as pd
import pandera.pandas as pa

from hatemoji_datasets import sources
from hatemoji_datasets.metadata import CardSource, read_card_source
from hatemoji_datasets.validation import (
    CSV,
    TableFormat,
    UpstreamFormat,
    raise_for,
    validate_files,
)

log = logging.getLogger("hatemoji_datasets")

CARD_SOURCE_FILE = "card.yaml"
CHECKSUMS_FILE = "checksums.tsv"


class HatemojiBuilder(datasets.GeneratorBasedBuilder):
    """A versioned builder whose sources are pinned and whose raw files are validated."""

    #: Registry name, e.g. ``"hatemoji_check"``.
    NAME: ClassVar[str]
    #: One line per released version, newest first; ``VERSION`` must be the first key.
    RELEASE_NOTES: ClassVar[dict[str, str]]
    #: The feature that identifies a row; rows without one are identified by ``text``.
    ID_FEATURE: ClassVar[str | None] = None

    def __init__(self, *, mirror: str | None = None, **kwargs: Any) -> None:
        # The mirror only changes where bytes come from, never what is built,
        # so it is kept out of the config (and out of the cache key).
        self.mirror = mirror
        kwargs.setdefault("dataset_name", self.NAME)
        super().__init__(**kwargs)

    # -- what the dataset package ships ------------------------------------------------

    @classmethod
    def package_dir(cls) -> Path:
        return Path(sys.modules[cls.__module__].__file__).parent

    @classmethod
    def card_source(cls) -> CardSource:
        return _card_source(cls.package_dir() / CARD_SOURCE_FILE)

    @classmethod
    def source_files(cls) -> dict[str, sources.SourceFile]:
        return _source_files(cls.package_dir() / CHECKSUMS_FILE)

    @classmethod
    def released_versions(cls) -> list[str]:
        return list(cls.RELEASE_NOTES)

    @classmethod
    def config_names(cls) -> list[str]:
        return [config.name for config in cls.BUILDER_CONFIGS] or ["default"]

    @classmethod
    def default_config_name(cls) -> str:
        return cls.DEFAULT_CONFIG_NAME or cls.config_names()[0]

    @classmethod
    def upstream_formats(cls) -> dict[str, UpstreamFormat]:
        """Config name -> the upstream file format, which contributions are written in."""
        raise NotImplementedError(f"{cls.NAME} declares no upstream format")

    @classmethod
    def summarize(cls, data: datasets.DatasetDict) -> dict[str, Any]:
        """Dataset-specific statistics for ``info``; builders override to add their own."""
        return {}

    # -- datasets.GeneratorBasedBuilder hooks -----------------------------------------

    def _features(self) -> datasets.Features:
        raise NotImplementedError

    def _info(self) -> datasets.DatasetInfo:
        card = self.card_source()
        return datasets.DatasetInfo(
            description=card.description,
            citation=card.citation,
            homepage=card.homepage,
            license=card.license,
            features=self._features(),
        )

    # -- helpers for subclasses -------------------------------------------------------

    def config_sources(self) -> dict[str, sources.SourceFile]:
        """The pinned files this config reads; all of the dataset's unless a builder narrows it."""
        return self.source_files()

    def fetch_sources(self, dl_manager: datasets.DownloadManager) -> dict[str, str]:
        """Download this config's pinned files and verify them; ``{name: local path}``."""
        pinned = self.config_sources()
        log.info("fetching and verifying %d source file(s)", len(pinned))
        return sources.fetch(pinned, dl_manager, self.mirror)

    @staticmethod
    def read_validated(
        schema: type[pa.DataFrameModel], path: str, fmt: TableFormat = CSV
    ) -> pd.DataFrame:
        """Read a raw file and validate it, raising with every violation found."""
        return HatemojiBuilder.read_validated_files(schema, {path: path}, fmt)

    @staticmethod
    def read_validated_files(
        schema: type[pa.DataFrameModel],
        paths: Mapping[str, str],
        fmt: TableFormat = CSV,
        *,
        source_column: str | None = None,
    ) -> pd.DataFrame:
        """Read several raw files as one table and validate it (rules may span files).

        With ``source_column``, each row also says which key of ``paths`` it came from.
        """
        log.info("validating %s against %s", ", ".join(paths.values()), schema.__name__)
        frame, violations = validate_files(schema, paths, fmt, source_column=source_column)
        raise_for(violations)
        return frame

    @staticmethod
    def split_generators(
        frames: Mapping[str, pd.DataFrame],
    ) -> list[datasets.SplitGenerator]:
        """One SplitGenerator per split, each passing its frame to the generator."""
        return [
            datasets.SplitGenerator(name=split, gen_kwargs={"frame": frame})
            for split, frame in frames.items()
        ]


@cache
def _card_source(path: Path) -> CardSource:
    return read_card_source(path)


@cache
def _source_files(path: Path) -> dict[str, sources.SourceFile]:
    return sources.read_checksums(path)
