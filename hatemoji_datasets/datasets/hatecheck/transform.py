"""HateCheck's built features and the transform from validated, joined raw rows."""

from __future__ import annotations

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets import features
from hatemoji_datasets.datasets.hatecheck.spec import (
    ANNOTATORS,
    DIRECTIONS,
    FUNCTIONALITIES,
    NO_FOCUS,
    PROTECTED_TARGETS,
    TARGETS,
    UPSTREAM_LABELS,
    UPSTREAM_NO_TARGET,
)
from hatemoji_datasets.spec import ConfigSpec

LABEL_COLUMNS = tuple(f"label_{k}" for k in ANNOTATORS)


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
    if any(join.indicator for join in config.joins):
        columns["in_test_suite"] = datasets.Value("bool")
    return datasets.Features(columns)


def optional_ids(values: pa.ChunkedArray) -> pa.Array:
    """Validated optional ids (``12``, ``12.0`` or empty) as nullable int32."""
    text = values.combine_chunks().cast(pa.string())
    whole = pc.replace_substring_regex(text, r"\.0$", "")
    return pc.if_else(pc.equal(whole, ""), pa.scalar(None, pa.string()), whole).cast(pa.int32())


def _focus(values: pa.ChunkedArray) -> pa.Array:
    """Upstream's ``-`` (no focus words) as null."""
    return pc.if_else(pc.equal(values, NO_FOCUS), pa.scalar(None, pa.string()), values)


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
        "focus_words": _focus(raw["focus_words"]),
        "focus_lemma": _focus(raw["focus_lemma"]),
        "ref_case_id": optional_ids(raw["ref_case_id"]),
        "ref_template_id": optional_ids(raw["ref_templ_id"]),
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
