"""The compiled plan: a raw-file model's checks as data, run without importing pandera.

The pandera models stay what people write and read. A plan is compiled from one
(:mod:`hatemoji_datasets.schema.plan_cache`, which caches it): per model, its
columns with their type, whether they are required, nullable or unique, their
built-in checks (allowed values, bounds, lengths, patterns), and the codes of
its own rules. Those
rules are the dataset's ``rules`` module's ``RULES``, each written once over
pyarrow arrays (:mod:`hatemoji_datasets.schema.rules`), which the pandera
model wraps too; it imports no pandera. A rule between rows runs once a file's
every batch was fed, over the columns it reads (:class:`AcrossRows`).

A model is *screened* when every check and rule it has is in its plan. The
streaming validator (:mod:`hatemoji_datasets.validate.screen`) runs such a plan
over record batches to prove a file clean; a file it cannot prove clean goes
to the exact engine (:mod:`hatemoji_datasets.schema.engine`), which names every
finding. So the plan may be stricter than the model, never laxer: a test
proves it on the golden findings and on generated cases.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.spec import DatasetSpec
from hatemoji_datasets.schema.rules import Rule, rows_of, text, text_digests

#: The dataset module that declares its rules (``RULES``, each written once).
RULES_MODULE = "rules"
#: Column types a plan can check (what the raw reader produces).
TYPES = ("int64", "str")
#: Built-in checks a plan can run: name -> the arguments it keeps.
CHECKS = ("isin", "ge", "le", "gt", "lt", "eq", "str_length", "str_matches")


@dataclass(frozen=True)
class ScreenContext:
    """What a rule may know beyond a batch's rows: the pinned source the file stands for
    (None when its name does not tell), the released rows of its format (a pyarrow
    table, typed as the raw reader types them), and the split the file's rows are in
    where the file says (a build's split; a contribution's, by the config's
    ``split_of_file``; None where each row's own column says)."""

    source: str | None
    released: Any
    split: str | None = None


class AcrossBatches(Protocol):
    """A state fed every batch of a file in order, deciding at the end."""

    def add(self, batch: Any) -> bool:
        """False as soon as a row is known to break what it checks."""

    def finish(self) -> bool:
        """Whether every row kept what it checks."""


class AcrossRows:
    """The rules between rows of one file: the columns they read, kept batch after batch
    (a text they only compare as its digest; a column that one batch holds as text is
    text in every batch, as in the exact engine's frame), and each rule run over all of
    them once every batch was fed, with the released rows beside them."""

    def __init__(self, rules: Sequence[Rule], context: ScreenContext) -> None:
        self.rules, self.context = rules, context
        self.parts: dict[str, list[Any]] = {name: [] for rule in rules for name in rule.inputs}
        read = {name for rule in rules for name in rule.inputs if name not in rule.compared}
        self.digested = {name for rule in rules for name in rule.compared} - read

    def add(self, batch: Any) -> bool:
        for name, parts in self.parts.items():
            parts.append(text_digests(batch[name]) if name in self.digested else batch[name])
        return True

    def finish(self) -> bool:
        columns = {}
        for name, parts in self.parts.items():
            if len({part.type for part in parts}) > 1:
                parts = [text(part) for part in parts]
            columns[name] = pyarrow.chunked_array(parts, parts[0].type).combine_chunks()
        if not columns:
            return True
        released = self.context.released
        if released is not None and self.digested:
            released = pyarrow.table(
                {
                    name: text_digests(released[name].combine_chunks())
                    if name in self.digested
                    else released[name]
                    for name in released.column_names
                }
            )
        context = self.context
        rows = rows_of(pyarrow.table(columns), context.source, context.split, released)
        return all(all_true(rule.check(rows)) for rule in self.rules)


@dataclass(frozen=True)
class ColumnPlan:
    name: str
    dtype: str
    required: bool
    nullable: bool
    unique: bool
    #: ``{"check": name, ...arguments}``, in the model's order.
    checks: tuple[Mapping[str, Any], ...]
    #: Codes of the column's own rules.
    rules: tuple[str, ...]
    #: Which rows of a repeated value a unique column's finding names (pandera's
    #: ``report_duplicates``: ``all``, ``exclude_first`` or ``exclude_last``).
    report_duplicates: str = "all"


@dataclass(frozen=True)
class ModelPlan:
    name: str
    columns: tuple[ColumnPlan, ...]
    #: Codes of the model's whole-row rules, in declared order.
    rules: tuple[str, ...]
    #: Why the plan cannot stand for the model (None: it can).
    unscreened: str | None

    def column(self, name: str) -> ColumnPlan | None:
        return next((c for c in self.columns if c.name == name), None)

    @property
    def codes(self) -> tuple[str, ...]:
        return (*self.rules, *(code for c in self.columns for code in c.rules))


def dataset_rules(spec: DatasetSpec) -> tuple[Rule, ...]:
    """The dataset's rules (its ``rules`` module's ``RULES``; none without one)."""
    module = f"{spec.package}.{RULES_MODULE}"
    if importlib.util.find_spec(module) is None:
        return ()
    return tuple(getattr(importlib.import_module(module), "RULES", ()))


def implemented_codes(spec: DatasetSpec) -> set[str]:
    return {rule.code for rule in dataset_rules(spec)}


def all_true(result: Any) -> bool:
    """Whether every answer is True (a missing answer counts as False)."""
    if isinstance(result, (pyarrow.Array, pyarrow.ChunkedArray)):
        # Nulls count as False: where there is one, not all are True.
        return len(result) == 0 or (result.null_count == 0 and bool(pc.all(result).as_py()))
    return bool(np.all(result))


def render_plans(plans: Mapping[str, ModelPlan], source: str) -> str:
    """A dataset's plans as JSON text (what :func:`parse_plans` reads)."""
    data = {
        "$comment": f"Compiled from {source}; a cache, rebuilt when missing or damaged.",
        "models": {
            name: {
                "columns": [
                    {
                        "name": c.name,
                        "dtype": c.dtype,
                        "required": c.required,
                        "nullable": c.nullable,
                        "unique": c.unique,
                        "checks": [dict(check) for check in c.checks],
                        "rules": list(c.rules),
                        "report_duplicates": c.report_duplicates,
                    }
                    for c in plan.columns
                ],
                "rules": list(plan.rules),
                "unscreened": plan.unscreened,
            }
            for name, plan in plans.items()
        },
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def parse_plans(data: dict[str, Any]) -> dict[str, ModelPlan]:
    """The plans :func:`render_plans` wrote (``KeyError`` or ``TypeError`` where damaged)."""
    return {
        name: ModelPlan(
            name,
            tuple(
                ColumnPlan(
                    c["name"],
                    c["dtype"],
                    c["required"],
                    c["nullable"],
                    c["unique"],
                    tuple(c["checks"]),
                    tuple(c["rules"]),
                    c["report_duplicates"],
                )
                for c in model["columns"]
            ),
            tuple(model["rules"]),
            model["unscreened"],
        )
        for name, model in data["models"].items()
    }
