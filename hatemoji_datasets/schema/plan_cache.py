"""Each raw-file model's plan (:mod:`hatemoji_datasets.schema.plan`), compiled from its
pandera model at run time and cached, so that no plan file is committed.

The first run of a dataset's plans imports pandera and compiles every model of the
dataset; the plans are then kept in ``$XDG_CACHE_HOME/hatemoji-datasets/plans/`` (else
``~/.cache/...``) under a digest of everything they derive from: the package version,
pandera's, the dataset folder's Python files and this sub-package's. A later run reads
them without importing pandera; a changed source gives another digest, so a stale plan
is never read, and a damaged cache file is compiled again. A cache that cannot be
written only costs the compile on each run.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.spec import DatasetSpec
from hatemoji_datasets.schema.plan import (
    CHECKS,
    TYPES,
    ColumnPlan,
    ModelPlan,
    implemented_codes,
    parse_plans,
    render_plans,
)
from hatemoji_datasets.version import __version__

#: The modules of this sub-package a plan's content depends on.
_COMPILER = ("plan.py", "plan_cache.py", "model.py", "engine.py", "rules.py", "direct.py")


def cache_folder() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join("~", ".cache")
    return Path(root).expanduser() / "hatemoji-datasets" / "plans"


def _digest(spec: DatasetSpec) -> str:
    digest = hashlib.sha256(f"{__version__}\0{metadata.version('pandera')}\0".encode())
    here = Path(__file__).resolve().parent
    sources = sorted(spec.package_dir.glob("*.py")) + [here / name for name in _COMPILER]
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def model_plan(spec: DatasetSpec, reference: Ref[Any]) -> ModelPlan:
    """The plan of the schema ``reference`` (``Ref("schema", "Model")``) of ``spec``."""
    return dataset_plans(spec)[str(reference.name)]


@cache
def dataset_plans(spec: DatasetSpec) -> dict[str, ModelPlan]:
    """Every model's plan of the dataset, by model name: from the cache, else compiled."""
    path = cache_folder() / f"{spec.name}-{_digest(spec)}.json"
    wanted = {str(ref.name) for config in spec.configs for ref in config.schemas}
    try:
        cached = parse_plans(json.loads(path.read_text(encoding="utf-8")))
        if set(cached) == wanted:
            return cached
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # not cached yet, or a damaged file: compile the plans again
    plans = compile_plans(spec)
    partial: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole, then renamed: a concurrent or killed run never leaves half a file.
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent, suffix=".partial", delete=False
        ) as handle:
            partial = Path(handle.name)
            handle.write(render_plans(plans, f"{spec.package}.schema"))
        os.replace(partial, path)
        partial = None
    except OSError:
        pass  # a read-only cache: the plans are compiled again next run
    finally:
        if partial is not None:
            partial.unlink(missing_ok=True)
    return plans


def compile_plans(spec: DatasetSpec) -> dict[str, ModelPlan]:
    """Every model's plan of the dataset, compiled from its pandera models."""
    implemented = implemented_codes(spec)
    plans: dict[str, ModelPlan] = {}
    for reference in dict.fromkeys(ref for config in spec.configs for ref in config.schemas):
        model = spec.load(reference)
        plans[model.__name__] = compile_plan(model, implemented)
    return plans


#: pandera check name -> (plan check, the statistics it keeps as which arguments).
_PLAN_CHECKS: dict[str, tuple[str, dict[str, str]]] = {
    "isin": ("isin", {"allowed_values": "values"}),
    "equal_to": ("eq", {"value": "value"}),
    "greater_than_or_equal_to": ("ge", {"min_value": "value"}),
    "less_than_or_equal_to": ("le", {"max_value": "value"}),
    "greater_than": ("gt", {"min_value": "value"}),
    "less_than": ("lt", {"max_value": "value"}),
    "str_length": ("str_length", {"min_value": "min", "max_value": "max"}),
    "str_matches": ("str_matches", {"pattern": "pattern"}),
}


def compile_plan(model: Any, implemented: set[str]) -> ModelPlan:
    """A model's plan; ``implemented``: the codes the dataset's ``rules`` module runs."""
    from hatemoji_datasets.schema.engine import compiled
    from hatemoji_datasets.schema.model import rules_of

    schema = compiled(model)
    codes = {message: info.code for message, info in rules_of(model).items()}
    missing: list[str] = []
    columns = []
    for name, column in schema.columns.items():
        dtype = "int64" if "int" in dtype_name(column.dtype) else dtype_name(column.dtype)
        if dtype not in TYPES:
            missing.append(f"type {dtype} of {name}")
        checks, rules = [], []
        for check in column.checks:
            if check.error in codes:
                rules.append(codes[check.error])
            elif check.name in _PLAN_CHECKS:
                kind, kept = _PLAN_CHECKS[check.name]
                arguments = {new: check.statistics.get(old) for old, new in kept.items()}
                checks.append({"check": kind, **{k: _plain(v) for k, v in arguments.items()}})
            else:
                missing.append(f"check {check.name} of {name}")
        columns.append(
            ColumnPlan(
                name, dtype, column.required, column.nullable, column.unique, tuple(checks),
                tuple(rules), column.report_duplicates,
            )
        )  # fmt: skip
    rules = []
    for check in schema.checks:
        if check.error in codes:
            rules.append(codes[check.error])
        else:
            missing.append(f"check {check.name}")
    assert all(c["check"] in CHECKS for column in columns for c in column.checks)
    plan = ModelPlan(model.__name__, tuple(columns), tuple(rules), None)
    missing += [f"rule {code}" for code in plan.codes if code not in implemented]
    return ModelPlan(plan.name, plan.columns, plan.rules, "; ".join(missing) or None)


def _plain(value: Any) -> Any:
    """A check argument as JSON: lists of plain values, patterns as text."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    if hasattr(value, "pattern"):
        return value.pattern
    if hasattr(value, "item"):  # a numpy scalar
        return value.item()
    return value


def dtype_name(dtype: object) -> str:
    """A stable dtype name: pandas' string storage varies between versions."""
    text = str(dtype)
    return "str" if text.startswith("string") or text in ("str", "object") else text
