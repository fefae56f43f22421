"""How the suite spreads over pytest-xdist workers (``--dist loadgroup``).

Why this plugin exists:

- **Module fixtures made once.** The tests of a module that share a fixture the module
  defines for longer than one test form one ``xdist_group``, so the fixture is made on
  one worker, once. On a worker, a grouped test's id ends in ``@GROUP``, which is how
  the controller groups them; pytest-xdist 3.8 writes that suffix to a field pytest 9.2
  no longer reads (pytest-xdist issue 1386), so this plugin writes it where pytest keeps
  a node's id, unless xdist did.
- **Slow tests first.** Workers take work in collection order (``--no-loadscope-reorder``),
  so tests marked ``slow`` (with the rest of their group) are moved to the front: the run
  does not end with one worker busy on a long test while the other waits. A test is
  marked where it is written; no list of test ids is kept here.
"""

from __future__ import annotations

import pytest


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (its hook is plain)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item, group in worker_groups(items).items():
        item.add_marker(pytest.mark.xdist_group(group))


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_GroupedIds(), "hatemoji-grouped-ids")


class _GroupedIds:
    """Each grouped test's id gets its ``@GROUP`` suffix, then slow tests go first."""

    @pytest.hookimpl(trylast=True)  # after pytest-xdist's own pass
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]):
        if not getattr(config.option, "loadgroup", False):
            return
        from _pytest.nodeid import NodeId

        for item in items:
            names = sorted({_group_name(mark) for mark in item.iter_markers("xdist_group")})
            if names and "@" not in item.nodeid.rpartition("]")[2]:
                item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")
        slow_first(items)


def slow_first(items: list[pytest.Item]) -> None:
    """Reorder ``items`` so tests marked ``slow``, and every test of their groups, come
    first; both parts keep collection order."""

    def group(item: pytest.Item) -> str:  # the ``@GROUP`` an id ends in, past any parameters
        _, at, name = item.nodeid.rpartition("]")[2].rpartition("@")
        return name if at else ""

    slow_groups = {group(i) for i in items if i.get_closest_marker("slow") and group(i)}

    def later(item: pytest.Item) -> bool:
        return not (item.get_closest_marker("slow") or group(item) in slow_groups)

    items.sort(key=later)  # stable: ties keep collection order


def _group_name(mark: pytest.Mark) -> str:
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


def _shared_fixtures(item: pytest.Item) -> set[str]:
    """The fixtures of the item's own module, longer-lived than one test, that it uses."""
    module = item.nodeid.split("::", 1)[0]
    info = getattr(item, "_fixtureinfo", None)
    return {
        name
        for name in getattr(info, "names_closure", ())
        for fixturedef in info.name2fixturedefs.get(name, ())
        if fixturedef.scope != "function" and fixturedef.baseid == module
    }


def worker_groups(items: list[pytest.Item]) -> dict[pytest.Item, str]:
    """The tests of a module that share a fixture the module defines for longer than one test
    run on one worker, so each such fixture is made once: one group per set of such
    fixtures that tests use together (a module's fixtures no test shares run side by side).
    The shared fixtures of conftest are made once for the whole run whichever worker asks
    first."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    used = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        names = sorted(f"{module}::{name}" for name in _shared_fixtures(item))
        if names:
            used[item] = names
            for other in names:
                parent[root(other)] = root(names[0])
    members: dict[str, set[str]] = {}
    for key in list(parent):
        members.setdefault(root(key), set()).add(key)
    named = {top: min(keys) for top, keys in members.items()}  # a stable name per group
    return {item: named[root(names[0])] for item, names in used.items()}
