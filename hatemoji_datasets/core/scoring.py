"""The scoring declarations: which tables a config's score report holds.

A config's ``scoring`` (:class:`Scoring`) lists its tables: :class:`Breakdown`
(the scored rows grouped by built columns, optionally only the :class:`Rows` a
paper counts), :class:`Fairness`, :class:`PairConsistency` and :class:`Matrix`.
:mod:`hatemoji_datasets.evaluate` computes them; a dataset's own key function is
given a :class:`ScoringContext`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from hatemoji_datasets.core.columns import LABEL_COLUMN
from hatemoji_datasets.core.ref import Ref


class ScoringContext(Protocol):
    """What a dataset's own table-key function (``Breakdown.keys``) is given: the scored
    data's ClassLabel names (:class:`hatemoji_datasets.evaluate.breakdowns.Context`)."""

    def names(self, column: str) -> list[str]:
        """The ClassLabel names of ``column``."""
        ...


@dataclass(frozen=True)
class Rows:
    """The rows a table covers, when a paper counts only some: those whose value in any
    of ``columns`` (built columns) contains the text ``contains`` (a template
    placeholder, ``"[IDENTITY"``) or is one of ``values`` (ClassLabel names, or plain
    values of a column without names). Give exactly one of ``contains`` and ``values``.

    ``description`` says in words which rows these are; the report's notes repeat it
    with the count. A filter that selects none of a split's rows is a declaration error
    (the shared declaration test fails); on a slice of the split that holds none of
    them, the report leaves the table out and says so.
    """

    description: str
    columns: tuple[str, ...]
    contains: str | None = None
    values: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.columns:
            raise ValueError(f"Rows({self.description!r}) names no column")
        if (self.contains is None) == (not self.values):
            raise ValueError(
                f"Rows({self.description!r}) needs exactly one of contains= and values="
            )


@dataclass(frozen=True)
class Breakdown:
    """One table of a score report: the scored rows grouped by built columns.

    Rows follow the ClassLabel order of the ``by`` columns (groups absent from
    the split are left out); a key shows its ClassLabel name, or ``show``'s
    format of it (``("round", "R{value}")``; ``{name}`` and ``{value}``).
    ``info`` columns are facts of the data (``n``, ``label`` = the group's gold
    label or ``mixed``, ``n_hateful``, ``n_non_hateful``); ``metrics`` are the
    model's (``accuracy``, ``f1_hateful``, ``f1_macro``, ``recall`` of the group's
    gold class, ``false_positive_rate``, ``false_negative_rate``). A dataset whose
    rows need other key columns than ``by`` (a paper's numbering, a group of tests)
    declares them as ``keys`` and references its own ``function`` (``Ref("scoring",
    "cell_keys")``) that returns them for one group: ``function(context, codes) -> {key: value}``.
    ``rows`` limits the table to the rows a paper counts (:class:`Rows`); ``by`` may be
    any built column, a plain string column too (its values are the row keys).
    """

    name: str
    title: str
    by: tuple[str, ...] = ()
    info: tuple[str, ...] = ("n",)
    metrics: tuple[str, ...] = ("accuracy",)
    show: tuple[tuple[str, str], ...] = ()
    keys: tuple[str, ...] = ()
    function: Ref[Callable[[ScoringContext, Sequence[Any]], Mapping[str, Any]]] | None = None
    #: The rows the table covers (a paper's subset, e.g. template cases); None: every
    #: scored row.
    rows: Rows | None = None


#: Accuracy per gold label (the recall of each class), which every dataset reports.
PER_GOLD_LABEL = Breakdown("gold_labels", "Accuracy per gold label", by=(LABEL_COLUMN,))


@dataclass(frozen=True)
class Fairness:
    """fairlearn's demographic parity and equalized odds ratios across a column's groups."""

    name: str
    title: str
    column: str
    #: Groups left out (e.g. ``none``, rows without a protected target).
    exclude: tuple[str, ...] = ()
    #: The row's label, and the name of the column counting the groups compared.
    scope: str = "all groups"
    count: str = "groups"


@dataclass(frozen=True)
class PairConsistency:
    """How often both members of a pair (an original and its perturbation) are right."""

    name: str
    title: str
    #: The built column holding the partner's id.
    partner: str
    #: ``(column, name)`` marking the pair's first member, so each pair counts once.
    original: tuple[str, str]
    #: A built column whose values give one more row each (``round``), or None.
    scopes_by: str | None = None
    #: How a scope value is shown (``"R{value}"``).
    show: str = "{value}"


@dataclass(frozen=True)
class Matrix:
    """A table's metric pivoted: one row per ``rows`` value, one column per ``columns`` value."""

    table: str
    rows: str
    columns: str
    metric: str
    #: How a row is labelled: ``{name}`` (the row's value) and ``{position}`` (1-based).
    row_label: str = "{name}"


@dataclass(frozen=True)
class Scoring:
    """What ``score`` reports for a config: its tables, the heatmap and a matrix."""

    breakdowns: tuple[Breakdown | Fairness | PairConsistency, ...]
    #: ``(table, metric)`` the heatmap draws, one column per model.
    plot: tuple[str, str]
    matrix: Matrix | None = None
    notes: tuple[str, ...] = ()
    #: What ``--plot`` draws: ``"rows"``, one row per row of the ``plot`` table and one
    #: column per model; or ``"matrix"``, the declared ``matrix``, one panel per model.
    heatmap: Literal["rows", "matrix"] = "rows"


#: The metrics of a leaderboard cell, in their order.
LEADERBOARD_METRICS = ("accuracy", "f1_hateful", "f1_macro")


@dataclass(frozen=True)
class LeaderboardLayout:
    """A paper's table of many models over several dataset configs (its main table):
    which configs are its columns, in order and under which heading, and which of
    :data:`LEADERBOARD_METRICS` each shows. A layout's columns without runs are left
    out; runs of configs it does not name get columns after its own."""

    name: str
    title: str
    #: ``(NAME/CONFIG, heading)`` per column, in the paper's order.
    columns: tuple[tuple[str, str], ...]
    metrics: tuple[str, ...] = LEADERBOARD_METRICS

    def __post_init__(self) -> None:
        unknown = [m for m in self.metrics if m not in LEADERBOARD_METRICS]
        if unknown or not self.metrics:
            raise ValueError(
                f"LeaderboardLayout({self.name!r}): metrics must be some of "
                f"{', '.join(LEADERBOARD_METRICS)}, not {', '.join(unknown) or 'none'}"
            )
