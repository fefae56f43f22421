"""HatemojiBuild's built features, the transform from validated raw rows, and statistics."""

from __future__ import annotations

import statistics as stats
from collections import Counter
from collections.abc import Iterator
from importlib.metadata import version as installed_version
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets import features
from hatemoji_datasets.datasets.hatemoji_build.pairs import (
    count_cross_split_pairs,
    cross_split_pairs,
)
from hatemoji_datasets.datasets.hatemoji_build.spec import HATE_TYPES, PERTURBATIONS
from hatemoji_datasets.datasets.hatemoji_build.targets import glossary, target_codes
from hatemoji_datasets.spec import ConfigSpec


def features_of(config: ConfigSpec, version: str) -> datasets.Features:
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


def transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    kept = raw.filter(pc.is_in(raw["round.base"], value_set=pa.array(config.param("rounds"))))
    return pa.table(
        {
            "entry_id": kept["entry_id"],
            "text": kept["text"],
            "label": pc.cast(kept["label_gold"], pa.int64()),
            "hate_type": features.class_ids(kept["type"], list(HATE_TYPES)),
            "targets": target_ids(kept["target"]),
            "round": kept["round.base"],
            "perturbation": features.class_ids(kept["set"], PERTURBATIONS),
            "matched_id": kept["matched_id"],
            "matched_text": kept["matched_text"],
            "emoji": features.emoji_lists(kept["text"]),
        }
    )


def target_ids(literals: pa.ChunkedArray | pa.Array) -> pa.Array:
    """Validated target literals (``['mus', 'asi.south']``) as lists of ClassLabel ids."""
    literals = literals.combine_chunks() if isinstance(literals, pa.ChunkedArray) else literals
    # The schema proved every literal follows the grammar of ``targets``: strip the
    # brackets, split on ", ", strip each code's quotes.
    quoted = pc.split_pattern(pc.utf8_slice_codeunits(literals, 1, -1), ", ")
    codes = pc.utf8_slice_codeunits(quoted.flatten(), 1, -1)
    ids = features.class_ids(codes, target_codes())
    return pa.ListArray.from_arrays(quoted.offsets, ids)


def statistics(data: datasets.DatasetDict) -> dict[str, Any]:
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
    pairs_across = count_cross_split_pairs(data)
    return {
        "entries per round": _round_table(data, emoji_by_round),
        "pair leakage": {
            "pairs": entries // 2,
            "pairs with members in different splits": pairs_across,
            **{
                f"{split} entries whose partner is in another split": len(found)
                for split, found in leaks.items()
            },
        },
        "emoji per round": rounds,
        "distinct emoji": len({e for found in emoji_by_round.values() for e in _flat(found)}),
        "emoji package": installed_version("emoji"),
        "pairs": entries // 2,
        "cross-split pairs": pairs_across,
        "entries whose partner is in another split": {
            split: len(found) for split, found in leaks.items()
        },
        "entries per target": {meanings[code].describe(): n for code, n in targets.most_common()},
    }


def _flat(lists: list[list[str]]) -> Iterator[str]:
    return (item for items in lists for item in items)


def _emoji_statistics(per_entry: list[list[str]]) -> dict[str, Any]:
    counts = [len(found) for found in per_entry]
    return {
        "entries": len(counts),
        "mean emoji count": round(stats.fmean(counts), 2),
        # The sample standard deviation (n - 1), as a paper's table usually reports.
        "sd emoji count": round(stats.stdev(counts), 2) if len(counts) > 1 else 0.0,
        "distinct emoji": len(set(_flat(per_entry))),
    }


def _round_table(
    data: datasets.DatasetDict, emoji_by_round: dict[int, list[list[str]]]
) -> dict[str, dict[str, Any]]:
    """Per round (and over all rounds): entries per split, label and hate type, and emoji."""
    first = next(iter(data.values()))
    labels = first.features["label"].names
    hate_types = first.features["hate_type"].names
    counts: dict[int, Counter[str]] = {}
    for split, dataset in data.items():
        for round_, label, hate_type in zip(
            dataset["round"][:], dataset["label"][:], dataset["hate_type"][:], strict=True
        ):
            found = counts.setdefault(round_, Counter())
            found[split] += 1
            found[labels[label]] += 1
            found[f"hate type: {hate_types[hate_type]}"] += 1
    columns = [
        *data,
        *labels,
        *(f"hate type: {name}" for name in hate_types),
    ]
    table: dict[str, dict[str, Any]] = {}
    for round_ in sorted(counts):
        table[f"R{round_}"] = _round_row(counts[round_], columns, emoji_by_round[round_])
    if len(counts) > 1:
        table["all"] = _round_row(
            sum(counts.values(), Counter()),
            columns,
            [found for round_ in sorted(emoji_by_round) for found in emoji_by_round[round_]],
        )
    return table


def _round_row(counts: Counter[str], columns: list[str], emoji: list[list[str]]) -> dict[str, Any]:
    figures = _emoji_statistics(emoji)
    return {
        "entries": len(emoji),
        **{column: counts[column] for column in columns},
        "emoji per entry (mean ± sd)": (
            f"{figures['mean emoji count']:.2f} ± {figures['sd emoji count']:.2f}"
        ),
        "distinct emoji": figures["distinct emoji"],
    }
