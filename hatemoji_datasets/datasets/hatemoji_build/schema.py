"""The raw HatemojiBuild files (train, validation and test CSV) as one pandera model.

The three files are validated as one table because each entry's partner may
sit in another file; the reader records which file each row came from (see
``schema.source_splits``), which the split rule compares with the ``split``
column. The model has exactly the columns of an upstream file. Its
vocabularies come from the declaration (``spec.py``).
"""

from __future__ import annotations

import weakref
from functools import cache, lru_cache

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import RawFileModel, column_rule, is_in, rule, source_splits

from .spec import (
    HATE_TYPES,
    NO_HATE_TYPE,
    PERTURBATIONS,
    ROUND_SET_LETTER,
    ROUNDS,
    UPSTREAM_SPLIT_OF_FILE,
)
from .targets import (
    NO_TARGET,
    is_target_literal,
    parse_target_literal,
    target_codes,
)


def expected_round_sets(df: pd.DataFrame) -> pd.Series:
    """``round.set`` as round.base and set say it should be."""
    return df["round.base"].astype(str) + df["set"].astype(str).map(ROUND_SET_LETTER)


def expected_splits(df: pd.DataFrame) -> pd.Series:
    """The ``split`` value of the file each row was read from (missing where unknown)."""
    files = source_splits(df)
    if files is None:
        return pd.Series(None, index=df.index, dtype=object)
    return files.map(UPSTREAM_SPLIT_OF_FILE)


@lru_cache(maxsize=1 << 16)
def _targets_of(literal: object) -> tuple[str, ...] | None:
    # Literals repeat a lot (a few hundred distinct in 5,912 rows): parse each once.
    return parse_target_literal(literal) if is_target_literal(literal) else None


@cache
def _known_codes() -> frozenset[str]:
    return frozenset(target_codes())


class _Pairs:
    """Each row's partner, worked out once per frame for the five pair rules."""

    def __init__(self, df: pd.DataFrame) -> None:
        # Every cell is compared as a string, so that a cell pandera could not
        # coerce still finds its partner and a missing partner (a row of NaN) does
        # not turn the integer columns into floats. With duplicate ids the first
        # occurrence stands for the id.
        as_text = df.astype(str)
        by_id = as_text.drop_duplicates("entry_id").set_index("entry_id", drop=False)
        self.partners = by_id.reindex(as_text["matched_id"]).set_axis(df.index)
        self.has_partner = is_in(as_text["matched_id"], by_id.index)
        self.frame = weakref.ref(df)


_last_pairs: _Pairs | None = None


def _pairs(df: pd.DataFrame) -> _Pairs:
    global _last_pairs
    if _last_pairs is None or _last_pairs.frame() is not df:
        _last_pairs = _Pairs(df)
    return _last_pairs


def partners(df: pd.DataFrame) -> pd.DataFrame:
    """Each row's partner (the row whose ``entry_id`` is its ``matched_id``), row-aligned."""
    return _pairs(df).partners


def _has_partner(df: pd.DataFrame) -> pd.Series:
    return _pairs(df).has_partner


def _partner_agrees(df: pd.DataFrame, partner_column: str, own: pd.Series) -> pd.Series:
    """Whether the partner's ``partner_column`` equals ``own`` (rows without a partner pass:
    HB-PAIR-MISSING reports them, once)."""
    return ~_has_partner(df) | (partners(df)[partner_column] == own.astype(str))


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

    @column_rule(
        "target",
        "HB-TARGET-LITERAL",
        "target must be a bracketed list of quoted codes like ['mus', 'asi.south']",
    )
    def target_literal_well_formed(cls, literal: str) -> bool:
        return is_target_literal(literal)

    @column_rule("target", "HB-TARGET-UNKNOWN", "target names a code missing from targets.tsv")
    def target_codes_known(cls, literal: str) -> bool:
        codes = _targets_of(literal)
        return codes is None or _known_codes().issuperset(codes)

    @column_rule("target", "HB-TARGET-REPEATED", "target repeats a code")
    def target_codes_distinct(cls, literal: str) -> bool:
        codes = _targets_of(literal)
        return codes is None or len(set(codes)) == len(codes)

    # -- labels -------------------------------------------------------------------------

    @rule(
        "HB-TYPE-LABEL",
        "type must be none exactly when label_gold is 0 (non-hateful)",
        column="type",
        reads=("label_gold",),
    )
    def type_none_iff_not_hateful(cls, df: pd.DataFrame) -> Series[bool]:
        return (df["type"] == NO_HATE_TYPE) == (df["label_gold"].astype(str) == "0")

    @rule(
        "HB-TARGET-TYPE",
        "target must be ['none'] exactly when type is none",
        column="target",
        reads=("type",),
    )
    def no_target_iff_no_type(cls, df: pd.DataFrame) -> Series[bool]:
        codes = df["target"].map(_targets_of)
        no_target = codes.map(lambda found: found == (NO_TARGET,))
        mentions_none = codes.map(lambda found: found is not None and NO_TARGET in found)
        agrees = (no_target == (df["type"] == NO_HATE_TYPE)) & (no_target | ~mentions_none)
        return codes.isna() | agrees  # a malformed literal is reported once, by its own rule

    @rule(
        "HB-ROUND-SET",
        "round.set must be round.base then a (original) or b (perturbation)",
        column="round.set",
        reads=("round.base", "set"),
        expected=lambda df: expected_round_sets(df),
    )
    def round_set_agrees(cls, df: pd.DataFrame) -> Series[bool]:
        return df["round.set"].astype(str) == expected_round_sets(df)

    @rule(
        "HB-SPLIT-FILE",
        "split must name the file the row sits in (dev in validation.csv)",
        column="split",
        expected=lambda df: expected_splits(df),
    )
    def split_agrees_with_file(cls, df: pd.DataFrame) -> Series[bool]:
        # A cross-file rule: it needs to know each row's file, which the reader
        # records; a frame read some other way has nothing to compare against.
        expected = expected_splits(df)
        return expected.isna() | (df["split"].astype(str) == expected)

    # -- pairs: only reported where the partner exists, so a missing one is named once ----

    @rule(
        "HB-PAIR-MISSING",
        "matched_id must be the entry_id of an entry in one of the files",
        column="matched_id",
    )
    def partner_exists(cls, df: pd.DataFrame) -> Series[bool]:
        return _has_partner(df)

    @rule(
        "HB-PAIR-ASYMMETRIC",
        "pair not symmetric: the partner's matched_id is not this entry_id",
        column="matched_id",
        reads=("entry_id",),
    )
    def pair_symmetric(cls, df: pd.DataFrame) -> Series[bool]:
        return _partner_agrees(df, "matched_id", df["entry_id"])

    @rule(
        "HB-PAIR-ROUND",
        "pair spans two rounds: the partner's round.base differs",
        column="round.base",
        reads=("matched_id", "entry_id"),
        expected=lambda df: partners(df)["round.base"],
    )
    def pair_in_one_round(cls, df: pd.DataFrame) -> Series[bool]:
        return _partner_agrees(df, "round.base", df["round.base"])

    @rule(
        "HB-PAIR-TEXT",
        "matched_text differs from the partner's text",
        column="matched_text",
        reads=("matched_id", "entry_id"),
        expected=lambda df: partners(df)["text"],
    )
    def matched_text_is_partner_text(cls, df: pd.DataFrame) -> Series[bool]:
        return _partner_agrees(df, "text", df["matched_text"])

    @rule(
        "HB-PAIR-SET",
        "a pair must be one original and one perturbation",
        column="set",
        reads=("matched_id", "entry_id"),
    )
    def pair_original_and_perturbation(cls, df: pd.DataFrame) -> Series[bool]:
        partner = partners(df)
        return ~_has_partner(df) | (partner["set"] != df["set"].astype(str))
