"""The synthetic dataset's one rule, written once over pyarrow columns."""

from __future__ import annotations

import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import scalar
from hatemoji_datasets.schema.rules import Rows, Rule, same, text

from .spec import COMPLAINT_MARK


def complaints(rows: Rows) -> pyarrow.Array:
    """The ``complaint`` each row should have: 1 where its sentence has the mark, else 0."""
    marked = pc.match_substring(text(rows["sentence"]), COMPLAINT_MARK)
    # A pyarrow scalar, not False: converting a Python value would import pandas.
    return pc.fill_null(marked, scalar(False)).cast(pyarrow.int64())


def _complaint_mark(rows: Rows) -> pyarrow.Array:
    return same(rows["complaint"], complaints(rows))


COMPLAINT = Rule(
    "SY-COMPLAINT",
    "complaint must be 1 exactly when the sentence has an exclamation mark",
    _complaint_mark,
    column="complaint",
    reads=("sentence",),
    expected=complaints,
)

RULES = (COMPLAINT,)
