"""The synthetic dataset's raw files (``train.csv``, ``test.csv``) as a pandera model."""

from __future__ import annotations

import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import RawFileModel, rule

from . import rules
from .spec import TOPICS


class SyntheticRaw(RawFileModel):
    """One row per sentence."""

    sentence_id: Series[int] = pa.Field(ge=1, unique=True, description="sentence id, unique")
    sentence: Series[str] = pa.Field(str_length={"min_value": 1}, description="the sentence")
    topic: Series[str] = pa.Field(isin=list(TOPICS), description="what it is about")
    complaint: Series[int] = pa.Field(isin=[0, 1], description="1 a complaint, 0 not")

    class Config:
        name = "synthetic raw CSV"

    complaint_has_the_mark = rule(rules.COMPLAINT)
