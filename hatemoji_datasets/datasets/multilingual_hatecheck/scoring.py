"""Multilingual HateCheck's own score table keys: each functional test under HateCheck's
group (in one language, or per language for every language)."""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.core.scoring import ScoringContext

from .spec import GROUP_OF


def functionality_keys(context: ScoringContext, codes: tuple[Any, ...]) -> dict[str, Any]:
    """A functional test's row keys: its group and name."""
    name = context.names("functionality")[codes[0]]
    return {"group": GROUP_OF[name], "functionality": name}


def cell_keys(context: ScoringContext, codes: tuple[Any, ...]) -> dict[str, Any]:
    """A functional test x language cell's row keys: the test's group and name, the language."""
    f, language = codes
    return {**functionality_keys(context, (f,)), "language": context.names("language")[language]}
