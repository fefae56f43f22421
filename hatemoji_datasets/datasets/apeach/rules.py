"""APEACH's and BEEP!'s rules over pyarrow columns, for the validator's compiled plan.

One implementation per rule code, run on record batches without pandas or
pandera: ``SCREEN`` for rules of one row, ``ACROSS`` for rules between rows;
``schema.py`` declares the same rules for the exact engine, and a test proves
both agree.
"""

from __future__ import annotations

from typing import Any

import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import distinct_pairs, scalar
from hatemoji_datasets.schema.plan import ScreenContext

from .spec import (
    AGE_GROUP_WIDTH,
    GENDER_BIAS,
    YOUNGEST_AGE_GROUP,
)


def _age_group(batch: Any, context: ScreenContext) -> pyarrow.Array:
    """``age`` is the five-year group of ``user_age`` (under 20: 20). Ages out of their
    range already fail their column's check; in range, integer division is floor."""
    user_age = batch["user_age"]
    width = scalar(AGE_GROUP_WIDTH).cast(user_age.type)
    floor = pc.multiply(pc.divide(user_age, width), width)
    expected = pc.max_element_wise(floor, scalar(YOUNGEST_AGE_GROUP).cast(user_age.type))
    return pc.equal(batch["age"], expected)


def _gender_flag(batch: Any, context: ScreenContext) -> pyarrow.Array:
    return pc.equal(
        pc.equal(batch["contain_gender_bias"], scalar("True")),
        pc.equal(batch["bias"], scalar(GENDER_BIAS)),
    )


class TopicNames:
    """``text_topic`` and ``text_topic_eng`` map one to one, over every row of the file:
    the distinct pairs seen so far (a few dozen topics)."""

    def __init__(self, context: ScreenContext) -> None:
        self.english: dict[str, set[str]] = {}
        self.prompts: dict[str, set[str]] = {}

    def add(self, batch: Any) -> bool:
        for prompt, english in distinct_pairs(batch["text_topic"], batch["text_topic_eng"]):
            self.english.setdefault(prompt, set()).add(english)
            self.prompts.setdefault(english, set()).add(prompt)
        return self.finish()

    def finish(self) -> bool:
        return all(len(names) == 1 for names in (*self.english.values(), *self.prompts.values()))


SCREEN = {"AP-AGE-GROUP": _age_group, "BP-GENDER-FLAG": _gender_flag}
ACROSS = {"AP-TOPIC-NAMES": TopicNames}
