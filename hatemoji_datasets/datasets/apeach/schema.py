"""The raw APEACH file (``APEACH/test.csv``) and BEEP!'s labeled TSVs as pandera models.

Their vocabularies come from the declaration (``spec.py``).
"""

from __future__ import annotations

import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import RawFileModel, rule

from . import rules
from .spec import (
    APEACH_CLASSES,
    BIASES,
    HATE_LEVELS,
    UPSTREAM_BOOLEANS,
    UPSTREAM_TOPICS,
    WRITER_GENDERS,
    YOUNGEST_AGE_GROUP,
)


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

    age_is_group_of_user_age = rule(rules.AGE_GROUP)
    topic_names_one_to_one = rule(rules.TOPIC_NAMES)


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

    gender_flag_matches_bias = rule(rules.GENDER_FLAG)
