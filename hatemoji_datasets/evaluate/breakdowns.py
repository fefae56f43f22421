"""A score report's tables, computed as each dataset config's scoring declares them.

The declarations (:class:`~hatemoji_datasets.core.spec.Breakdown`,
:class:`~hatemoji_datasets.core.spec.Fairness`,
:class:`~hatemoji_datasets.core.spec.PairConsistency`) say which built columns make
the rows and which metrics fill them; a dataset with a table these cannot
express names its own function, which gets the :class:`Context`. Nothing here
knows any dataset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from hatemoji_datasets.core.spec import (
    LABEL_COLUMN,
    Breakdown,
    DatasetSpec,
    Fairness,
    PairConsistency,
    Scoring,
)
from hatemoji_datasets.evaluate.metrics import GOLD, GROUP_METRICS, PREDICTED
from hatemoji_datasets.evaluate.report import Table


@dataclass
class Context:
    """What a breakdown reads: the scored rows (with gold ``_gold`` and predicted ``_pred``
    labels), their features, the id column and the metric libraries."""

    frame: pd.DataFrame
    features: Any
    id_column: str
    metrics: Any
    fair: Any

    def names(self, column: str) -> list[str]:
        """The ClassLabel names of ``column``."""
        return list(self.features[column].names)

    def label_name(self, value: int) -> str:
        return self.names(LABEL_COLUMN)[value]

    def gold_name(self, gold: pd.Series) -> str:
        """The gold label of a group: its name, or ``mixed``."""
        values = sorted(gold.unique())
        return self.label_name(int(values[0])) if len(values) == 1 else "mixed"

    def key(self, column: str, value: Any, show: str | None = None) -> Any:
        """A grouping value as a report shows it: its ClassLabel name, or ``show``'s format."""
        names = getattr(self.features[column], "names", None)
        number = int(value) if isinstance(value, np.integer | int) else value
        name = names[int(value)] if names is not None else number
        return show.format(value=number, name=name) if show else name

    def groups(self, by: Sequence[str]) -> Iterable[tuple[tuple[Any, ...], pd.DataFrame]]:
        """``(codes, rows)`` per group of ``by``, in ClassLabel (code) order; absent groups skip."""
        keys = list(by) if len(by) > 1 else by[0]
        for codes, group in self.frame.groupby(keys, sort=True):
            yield (codes if isinstance(codes, tuple) else (codes,)), group

    def info(self, name: str, group: pd.DataFrame) -> Any:
        """A fact of a group's data: ``n``, ``label``, ``n_hateful`` or ``n_non_hateful``."""
        if name == "n":
            return len(group)
        if name == "label":  # the group's gold label, by name
            return self.gold_name(group[GOLD])
        if name in ("n_hateful", "n_non_hateful"):
            return int((group[GOLD] == (1 if name == "n_hateful" else 0)).sum())
        raise KeyError(f"unknown breakdown info {name!r}")

    def metric(self, name: str, group: pd.DataFrame) -> float | None:
        return GROUP_METRICS[name](self.metrics, group)


def grouped_table(
    context: Context,
    breakdown: Breakdown,
    keys_of: Callable[[Context, tuple[Any, ...]], dict[str, Any]] | None = None,
) -> Table:
    """One row per group of the breakdown's columns, with its info and metrics; its key
    columns from ``keys_of(context, codes)`` when the dataset declares its own."""
    show = dict(breakdown.show)
    rows = []
    for codes, group in context.groups(breakdown.by):
        if keys_of is None:
            row: dict[str, Any] = {
                column: context.key(column, code, show.get(column))
                for column, code in zip(breakdown.by, codes, strict=True)
            }
        else:
            row = dict(keys_of(context, codes))
        row.update({name: context.info(name, group) for name in breakdown.info})
        row.update({name: context.metric(name, group) for name in breakdown.metrics})
        rows.append(row)
    return Table(
        breakdown.name,
        breakdown.title,
        breakdown.keys or breakdown.by,
        breakdown.info,
        breakdown.metrics,
        tuple(rows),
    )


def fairness_table(context: Context, fairness: Fairness) -> Table:
    """fairlearn's ratios across the groups of one column, some groups left out."""
    frame = context.frame
    names = context.names(fairness.column)
    excluded = [names.index(name) for name in fairness.exclude]
    kept = frame[~frame[fairness.column].isin(excluded)]
    sensitive = np.asarray(names, dtype=object)[kept[fairness.column]]
    row = {"scope": fairness.scope, fairness.count: len(set(sensitive)), "n": len(kept)}
    for metric in ("demographic_parity_ratio", "equalized_odds_ratio"):
        ratio = getattr(context.fair, metric)
        row[metric] = float(ratio(kept[GOLD], kept[PREDICTED], sensitive_features=sensitive))
    return Table(
        fairness.name,
        fairness.title,
        ("scope",),
        (fairness.count, "n"),
        ("demographic_parity_ratio", "equalized_odds_ratio"),
        (row,),
    )


def pair_table(context: Context, pairs: PairConsistency) -> tuple[Table, list[str]]:
    """How often both members of each pair in the split are predicted correctly."""
    frame, id_column = context.frame, context.id_column
    correct = pd.Series(
        (frame[GOLD] == frame[PREDICTED]).to_numpy(), index=frame[id_column].to_numpy()
    )
    column, name = pairs.original
    firsts = frame[frame[column] == context.names(column).index(name)]
    in_split = firsts[firsts[pairs.partner].isin(correct.index)]
    both = (
        correct.loc[in_split[id_column]].to_numpy()
        & correct.loc[in_split[pairs.partner]].to_numpy()
    )
    scopes = [("all", np.ones(len(in_split), dtype=bool))]
    if pairs.scopes_by:
        values = sorted(frame[pairs.scopes_by].unique())
        scopes += [
            (pairs.show.format(value=int(v)), (in_split[pairs.scopes_by] == v).to_numpy())
            for v in values
        ]
    rows = tuple(
        {
            "scope": scope,
            "pairs": int(mask.sum()),
            "both_correct": float(both[mask].mean()) if mask.any() else None,
        }
        for scope, mask in scopes
    )
    alone = int((~frame[pairs.partner].isin(correct.index)).sum())
    note = (
        f"Pairs count only when both members are in the scored split: {len(in_split):,} pairs; "
        f"{alone:,} entries have their partner in another split and are left out of pair "
        "consistency."
    )
    table = Table(pairs.name, pairs.title, ("scope",), ("pairs",), ("both_correct",), rows)
    return table, [note]


def tables(spec: DatasetSpec, scoring: Scoring, context: Context) -> tuple[list[Table], list[str]]:
    """Every table the declaration asks for, in its order, and the notes they add."""
    found: list[Table] = []
    notes: list[str] = []
    for declared in scoring.breakdowns:
        if isinstance(declared, Fairness):
            found.append(fairness_table(context, declared))
        elif isinstance(declared, PairConsistency):
            table, more = pair_table(context, declared)
            found.append(table)
            notes += more
        else:
            keys_of = spec.load(declared.function) if declared.function else None
            found.append(grouped_table(context, declared, keys_of))
    return found, [*notes, *scoring.notes]
