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

from hatemoji_datasets.diff.compare import diff
from hatemoji_datasets.diff.model import DatasetDiff

__all__ = ["DatasetDiff", "diff"]
