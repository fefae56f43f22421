"""Multilingual HateCheck's raw format (``hatecheck_cases_final_<language>.csv``) as a model.

All ten files share it; the eight gender-inflected languages add the
``gender_male`` and ``gender_female`` template columns. Which file (and so
which language) a row came from is recorded by the reader (see
``schema.row_sources``); a row's case id must carry that language. The
vocabularies come from the declaration (``spec.py``).
"""

from __future__ import annotations

import re

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import (
    OPTIONAL_ID,
    RawFileModel,
    column_rule,
    is_in,
    looked_up,
    optional_ids,
    row_sources,
    rule,
)

from .spec import (
    ANNOTATORS_PER_CASE,
    FUNCTIONALITIES,
    FUNCTIONALITIES_OF,
    HATEFUL_SUFFIX,
    LANGUAGES,
    TARGET_OF_SPELLING,
    UPSTREAM_BOOLEANS,
    UPSTREAM_LABELS,
    UPSTREAM_NO_TARGET,
    UPSTREAM_TARGETS,
)

NON_HATEFUL, HATEFUL = UPSTREAM_LABELS
#: ``<language>-<n>``.
CASE_ID = rf"^({'|'.join(LANGUAGES)})-[1-9][0-9]*$"
_LABEL = "'(" + "|".join(re.escape(label) for label in UPSTREAM_LABELS) + ")'"
#: ``['hateful', 'non-hateful', 'hateful']``: three quoted labels.
LABELS_LITERAL = re.compile(r"\[" + ", ".join([_LABEL] * ANNOTATORS_PER_CASE) + r"\]")


def languages_of(ids: pd.Series) -> pd.Series:
    """The language prefix of each case id (missing where the id has none)."""
    return ids.astype(str).str.extract(r"^([a-z]+)-", expand=False)


def numbers_of(ids: pd.Series) -> pd.Series:
    return pd.to_numeric(ids.astype(str).str.extract(r"-([0-9]+)$", expand=False), "coerce")


def referenced_ids(df: pd.DataFrame) -> pd.Series:
    """The case id each row's ``ref_case_id`` names in its own language (missing if none)."""
    refs = optional_ids(df["ref_case_id"])
    named = languages_of(df["mhc_case_id"]) + "-" + refs.astype(str)
    return named.where(refs.notna())


def file_languages(df: pd.DataFrame) -> pd.Series:
    """The language of the file each row was read from (missing where unknown)."""
    sources = row_sources(df)
    if sources is None:
        return pd.Series(None, index=df.index, dtype=object)
    return sources.where(sources.isin(LANGUAGES))


def row_languages(df: pd.DataFrame) -> pd.Series:
    """The language whose rules each row must keep: its file's where the reader knows it
    (the config's file, or a file named like upstream's), else its case id's."""
    return file_languages(df).fillna(languages_of(df["mhc_case_id"]))


def _owners(vocabulary: dict[str, tuple[str, ...]]) -> dict[str, list[str]]:
    """Each value of a per-language vocabulary -> the languages that have it."""
    owners: dict[str, list[str]] = {}
    for language, values in vocabulary.items():
        for value in values:
            owners.setdefault(value, []).append(language)
    return owners


_TEST_LANGUAGES = _owners(FUNCTIONALITIES_OF)
_TARGET_LANGUAGES = _owners(UPSTREAM_TARGETS)


def of_language(
    values: pd.Series, languages: pd.Series, vocabulary: dict[str, tuple[str, ...]]
) -> pd.Series:
    """Whether each value is in its row's language's vocabulary (True where the language
    is unknown: the id's pattern says so). One ``isin`` per language, not a Python loop
    over the rows."""
    text = values.astype(str)
    allowed = pd.Series(True, index=values.index, dtype=bool)
    for language, words in vocabulary.items():
        mine = (languages == language).fillna(False).to_numpy(dtype=bool)
        allowed[mine] = text[mine].isin(words).to_numpy(dtype=bool)
    return allowed


def whose(values: pd.Series, languages: pd.Series, what: str, owners: dict[str, list[str]]):
    """Per row, the languages a value belongs to, for the message (missing where none)."""
    return pd.Series(
        [
            f"{value!r} is a {what} of {', '.join(owners[value])} only, not of {language}"
            if value in owners and language not in owners[value]
            else None
            for value, language in zip(values.astype(str), languages, strict=True)
        ],
        index=values.index,
        dtype=object,
    )


def expected_ids(df: pd.DataFrame) -> pd.Series:
    return file_languages(df) + "-" + numbers_of(df["mhc_case_id"]).astype("Int64").astype(str)


def majority(df: pd.DataFrame) -> pd.Series:
    """The label most of the three annotators gave (missing where the literal is bad):
    counted over the whole column by regex kernels, not literal by literal."""
    literals = df["label_annotated"].astype(str)
    ok = literals.str.fullmatch(LABELS_LITERAL.pattern).fillna(False).astype(bool)
    # A quoted label is whole: 'non-hateful' holds no 'hateful' with both its quotes.
    hateful = literals.str.count(re.escape(f"'{HATEFUL}'")).fillna(0).astype(int)
    most = (hateful * 2 > ANNOTATORS_PER_CASE).map({True: HATEFUL, False: NON_HATEFUL})
    return most.where(ok)


def referenced_templates(df: pd.DataFrame) -> pd.Series:
    """The ``templ_id`` of the case each row's ``ref_case_id`` names (missing where none)."""
    templates = pd.to_numeric(df["templ_id"], errors="coerce")
    ids = df["mhc_case_id"].astype(str)
    return looked_up(ids, templates, referenced_ids(df)).astype("Int64")


class MultilingualHateCheckCases(RawFileModel):
    """One row per test case of a ``hatecheck_cases_final_<language>.csv`` file."""

    mhc_case_id: Series[str] = pa.Field(
        str_matches=CASE_ID, unique=True, description="<language>-<n>, unique"
    )
    functionality: Series[str] = pa.Field(
        isin=list(FUNCTIONALITIES), description="the functional test; _h or _nh"
    )
    test_case: Series[str] = pa.Field(
        str_length={"min_value": 1}, description="the test case, verbatim"
    )
    label_gold: Series[str] = pa.Field(isin=list(UPSTREAM_LABELS), description="gold label")
    target_ident: Series[str] = pa.Field(
        isin=list(TARGET_OF_SPELLING), description="protected group as the file spells it"
    )
    ref_case_id: Series[str] = pa.Field(
        str_matches=OPTIONAL_ID, description="number of the hateful case this one derives from"
    )
    ref_templ_id: Series[str] = pa.Field(
        str_matches=OPTIONAL_ID, description="that case's template"
    )
    templ_id: Series[int] = pa.Field(ge=1, description="the template the case was made from")
    case_templ: Series[str] = pa.Field(description="the template, if the case has one form")
    gender_male: Series[str] | None = pa.Field(description="the masculine template")
    gender_female: Series[str] | None = pa.Field(description="the feminine template")
    label_annotated: Series[str] = pa.Field(description="the three annotators' labels")
    label_annotated_maj: Series[str] = pa.Field(
        isin=list(UPSTREAM_LABELS), description="their majority"
    )
    disagreement_in_case: Series[str] = pa.Field(
        isin=list(UPSTREAM_BOOLEANS), description="True where the majority is not the gold label"
    )
    disagreement_in_template: Series[str] = pa.Field(
        isin=list(UPSTREAM_BOOLEANS), description="upstream's flag for the template"
    )

    class Config:
        name = "Multilingual HateCheck raw cases (hatecheck_cases_final_<language>.csv)"

    @rule(
        "MHC-ID-LANGUAGE",
        "mhc_case_id must start with the language of its file",
        column="mhc_case_id",
        expected=expected_ids,
    )
    def id_names_its_language(cls, df: pd.DataFrame) -> Series[bool]:
        expected = file_languages(df)
        return expected.isna() | (languages_of(df["mhc_case_id"]) == expected)

    @rule(
        "MHC-LABEL-SUFFIX",
        "label_gold must be hateful exactly when the functionality ends in _h",
        column="label_gold",
        reads=("functionality",),
        expected=lambda df: (
            df["functionality"]
            .astype(str)
            .str.endswith(HATEFUL_SUFFIX)
            .map({True: HATEFUL, False: NON_HATEFUL})
        ),
    )
    def label_matches_suffix(cls, df: pd.DataFrame) -> Series[bool]:
        hateful = df["functionality"].astype(str).str.endswith(HATEFUL_SUFFIX)
        return (df["label_gold"] == HATEFUL) == hateful

    @rule(
        "MHC-FUNCTIONALITY-LANGUAGE",
        "functionality must be one of the tests of the row's language (its file's, else its "
        "case id's)",
        column="functionality",
        reads=("mhc_case_id",),
        detail=lambda df: whose(df["functionality"], row_languages(df), "test", _TEST_LANGUAGES),
    )
    def test_of_its_language(cls, df: pd.DataFrame) -> Series[bool]:
        unknown = ~df["functionality"].isin(FUNCTIONALITIES)  # the column's own check says
        return unknown | of_language(df["functionality"], row_languages(df), FUNCTIONALITIES_OF)

    @rule(
        "MHC-TARGET-LANGUAGE",
        "target_ident must be empty or one of the groups upstream names in the row's language "
        "(its file's, else its case id's)",
        column="target_ident",
        reads=("mhc_case_id",),
        detail=lambda df: whose(df["target_ident"], row_languages(df), "group", _TARGET_LANGUAGES),
    )
    def target_of_its_language(cls, df: pd.DataFrame) -> Series[bool]:
        known = of_language(df["target_ident"], row_languages(df), UPSTREAM_TARGETS)
        return (df["target_ident"] == UPSTREAM_NO_TARGET) | known

    @rule(
        "MHC-REF-CASE",
        "ref_case_id must be empty or the number of a case of the same language in the files",
        column="ref_case_id",
        reads=("mhc_case_id",),
    )
    def reference_names_a_case(cls, df: pd.DataFrame) -> Series[bool]:
        named = referenced_ids(df)
        return named.isna() | is_in(named, df["mhc_case_id"].astype(str))

    @rule(
        "MHC-REF-TEMPLATE",
        "ref_templ_id must be the templ_id of the case that ref_case_id names",
        column="ref_templ_id",
        reads=("ref_case_id", "mhc_case_id", "templ_id"),
        expected=referenced_templates,
    )
    def reference_template_agrees(cls, df: pd.DataFrame) -> Series[bool]:
        expected = referenced_templates(df)
        return expected.isna() | (optional_ids(df["ref_templ_id"]) == expected).fillna(False)

    @column_rule(
        "label_annotated",
        "MHC-LABELS-LITERAL",
        f"label_annotated must be a list of {ANNOTATORS_PER_CASE} quoted labels, "
        "like ['hateful', 'non-hateful', 'hateful']",
    )
    def labels_literal(cls, value: str) -> bool:
        return LABELS_LITERAL.fullmatch(str(value)) is not None

    @rule(
        "MHC-MAJORITY",
        "label_annotated_maj must be the label most of the three annotators gave",
        column="label_annotated_maj",
        reads=("label_annotated",),
        expected=majority,
    )
    def majority_agrees(cls, df: pd.DataFrame) -> Series[bool]:
        expected = majority(df)
        return expected.isna() | (df["label_annotated_maj"] == expected)

    @rule(
        "MHC-DISAGREEMENT",
        "disagreement_in_case must be True exactly where label_annotated_maj is not label_gold",
        column="disagreement_in_case",
        reads=("label_annotated_maj", "label_gold"),
        expected=lambda df: (df["label_annotated_maj"] != df["label_gold"]).map(str),
    )
    def disagreement_flag(cls, df: pd.DataFrame) -> Series[bool]:
        differs = df["label_annotated_maj"] != df["label_gold"]
        return (df["disagreement_in_case"] == "True") == differs
