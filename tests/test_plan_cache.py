"""A dataset's plans are compiled from its pandera models on first use and cached: no plan
file is committed, a later run reads them without pandera, and a damaged, stale or
unwritable cache never gives a wrong plan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.schema import plan_cache

#: Any dataset will do: the cache is the same for each. Its default config reads one model.
NAME = "hatemoji_check"
MODEL = "HatemojiCheckRaw"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    plan_cache.dataset_plans.cache_clear()
    yield tmp_path / "hatemoji-datasets" / "plans"
    plan_cache.dataset_plans.cache_clear()


def _fresh() -> dict:
    plan_cache.dataset_plans.cache_clear()
    return plan_cache.dataset_plans(dataset_spec(NAME))


def test_plans_are_compiled_once_then_read(cache: Path, monkeypatch) -> None:
    compiled = _fresh()
    assert list(compiled) == [MODEL]
    (written,) = cache.glob("*.json")
    assert written.name.startswith(f"{NAME}-")
    assert not list(cache.glob("*.partial"))

    def refuse(spec) -> None:
        raise AssertionError("compiled again although cached")

    monkeypatch.setattr(plan_cache, "compile_plans", refuse)
    assert _fresh() == compiled


@pytest.mark.parametrize(
    "damage", ["", "{", "[1, 2]", '{"models": {}}', '{"models": {"X": {}}}', '{"models": 7}']
)
def test_a_damaged_cache_file_is_compiled_again(cache: Path, damage: str) -> None:
    compiled = _fresh()
    (written,) = cache.glob("*.json")
    written.write_text(damage, encoding="utf-8")
    assert _fresh() == compiled
    assert json.loads(written.read_text(encoding="utf-8"))["models"][MODEL]


def test_another_package_version_is_another_cache_file(cache: Path, monkeypatch) -> None:
    _fresh()
    monkeypatch.setattr(plan_cache, "__version__", "0.0.0-other")
    _fresh()
    assert len(list(cache.glob("*.json"))) == 2


def test_an_unwritable_cache_still_gives_the_plans(tmp_path: Path, monkeypatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    try:
        assert list(_fresh()) == [MODEL]
    finally:
        plan_cache.dataset_plans.cache_clear()


def test_no_plan_file_is_committed() -> None:
    folder = dataset_spec(NAME).package_dir.parent
    assert sorted(folder.glob("*/plan.json")) == []
