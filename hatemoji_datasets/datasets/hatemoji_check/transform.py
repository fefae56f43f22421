"""HatemojiCheck's built features and the transform from validated raw rows."""

from __future__ import annotations

import datasets
import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets.core import features
from hatemoji_datasets.core.spec import ConfigSpec

from .spec import (
    FUNCTIONALITIES,
    NO_TARGET,
    PERTURBATIONS,
    TARGETS,
    UPSTREAM_NO_TARGET,
)


def features_of(config: ConfigSpec, version: str) -> datasets.Features:
    return datasets.Features(
        {
            "case_id": datasets.Value("int32"),
            "template_id": datasets.Value("string"),
            "test_group_id": datasets.Value("int32"),
            "text": datasets.Value("string"),
            "target": features.class_label(TARGETS),
            "functionality": features.class_label(FUNCTIONALITIES),
            "perturbation": features.class_label(PERTURBATIONS.values()),
            "label": features.label(),
            "unrealistic_flags": datasets.Value("int8"),
            "emoji": features.emoji_feature(),
        }
    )


def transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    upstream_targets = [UPSTREAM_NO_TARGET if t == NO_TARGET else t for t in TARGETS]
    return pa.table(
        {
            "case_id": raw["case_id"],
            "template_id": raw["templ_id"],
            "test_group_id": raw["test_group_id"],
            "text": raw["text"],
            "target": features.class_ids(raw["target"], upstream_targets),
            "functionality": features.class_ids(raw["functionality"], FUNCTIONALITIES),
            "perturbation": features.class_ids(raw["set"], list(PERTURBATIONS)),
            "label": pc.cast(raw["label_gold"], pa.int64()),
            "unrealistic_flags": raw["unrealistic_flags"],
            "emoji": features.emoji_lists(raw["text"]),
        }
    )
