"""Multilingual HateCheck's built features (one set for every config) and the transform."""

from __future__ import annotations

import datasets
import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets.core import features
from hatemoji_datasets.core.spec import ConfigSpec

from .spec import (
    FUNCTIONALITIES,
    LANGUAGES,
    TARGET_OF_SPELLING,
    TARGETS,
    UPSTREAM_LABELS,
)


def features_of(config: ConfigSpec, version: str) -> datasets.Features:
    return datasets.Features(
        {
            "case_id": datasets.Value("string"),
            "language": features.class_label(LANGUAGES),
            "text": datasets.Value("string"),
            "functionality": features.class_label(FUNCTIONALITIES),
            "label": features.label(),
            "target": features.class_label(TARGETS),
            "ref_case_id": datasets.Value("string"),
            "ref_template_id": datasets.Value("int32"),
            "template_id": datasets.Value("int32"),
            "template": datasets.Value("string"),
            "template_male": datasets.Value("string"),
            "template_female": datasets.Value("string"),
            "annotator_labels": features.list_of(features.label()),
            "annotator_majority": features.label(),
            "disagreement_in_case": datasets.Value("bool"),
            "disagreement_in_template": datasets.Value("bool"),
        }
    )


def _empty_as_null(values: pa.ChunkedArray | None, rows: int) -> pa.Array:
    """A template column, null where the file leaves it empty or does not have it."""
    if values is None:
        return pa.nulls(rows, type=pa.string())
    return features.null_where(values, "")


def transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    ids = raw["mhc_case_id"].combine_chunks()
    language = pc.extract_regex(ids, r"^(?P<language>[a-z]+)-").field("language")
    refs = features.optional_ints(raw["ref_case_id"])
    ref_ids = pc.binary_join_element_wise(language, refs.cast(pa.string()), "-")
    rows = raw.num_rows

    def column(name: str) -> pa.ChunkedArray | None:
        return raw[name] if name in raw.column_names else None

    spellings = list(TARGET_OF_SPELLING)
    built = pa.array([TARGETS.index(TARGET_OF_SPELLING[s]) for s in spellings], type=pa.int64())
    target_ids = pc.take(built, features.class_ids(raw["target_ident"], spellings))
    return pa.table(
        {
            "case_id": ids,
            "language": features.class_ids(language, LANGUAGES),
            "text": raw["test_case"],
            "functionality": features.class_ids(raw["functionality"], FUNCTIONALITIES),
            "label": features.class_ids(raw["label_gold"], UPSTREAM_LABELS),
            "target": target_ids,
            "ref_case_id": ref_ids,
            "ref_template_id": features.optional_ints(raw["ref_templ_id"]),
            "template_id": raw["templ_id"],
            "template": _empty_as_null(raw["case_templ"], rows),
            "template_male": _empty_as_null(column("gender_male"), rows),
            "template_female": _empty_as_null(column("gender_female"), rows),
            "annotator_labels": features.list_literal_ids(raw["label_annotated"], UPSTREAM_LABELS),
            "annotator_majority": features.class_ids(raw["label_annotated_maj"], UPSTREAM_LABELS),
            "disagreement_in_case": pc.equal(raw["disagreement_in_case"], "True"),
            "disagreement_in_template": pc.equal(raw["disagreement_in_template"], "True"),
        }
    )
