"""The layout keeps its promises: no import circles, shared code names no dataset, short modules.

Imports are read from the source (top-level and inside functions), not by
importing anything, so a circle hidden in a function body is found too.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from hatemoji_datasets.core.registry import specs

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "hatemoji_datasets"
DATASETS = PACKAGE / "datasets"
#: About 400 lines at most: a longer module is several concerns.
MAX_LINES = 450


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path) -> set[str]:
    """The package modules ``path`` imports, anywhere in it (a package is its ``__init__``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            # ``from package import submodule`` imports the submodule; any other name
            # comes from the module (or package ``__init__``) itself.
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            targets = [m for m in submodules if m in MODULES]
            if len(targets) < len(submodules):
                targets.append(base)
        for target in targets:
            if target in MODULES and target != name:
                found.add(target)
    return found


def test_the_reader_sees_the_imports() -> None:
    graph = {name: imports_of(name, path) for name, path in MODULES.items()}
    assert "hatemoji_datasets.building.prepare" in graph["hatemoji_datasets.api"]
    # an import inside a function is an arrow too
    assert "hatemoji_datasets.pinning.lock" in graph["hatemoji_datasets.api"]


def test_no_import_circles() -> None:
    graph = {name: imports_of(name, path) for name, path in MODULES.items()}
    # Tarjan's strongly connected components: every component of more than one
    # module (or a module importing itself) is a circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    assert circles == []


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """Identifiers and string constants of a module, docstrings and comments left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                found.append((node.lineno, node.value))
        elif isinstance(node, ast.Name):
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            found.append((node.lineno, node.name))
    return found


SHARED = [path for path in MODULES.values() if DATASETS not in path.parents]


@pytest.mark.parametrize("path", SHARED, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_shared_code_names_no_dataset(path: Path) -> None:
    names = [name for name in specs()]
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b", re.IGNORECASE)
    named = [(line, text) for line, text in _code_strings(path) if pattern.search(text)]
    assert named == [], f"{path.relative_to(ROOT)} names a dataset in code"


def test_the_check_finds_a_dataset_name(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""About hatemoji_check."""\nKIND = "hatemoji_check"\n', encoding="utf-8")
    assert [text for _, text in _code_strings(module) if "hatemoji_check" in text] == [
        "hatemoji_check"
    ]


@pytest.mark.parametrize("path", list(MODULES.values()), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_are_short(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines"


def test_version_matches_pyproject() -> None:
    from hatemoji_datasets import __version__

    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(rf'^version = "{re.escape(__version__)}"$', pyproject, re.M)
