"""Feature changes between two built datasets: columns added, removed or retyped, and
ClassLabel names added, removed or renamed, matched by id."""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.core.features import canonical_features, describe_feature, element_of
from hatemoji_datasets.diff.model import ColumnChange, NameChange


def column_changes(old: Any, new: Any) -> list[ColumnChange]:
    """Columns only one side has, and columns whose type differs (ClassLabel names aside:
    a ClassLabel whose names change is still a ClassLabel, see :func:`name_changes`)."""
    changes = [
        ColumnChange(column, "removed", describe_feature(old[column]), None)
        for column in old
        if column not in new
    ]
    changes += [
        ColumnChange(column, "added", None, describe_feature(new[column]))
        for column in new
        if column not in old
    ]
    for column in old:
        if column in new and _shape(old[column]) != _shape(new[column]):
            changes.append(
                ColumnChange(
                    column,
                    "retyped",
                    describe_feature(old[column]),
                    describe_feature(new[column]),
                )
            )
    return changes


def name_changes(old: Any, new: Any) -> list[NameChange]:
    """For each column that is a ClassLabel (or a list of one) on both sides, every id whose
    name differs: added (only the new side has the id), removed, or renamed."""
    changes = []
    for column in old:
        if column not in new or _shape(old[column]) != _shape(new[column]):
            continue
        old_names, new_names = class_label_names(old[column]), class_label_names(new[column])
        if old_names is None or new_names is None:
            continue
        for id_ in range(max(len(old_names), len(new_names))):
            was = old_names[id_] if id_ < len(old_names) else None
            now = new_names[id_] if id_ < len(new_names) else None
            if was == now:
                continue
            kind = "added" if was is None else "removed" if now is None else "renamed"
            changes.append(NameChange(column, id_, kind, was, now))
    return changes


def class_label_names(feature: Any) -> list[str] | None:
    """The names of a ClassLabel column or of a list of ClassLabels; None for anything else."""
    import datasets

    inner = element_of(feature)
    label = inner if inner is not None else feature
    return list(label.names) if isinstance(label, datasets.ClassLabel) else None


def _shape(feature: Any) -> Any:
    """The feature's canonical form with ClassLabel names left out."""
    return _without_names(canonical_features(feature))


def _without_names(canonical: Any) -> Any:
    if isinstance(canonical, dict):
        return {
            key: "ClassLabel" if key == "class_label" else _without_names(value)
            for key, value in canonical.items()
        }
    return canonical
