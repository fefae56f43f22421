"""UnSmile's built features: every upstream column, typed, and the shared binary label."""

from __future__ import annotations

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets.core import features
from hatemoji_datasets.core.arrow_values import numpy_of
from hatemoji_datasets.core.spec import ROW_ID, ConfigSpec

from .spec import FLAGS, TARGETS, TEXT

_COLUMNS = {**TARGETS, **FLAGS}


def unsmile_features(config: ConfigSpec, version: str) -> datasets.Features:
    return datasets.Features(
        {
            ROW_ID: datasets.Value("string"),
            "text": datasets.Value("string"),
            "label": features.label(),
            **{name: datasets.Value("bool") for name in _COLUMNS.values()},
            "targets": features.list_of(features.class_label(list(TARGETS.values()))),
        }
    )


def unsmile_transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    flags = {name: pc.equal(raw[header], 1) for header, name in _COLUMNS.items()}
    hit = np.column_stack([numpy_of(raw[header]) == 1 for header in TARGETS])
    rows, target_ids = hit.nonzero()  # row-major: each row's targets in id order
    offsets = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=len(hit)))])
    return pa.table(
        {
            ROW_ID: raw[ROW_ID],
            "text": raw[TEXT],
            "label": pa.array(hit.any(axis=1).astype(np.int64)),
            **flags,
            "targets": pa.ListArray.from_arrays(offsets.astype(np.int32), target_ids),
        }
    )
