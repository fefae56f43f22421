"""How the suite spreads over workers (``--dist loadgroup``, tests/scheduling.py): the tests of
a module that share a fixture it defines for longer than one test form one group, and on a
worker the group is in the test's id, which is what pytest-xdist's controller schedules by."""

from __future__ import annotations

import pytest
from scheduling import slow_first


@pytest.fixture(scope="module")
def made_once() -> list[str]:
    return []


@pytest.fixture(scope="module")
def made_once_too(made_once: list[str]) -> list[str]:
    return made_once


GROUP = "tests/test_suite_scheduling.py::made_once"


def _group_of(request: pytest.FixtureRequest) -> str | None:
    marks = list(request.node.iter_markers("xdist_group"))
    return marks[0].args[0] if marks else None


def _on_a_grouping_worker(request: pytest.FixtureRequest) -> bool:
    return bool(getattr(request.config.option, "loadgroup", False))


@pytest.mark.parametrize("step", [1, 2])
def test_tests_sharing_a_module_fixture_form_one_group(
    made_once: list[str], step: int, request: pytest.FixtureRequest
) -> None:
    assert _group_of(request) == GROUP
    if _on_a_grouping_worker(request):
        assert request.node.nodeid.endswith(f"@{GROUP}")
        made_once.append(request.node.nodeid)
        mine = [
            i.nodeid
            for i in request.session.items
            if i.originalname == "test_tests_sharing_a_module_fixture_form_one_group"
        ]
        if request.node.nodeid == mine[-1]:  # all ran on this worker, with one fixture
            assert made_once == mine


def test_a_test_using_two_of_them_joins_their_group(
    made_once_too: list[str], request: pytest.FixtureRequest
) -> None:
    assert _group_of(request) == GROUP


def test_a_test_sharing_nothing_is_in_no_group(request: pytest.FixtureRequest) -> None:
    assert _group_of(request) is None
    assert "@" not in request.node.nodeid


class _Item:
    """What :func:`scheduling.slow_first` reads of a test: its id and its ``slow`` mark."""

    def __init__(self, nodeid: str, slow: bool = False) -> None:
        self.nodeid, self.slow = nodeid, slow

    def get_closest_marker(self, name: str) -> object:
        return self.slow if name == "slow" else None


def test_slow_tests_and_their_groups_go_first_in_collection_order() -> None:
    items = [
        _Item("a.py::quick"),
        _Item("b.py::grouped_quick@b.py::fixture"),
        _Item("c.py::slow", slow=True),
        _Item("b.py::grouped_slow[x]@b.py::fixture", slow=True),
        _Item("d.py::quick[slow]"),
    ]
    slow_first(items)
    assert [item.nodeid for item in items] == [
        "b.py::grouped_quick@b.py::fixture",
        "c.py::slow",
        "b.py::grouped_slow[x]@b.py::fixture",
        "a.py::quick",
        "d.py::quick[slow]",
    ]
