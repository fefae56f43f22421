"""HateCheck's built features and the transform from validated, joined raw rows."""

from __future__ import annotations

import datasets
import numpy as np
import pyarrow as pa

from hatemoji_datasets.core import features
from hatemoji_datasets.core.spec import ConfigSpec

from .spec import (
    ANNOTATORS,
    DIRECTIONS,
    FUNCTIONALITIES,
    LABEL_COLUMNS,
    NO_FOCUS,
    PROTECTED_TARGETS,
    TARGETS,
    UPSTREAM_LABELS,
    UPSTREAM_NO_TARGET,
)


def features_of(config: ConfigSpec, version: str) -> datasets.Features:
    columns = {
        "case_id": datasets.Value("int32"),
        "text": datasets.Value("string"),
        "functionality": features.class_label(FUNCTIONALITIES),
        "label": features.label(),
        "target": features.class_label(TARGETS),
        "direction": features.class_label(DIRECTIONS.values()),
        "focus_words": datasets.Value("string"),
        "focus_lemma": datasets.Value("string"),
        "ref_case_id": datasets.Value("int32"),
        "ref_template_id": datasets.Value("int32"),
        "template_id": datasets.Value("int32"),
        "template": datasets.Value("string"),
        "annotators": features.list_of(datasets.Value("int8")),
        "annotator_labels": features.list_of(features.label()),
        "annotator_majority": features.label(),
    }
    for join in config.joins:
        if join.indicator:
            columns[join.indicator] = datasets.Value("bool")
    return datasets.Features(columns)


def annotations(raw: pa.Table) -> tuple[pa.Array, pa.Array]:
    """Which annotators labelled each case (in pool order) and their labels, as lists."""
    labels = np.column_stack(
        [raw[column].to_numpy(zero_copy_only=False).astype(object) for column in LABEL_COLUMNS]
    )
    given = labels != ""
    offsets = pa.array(np.concatenate(([0], np.cumsum(given.sum(axis=1)))), type=pa.int32())
    who = np.broadcast_to(np.array(ANNOTATORS, dtype=np.int8), labels.shape)[given]
    said = (labels[given] == UPSTREAM_LABELS[1]).astype(np.int64)
    return (
        pa.ListArray.from_arrays(offsets, pa.array(who, type=pa.int8())),
        pa.ListArray.from_arrays(offsets, pa.array(said, type=pa.int64())),
    )


def transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    annotators, annotator_labels = annotations(raw)
    columns = {
        "case_id": raw["case_id"],
        "text": raw["test_case"],
        "functionality": features.class_ids(raw["functionality"], FUNCTIONALITIES),
        "label": features.class_ids(raw["label_gold"], UPSTREAM_LABELS),
        "target": features.class_ids(raw["target_ident"], [UPSTREAM_NO_TARGET, *PROTECTED_TARGETS]),
        "direction": features.class_ids(raw["direction"], list(DIRECTIONS)),
        "focus_words": features.null_where(raw["focus_words"], NO_FOCUS),
        "focus_lemma": features.null_where(raw["focus_lemma"], NO_FOCUS),
        "ref_case_id": features.optional_ints(raw["ref_case_id"]),
        "ref_template_id": features.optional_ints(raw["ref_templ_id"]),
        "template_id": raw["templ_id"],
        "template": raw["case_templ"],
        "annotators": annotators,
        "annotator_labels": annotator_labels,
        "annotator_majority": features.class_ids(raw["label_annot_maj"], UPSTREAM_LABELS),
    }
    for join in config.joins:
        if join.indicator:
            columns[join.indicator] = raw[join.indicator]
    return pa.table(columns)
