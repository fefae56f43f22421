"""HateCheck's two raw formats as pandera models: cases and their annotations.

``test_suite_cases.csv`` and ``all_cases.csv`` hold the cases;
``test_suite_annotations.csv`` and ``all_annotations.csv`` the labels of the
five annotators each case received. Both start with an unnamed column: the
row's position in its file (the suite renumbers it). Vocabularies come from
the declaration (``spec.py``).
"""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import OPTIONAL_ID, RawFileModel, looked_up, optional_ids, rule

from .spec import (
    DIRECTIONS,
    FUNCTIONALITIES,
    HATEFUL_SUFFIX,
    LABEL_COLUMNS,
    LABELS_PER_CASE,
    NO_DIRECTION,
    NO_TARGET_FUNCTIONALITIES,
    PROTECTED_TARGETS,
    SUITE_AGREEMENT,
    UPSTREAM_LABELS,
    UPSTREAM_NO_TARGET,
)

NON_HATEFUL, HATEFUL = UPSTREAM_LABELS


def gold_of_functionality(functionality: pd.Series) -> pd.Series:
    """The gold label a functionality's name promises (``_h`` hateful, ``_nh`` not)."""
    hateful = functionality.astype(str).str.endswith(HATEFUL_SUFFIX)
    return hateful.map({True: HATEFUL, False: NON_HATEFUL})


def label_counts(df: pd.DataFrame, label: str) -> pd.Series:
    """How many of the ten annotator columns hold ``label``."""
    return df[list(LABEL_COLUMNS)].astype(str).eq(label).sum(axis=1)


def majority(df: pd.DataFrame) -> pd.Series:
    """The label most annotators gave (None on a tie, which five labels cannot have)."""
    hateful, non_hateful = label_counts(df, HATEFUL), label_counts(df, NON_HATEFUL)
    labels = pd.Series(None, index=df.index, dtype=object)
    labels[hateful > non_hateful] = HATEFUL
    labels[non_hateful > hateful] = NON_HATEFUL
    return labels


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

    @rule(
        "HCK-LABEL-SUFFIX",
        "label_gold must be hateful exactly when the functionality ends in _h",
        column="label_gold",
        reads=("functionality",),
        expected=lambda df: gold_of_functionality(df["functionality"]),
    )
    def label_matches_suffix(cls, df: pd.DataFrame) -> Series[bool]:
        return df["label_gold"] == gold_of_functionality(df["functionality"])

    @rule(
        "HCK-DIRECTION",
        "direction must be - exactly for non-hateful cases",
        column="direction",
        reads=("label_gold",),
    )
    def direction_only_for_hate(cls, df: pd.DataFrame) -> Series[bool]:
        return (df["direction"] == NO_DIRECTION) == (df["label_gold"] == NON_HATEFUL)

    @rule(
        "HCK-NO-TARGET",
        "target_ident must be empty exactly for "
        + ", ".join(NO_TARGET_FUNCTIONALITIES)
        + " (abuse of no protected group)",
        column="target_ident",
        reads=("functionality",),
    )
    def no_target_only_where_none_is_named(cls, df: pd.DataFrame) -> Series[bool]:
        untargeted = df["functionality"].isin(NO_TARGET_FUNCTIONALITIES)
        return (df["target_ident"] == UPSTREAM_NO_TARGET) == untargeted

    @rule(
        "HCK-REF-CASE",
        "ref_case_id must be empty or the case_id of a case in the files",
        column="ref_case_id",
        reads=("case_id",),
    )
    def reference_names_a_case(cls, df: pd.DataFrame) -> Series[bool]:
        refs = optional_ids(df["ref_case_id"])
        ids = pd.to_numeric(df["case_id"], errors="coerce")
        return refs.isna() | refs.isin(ids.dropna())

    @rule(
        "HCK-REF-TEMPLATE",
        "ref_templ_id must be the templ_id of the case that ref_case_id names",
        column="ref_templ_id",
        reads=("ref_case_id", "case_id", "templ_id"),
        expected=lambda df: referenced_templates(df),
    )
    def reference_template_agrees(cls, df: pd.DataFrame) -> Series[bool]:
        expected = referenced_templates(df)
        given = optional_ids(df["ref_templ_id"])
        return expected.isna() | (given == expected).fillna(False)


def referenced_templates(df: pd.DataFrame) -> pd.Series:
    """The ``templ_id`` of the case each row's ``ref_case_id`` names (missing where none)."""
    ids = pd.to_numeric(df["case_id"], errors="coerce")
    templates = pd.to_numeric(df["templ_id"], errors="coerce")
    return looked_up(ids, templates, optional_ids(df["ref_case_id"])).astype("Int64")


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

    @rule(
        "HCK-LABEL-SUFFIX",
        "label_gold must be hateful exactly when the functionality ends in _h (annotations)",
        column="label_gold",
        reads=("functionality",),
        expected=lambda df: gold_of_functionality(df["functionality"]),
    )
    def label_matches_suffix(cls, df: pd.DataFrame) -> Series[bool]:
        return df["label_gold"] == gold_of_functionality(df["functionality"])

    @rule(
        "HCK-FIVE-LABELS",
        f"exactly {LABELS_PER_CASE} of label_1 .. label_10 must hold a label",
        reads=LABEL_COLUMNS,
    )
    def five_labels(cls, df: pd.DataFrame) -> Series[bool]:
        given = label_counts(df, HATEFUL) + label_counts(df, NON_HATEFUL)
        return given == LABELS_PER_CASE

    @rule(
        "HCK-COUNT-HATEFUL",
        "count_label_h must count the hateful labels",
        column="count_label_h",
        reads=LABEL_COLUMNS,
        expected=lambda df: label_counts(df, HATEFUL),
    )
    def hateful_count(cls, df: pd.DataFrame) -> Series[bool]:
        return pd.to_numeric(df["count_label_h"], errors="coerce") == label_counts(df, HATEFUL)

    @rule(
        "HCK-COUNT-NON-HATEFUL",
        "count_label_nh must count the non-hateful labels",
        column="count_label_nh",
        reads=LABEL_COLUMNS,
        expected=lambda df: label_counts(df, NON_HATEFUL),
    )
    def non_hateful_count(cls, df: pd.DataFrame) -> Series[bool]:
        counted = label_counts(df, NON_HATEFUL)
        return pd.to_numeric(df["count_label_nh"], errors="coerce") == counted

    @rule(
        "HCK-MAJORITY",
        "label_annot_maj must be the label most of the five annotators gave",
        column="label_annot_maj",
        reads=LABEL_COLUMNS,
        expected=majority,
    )
    def majority_agrees(cls, df: pd.DataFrame) -> Series[bool]:
        return (df["label_annot_maj"] == majority(df)).fillna(False)


class HateCheckSuiteAnnotations(HateCheckAnnotations):
    """One row per case of ``test_suite_annotations.csv``: every suite case had at least four
    of its five annotators agree with its gold label."""

    class Config:
        name = "HateCheck raw test suite annotations (test_suite_annotations.csv)"

    @rule(
        "HCK-SUITE-AGREEMENT",
        f"at least {SUITE_AGREEMENT} of the five annotators must have given label_gold "
        "(as for every case the suite kept)",
        column="label_gold",
        reads=LABEL_COLUMNS,
    )
    def annotators_agree_with_gold(cls, df: pd.DataFrame) -> Series[bool]:
        agreeing = df[list(LABEL_COLUMNS)].astype(str).eq(df["label_gold"], axis=0).sum(axis=1)
        return agreeing >= SUITE_AGREEMENT
