"""Shared fixtures: the offline mirror of the real upstream files, and isolated caches."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hatemoji_datasets.sources import MIRROR_ENV

REPO = Path(__file__).resolve().parents[1]
DEFAULT_MIRROR = REPO.parent / "shared" / "sources"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _mirror_path() -> Path | None:
    configured = os.environ.get(MIRROR_ENV)
    candidate = Path(configured) if configured else DEFAULT_MIRROR
    return candidate if candidate.is_dir() else None


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The offline mirror of upstream files; tests that need the real data skip without it."""
    path = _mirror_path()
    if path is None:
        pytest.skip(
            f"real upstream data unavailable: set {MIRROR_ENV} or place the mirror at "
            f"{DEFAULT_MIRROR}"
        )
    return path


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the session, so each real dataset is built once."""
    return tmp_path_factory.mktemp("hf-cache")


@pytest.fixture
def isolated_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No mirror from the environment: tests pass it explicitly when they want one."""
    monkeypatch.delenv(MIRROR_ENV, raising=False)


def upstream_path(mirror: Path, url: str) -> Path:
    """Where the mirror keeps the file for ``url``."""
    return mirror / url.split("://", 1)[1]
