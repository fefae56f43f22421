"""The built format (Parquet of a dataset's features) as a contribution format.

A ``.parquet`` contribution is checked against a pandera schema derived from
the built dataset's ``datasets`` Features, and compared with the built release.
There, "line" means the 1-based row.
"""

from __future__ import annotations

import datasets
import pandas as pd
import pandera.pandas as pandera
import pyarrow
import pyarrow.parquet as pq

from hatemoji_datasets.core.columns import TEXT_COLUMN
from hatemoji_datasets.raw.reader import check_regular_file, unreadable


def features_schema(
    name: str, features: datasets.Features, unique: str | None = None
) -> pandera.DataFrameSchema:
    """A pandera schema of a built dataset's rows, from its ``datasets`` Features.

    Values are typed as the features say; ClassLabels (and lists of them) must
    be valid class ids; the ``unique`` column (an id) must not repeat; ``text``
    must not be empty.
    """
    columns = {}
    for column, feature in features.items():
        inner = getattr(feature, "feature", None)
        if isinstance(feature, datasets.ClassLabel):
            columns[column] = pandera.Column(
                "int64", pandera.Check.isin(list(range(feature.num_classes))), coerce=True
            )
        elif inner is not None:
            allowed = (
                set(range(inner.num_classes)) if isinstance(inner, datasets.ClassLabel) else None
            )
            columns[column] = pandera.Column(
                object,
                pandera.Check(
                    lambda cell, allowed=allowed: _valid_list(cell, allowed),
                    element_wise=True,
                    error=f"must be a list{' of class ids' if allowed else ''}",
                ),
            )
        else:
            dtype = feature.dtype
            kind = (
                "int64" if "int" in dtype else {"string": "str", "bool": "bool"}.get(dtype, dtype)
            )
            checks = [pandera.Check.str_length(min_value=1)] if column == TEXT_COLUMN else []
            columns[column] = pandera.Column(kind, checks, coerce=True, unique=column == unique)
    return pandera.DataFrameSchema(columns, strict=True, name=f"{name} built rows")


def _valid_list(cell: object, allowed: set[int] | None) -> bool:
    if cell is None or isinstance(cell, (str, bytes)) or not hasattr(cell, "__iter__"):
        return False
    return allowed is None or all(value in allowed for value in cell)


def read_parquet(name: str) -> pd.DataFrame:
    """A contributed Parquet file's rows; InputError when it cannot be read."""
    check_regular_file(name)
    try:
        return pq.read_table(name).to_pandas()
    except (pyarrow.ArrowInvalid, OSError):
        raise unreadable(name, "FILE-UNPARSEABLE", "not a readable Parquet file") from None
