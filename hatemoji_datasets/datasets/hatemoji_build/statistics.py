"""HatemojiBuild's figures for ``info`` and the card: rounds, emoji, pairs and targets."""

from __future__ import annotations

import statistics as stats
from collections import Counter
from collections.abc import Iterator
from importlib.metadata import version as installed_version
from typing import Any

import datasets

from .pairs import (
    cross_split_pairs,
    distinct_pairs,
)
from .targets import glossary


def statistics(data: datasets.DatasetDict) -> dict[str, Any]:
    """Entries and emoji per round, pairs straddling splits, and entries per target code."""
    emoji_by_round: dict[int, list[list[str]]] = {}
    targets: Counter[str] = Counter()
    for dataset in data.values():
        names = dataset.features["targets"].feature.names
        for found, round_, codes in zip(
            dataset["emoji"][:], dataset["round"][:], dataset["targets"][:], strict=True
        ):
            emoji_by_round.setdefault(round_, []).append(found)
            targets.update(names[code] for code in codes)
    entries = sum(dataset.num_rows for dataset in data.values())
    leaks = cross_split_pairs(data)
    meanings = glossary()
    return {
        "entries per round": _round_table(data, emoji_by_round),
        "emoji package": installed_version("emoji"),
        "pair leakage": {
            "pairs": entries // 2,
            "pairs with members in different splits": distinct_pairs(leaks),
            **{
                f"{split} entries whose partner is in another split": len(found)
                for split, found in leaks.items()
            },
        },
        "entries per target": {meanings[code].describe(): n for code, n in targets.most_common()},
    }


def pair_safe_statistics(data: datasets.DatasetDict) -> dict[str, Any]:
    """:func:`statistics`, and how the re-split differs from upstream's: moves and label balance."""
    upstream_names = next(iter(data.values())).features["upstream_split"].names
    moved: dict[tuple[str, str], list[int]] = {}
    per_split: dict[str, Counter[str]] = {split: Counter() for split in upstream_names}
    for split, dataset in data.items():
        labels = dict(zip(dataset["entry_id"][:], dataset["label"][:], strict=True))
        for entry_id, label, upstream, partner in zip(
            dataset["entry_id"][:],
            dataset["label"][:],
            dataset["upstream_split"][:],
            dataset["matched_id"][:],
            strict=True,
        ):
            # Each pair once, from its lower id; a partner elsewhere is counted by nobody.
            if entry_id < partner and labels.get(partner) == label:
                per_split[split]["same-label pairs"] += 1
            came_from = upstream_names[upstream]
            for where, role in ((came_from, "upstream"), (split, "here")):
                per_split[where][f"{role} entries"] += 1
                per_split[where][f"{role} hateful"] += label
            if came_from != split:
                moved.setdefault((came_from, split), []).append(entry_id)
    order = {split: i for i, split in enumerate(upstream_names)}
    moves = sorted(moved.items(), key=lambda item: (order[item[0][0]], order[item[0][1]]))
    return {
        **statistics(data),
        "splits against upstream's": {
            split: _against_upstream(split, counts, moved) for split, counts in per_split.items()
        },
        "entries moved from upstream's split": {
            f"{source} -> {target}": len(ids) for (source, target), ids in moves
        },
        "moved entry ids": {
            f"{source} -> {target}": ", ".join(str(entry_id) for entry_id in sorted(ids))
            for (source, target), ids in moves
        },
    }


def _against_upstream(
    split: str, counts: Counter[str], moved: dict[tuple[str, str], list[int]]
) -> dict[str, Any]:
    def share(role: str) -> float:
        entries = counts[f"{role} entries"]
        return round(100 * counts[f"{role} hateful"] / entries, 2) if entries else 0.0

    return {
        "upstream entries": counts["upstream entries"],
        "moved out": sum(len(ids) for (source, _), ids in moved.items() if source == split),
        "moved in": sum(len(ids) for (_, target), ids in moved.items() if target == split),
        "entries": counts["here entries"],
        "upstream % hateful": share("upstream"),
        "% hateful": share("here"),
        "difference (points)": round(share("here") - share("upstream"), 2),
        "same-label pairs": counts["same-label pairs"],
    }


def _flat(lists: list[list[str]]) -> Iterator[str]:
    return (item for items in lists for item in items)


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
    per_entry = [len(found) for found in emoji]
    return {
        "entries": len(emoji),
        **{column: counts[column] for column in columns},
        "mean emoji count": round(stats.fmean(per_entry), 2),
        # The sample standard deviation (n - 1), as a paper's table usually reports.
        "sd emoji count": round(stats.stdev(per_entry), 2) if len(per_entry) > 1 else 0.0,
        "distinct emoji": len(set(_flat(emoji))),
    }
