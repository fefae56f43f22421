"""Diffs of built datasets: what differs between two versions or configs of one dataset.

- :mod:`~hatemoji_datasets.diff.compare`: :func:`diff` (load both sides, compare);
- :mod:`~hatemoji_datasets.diff.features`: columns and ClassLabel names;
- :mod:`~hatemoji_datasets.diff.rows`: rows per split, matched by a key column;
- :mod:`~hatemoji_datasets.diff.model`: the result, and its JSON form;
- :mod:`~hatemoji_datasets.diff.render`: tables, markdown and JSON;
- :mod:`~hatemoji_datasets.diff.releases`: every release against the previous one.

>>> from hatemoji_datasets.diff import diff
>>> diff("apeach:1.0.0", "apeach:2.0.0").names  # [NameChange('topic', 1, 'renamed', ...)]
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hatemoji_datasets.diff.compare import diff
    from hatemoji_datasets.diff.model import DatasetDiff

# datasets loads with the first diff, so that importing the model or a renderer stays light.
_LAZY = {"diff": "hatemoji_datasets.diff.compare", "DatasetDiff": "hatemoji_datasets.diff.model"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'hatemoji_datasets.diff' has no attribute {name!r}")


__all__ = ["DatasetDiff", "diff"]
