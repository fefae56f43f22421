"""HateCheck's two raw formats as pandera models: cases and their annotations.

``test_suite_cases.csv`` and ``all_cases.csv`` hold the cases;
``test_suite_annotations.csv`` and ``all_annotations.csv`` the labels of the
five annotators each case received. Both start with an unnamed column: the
row's position in its file (the suite renumbers it). Vocabularies come from
the declaration (``spec.py``).
"""

from __future__ import annotations

import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import OPTIONAL_ID, RawFileModel, rule

from . import rules
from .spec import (
    DIRECTIONS,
    FUNCTIONALITIES,
    LABELS_PER_CASE,
    PROTECTED_TARGETS,
    UPSTREAM_LABELS,
    UPSTREAM_NO_TARGET,
)

NON_HATEFUL, HATEFUL = UPSTREAM_LABELS


def _row_index() -> object:
    return pa.Field(
        alias="", ge=0, description="upstream's row index, the row's position in its file"
    )


def _case_id(unique: bool) -> object:
    return pa.Field(ge=1, unique=unique, description="case id (1..3901 over all generated cases)")


def _functionality() -> object:
    return pa.Field(isin=list(FUNCTIONALITIES), description="the functional test; _h or _nh")


def _text() -> object:
    return pa.Field(str_length={"min_value": 1}, description="the test case, verbatim")


def _label_gold() -> object:
    return pa.Field(isin=list(UPSTREAM_LABELS), description="gold label")


def _label() -> object:
    return pa.Field(
        isin=[*UPSTREAM_LABELS, ""], description="this annotator's label, empty if not theirs"
    )


class HateCheckCases(RawFileModel):
    """One row per test case of ``test_suite_cases.csv`` or ``all_cases.csv``."""

    row_index: Series[int] = _row_index()
    functionality: Series[str] = _functionality()
    case_id: Series[int] = _case_id(unique=True)
    test_case: Series[str] = _text()
    label_gold: Series[str] = _label_gold()
    target_ident: Series[str] = pa.Field(
        isin=[*PROTECTED_TARGETS, UPSTREAM_NO_TARGET], description="protected group, or empty"
    )
    direction: Series[str] = pa.Field(
        isin=list(DIRECTIONS), description="general or directed hate; - if not hateful"
    )
    focus_words: Series[str] = pa.Field(
        str_length={"min_value": 1}, description="the key words, - if none"
    )
    focus_lemma: Series[str] = pa.Field(
        str_length={"min_value": 1}, description="their lemma, - if none"
    )
    ref_case_id: Series[str] = pa.Field(
        str_matches=OPTIONAL_ID, description="the hateful case this one is derived from"
    )
    ref_templ_id: Series[str] = pa.Field(
        str_matches=OPTIONAL_ID, description="that case's template"
    )
    templ_id: Series[int] = pa.Field(ge=1, description="the template the case was made from")
    case_templ: Series[str] = pa.Field(
        str_length={"min_value": 1}, description="the template, with placeholders"
    )

    class Config:
        name = "HateCheck raw cases (test_suite_cases.csv, all_cases.csv)"

    label_matches_suffix = rule(rules.LABEL_SUFFIX)
    direction_only_for_hate = rule(rules.DIRECTION)
    no_target_only_where_none_is_named = rule(rules.NO_TARGET)
    reference_names_a_case = rule(rules.REF_CASE)
    reference_template_agrees = rule(rules.REF_TEMPLATE)


class HateCheckAnnotations(RawFileModel):
    """One row per case of ``all_annotations.csv``: which five of ten annotators labelled it."""

    row_index: Series[int] = _row_index()
    functionality: Series[str] = _functionality()
    case_id: Series[int] = _case_id(unique=True)
    templ_id: Series[int] = pa.Field(ge=1, description="the case's template")
    test_case: Series[str] = _text()
    label_gold: Series[str] = _label_gold()
    label_1: Series[str] = _label()
    label_2: Series[str] = _label()
    label_3: Series[str] = _label()
    label_4: Series[str] = _label()
    label_5: Series[str] = _label()
    label_6: Series[str] = _label()
    label_7: Series[str] = _label()
    label_8: Series[str] = _label()
    label_9: Series[str] = _label()
    label_10: Series[str] = _label()
    count_label_h: Series[int] = pa.Field(
        ge=0, le=LABELS_PER_CASE, description="annotators who said hateful"
    )
    count_label_nh: Series[int] = pa.Field(
        ge=0, le=LABELS_PER_CASE, description="annotators who said non-hateful"
    )
    label_annot_maj: Series[str] = pa.Field(
        isin=list(UPSTREAM_LABELS), description="the annotators' majority label"
    )

    class Config:
        name = "HateCheck raw annotations (all_annotations.csv)"

    label_matches_suffix = rule(rules.LABEL_SUFFIX_ANNOTATIONS)
    five_labels = rule(rules.FIVE_LABELS)
    hateful_count = rule(rules.COUNT_HATEFUL)
    non_hateful_count = rule(rules.COUNT_NON_HATEFUL)
    majority_agrees = rule(rules.MAJORITY)


class HateCheckSuiteAnnotations(HateCheckAnnotations):
    """One row per case of ``test_suite_annotations.csv``: every suite case had at least four
    of its five annotators agree with its gold label."""

    class Config:
        name = "HateCheck raw test suite annotations (test_suite_annotations.csv)"

    annotators_agree_with_gold = rule(rules.SUITE_AGREEMENT_RULE)
