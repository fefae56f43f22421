"""A score report's tables, computed as each dataset config's scoring declares them.

The declarations (:class:`~hatemoji_datasets.core.scoring.Breakdown`,
:class:`~hatemoji_datasets.core.scoring.Fairness`,
:class:`~hatemoji_datasets.core.scoring.PairConsistency`) say which built columns make
the rows and which metrics fill them; a dataset with a table these cannot
express names its own function, which gets the :class:`Context`. Nothing here
knows any dataset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from hatemoji_datasets.core.columns import LABEL_COLUMN
from hatemoji_datasets.core.features import element_of
from hatemoji_datasets.core.scoring import Breakdown, Fairness, PairConsistency, Rows, Scoring
from hatemoji_datasets.core.spec import DatasetSpec
from hatemoji_datasets.evaluate.metrics import (
    GOLD,
    GROUP_METRICS,
    PREDICTED,
    SPLIT_METRICS,
    UNPARSED,
)
from hatemoji_datasets.evaluate.report import Table

#: The facts of a group's data a table may show (:meth:`Context.info`).
INFO = ("n", "label", "n_hateful", "n_non_hateful")


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
        names = getattr(_grouped_feature(self.features[column]), "names", None)
        number = int(value) if isinstance(value, np.integer | int) else value
        name = names[int(value)] if names is not None else number
        return show.format(value=number, name=name) if show else name

    def groups(self, by: Sequence[str]) -> Iterable[tuple[tuple[Any, ...], pd.DataFrame]]:
        """``(codes, rows)`` per group of ``by``, in ClassLabel (code) order; absent groups skip."""
        keys = list(by) if len(by) > 1 else by[0]
        frame = self.frame
        for column in by:
            if element_of(self.features[column]) is not None:
                # A list column: a row is in the group of each value it lists (none if empty).
                frame = frame.explode(column).dropna(subset=[column])
                frame[column] = frame[column].infer_objects()
        for codes, group in frame.groupby(keys, sort=True):
            yield (codes if isinstance(codes, tuple) else (codes,)), group

    def info(self, name: str, group: pd.DataFrame) -> Any:  # one of INFO
        """A fact of a group's data: ``n``, ``label``, ``n_hateful`` or ``n_non_hateful``."""
        if name == "n":
            return len(group)
        if name == "label":  # the group's gold label, by name
            return self.gold_name(group[GOLD])
        if name in ("n_hateful", "n_non_hateful"):
            return int((group[GOLD] == (1 if name == "n_hateful" else 0)).sum())
        raise KeyError(f"unknown breakdown info {name!r}")

    def metric(self, name: str, group: pd.DataFrame) -> float | None:
        if name in SPLIT_METRICS:
            return SPLIT_METRICS[name](self.metrics, group, self.frame)
        return GROUP_METRICS[name](self.metrics, group)

    def covering(self, rows: Rows) -> Context:
        """The context of the rows ``rows`` declares (see :func:`covered`)."""
        return replace(self, frame=self.frame[covered(self.frame, self.features, rows)])


def covered(frame: pd.DataFrame, features: Any, rows: Rows) -> np.ndarray:
    """Which rows of ``frame`` the declaration selects: a value in any of its columns
    contains its text, or is one of its values (ClassLabel names mapped to ids)."""
    mask = np.zeros(len(frame), dtype=bool)
    for column in rows.columns:
        values = frame[column]
        if rows.contains is not None:
            text = values.astype(object).where(values.notna(), "").astype(str)
            mask |= text.str.contains(rows.contains, regex=False).to_numpy()
        else:
            names = getattr(features[column], "names", None)
            wanted = [names.index(v) for v in rows.values] if names else list(rows.values)
            mask |= values.isin(wanted).to_numpy()
    return mask


def declaration_problems(scoring: Scoring, frame: pd.DataFrame, features: Any) -> list[str]:
    """What is wrong with a scoring declaration on a whole split: a table grouped by or
    filtered on a column the data does not have, a declared value that is no class of
    its column, a row filter that selects no rows. The shared declaration test runs this
    over every dataset config, so an empty table is caught there, not in a report."""
    problems = []
    for declared in scoring.breakdowns:
        if not isinstance(declared, Breakdown):
            continue
        where = f"table {declared.name!r}"
        rows = declared.rows
        wanted = [*declared.by, *(rows.columns if rows else ())]
        missing = [column for column in wanted if column not in features]
        if missing:
            problems.append(f"{where}: no built column {', '.join(map(repr, missing))}")
            continue
        unknown = [m for m in declared.metrics if m not in GROUP_METRICS | SPLIT_METRICS]
        unknown += [i for i in declared.info if i not in INFO]
        if unknown:
            problems.append(f"{where}: no metric or info {', '.join(map(repr, unknown))}")
            continue
        ungroupable = [c for c in declared.by if not _groupable(_grouped_feature(features[c]))]
        if ungroupable:
            problems.append(
                f"{where}: cannot group by {', '.join(map(repr, ungroupable))}: a table groups "
                "by a ClassLabel or value column, or a list of them"
            )
            continue
        if rows is None:
            continue
        for column in rows.columns:
            names = getattr(features[column], "names", None)
            unknown = [value for value in rows.values if names is not None and value not in names]
            if unknown:
                problems.append(f"{where}: {column!r} has no class {', '.join(map(repr, unknown))}")
        if problems and problems[-1].startswith(where):
            continue
        if not covered(frame, features, rows).any():
            what = f"contains {rows.contains!r}" if rows.contains else f"is one of {rows.values}"
            problems.append(
                f"{where}: its rows ({rows.description}) select none of the {len(frame):,} rows: "
                f"no value of {', '.join(rows.columns)} {what}"
            )
    return problems


def _grouped_feature(feature: Any) -> Any:
    """The feature whose values make a table's groups: a list column's element's."""
    return element_of(feature) or feature


def _groupable(feature: Any) -> bool:
    import datasets

    return isinstance(feature, datasets.ClassLabel | datasets.Value)


def coverage_note(breakdown: Breakdown, selected: int, total: int) -> str:
    """What a table with declared rows covers, with the counts."""
    assert breakdown.rows is not None
    if not selected:
        return (
            f"{breakdown.title}: left out, as none of the {total:,} scored rows are "
            f"{breakdown.rows.description}."
        )
    return (
        f"{breakdown.title}: {selected:,} of the {total:,} scored rows, "
        f"{breakdown.rows.description}."
    )


def grouped_table(
    context: Context,
    breakdown: Breakdown,
    keys_of: Callable[[Context, tuple[Any, ...]], dict[str, Any]] | None = None,
) -> Table:
    """One row per group of the breakdown's columns, with its info and metrics; its key
    columns from ``keys_of(context, codes)`` when the dataset declares its own."""
    show = dict(breakdown.show)
    rows, members = [], []
    for codes, group in context.groups(breakdown.by):
        members.append(group.index.to_numpy())  # positions in the split (a RangeIndex)
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
        tuple(members),
    )


def fairness_table(context: Context, fairness: Fairness) -> Table:
    """fairlearn's ratios across the groups of one column, some groups left out."""
    frame = context.frame
    names = context.names(fairness.column)
    excluded = [names.index(name) for name in fairness.exclude]
    kept = frame[~frame[fairness.column].isin(excluded)]
    sensitive = np.asarray(names, dtype=object)[kept[fairness.column]]
    row = {"scope": fairness.scope, fairness.count: len(set(sensitive)), "n": len(kept)}
    # Both ratios are of predicting hateful: a reply naming neither label does not.
    flagged = (kept[PREDICTED] == 1).astype(int)
    for metric in ("demographic_parity_ratio", "equalized_odds_ratio"):
        ratio = getattr(context.fair, metric)
        row[metric] = float(ratio(kept[GOLD], flagged, sensitive_features=sensitive))
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


def counting_unparsed(scoring: Scoring) -> Scoring:
    """The declaration with each breakdown counting the replies that named neither label
    (``unparsed``, a metric: one column per model)."""
    breakdowns = tuple(
        replace(declared, metrics=(*declared.metrics, UNPARSED))
        if isinstance(declared, Breakdown)
        else declared
        for declared in scoring.breakdowns
    )
    return replace(scoring, breakdowns=breakdowns)


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
            scope = context
            if declared.rows is not None:
                scope = context.covering(declared.rows)
                notes.append(coverage_note(declared, len(scope.frame), len(context.frame)))
                if scope.frame.empty:  # a slice of the split without these rows
                    continue
            found.append(grouped_table(scope, declared, keys_of))
    return found, [*notes, *scoring.notes]
