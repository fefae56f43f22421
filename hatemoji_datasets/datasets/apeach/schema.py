"""The raw APEACH file (``APEACH/test.csv``) and BEEP!'s labeled TSVs as pandera models.

Their vocabularies come from the declaration (``spec.py``).
"""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import RawFileModel, rule

from .spec import (
    AGE_GROUP_WIDTH,
    APEACH_CLASSES,
    BIASES,
    GENDER_BIAS,
    HATE_LEVELS,
    UPSTREAM_BOOLEANS,
    UPSTREAM_TOPICS,
    WRITER_GENDERS,
    YOUNGEST_AGE_GROUP,
)


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
    text_topic_eng: Series[str] = pa.Field(
        isin=list(UPSTREAM_TOPICS), description="English topic name"
    )

    class Config:
        name = "APEACH raw test.csv"

    @rule(
        "AP-AGE-GROUP",
        "age must be the five-year group of user_age (under 20 -> 20)",
        column="age",
        reads=("user_age",),
        expected=lambda df: pd.to_numeric(df["user_age"], errors="coerce").map(
            age_group, na_action="ignore"
        ),
    )
    def age_is_group_of_user_age(cls, df: pd.DataFrame) -> Series[bool]:
        user_age = pd.to_numeric(df["user_age"], errors="coerce")
        age = pd.to_numeric(df["age"], errors="coerce")
        # A value that is no number already fails its column's type; don't report it twice.
        unknown = user_age.isna() | age.isna()
        return unknown | (age == user_age.map(age_group, na_action="ignore"))

    @rule(
        "AP-TOPIC-NAMES",
        "text_topic and text_topic_eng must map one-to-one",
        column="text_topic_eng",
        reads=("text_topic",),
    )
    def topic_names_one_to_one(cls, df: pd.DataFrame) -> Series[bool]:
        # A row fails when its Korean prompt has several English names, or the reverse.
        english_per_prompt = df.groupby("text_topic")["text_topic_eng"].transform("nunique")
        prompts_per_english = df.groupby("text_topic_eng")["text_topic"].transform("nunique")
        return (english_per_prompt == 1) & (prompts_per_english == 1)


# -- BEEP! --------------------------------------------------------------------------


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

    @rule(
        "BP-GENDER-FLAG",
        "contain_gender_bias must be True exactly when bias is gender",
        column="contain_gender_bias",
        reads=("bias",),
    )
    def gender_flag_matches_bias(cls, df: pd.DataFrame) -> Series[bool]:
        return (df["contain_gender_bias"] == "True") == (df["bias"] == GENDER_BIAS)
