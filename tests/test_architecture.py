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
    name = next(iter(specs()))  # any registered dataset
    module.write_text(f'"""About {name}."""\nKIND = "{name}"\n', encoding="utf-8")
    assert [text for _, text in _code_strings(module) if name in text] == [name]


@pytest.mark.parametrize("path", list(MODULES.values()), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_are_short(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines"


#: What the package root keeps: the public entry points only.
ROOT_MODULES = {"__init__", "__main__", "api", "version"}
#: What a dataset folder may import besides itself: the foundation and the schema language
#: (the pandera models people write, and the rules its ``rules.py`` writes once).
FOUNDATION = (
    "hatemoji_datasets.core",
    "hatemoji_datasets.schema.model",
    "hatemoji_datasets.schema.rules",
)


def test_the_package_root_keeps_only_the_entry_points() -> None:
    loose = {path.stem for path in PACKAGE.glob("*.py")}
    assert loose <= ROOT_MODULES, f"modules at the package root: {sorted(loose - ROOT_MODULES)}"
    assert len(loose) <= 6


def _is_under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


DATASET_MODULES = [
    (name, path)
    for name, path in MODULES.items()
    if DATASETS in path.parents and path.parent != DATASETS
]


@pytest.mark.parametrize("name, path", DATASET_MODULES, ids=[n for n, _ in DATASET_MODULES])
def test_dataset_folders_import_only_the_foundation(name: str, path: Path) -> None:
    own = module_name(path.parent)
    outside = [
        target
        for target in imports_of(name, path)
        if not _is_under(target, own) and not any(_is_under(target, f) for f in FOUNDATION)
    ]
    assert outside == [], f"{path.relative_to(ROOT)} imports {outside}"


SUBPACKAGES = sorted(
    path.parent
    for path in PACKAGE.rglob("__init__.py")
    if path.parent != PACKAGE and DATASETS not in path.parents and path.parent != DATASETS
)


def _children(folder: Path) -> set[str]:
    modules = {p.stem for p in folder.glob("*.py") if p.name != "__init__.py"}
    packages = {p.parent.name for p in folder.glob("*/__init__.py")}
    return modules | packages


@pytest.mark.parametrize("folder", SUBPACKAGES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_subpackage_docstring_lists_its_modules(folder: Path) -> None:
    """A sub-package's docstring is its inventory: every module once, none that is gone."""
    package = module_name(folder / "__init__.py")
    docstring = ast.get_docstring(ast.parse((folder / "__init__.py").read_text("utf-8"))) or ""
    named = set(re.findall(r":mod:`~?" + re.escape(package) + r"\.(\w+)`", docstring))
    named |= set(re.findall(r":mod:`\.(\w+)`", docstring))
    assert named == _children(folder), f"{package}: docstring lists {sorted(named)}"


def _documented_tree() -> dict[str, set[str]]:
    """``docs/architecture.md``'s inventory: ``""`` -> root modules, ``folder`` -> its modules."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("```\nhatemoji_datasets/\n", 1)[1].split("```", 1)[0]
    tree: dict[str, set[str]] = {"": set()}
    folder = None
    for line in block.splitlines():
        entry = re.match(r"^  (\w+)(\.py|/)\s+(.*)$", line)
        if entry and entry[2] == ".py":
            tree[""].add(entry[1])
            folder = None
            continue
        if entry:
            folder, line = entry[1], entry[3]
            tree[folder] = set()
        if folder is not None:
            names = re.sub(r"\((?:what people write|runs it)\)", "", line).replace("(", ",")
            tree[folder] |= {n.strip() for n in re.split(r"[,)]", names) if n.strip()}
    return tree


def test_the_architecture_page_lists_the_tree() -> None:
    documented = _documented_tree()
    root = {p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert documented[""] == root
    for folder in (f for f in SUBPACKAGES if f.parent == PACKAGE):
        listed = documented.get(folder.name)
        assert listed is not None, f"docs/architecture.md does not list {folder.name}/"
        nested = {m for sub in folder.glob("*/__init__.py") for m in _children(sub.parent)}
        assert listed == _children(folder) | nested, f"{folder.name}/ is listed as {sorted(listed)}"
