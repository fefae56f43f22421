"""The raw APEACH file (``APEACH/test.csv``) and BEEP!'s labeled TSVs as pandera models.

The vocabularies below are the single definition used by the schemas and by the
builder's ClassLabels.
"""

from __future__ import annotations

import csv

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.features import LABEL_NAMES
from hatemoji_datasets.validation import RawFileModel, TableFormat

NON_HATEFUL, HATEFUL = LABEL_NAMES

# -- APEACH -------------------------------------------------------------------------

#: Upstream ``class`` -> the package's shared label.
APEACH_CLASSES: dict[str, str] = {"Default": NON_HATEFUL, "Spoiled": HATEFUL}
#: Upstream ``text_topic_eng`` -> topic name, in the order the paper lists the ten
#: prompts. Only the spelling of ``Gender sterotypes`` is corrected; the other names
#: keep upstream's wording in snake_case (``sexual_harassment`` is the prompt about
#: sexual orientation and gender identity).
TOPICS: dict[str, str] = {
    "Gender sterotypes": "gender_stereotypes",
    "Sexual harassment": "sexual_harassment",
    "Age and social status": "age_and_social_status",
    "Nationality": "nationality",
    "Racism": "racism",
    "Origin and residence": "origin_and_residence",
    "Appearance": "appearance",
    "Disabled": "disabled",
    "Diets": "diets",
    "Education": "education",
}
#: ``user_gender`` as upstream writes it.
WRITER_GENDERS: tuple[str, ...] = ("female", "male")
AGE_GROUP_WIDTH = 5
#: Upstream files its few writers under 20 (aged 18 and 19) under the 20 group.
YOUNGEST_AGE_GROUP = 20


def age_group(age: int) -> int:
    """The five-year bucket upstream's ``age`` column gives a writer of ``age`` years."""
    return max(YOUNGEST_AGE_GROUP, age - age % AGE_GROUP_WIDTH)


class ApeachRaw(RawFileModel):
    """One row per crowd-written sentence of the upstream ``test.csv``."""

    text: Series[str] = pa.Field(
        str_length={"min_value": 1}, unique=True, description="the sentence, verbatim"
    )
    user_age: Series[int] = pa.Field(ge=10, le=99, description="writer's age in years")
    user_gender: Series[str] = pa.Field(isin=list(WRITER_GENDERS), description="writer's gender")
    text_topic: Series[str] = pa.Field(
        str_length={"min_value": 1}, description="the Korean topic prompt the writer chose"
    )
    upstream_class: Series[str] = pa.Field(
        isin=list(APEACH_CLASSES), alias="class", description="Spoiled = hate, Default = not"
    )
    age: Series[int] = pa.Field(ge=YOUNGEST_AGE_GROUP, description="writer's five-year age group")
    text_topic_eng: Series[str] = pa.Field(isin=list(TOPICS), description="English topic name")

    class Config:
        name = "APEACH raw test.csv"

    @pa.dataframe_check(error="age must be the five-year group of user_age (under 20 -> 20)")
    def age_is_group_of_user_age(cls, df: pd.DataFrame) -> Series[bool]:
        user_age = pd.to_numeric(df["user_age"], errors="coerce")
        age = pd.to_numeric(df["age"], errors="coerce")
        # A value that is no number already fails its column's type; don't report it twice.
        unknown = user_age.isna() | age.isna()
        return unknown | (age == user_age.map(age_group, na_action="ignore"))

    @pa.dataframe_check(error="text_topic and text_topic_eng must map one-to-one")
    def topic_names_one_to_one(cls, df: pd.DataFrame) -> Series[bool]:
        # A row fails when its Korean prompt has several English names, or the reverse.
        english_per_prompt = df.groupby("text_topic")["text_topic_eng"].transform("nunique")
        prompts_per_english = df.groupby("text_topic_eng")["text_topic"].transform("nunique")
        return (english_per_prompt == 1) & (prompts_per_english == 1)


# -- BEEP! --------------------------------------------------------------------------

#: BEEP!'s TSVs: tab-separated with no quoting, so quote characters are data.
BEEP_FORMAT = TableFormat(delimiter="\t", quoting=csv.QUOTE_NONE)
#: Upstream ``hate``, from no to most severe.
HATE_LEVELS: tuple[str, ...] = ("none", "offensive", "hate")
#: The levels the APEACH paper folds into one hateful class.
HATEFUL_LEVELS: frozenset[str] = frozenset({"offensive", "hate"})
#: Upstream ``bias``.
BIASES: tuple[str, ...] = ("none", "gender", "others")
GENDER_BIAS = "gender"
#: Upstream ``contain_gender_bias`` spellings.
UPSTREAM_BOOLEANS: dict[str, bool] = {"True": True, "False": False}


class BeepRaw(RawFileModel):
    """One row per labeled news comment of the upstream ``train.tsv`` or ``dev.tsv``."""

    comments: Series[str] = pa.Field(
        str_length={"min_value": 1}, unique=True, description="the comment, verbatim"
    )
    contain_gender_bias: Series[str] = pa.Field(
        isin=list(UPSTREAM_BOOLEANS), description="True exactly when bias is gender"
    )
    bias: Series[str] = pa.Field(isin=list(BIASES), description="social bias")
    hate: Series[str] = pa.Field(isin=list(HATE_LEVELS), description="hate-speech level")

    class Config:
        name = "BEEP! raw labeled TSV"

    @pa.dataframe_check(error="contain_gender_bias must be True exactly when bias is gender")
    def gender_flag_matches_bias(cls, df: pd.DataFrame) -> Series[bool]:
        return (df["contain_gender_bias"] == "True") == (df["bias"] == GENDER_BIAS)
