"""A split as the Hub export's Parquet: portable features in the metadata, identical bytes.

The Parquet files are written with pyarrow, not ``Dataset.to_parquet``:
datasets >= 4 would embed features with the ``List`` type, which 3.x cannot
read. Each file's schema metadata (``huggingface``) holds the features in the
form every release reads (:func:`hatemoji_datasets.core.features.portable_features`),
so the files are exact on their own too. Output is deterministic: fixed row
groups, compression and no timestamps, so a re-export gives the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from hatemoji_datasets.building.cache_files import split_table
from hatemoji_datasets.core.features import portable_features

if TYPE_CHECKING:
    import datasets
    import pyarrow as pa

#: Rows per Parquet row group: small enough for streaming, fixed for identical bytes.
ROW_GROUP_ROWS = 1000
COMPRESSION = "snappy"


def hub_table(dataset: datasets.Dataset) -> pa.Table:
    """The split's Arrow table with the portable features as its ``huggingface`` metadata."""
    table = split_table(dataset).select(list(dataset.features))
    metadata = {"info": {"features": portable_features(dataset.features)}}
    text = json.dumps(metadata, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return table.replace_schema_metadata({b"huggingface": text.encode()})


def write_parquet(table: pa.Table, path: Path) -> None:
    """Write ``table`` the same way every time (row groups, compression, statistics)."""
    import pyarrow.parquet as pq

    pq.write_table(
        table,
        path,
        row_group_size=ROW_GROUP_ROWS,
        compression=COMPRESSION,
        write_statistics=True,
        use_dictionary=True,
    )


def labels_table(features_by_config: dict[str, datasets.Features]) -> pa.Table:
    """``config, feature, id, name``: one row per ClassLabel name, lists of ClassLabel too.

    SQL engines and dataframe libraries join on it to show names where the split
    files hold ids (``l.feature = 'label' AND l.id = t.label``).
    """
    import datasets
    import pyarrow as pa

    from hatemoji_datasets.core.features import element_of

    rows: dict[str, list] = {"config": [], "feature": [], "id": [], "name": []}
    for config, features in features_by_config.items():
        for feature_name, feature in features.items():
            element = element_of(feature)
            label = element if element is not None else feature
            if not isinstance(label, datasets.ClassLabel):
                continue
            for index, name in enumerate(label.names):
                rows["config"].append(config)
                rows["feature"].append(feature_name)
                rows["id"].append(index)
                rows["name"].append(name)
    schema = pa.schema(
        [
            ("config", pa.string()),
            ("feature", pa.string()),
            ("id", pa.int64()),
            ("name", pa.string()),
        ]
    )
    return pa.table(rows, schema=schema)
