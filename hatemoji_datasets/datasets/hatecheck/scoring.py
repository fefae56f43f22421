"""HateCheck's own score table keys: each functional test under the paper's group, numbered
as the paper numbers it (F1..F29, the ClassLabel order)."""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.core.scoring import ScoringContext

from .spec import GROUP_OF


def functionality_keys(context: ScoringContext, codes: tuple[Any, ...]) -> dict[str, Any]:
    """A functional test's row keys: its group, number and name."""
    (f,) = codes
    name = context.names("functionality")[f]
    return {"group": GROUP_OF[name], "test": f"F{f + 1}", "functionality": name}
