"""APEACH: 3,770 crowd-written Korean sentences for evaluating hate-speech detection.

Config ``default`` is APEACH itself (one ``test`` split). Config ``beep`` is the
labeled BEEP! corpus the APEACH paper trains on and also evaluates against
(``train`` and ``validation``), with ``hate`` and ``offensive`` folded into the
shared ``hateful`` label as the paper does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import datasets
import pandas as pd
import pandera.pandas as pa

from hatemoji_datasets import features
from hatemoji_datasets.builder import HatemojiBuilder
from hatemoji_datasets.datasets.apeach.schema import (
    APEACH_CLASSES,
    BEEP_FORMAT,
    BIASES,
    HATE_LEVELS,
    HATEFUL,
    HATEFUL_LEVELS,
    NON_HATEFUL,
    TOPICS,
    UPSTREAM_BOOLEANS,
    WRITER_GENDERS,
    ApeachRaw,
    BeepRaw,
)
from hatemoji_datasets.sources import SourceFile
from hatemoji_datasets.validation import CSV, TableFormat, UpstreamFormat

# -- features and row conversion, one pair per corpus --------------------------------


def apeach_features() -> datasets.Features:
    return datasets.Features(
        {
            "text": datasets.Value("string"),
            "label": features.label(),
            "topic": features.class_label(TOPICS.values()),
            "topic_ko": datasets.Value("string"),
            "writer_age": datasets.Value("int8"),
            "writer_age_group": datasets.Value("int8"),
            "writer_gender": features.class_label(WRITER_GENDERS),
        }
    )


def apeach_example(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "text": row["text"],
        "label": APEACH_CLASSES[row["class"]],
        "topic": TOPICS[row["text_topic_eng"]],
        "topic_ko": row["text_topic"],
        "writer_age": int(row["user_age"]),
        "writer_age_group": int(row["age"]),
        "writer_gender": row["user_gender"],
    }


def beep_features() -> datasets.Features:
    return datasets.Features(
        {
            "text": datasets.Value("string"),
            "label": features.label(),
            "hate_level": features.class_label(HATE_LEVELS),
            "bias": features.class_label(BIASES),
            "contain_gender_bias": datasets.Value("bool"),
        }
    )


def beep_example(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "text": row["comments"],
        "label": HATEFUL if row["hate"] in HATEFUL_LEVELS else NON_HATEFUL,
        "hate_level": row["hate"],
        "bias": row["bias"],
        "contain_gender_bias": UPSTREAM_BOOLEANS[row["contain_gender_bias"]],
    }


# -- configs ------------------------------------------------------------------------


@dataclass(frozen=True)
class Corpus:
    """How one config's upstream files are read and turned into examples."""

    schema: type[pa.DataFrameModel]
    table_format: TableFormat
    #: (split, source name in checksums.tsv); only these sources are fetched.
    split_sources: tuple[tuple[str, str], ...]
    features: Callable[[], datasets.Features]
    to_example: Callable[[Mapping[str, Any]], dict[str, Any]]
    #: The upstream column holding the text.
    text_column: str


APEACH = Corpus(
    schema=ApeachRaw,
    table_format=CSV,
    split_sources=(("test", "apeach_test"),),
    features=apeach_features,
    to_example=apeach_example,
    text_column="text",
)
BEEP = Corpus(
    schema=BeepRaw,
    table_format=BEEP_FORMAT,
    split_sources=(("train", "beep_train"), ("validation", "beep_dev")),
    features=beep_features,
    to_example=beep_example,
    text_column="comments",
)


@dataclass
class ApeachConfig(datasets.BuilderConfig):
    """A config of ``apeach``: which corpus it builds."""

    corpus: Corpus = APEACH


# -- builder ------------------------------------------------------------------------


class Apeach(HatemojiBuilder):
    NAME = "apeach"
    VERSION = datasets.Version("1.0.0")
    RELEASE_NOTES = {
        "1.0.0": "First release: APEACH a904c08 (test, 3,770) and, as config beep, "
        "BEEP! f8d05dc labeled train (7,896) and dev (471).",
    }
    BUILDER_CONFIG_CLASS = ApeachConfig
    BUILDER_CONFIGS = [
        ApeachConfig(
            name="default",
            version=VERSION,
            description="APEACH: crowd-written sentences on ten topic prompts, test only.",
            corpus=APEACH,
        ),
        ApeachConfig(
            name="beep",
            version=VERSION,
            description="BEEP!: labeled Korean news comments, hate and offensive as hateful.",
            corpus=BEEP,
        ),
    ]
    DEFAULT_CONFIG_NAME = "default"

    config: ApeachConfig

    @classmethod
    def upstream_formats(cls) -> dict[str, UpstreamFormat]:
        # Neither corpus has ids: a row is identified by its text (unique in each file).
        return {
            config.name: UpstreamFormat(
                schema=config.corpus.schema,
                table=config.corpus.table_format,
                released=tuple(name for _, name in config.corpus.split_sources),
                key_column=config.corpus.text_column,
                text_column=config.corpus.text_column,
            )
            for config in cls.BUILDER_CONFIGS
        }

    @classmethod
    def summarize(cls, data: datasets.DatasetDict) -> dict[str, Any]:
        return {split: _split_statistics(dataset) for split, dataset in data.items()}

    def config_sources(self) -> dict[str, SourceFile]:
        pinned = self.source_files()
        return {name: pinned[name] for _, name in self.config.corpus.split_sources}

    def _features(self) -> datasets.Features:
        return self.config.corpus.features()

    def _split_generators(
        self, dl_manager: datasets.DownloadManager
    ) -> list[datasets.SplitGenerator]:
        corpus = self.config.corpus
        paths = self.fetch_sources(dl_manager)
        return self.split_generators(
            {
                split: self.read_validated(corpus.schema, paths[name], corpus.table_format)
                for split, name in corpus.split_sources
            }
        )

    def _generate_examples(self, frame: pd.DataFrame) -> Iterator[tuple[int, dict[str, Any]]]:
        to_example = self.config.corpus.to_example
        # Records, not itertuples: upstream's ``class`` column is a Python keyword.
        for position, row in enumerate(frame.to_dict(orient="records")):
            yield position, to_example(row)


def _split_statistics(dataset: datasets.Dataset) -> dict[str, Any]:
    """Rows, counts of every label and flag, and the texts a careless reader would alter."""
    texts = list(dataset["text"])
    statistics: dict[str, Any] = {"rows": dataset.num_rows}
    for column, feature in dataset.features.items():
        if isinstance(feature, datasets.ClassLabel):
            counts = Counter(dataset[column])
            statistics[column] = {name: counts[k] for k, name in enumerate(feature.names)}
        elif isinstance(feature, datasets.Value) and feature.dtype == "bool":
            true = sum(dataset[column])
            statistics[column] = {"true": true, "false": dataset.num_rows - true}
    statistics["texts with leading or trailing whitespace"] = sum(
        text != text.strip() for text in texts
    )
    statistics["texts containing a double quote"] = sum('"' in text for text in texts)
    return statistics
