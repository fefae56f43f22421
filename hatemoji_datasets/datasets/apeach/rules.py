"""APEACH's and BEEP!'s rules, each written once over pyarrow columns.

``schema.py``'s pandera models wrap them as their checks, and the streaming
validator runs them on each record batch (:mod:`hatemoji_datasets.schema.rules`).
"""

from __future__ import annotations

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import booleans, int64s, numpy_of
from hatemoji_datasets.schema.rules import Rows, Rule, codes_of, numbers, same, text

from .spec import AGE_GROUP_WIDTH, GENDER_BIAS, YOUNGEST_AGE_GROUP


def _numbers(values: pyarrow.Array) -> np.ndarray:
    """:func:`numbers` as numpy: int64, or float64 with NaN where a value is none."""
    read = numbers(values)
    if pyarrow.types.is_int64(read.type) and not read.null_count:
        return numpy_of(read)
    return np.asarray(read.to_numpy(zero_copy_only=False), dtype=np.float64)


def _groups(user_age: np.ndarray) -> np.ndarray:
    """The five-year bucket upstream's ``age`` column gives a writer of each age."""
    return np.maximum(YOUNGEST_AGE_GROUP, user_age - user_age % AGE_GROUP_WIDTH)


def age_groups(rows: Rows) -> pyarrow.Array:
    """The ``age`` each row should have, the group of its ``user_age`` (null: no number)."""
    groups = _groups(_numbers(rows["user_age"]))
    if groups.dtype == np.int64:
        return int64s(groups)
    return pyarrow.array(groups, from_pandas=True)


def _age_group(rows: Rows) -> pyarrow.Array:
    user_age, age = _numbers(rows["user_age"]), _numbers(rows["age"])
    # A value that is no number already fails its column's type; don't report it twice.
    unknown = np.zeros(len(age), dtype=bool)
    for values in (user_age, age):
        if values.dtype.kind == "f":
            unknown |= np.isnan(values)
    return booleans(unknown | (age == _groups(user_age)))


def _topic_names(rows: Rows) -> pyarrow.Array:
    """A row keeps it where its Korean prompt has one English name, and that name one
    prompt, over every row."""
    prompts, english = codes_of(text(rows["text_topic"])), codes_of(text(rows["text_topic_eng"]))
    if not len(prompts):
        return booleans(np.zeros(0, dtype=bool))
    width = int(english.max()) + 1
    pairs = np.unique(prompts * width + english)
    names_per_prompt = np.bincount(pairs // width, minlength=int(prompts.max()) + 1)
    prompts_per_name = np.bincount(pairs % width, minlength=width)
    return booleans((names_per_prompt[prompts] == 1) & (prompts_per_name[english] == 1))


def _gender_flag(rows: Rows) -> pyarrow.Array:
    return pc.equal(same(rows["contain_gender_bias"], "True"), same(rows["bias"], GENDER_BIAS))


AGE_GROUP = Rule(
    "AP-AGE-GROUP",
    "age must be the five-year group of user_age (under 20 -> 20)",
    _age_group,
    column="age",
    reads=("user_age",),
    expected=age_groups,
)
TOPIC_NAMES = Rule(
    "AP-TOPIC-NAMES",
    "text_topic and text_topic_eng must map one-to-one",
    _topic_names,
    column="text_topic_eng",
    reads=("text_topic",),
    across=True,
)
GENDER_FLAG = Rule(
    "BP-GENDER-FLAG",
    "contain_gender_bias must be True exactly when bias is gender",
    _gender_flag,
    column="contain_gender_bias",
    reads=("bias",),
)

RULES = (AGE_GROUP, TOPIC_NAMES, GENDER_FLAG)
