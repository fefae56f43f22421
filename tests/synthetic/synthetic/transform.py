"""The synthetic dataset's built features and the transform from validated raw rows."""

from __future__ import annotations

import datasets
import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets.core import features
from hatemoji_datasets.core.spec import ConfigSpec

from .spec import TOPICS


def features_of(config: ConfigSpec, version: str) -> datasets.Features:
    return datasets.Features(
        {
            "sentence_id": datasets.Value("int32"),
            "text": datasets.Value("string"),
            "topic": features.class_label(TOPICS),
            "label": features.label(),
        }
    )


def transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    return pa.table(
        {
            "sentence_id": raw["sentence_id"],
            "text": raw["sentence"],
            "topic": features.class_ids(raw["topic"], TOPICS),
            "label": pc.cast(raw["complaint"], pa.int64()),
        }
    )
