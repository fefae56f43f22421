"""The loader hand-written lm-eval tasks name: every bad argument is the package's error.

A task's ``version: 1.0`` is a YAML float, and the loader raised ``TypeError: 'float'
object is not iterable``; it now gets the error any unknown version gets, with the spelling
that works. No argument reaches ``load_dataset`` unless it is text.
"""

from __future__ import annotations

import re

import pytest

from hatemoji_datasets.core.errors import UnknownNameError
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.harness.custom_dataset import load


@pytest.mark.parametrize("name", list(specs()))
@pytest.mark.parametrize("version", [1.0, 2, 1.5])
def test_a_yaml_number_is_an_unknown_version(name: str, version: float) -> None:
    spec = dataset_spec(name)
    newest = spec.versions[0]
    with pytest.raises(UnknownNameError) as raised:
        load(dataset=name, config=spec.default_config_name, version=version)
    assert str(raised.value) == (
        f"unknown version '{version}' of {name}; released: {', '.join(spec.versions)} "
        f'(a YAML number: write the version as text, e.g. version: "{newest}")'
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"dataset": 3}, "the task's dataset must be a name, not int 3"),
        ({"config": ["a"]}, "the task's config must be a name, not list ['a']"),
        ({"version": None}, "the task's version must be text, not NoneType None"),
        ({"version": True}, "the task's version must be text, not bool True"),
    ],
)
def test_other_arguments_that_are_not_text(arguments: dict, message: str) -> None:
    name = next(iter(specs()))
    spec = dataset_spec(name)
    given = {"dataset": name, "config": spec.default_config_name, "version": spec.version}
    with pytest.raises(UnknownNameError, match=f"^{re.escape(message)}$"):
        load(**{**given, **arguments})
