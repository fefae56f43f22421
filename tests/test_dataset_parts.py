"""A dataset folder refers to its own parts in a way a reader can follow.

Its declaration references the folder's heavy parts lazily (``Ref(module, name)``,
imported only when used), and every reference of every registered dataset, found by
walking the declaration rather than by a list of fields, resolves to what it claims:
a function, a pandera model of that name, or a module. Its modules import each other
relatively, so a copied folder refers to itself with no edit (the copy drill,
``tests/test_adding_a_dataset.py``, builds and tests one).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.registry import dataset_spec, specs

#: Fields whose reference names a pandera model (its class of the same name).
MODEL_FIELDS = {"schema"}


def references(value: Any, where: str) -> Iterator[tuple[str, Ref[Any]]]:
    """Every ``Ref`` in a declaration, with the path of fields that holds it."""
    if isinstance(value, Ref):
        yield where, value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from references(getattr(value, field.name), f"{where}.{field.name}")
    elif isinstance(value, tuple | list):
        for index, item in enumerate(value):
            yield from references(item, f"{where}[{index}]")


def _cases() -> list[tuple[str, str, Ref[Any]]]:
    """(dataset, where, reference): each reference of a dataset once, where first found."""
    found: dict[tuple[str, Ref[Any]], str] = {}
    for name, spec in specs().items():
        for where, reference in references(spec, name):
            found.setdefault((name, reference), where)
    return [(name, where, reference) for (name, reference), where in found.items()]


CASES = _cases()


def test_every_kind_of_part_is_referenced() -> None:
    """The walk finds the references (a walk that found none would pass every case below)."""
    kinds = {where.rpartition(".")[2].partition("[")[0] for _, where, _ in CASES}
    expected = {"schema", "features", "transform", "statistics", "function", "testing"}
    assert expected <= kinds, sorted(kinds)
    assert {"split_of_file", "resplit"} <= kinds  # HatemojiBuild's, today


@pytest.mark.parametrize(("name", "where", "reference"), CASES, ids=[w for _, w, _ in CASES])
def test_each_reference_resolves_to_what_it_names(
    name: str, where: str, reference: Ref[Any]
) -> None:
    spec = dataset_spec(name)
    part = spec.load(reference)
    field = where.rpartition(".")[2].partition("[")[0]
    module = f"{spec.package}.{reference.module}"
    if reference.name is None:
        assert isinstance(part, ModuleType) and part.__name__ == module
    elif field in MODEL_FIELDS:
        # The generated column layouts are looked up by the referenced name, unimported.
        assert inspect.isclass(part) and part.__name__ == reference.name
        assert hasattr(part, "to_schema"), f"{where}: {part!r} is no pandera model"
    else:
        assert callable(part), f"{where}: {part!r} is not callable"
    if reference.name is not None:
        assert part.__module__ == module, f"{where} resolves outside {module}: {part.__module__}"


def test_every_dataset_declares_its_testing_module() -> None:
    for name, spec in specs().items():
        assert spec.testing is not None, name


def test_a_reference_is_to_a_module_of_the_folder() -> None:
    with pytest.raises(ValueError, match=r"Ref\('transform', 'features_of'\)"):
        Ref("schema:Model")  # the string spelling it replaces
    with pytest.raises(ValueError, match="name a module of the dataset's folder"):
        Ref("hatemoji_datasets.core.spec", "DatasetSpec")
    spec = next(iter(specs().values()))
    with pytest.raises(TypeError, match=f"{spec.name} names a part by 'transform:transform'"):
        spec.load("transform:transform")  # type: ignore[arg-type]
    with pytest.raises(AttributeError, match=r"\.transform defines no 'no_such_function'"):
        spec.load(Ref("transform", "no_such_function"))
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        spec.load(Ref("no_such_module", "anything"))


FOLDERS = sorted({dataset_spec(name).package_dir for name in specs()})
MODULES = [path for folder in FOLDERS for path in sorted(folder.glob("*.py"))]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_folder_imports_its_own_modules_relatively(path: Path) -> None:
    """``from .spec import X``, never ``hatemoji_datasets.datasets.<name>.spec``: a copied
    folder then refers to itself, with no ``sed`` over its imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            named.append(node.module or "")
    own = f"hatemoji_datasets.datasets.{path.parent.name}"
    absolute = [n for n in named if n == own or n.startswith(f"{own}.")]
    assert absolute == [], f"{path.parent.name}/{path.name} imports {absolute}: write `from .`"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_a_folders_init_imports_nothing_of_the_folder(folder: Path) -> None:
    """``datasets`` 3.x reads the builder's file (the package's ``__init__.py``) for its
    imports and resolves ``from .x`` against the parent package: a relative import there
    fails every build under it (CI's datasets 3.6 run found HatemojiBuild's)."""
    tree = ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))
    relative = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert relative == [], f"{folder.name}/__init__.py imports {relative}"
