"""APEACH's and BEEP!'s built features and transforms from validated raw rows."""

from __future__ import annotations

import datasets
import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets.core import features
from hatemoji_datasets.core.spec import ConfigSpec

from .spec import (
    APEACH_CLASSES,
    BIASES,
    HATE_LEVELS,
    HATEFUL_LEVELS,
    WRITER_GENDERS,
    topics,
)


def apeach_features(config: ConfigSpec, version: str) -> datasets.Features:
    return datasets.Features(
        {
            "text": datasets.Value("string"),
            "label": features.label(),
            "topic": features.class_label(topics(version).values()),
            "topic_ko": datasets.Value("string"),
            "writer_age": datasets.Value("int8"),
            "writer_age_group": datasets.Value("int8"),
            "writer_gender": features.class_label(WRITER_GENDERS),
        }
    )


def apeach_transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    return pa.table(
        {
            "text": raw["text"],
            "label": features.class_ids(raw["class"], list(APEACH_CLASSES)),
            "topic": features.class_ids(raw["text_topic_eng"], list(topics(version))),
            "topic_ko": raw["text_topic"],
            "writer_age": raw["user_age"],
            "writer_age_group": raw["age"],
            "writer_gender": features.class_ids(raw["user_gender"], WRITER_GENDERS),
        }
    )


def beep_features(config: ConfigSpec, version: str) -> datasets.Features:
    return datasets.Features(
        {
            "text": datasets.Value("string"),
            "label": features.label(),
            "hate_level": features.class_label(HATE_LEVELS),
            "bias": features.class_label(BIASES),
            "contain_gender_bias": datasets.Value("bool"),
        }
    )


def beep_transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    hateful = pc.is_in(raw["hate"], value_set=pa.array(HATEFUL_LEVELS))
    return pa.table(
        {
            "text": raw["comments"],
            "label": pc.cast(hateful, pa.int64()),
            "hate_level": features.class_ids(raw["hate"], HATE_LEVELS),
            "bias": features.class_ids(raw["bias"], BIASES),
            "contain_gender_bias": pc.equal(raw["contain_gender_bias"], "True"),
        }
    )
