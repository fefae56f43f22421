"""HateCheck's own score table: accuracy per functional test, under the paper's groups.

Each test is numbered as the paper numbers it (F1..F29, the ClassLabel order)
and shown with its gold label and number of cases.
"""

from __future__ import annotations

from hatemoji_datasets.datasets.hatecheck.spec import FUNCTIONALITY_GROUPS
from hatemoji_datasets.evaluate.breakdowns import Context
from hatemoji_datasets.evaluate.metrics import GOLD
from hatemoji_datasets.evaluate.report import Table

GROUP_OF = {f: group for group, members in FUNCTIONALITY_GROUPS.items() for f in members}


def functionalities(context: Context) -> Table:
    """One row per functional test: its group, number, name, gold label, n and accuracy."""
    names = context.names("functionality")
    rows = []
    for (f,), group in context.groups(("functionality",)):
        rows.append(
            {
                "group": GROUP_OF[names[f]],
                "test": f"F{f + 1}",
                "functionality": names[f],
                "label": context.gold_name(group[GOLD]),
                "n": len(group),
                "accuracy": context.metric("accuracy", group),
            }
        )
    return Table(
        "functionalities",
        "Accuracy per functional test, in the paper's groups",
        ("group", "test", "functionality"),
        ("label", "n"),
        ("accuracy",),
        tuple(rows),
    )
