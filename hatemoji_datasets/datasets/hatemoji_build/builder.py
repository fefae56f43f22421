"""HatemojiBuild: 5,912 adversarial entries of rounds R5-R7, each paired with a perturbation."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import version as installed_version
from typing import Any

import datasets
import pandas as pd

from hatemoji_datasets import features
from hatemoji_datasets.builder import HatemojiBuilder
from hatemoji_datasets.datasets.hatemoji_build.pairs import (
    count_cross_split_pairs,
    cross_split_pairs,
)
from hatemoji_datasets.datasets.hatemoji_build.schema import (
    HATE_TYPES,
    PERTURBATIONS,
    ROUNDS,
    SOURCE_COLUMN,
    SPLITS,
    HatemojiBuildRaw,
    split_of_contribution,
)
from hatemoji_datasets.datasets.hatemoji_build.targets import (
    glossary,
    parse_target_literal,
    target_codes,
)
from hatemoji_datasets.validation import CSV, UpstreamFormat

VERSION = datasets.Version("1.0.0")


@dataclass
class HatemojiBuildConfig(datasets.BuilderConfig):
    """Which collection rounds a config keeps; every config has all three splits."""

    rounds: tuple[int, ...] = ROUNDS

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.rounds or not set(self.rounds) <= set(ROUNDS):
            raise ValueError(f"rounds must be some of {ROUNDS}, got {self.rounds}")


def _round_config(rounds: tuple[int, ...], name: str, description: str) -> HatemojiBuildConfig:
    return HatemojiBuildConfig(name=name, version=VERSION, description=description, rounds=rounds)


class HatemojiBuild(HatemojiBuilder):
    NAME = "hatemoji_build"
    VERSION = VERSION
    ID_FEATURE = "entry_id"
    RELEASE_NOTES = {
        "1.0.0": "First release: upstream commit a626f63, R5-R7, 5,912 entries in "
        "train/validation/test; configs all, r5, r6, r7.",
    }
    BUILDER_CONFIG_CLASS = HatemojiBuildConfig
    BUILDER_CONFIGS = [
        _round_config(ROUNDS, "all", "Rounds R5, R6 and R7 together."),
        *(_round_config((n,), f"r{n}", f"Round R{n} only.") for n in ROUNDS),
    ]
    DEFAULT_CONFIG_NAME = "all"

    config: HatemojiBuildConfig

    @classmethod
    def upstream_formats(cls) -> dict[str, UpstreamFormat]:
        # Every config reads the same three files; contributions are checked against all
        # of them, since a pair may straddle files.
        upstream = UpstreamFormat(
            schema=HatemojiBuildRaw,
            table=CSV,
            released=SPLITS,
            key_column="entry_id",
            text_column="text",
            source_column=SOURCE_COLUMN,
            source_of=split_of_contribution,
            cross_row_rules=True,
        )
        return {config.name: upstream for config in cls.BUILDER_CONFIGS}

    def _features(self) -> datasets.Features:
        return datasets.Features(
            {
                "entry_id": datasets.Value("int32"),
                "text": datasets.Value("string"),
                "label": features.label(),
                "hate_type": features.class_label(HATE_TYPES.values()),
                "targets": features.list_of(features.class_label(target_codes())),
                "round": datasets.Value("int8"),
                "perturbation": features.class_label(PERTURBATIONS),
                "matched_id": datasets.Value("int32"),
                "matched_text": datasets.Value("string"),
                "emoji": features.emoji_feature(),
            }
        )

    def _split_generators(
        self, dl_manager: datasets.DownloadManager
    ) -> list[datasets.SplitGenerator]:
        paths = self.fetch_sources(dl_manager)
        # One table of all three files: pair rules look across files, and a round
        # config filters rows only after every rule held for the whole dataset.
        files = {split: paths[split] for split in SPLITS}
        frame = self.read_validated_files(HatemojiBuildRaw, files, source_column=SOURCE_COLUMN)
        kept = frame[frame["round.base"].isin(self.config.rounds)]
        return self.split_generators(
            {split: kept[kept[SOURCE_COLUMN] == split] for split in SPLITS}
        )

    def _generate_examples(self, frame: pd.DataFrame) -> Iterator[tuple[int, dict[str, Any]]]:
        for row in frame.to_dict(orient="records"):
            yield (
                int(row["entry_id"]),
                {
                    "entry_id": int(row["entry_id"]),
                    "text": row["text"],
                    "label": int(row["label_gold"]),
                    "hate_type": HATE_TYPES[row["type"]],
                    "targets": list(parse_target_literal(row["target"])),
                    "round": int(row["round.base"]),
                    "perturbation": row["set"],
                    "matched_id": int(row["matched_id"]),
                    "matched_text": row["matched_text"],
                    "emoji": features.emoji_in(row["text"]),
                },
            )

    @classmethod
    def summarize(cls, data: datasets.DatasetDict) -> dict[str, Any]:
        """Emoji per round, pairs straddling splits, and entries per target code."""
        emoji_by_round: dict[int, list[list[str]]] = {}
        targets: Counter[str] = Counter()
        for dataset in data.values():
            names = dataset.features["targets"].feature.names
            for found, round_, codes in zip(
                dataset["emoji"][:], dataset["round"][:], dataset["targets"][:], strict=True
            ):
                emoji_by_round.setdefault(round_, []).append(found)
                targets.update(names[code] for code in codes)
        rounds = {f"R{n}": _emoji_statistics(emoji_by_round[n]) for n in sorted(emoji_by_round)}
        entries = sum(dataset.num_rows for dataset in data.values())
        leaks = cross_split_pairs(data)
        meanings = glossary()
        return {
            "emoji per round": rounds,
            "distinct emoji": len({e for found in emoji_by_round.values() for e in _flat(found)}),
            "emoji package": installed_version("emoji"),
            "pairs": entries // 2,
            "cross-split pairs": count_cross_split_pairs(data),
            "entries whose partner is in another split": {
                split: len(found) for split, found in leaks.items()
            },
            "entries per target": {
                meanings[code].describe(): n for code, n in targets.most_common()
            },
        }


def _flat(lists: list[list[str]]) -> Iterator[str]:
    return (item for items in lists for item in items)


def _emoji_statistics(per_entry: list[list[str]]) -> dict[str, Any]:
    counts = [len(found) for found in per_entry]
    return {
        "entries": len(counts),
        "mean emoji count": round(statistics.fmean(counts), 2),
        # The sample standard deviation (n - 1), as a paper's table usually reports.
        "sd emoji count": round(statistics.stdev(counts), 2) if len(counts) > 1 else 0.0,
        "distinct emoji": len(set(_flat(per_entry))),
    }
