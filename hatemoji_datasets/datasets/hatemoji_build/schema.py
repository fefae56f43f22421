"""The raw HatemojiBuild files (train, validation and test CSV) as one pandera model.

The three files are validated as one table because each entry's partner may
sit in another file; the reader records which file each row came from (see
``schema.source_splits``), which the split rule compares with the ``split``
column. The model has exactly the columns of an upstream file. Its
vocabularies come from the declaration (``spec.py``).
"""

from __future__ import annotations

import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import RawFileModel, rule

from . import rules
from .spec import (
    HATE_TYPES,
    PERTURBATIONS,
    ROUNDS,
    UPSTREAM_SPLIT_OF_FILE,
)


class HatemojiBuildRaw(RawFileModel):
    """One row per entry of the three upstream files together."""

    entry_id: Series[int] = pa.Field(ge=0, unique=True, description="entry id, unique")
    text: Series[str] = pa.Field(str_length={"min_value": 1}, description="the entry")
    type: Series[str] = pa.Field(isin=list(HATE_TYPES), description="hate type, none if not hate")
    target: Series[str] = pa.Field(description="target codes as a list literal, ['none'] if not")
    round_base: Series[int] = pa.Field(
        alias="round.base", isin=list(ROUNDS), description="collection round"
    )
    round_set: Series[str] = pa.Field(
        alias="round.set",
        str_matches=r"^[567][ab]$",
        description="round, a original, b perturbation",
    )
    set: Series[str] = pa.Field(isin=list(PERTURBATIONS), description="original or perturbation")
    split: Series[str] = pa.Field(
        isin=list(UPSTREAM_SPLIT_OF_FILE.values()), description="split, as the file it sits in"
    )
    label_gold: Series[int] = pa.Field(isin=[0, 1], description="1 hateful, 0 not")
    matched_text: Series[str] = pa.Field(description="the partner's text")
    matched_id: Series[int] = pa.Field(ge=0, description="the partner's entry_id")

    class Config:
        name = "HatemojiBuild raw train.csv + validation.csv + test.csv"

    # -- the target literal ---------------------------------------------------------------

    target_literal_well_formed = rule(rules.TARGET_LITERAL)
    target_codes_known = rule(rules.TARGET_UNKNOWN)
    target_codes_distinct = rule(rules.TARGET_REPEATED)

    # -- labels -------------------------------------------------------------------------

    type_none_iff_not_hateful = rule(rules.TYPE_LABEL)
    no_target_iff_no_type = rule(rules.TARGET_TYPE)
    round_set_agrees = rule(rules.ROUND_SET)
    split_agrees_with_file = rule(rules.SPLIT_FILE)

    # -- pairs: only reported where the partner exists, so a missing one is named once ----

    partner_exists = rule(rules.PAIR_MISSING)
    pair_symmetric = rule(rules.PAIR_ASYMMETRIC)
    pair_in_one_round = rule(rules.PAIR_ROUND)
    matched_text_is_partner_text = rule(rules.PAIR_TEXT)
    pair_original_and_perturbation = rule(rules.PAIR_SET)
