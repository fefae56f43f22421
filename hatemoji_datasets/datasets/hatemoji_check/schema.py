"""The raw HatemojiCheck file (``HatemojiCheck/test.csv``) as a pandera model.

The vocabularies below are the single definition used by the schema and by the
builder's ClassLabels.
"""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa
import pyarrow
import pyarrow.compute as pc
from pandera.typing import Series

from hatemoji_datasets.features import contains_emoji
from hatemoji_datasets.validation import RawFileModel

#: Functionalities in the paper's F1..F7 order.
FUNCTIONALITIES: tuple[str, ...] = (
    "verb_swap",
    "identity_swap",
    "descriptor_swap",
    "double_swap",
    "append",
    "positive_confounder",
    "emoji_leetspeak",
)
#: Upstream ``set`` value -> perturbation name, in the paper's .0 .. .3 order.
PERTURBATIONS: dict[str, str] = {
    "orig": "original",
    "identity_perturb": "identity",
    "polarity_perturb": "polarity",
    "no_emoji_perturb": "no_emoji",
}
#: Protected targets as upstream spells them.
PROTECTED_TARGETS: tuple[str, ...] = (
    "women",
    "trans people",
    "gay people",
    "black people",
    "disabled people",
    "Muslims",
)
#: Upstream writes the literal ``None`` where an identity perturbation has no protected target.
UPSTREAM_NO_TARGET = "None"
#: The explicit value the built dataset uses for those cases.
NO_TARGET = "none"
TARGETS: tuple[str, ...] = (NO_TARGET, *PROTECTED_TARGETS)


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


def template_ids_agree(
    templ_id: pd.Series, test_group_id: pd.Series, upstream_set: pd.Series
) -> pd.Series:
    """Whether each ``templ_id`` is ``GROUP.DIGIT`` for its group and set (all in pyarrow)."""
    sets = pyarrow.array(upstream_set)
    digit = pyarrow.nulls(len(sets), type=sets.type)
    for position, name in enumerate(PERTURBATIONS):  # four comparisons beat a hash lookup
        digit = pc.if_else(pc.equal(sets, name), str(position), digit)
    group = pyarrow.array(test_group_id).cast(sets.type)
    expected = pc.binary_join_element_wise(group, digit, pyarrow.scalar(".", type=sets.type))
    agree = pc.equal(pyarrow.array(templ_id.astype(str)).cast(sets.type), expected)
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

    @pa.dataframe_check(
        error="templ_id must be test_group_id, a dot, and set's digit "
        "(0 orig, 1 identity_perturb, 2 polarity_perturb, 3 no_emoji_perturb)"
    )
    def template_id_agrees(cls, df: pd.DataFrame) -> Series[bool]:
        return template_ids_agree(df["templ_id"], df["test_group_id"], df["set"])

    @pa.dataframe_check(error="target must be None exactly for identity perturbations")
    def no_target_only_for_identity(cls, df: pd.DataFrame) -> Series[bool]:
        return (df["target"] == UPSTREAM_NO_TARGET) == (df["set"] == "identity_perturb")

    @pa.dataframe_check(error="label_gold disagrees with its functionality x set cell")
    def label_matches_cell(cls, df: pd.DataFrame) -> Series[bool]:
        return df["label_gold"] == gold_labels(df["functionality"], df["set"])

    @pa.dataframe_check(
        error="originals and identity/polarity perturbations need an emoji; "
        "no_emoji perturbations must have none"
    )
    def emoji_rule(cls, df: pd.DataFrame) -> Series[bool]:
        present = contains_emoji(df["text"])
        return present == (df["set"] != "no_emoji_perturb")
