"""The raw HatemojiCheck file (``HatemojiCheck/test.csv``) as a pandera model.

Its vocabularies come from the declaration (``spec.py``), which the built
dataset's ClassLabels use too.
"""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa
import pyarrow
import pyarrow.compute as pc
from pandera.typing import Series

from hatemoji_datasets.core.emoji_search import contains_emoji
from hatemoji_datasets.schema.model import RawFileModel, rule

from .rules import template_ids
from .spec import (
    FUNCTIONALITIES,
    PERTURBATIONS,
    PROTECTED_TARGETS,
    UPSTREAM_NO_TARGET,
)


def gold_labels(functionality: pd.Series, upstream_set: pd.Series) -> pd.Series:
    """The documented gold label of each row's functionality x perturbation cell (1 = hateful).

    Originals and their no-emoji rewrites stay hateful, identity and polarity
    perturbations are not; removing the appended emoji (F5 no-emoji) leaves
    neutral text.
    """
    hateful = (upstream_set == "orig") | (
        (upstream_set == "no_emoji_perturb") & (functionality != "append")
    )
    return hateful.astype("int64")


def expected_template_ids(test_group_id: pd.Series, upstream_set: pd.Series) -> pd.Series:
    """The ``templ_id`` each row should have (for findings)."""
    expected = template_ids(test_group_id, upstream_set).to_numpy(zero_copy_only=False)
    return pd.Series(expected, index=upstream_set.index)


def template_ids_agree(
    templ_id: pd.Series, test_group_id: pd.Series, upstream_set: pd.Series
) -> pd.Series:
    """Whether each ``templ_id`` is ``GROUP.DIGIT`` for its group and set."""
    expected = template_ids(test_group_id, upstream_set)
    agree = pc.equal(pyarrow.array(templ_id).cast(pyarrow.string()), expected)
    return pd.Series(agree.fill_null(False).to_numpy(zero_copy_only=False), index=templ_id.index)


class HatemojiCheckRaw(RawFileModel):
    """One row per test case of the upstream ``test.csv``."""

    case_id: Series[int] = pa.Field(ge=0, unique=True, description="case id, unique")
    # Its form is checked by template_id_agrees, against test_group_id and set.
    templ_id: Series[str] = pa.Field(description="template id GROUP.TYPE")
    test_group_id: Series[int] = pa.Field(ge=1, description="template group")
    text: Series[str] = pa.Field(str_length={"min_value": 1}, description="the test case")
    target: Series[str] = pa.Field(
        isin=[*PROTECTED_TARGETS, UPSTREAM_NO_TARGET], description="protected group or None"
    )
    functionality: Series[str] = pa.Field(isin=list(FUNCTIONALITIES))
    set: Series[str] = pa.Field(isin=list(PERTURBATIONS), description="case type")
    label_gold: Series[int] = pa.Field(isin=[0, 1], description="1 hateful, 0 not")
    unrealistic_flags: Series[int] = pa.Field(ge=0, le=3, description="annotators flagging it")
    included_in_test_suite: Series[int] = pa.Field(eq=1)

    class Config:
        name = "HatemojiCheck raw test.csv"

    @rule(
        "HC-TEMPLATE-ID",
        "templ_id must be test_group_id, a dot, and set's digit "
        "(0 orig, 1 identity_perturb, 2 polarity_perturb, 3 no_emoji_perturb)",
        column="templ_id",
        reads=("test_group_id", "set"),
        expected=lambda df: expected_template_ids(df["test_group_id"], df["set"]),
    )
    def template_id_agrees(cls, df: pd.DataFrame) -> Series[bool]:
        return template_ids_agree(df["templ_id"], df["test_group_id"], df["set"])

    @rule(
        "HC-NO-TARGET",
        "target must be None exactly for identity perturbations",
        column="target",
        reads=("set",),
    )
    def no_target_only_for_identity(cls, df: pd.DataFrame) -> Series[bool]:
        return (df["target"] == UPSTREAM_NO_TARGET) == (df["set"] == "identity_perturb")

    @rule(
        "HC-LABEL-CELL",
        "label_gold disagrees with its functionality x set cell",
        column="label_gold",
        reads=("functionality", "set"),
        expected=lambda df: gold_labels(df["functionality"], df["set"]),
    )
    def label_matches_cell(cls, df: pd.DataFrame) -> Series[bool]:
        return df["label_gold"] == gold_labels(df["functionality"], df["set"])

    @rule(
        "HC-EMOJI",
        "originals and identity/polarity perturbations need an emoji; "
        "no_emoji perturbations must have none",
        column="text",
        reads=("set",),
    )
    def emoji_rule(cls, df: pd.DataFrame) -> Series[bool]:
        present = pd.Series(contains_emoji(df["text"]), index=df.index)
        return present == (df["set"] != "no_emoji_perturb")
