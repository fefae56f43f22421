"""Diff two built versions or configs of one dataset: load both, compare features and rows.

Both sides are loaded through the one path every reader of data takes
(:func:`~hatemoji_datasets.building.prepare.load_verified`): built from
verified sources if not cached, checked before they are served.
"""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.building.prepare import load_verified
from hatemoji_datasets.core.columns import TEXT_COLUMN
from hatemoji_datasets.core.errors import DiffError, UnknownNameError
from hatemoji_datasets.core.registry import format_reference, lookup
from hatemoji_datasets.core.spec import ConfigSpec
from hatemoji_datasets.diff.features import class_label_names, column_changes, name_changes
from hatemoji_datasets.diff.model import DatasetDiff, LabelMode, Side
from hatemoji_datasets.diff.rows import read_columns, row_changes

#: Changed cells shown per split unless asked otherwise.
EXAMPLES = 3


def diff(
    old: str,
    new: str,
    *,
    labels: LabelMode = "id",
    examples: int = EXAMPLES,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> DatasetDiff:
    """What differs between ``old`` and ``new``, two ``NAME[/CONFIG][:VERSION]`` of one dataset.

    Features: columns added, removed or retyped, and ClassLabel names added,
    removed or renamed (matched by id). Rows: per split, the rows added,
    removed, moved in from or out to another split, and changed (with the
    changed columns and up to ``examples`` changed cells), matched over the
    whole dataset by the config's id column, or by the text where rows have no
    id. ClassLabel cells are compared by id unless ``labels="name"``.

    Raises :class:`UnknownNameError` for an unknown name, config or version and
    :class:`DiffError` for two different datasets.
    """
    if labels not in ("id", "name"):
        raise UnknownNameError(f"unknown labels mode {labels!r}; use id or name")
    if examples < 0:
        raise UnknownNameError(f"examples must be 0 or more, not {examples}")
    old_spec, old_config, old_version = lookup(old)
    new_spec, new_config, new_version = lookup(new)
    if old_spec.name != new_spec.name:
        raise DiffError(
            f"{old} and {new} are two datasets ({old_spec.name}, {new_spec.name}); "
            "diff compares versions or configs of one dataset"
        )
    sides = []
    for spec, config, version in (
        (old_spec, old_config, old_version),
        (new_spec, new_config, new_version),
    ):
        _, data = load_verified(spec, config, version, cache_dir=cache_dir, mirror=mirror)
        sides.append((config, version, data))
    return compare_data(*sides, labels=labels, examples=examples)


def compare_data(
    old: tuple[ConfigSpec, str, Any],
    new: tuple[ConfigSpec, str, Any],
    *,
    labels: LabelMode = "id",
    examples: int = EXAMPLES,
    name: str | None = None,
) -> DatasetDiff:
    """The diff of two loaded ``(config, version, DatasetDict)`` of one dataset."""
    (old_config, old_version, old_data), (new_config, new_version, new_data) = old, new
    old_features, new_features = _features(old_data), _features(new_data)
    name = name or next(iter(old_data.values())).info.builder_name
    key = row_key(old_config, old_features, new_features)
    compared = [column for column in old_features if column in new_features]
    label_names = tuple(
        {
            column: found
            for column in compared
            if (found := class_label_names(features[column])) is not None
        }
        for features in (old_features, new_features)
    )
    splits, moves, repeated = row_changes(
        read_columns(old_data, compared),
        read_columns(new_data, compared),
        key=key,
        compared=compared,
        labels=labels,
        names=label_names,
        examples=examples,
        by_position=key == TEXT_COLUMN,
    )
    return DatasetDiff(
        old=_side(name, old_config, old_version, old_data),
        new=_side(name, new_config, new_version, new_data),
        key=key,
        repeated_keys=repeated,
        labels=labels,
        compared=compared,
        columns=column_changes(old_features, new_features),
        names=name_changes(old_features, new_features),
        splits=splits,
        moves=moves,
    )


def row_key(config: ConfigSpec, *features: Any) -> str:
    """The built column rows are matched by: the config's id column, else the text."""
    for candidate in (config.id_column, TEXT_COLUMN):
        if candidate and all(candidate in found for found in features):
            return candidate
    raise DiffError(
        f"config {config.name} has no id or {TEXT_COLUMN} column on both sides to match rows by"
    )


def _features(data: Any) -> Any:
    return next(iter(data.values())).features


def _side(name: str, config: ConfigSpec, version: str, data: Any) -> Side:
    return Side(
        reference=format_reference(name, config.name, version),
        name=name,
        config=config.name,
        version=version,
        splits={split: dataset.num_rows for split, dataset in data.items()},
    )
