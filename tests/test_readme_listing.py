"""README.md's datasets table and licence sentence, and docs/datasets.md's table, are
generated from the registry, so a new dataset folder lists itself (issue 42: they were
hand-written and went stale)."""

from __future__ import annotations

from pathlib import Path

from hatemoji_datasets.cards.listing import render, render_datasets_page
from hatemoji_datasets.core.registry import specs

README = Path(__file__).resolve().parents[1] / "README.md"
DATASETS_PAGE = README.parent / "docs" / "datasets.md"


def test_readme_listing_is_fresh() -> None:
    page = README.read_text(encoding="utf-8")
    assert render(page) == page, "run: hatemoji-datasets regenerate --only readme"
    listing = DATASETS_PAGE.read_text(encoding="utf-8")
    assert render_datasets_page(listing) == listing


def test_every_dataset_has_a_row() -> None:
    page = README.read_text(encoding="utf-8")
    for name in specs():
        assert f"| `{name}` |" in page


def test_unsmile_row_and_licences_come_from_its_pins() -> None:
    page = README.read_text(encoding="utf-8")
    # 15,005 + 3,737 rows (the mirror README); the licence UnSmile's upstream states.
    assert "| `unsmile` | Korean UnSmile | 1.0.0 | `default` (18,742) | CC-BY-NC-ND-4.0 |" in page
    assert "(CC-BY-4.0, CC-BY-NC-ND-4.0 or CC-BY-SA-4.0)" in page
    listing = DATASETS_PAGE.read_text(encoding="utf-8")
    assert "| `unsmile` | 1.0.0 | `default` | `train` (15,005), `validation` (3,737) |" in listing
