"""Multilingual HateCheck's raw format (``hatecheck_cases_final_<language>.csv``) as a model.

All ten files share it; the eight gender-inflected languages add the
``gender_male`` and ``gender_female`` template columns. Which file (and so
which language) a row came from is recorded by the reader (see
``schema.row_sources``); a row's case id must carry that language. The
vocabularies come from the declaration (``spec.py``).
"""

from __future__ import annotations

import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import OPTIONAL_ID, RawFileModel, rule

from . import rules
from .spec import (
    FUNCTIONALITIES,
    LANGUAGES,
    TARGET_OF_SPELLING,
    UPSTREAM_BOOLEANS,
    UPSTREAM_LABELS,
)

#: ``<language>-<n>``.
CASE_ID = rf"^({'|'.join(LANGUAGES)})-[1-9][0-9]*$"


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

    id_names_its_language = rule(rules.ID_LANGUAGE)
    label_matches_suffix = rule(rules.LABEL_SUFFIX)
    test_of_its_language = rule(rules.FUNCTIONALITY_LANGUAGE)
    target_of_its_language = rule(rules.TARGET_LANGUAGE)
    reference_names_a_case = rule(rules.REF_CASE)
    reference_template_agrees = rule(rules.REF_TEMPLATE)
    labels_literal = rule(rules.LABELS_LITERAL_RULE)
    majority_agrees = rule(rules.MAJORITY)
    disagreement_flag = rule(rules.DISAGREEMENT)
