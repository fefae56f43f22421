"""HatemojiCheck's own score table keys: each functionality x perturbation cell named as
the paper names its test cases (``F1`` for the originals of functionality 1,
``F1.1``-``F1.3`` for its identity, polarity and no-emoji perturbations)."""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.core.scoring import ScoringContext


def cell_keys(context: ScoringContext, codes: tuple[Any, ...]) -> dict[str, Any]:
    """A cell's row keys: its case name, functionality and perturbation."""
    f, p = codes
    return {
        "case": f"F{f + 1}" if p == 0 else f"F{f + 1}.{p}",
        "functionality": context.names("functionality")[f],
        "perturbation": context.names("perturbation")[p],
    }
