"""The raw HatemojiCheck file (``HatemojiCheck/test.csv``) as a pandera model.

Its vocabularies come from the declaration (``spec.py``), which the built
dataset's ClassLabels use too.
"""

from __future__ import annotations

import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import RawFileModel, rule

from . import rules
from .spec import (
    FUNCTIONALITIES,
    PERTURBATIONS,
    PROTECTED_TARGETS,
    UPSTREAM_NO_TARGET,
)


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

    template_id_agrees = rule(rules.TEMPLATE_ID)
    no_target_only_for_identity = rule(rules.NO_TARGET)
    label_matches_cell = rule(rules.LABEL_CELL)
    emoji_rule = rule(rules.EMOJI)
