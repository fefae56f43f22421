"""Every dataset rule is written once: each finding code has one definition site.

A dataset's rules are written in its ``rules.py``, each a
:class:`~hatemoji_datasets.schema.rules.Rule` whose ``check`` is one function over
pyarrow arrays; its pandera models wrap them (``schema.model.rule``) and the
streaming validator runs them. This module lists each code's definition site (the
module and function of its check) and fails on a second one: a code whose rules
check through two functions, a model check that is no wrapped rule of the
dataset's, or the code's literal written anywhere else in the package.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.schema.engine import compiled
from hatemoji_datasets.schema.model import rules_of
from hatemoji_datasets.schema.plan import dataset_rules

PACKAGE = Path(importlib.import_module("hatemoji_datasets").__file__).parent


def _site(rule) -> str:
    return f"{rule.check.__module__}:{rule.check.__qualname__}"


def definition_sites() -> dict[str, set[str]]:
    """Each dataset rule code -> where its check is defined (``module:function``)."""
    sites: dict[str, set[str]] = {}
    for spec in specs().values():
        for rule in dataset_rules(spec):
            sites.setdefault(rule.code, set()).add(_site(rule))
    return sites


SITES = definition_sites()
MODELS = [
    (spec, reference)
    for spec in specs().values()
    for reference in dict.fromkeys(ref for config in spec.configs for ref in config.schemas)
]


def test_every_code_a_model_reports_is_a_declared_rule() -> None:
    reported = {
        rule.code for spec, reference in MODELS for rule in rules_of(spec.load(reference)).values()
    }
    assert reported and reported == set(SITES)


@pytest.mark.parametrize("code", sorted(SITES))
def test_a_code_has_one_definition_site(code: str) -> None:
    assert len(SITES[code]) == 1, f"{code} is checked by {sorted(SITES[code])}"
    (site,) = SITES[code]
    module = site.partition(":")[0]
    assert module.endswith(".rules"), f"{code} is defined in {module}, not a rules module"


@pytest.mark.parametrize("code", sorted(SITES))
def test_a_code_is_written_in_one_place(code: str) -> None:
    """The code's literal is in its rules module, once; nowhere else in the package (but
    for ``testing.py``, which states what the tests expect of the dataset)."""
    literal = re.compile(rf"[\"']{re.escape(code)}[\"']")
    found = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in PACKAGE.rglob("*.py")
        if path.name != "testing.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if literal.search(line)
    ]
    assert len(found) == 1, f"{code} is written at {found}"
    assert found[0].split(":")[0].endswith("rules.py")


@pytest.mark.parametrize(
    "spec, reference", MODELS, ids=[f"{spec.name}:{ref}" for spec, ref in MODELS]
)
def test_a_models_own_checks_are_its_datasets_rules(spec, reference: str) -> None:
    """Every check a model adds to pandera's built-ins wraps one of the dataset's rules
    (the very object), so the model restates none of them."""
    model = spec.load(reference)
    declared = {id(rule) for rule in dataset_rules(spec)}
    wrapped = rules_of(model)
    assert all(id(rule) in declared for rule in wrapped.values())
    schema = compiled(model)
    custom = [
        check
        for check in [*schema.checks, *(c for col in schema.columns.values() for c in col.checks)]
        if check.name not in _BUILTIN_CHECKS
    ]
    assert [check.name for check in custom if check.error not in wrapped] == []
    assert len(custom) == len(wrapped)


#: pandera's built-in checks the models use (the field constraints).
_BUILTIN_CHECKS = {
    "isin",
    "equal_to",
    "greater_than_or_equal_to",
    "less_than_or_equal_to",
    "in_range",
    "str_matches",
    "str_length",
}


def test_a_wrapped_rule_reads_the_frames_columns_and_each_rows_file() -> None:
    """The pandera check hands the rule the frame's columns (int64 where typed, else text)
    and the source and split the reader recorded for each row, each in its place."""
    import pandas as pd

    from hatemoji_datasets.schema.model import rows_of, with_row_sources, with_source_splits

    frame = pd.DataFrame(
        {
            "id": pd.Series([1, 2, 3], dtype="int64"),
            "text": pd.Series(["a", "b", "12"], dtype="str"),
        }
    )
    with_source_splits(frame, [("train", 2), (None, 1)])
    with_row_sources(frame, [("dutch", 1), ("german", 2)])
    rows = rows_of(frame)
    assert rows["id"].type == "int64" and rows["id"].to_pylist() == [1, 2, 3]
    assert rows["text"].type == "string" and rows["text"].to_pylist() == ["a", "b", "12"]
    assert rows.sources.to_pylist() == ["dutch", "german", "german"]
    assert rows.splits.to_pylist() == ["train", "train", None]
