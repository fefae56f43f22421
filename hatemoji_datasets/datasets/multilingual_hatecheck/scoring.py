"""Multilingual HateCheck's own score tables: accuracy per functional test (one language),
and per functional test x language (every language), under HateCheck's groups."""

from __future__ import annotations

from hatemoji_datasets.datasets.multilingual_hatecheck.spec import FUNCTIONALITY_GROUPS
from hatemoji_datasets.evaluate.breakdowns import Context
from hatemoji_datasets.evaluate.metrics import GOLD
from hatemoji_datasets.evaluate.report import Table

GROUP_OF = {f: group for group, members in FUNCTIONALITY_GROUPS.items() for f in members}


def functionalities(context: Context) -> Table:
    """One row per functional test: its group, name, gold label, n and accuracy."""
    names = context.names("functionality")
    rows = [
        {
            "group": GROUP_OF[names[f]],
            "functionality": names[f],
            "label": context.gold_name(group[GOLD]),
            "n": len(group),
            "accuracy": context.metric("accuracy", group),
        }
        for (f,), group in context.groups(("functionality",))
    ]
    return Table(
        "functionalities",
        "Accuracy per functional test, in HateCheck's groups",
        ("group", "functionality"),
        ("label", "n"),
        ("accuracy",),
        tuple(rows),
    )


def cells(context: Context) -> Table:
    """One row per functional test and language that has cases (tests differ by language)."""
    names, languages = context.names("functionality"), context.names("language")
    rows = [
        {
            "group": GROUP_OF[names[f]],
            "functionality": names[f],
            "language": languages[lang],
            "label": context.gold_name(group[GOLD]),
            "n": len(group),
            "accuracy": context.metric("accuracy", group),
        }
        for (f, lang), group in context.groups(("functionality", "language"))
    ]
    return Table(
        "cells",
        "Accuracy per functional test x language",
        ("group", "functionality", "language"),
        ("label", "n"),
        ("accuracy",),
        tuple(rows),
    )
