"""The compiled plan: a raw-file model's checks as data, run without importing pandera.

The pandera models stay what people write and read. Each dataset package
carries ``plan.json``, generated from them by ``hatemoji-datasets regenerate``
(a test fails on drift): per model, its columns with their type, whether
they are required, nullable or unique, their built-in checks (allowed
values, bounds, lengths, patterns), and the codes of its own rules. Those
rules run from the dataset's ``rules`` module, which holds one pyarrow
implementation per code and imports no pandera: ``SCREEN`` for rules of one
row (a function of a batch), ``ACROSS`` for rules between rows (a class whose
instances keep compact state over the batches, :class:`AcrossBatches`).

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.spec import DatasetSpec

PLAN_FILE = "plan.json"
#: The dataset module that implements its rules for the plan (``SCREEN``: code -> function).
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


#: ``rule(batch, context) -> BooleanArray``: True where a row keeps the rule (null: broken).
ScreenRule = Callable[[Any, ScreenContext], Any]


class AcrossBatches(Protocol):
    """A rule that compares rows with each other: fed every batch in order, it keeps what
    it needs to compare (compact state, not the rows), and decides at the end."""

    def add(self, batch: Any) -> bool:
        """False as soon as a row is known to break the rule."""

    def finish(self) -> bool:
        """Whether every row kept the rule."""


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


def plan_path(spec: DatasetSpec) -> Path:
    return spec.package_dir / PLAN_FILE


def model_plan(spec: DatasetSpec, reference: Ref[Any]) -> ModelPlan:
    """The plan of the schema ``reference`` (``Ref("schema", "Model")``) of ``spec``."""
    plans = _read(plan_path(spec))
    name = str(reference.name)
    if name not in plans:
        raise HatemojiDatasetsError(
            f"{plan_path(spec)} has no plan of {name}; run `hatemoji-datasets regenerate`"
        )
    return plans[name]


def screen_rules(spec: DatasetSpec) -> Mapping[str, ScreenRule]:
    """The dataset's one-row rule implementations (empty without a ``rules`` module)."""
    return _rules_module(spec, "SCREEN")


def across_rules(spec: DatasetSpec) -> Mapping[str, Callable[[ScreenContext], AcrossBatches]]:
    """The dataset's between-rows rule implementations: code -> ``make(context)``, a new
    state for one file."""
    return _rules_module(spec, "ACROSS")


def implemented_codes(spec: DatasetSpec) -> set[str]:
    return {*screen_rules(spec), *across_rules(spec)}


def _rules_module(spec: DatasetSpec, name: str) -> Mapping[str, Any]:
    module = f"{spec.package}.{RULES_MODULE}"
    if importlib.util.find_spec(module) is None:
        return {}
    return getattr(importlib.import_module(module), name, {})


def render_plans(plans: Mapping[str, ModelPlan], source: str) -> str:
    """The text of a ``plan.json``."""
    data = {
        "$comment": f"Generated by `hatemoji-datasets regenerate` from {source}; do not edit.",
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


@cache
def _read(path: Path) -> dict[str, ModelPlan]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise HatemojiDatasetsError(
            f"{path} cannot be read ({error}); run `hatemoji-datasets regenerate`"
        ) from None
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
