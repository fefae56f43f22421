"""The raw HatemojiBuild files (train, validation and test CSV) as one pandera model.

The three files are validated as one table (``validation.validate_files`` with
``source_column=SOURCE_COLUMN``) because each entry's partner may sit in
another file. The vocabularies below are the single definition used by the
schema and by the builder's ClassLabels.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.datasets.hatemoji_build.targets import (
    NO_TARGET,
    is_target_literal,
    parse_target_literal,
    target_codes,
)
from hatemoji_datasets.validation import RawFileModel

#: Splits of the built dataset, each read from the upstream file of the same name.
SPLITS: tuple[str, ...] = ("train", "validation", "test")
#: What upstream's ``split`` column says in each file (it calls validation ``dev``).
UPSTREAM_SPLIT_OF_FILE: dict[str, str] = {"train": "train", "validation": "dev", "test": "test"}
#: The column ``validate_files`` adds: which of ``SPLITS`` a row was read from.
SOURCE_COLUMN = "source_file"

ROUNDS: tuple[int, ...] = (5, 6, 7)
#: Upstream ``type`` -> hate type name, in the paper's order (``none`` for non-hateful).
HATE_TYPES: dict[str, str] = {
    "none": "none",
    "derogation": "derogation",
    "animosity": "animosity",
    "threateninglanguage": "threatening",
    "dehumanizinglanguage": "dehumanizing",
}
NO_HATE_TYPE = "none"
#: Upstream ``set``: an annotator's original entry or its minimally changed perturbation.
PERTURBATIONS: tuple[str, ...] = ("original", "perturbation")
#: ``round.set`` is the round followed by this letter.
ROUND_SET_LETTER: dict[str, str] = {"original": "a", "perturbation": "b"}


def split_of_contribution(path: str, frame: pd.DataFrame) -> pd.Series:
    """The split a contributed file's rows belong to, for ``SOURCE_COLUMN``.

    A file named after a split (``train.csv``) belongs to it; otherwise each row
    says so in its own ``split`` column. Unknown values stay missing and fail.
    """
    stem = Path(path).stem
    if stem in SPLITS:
        return pd.Series(stem, index=frame.index)
    if "split" not in frame.columns:  # the schema reports the missing column
        return pd.Series("", index=frame.index)
    file_of = {upstream: split for split, upstream in UPSTREAM_SPLIT_OF_FILE.items()}
    return frame["split"].astype(str).map(file_of)


def _targets_of(literal: object) -> tuple[str, ...] | None:
    return parse_target_literal(literal) if is_target_literal(literal) else None


def partners(df: pd.DataFrame) -> pd.DataFrame:
    """Each row's partner (the row whose ``entry_id`` is its ``matched_id``), row-aligned.

    Every cell is compared as a string, so that a cell pandera could not coerce
    still finds its partner and a missing partner (a row of NaN) does not turn
    the integer columns into floats. With duplicate ids the first occurrence
    stands for the id.
    """
    as_text = df.astype(str)
    by_id = as_text.drop_duplicates("entry_id").set_index("entry_id", drop=False)
    found = by_id.reindex(as_text["matched_id"])
    found.index = df.index
    return found


def _has_partner(df: pd.DataFrame) -> pd.Series:
    return df["matched_id"].astype(str).isin(set(df["entry_id"].astype(str)))


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
    source_file: Series[str] = pa.Field(isin=list(SPLITS), description="file the row was read from")

    class Config:
        name = "HatemojiBuild raw train.csv + validation.csv + test.csv"

    # -- the target literal ---------------------------------------------------------------

    @pa.check(
        "target",
        element_wise=True,
        error="target must be a bracketed list of quoted codes like ['mus', 'asi.south']",
    )
    def target_literal_well_formed(cls, literal: str) -> bool:
        return is_target_literal(literal)

    @pa.check("target", element_wise=True, error="target names a code missing from targets.tsv")
    def target_codes_known(cls, literal: str) -> bool:
        codes = _targets_of(literal)
        return codes is None or set(codes) <= set(target_codes())

    @pa.check("target", element_wise=True, error="target repeats a code")
    def target_codes_distinct(cls, literal: str) -> bool:
        codes = _targets_of(literal)
        return codes is None or len(set(codes)) == len(codes)

    # -- labels -------------------------------------------------------------------------

    @pa.dataframe_check(error="type must be none exactly when label_gold is 0 (non-hateful)")
    def type_none_iff_not_hateful(cls, df: pd.DataFrame) -> Series[bool]:
        return (df["type"] == NO_HATE_TYPE) == (df["label_gold"].astype(str) == "0")

    @pa.dataframe_check(error="target must be ['none'] exactly when type is none")
    def no_target_iff_no_type(cls, df: pd.DataFrame) -> Series[bool]:
        codes = df["target"].map(_targets_of)
        no_target = codes.map(lambda found: found == (NO_TARGET,))
        mentions_none = codes.map(lambda found: found is not None and NO_TARGET in found)
        agrees = (no_target == (df["type"] == NO_HATE_TYPE)) & (no_target | ~mentions_none)
        return codes.isna() | agrees  # a malformed literal is reported once, by its own rule

    @pa.dataframe_check(error="round.set must be round.base then a (original) or b (perturbation)")
    def round_set_agrees(cls, df: pd.DataFrame) -> Series[bool]:
        expected = df["round.base"].astype(str) + df["set"].map(ROUND_SET_LETTER)
        return df["round.set"].astype(str) == expected

    @pa.dataframe_check(error="split must name the file the row sits in (dev in validation.csv)")
    def split_agrees_with_file(cls, df: pd.DataFrame) -> Series[bool]:
        return df["split"] == df[SOURCE_COLUMN].map(UPSTREAM_SPLIT_OF_FILE)

    # -- pairs: only reported where the partner exists, so a missing one is named once ----

    @pa.dataframe_check(error="matched_id must be the entry_id of an entry in one of the files")
    def partner_exists(cls, df: pd.DataFrame) -> Series[bool]:
        return _has_partner(df)

    @pa.dataframe_check(error="pair not symmetric: the partner's matched_id is not this entry_id")
    def pair_symmetric(cls, df: pd.DataFrame) -> Series[bool]:
        partner = partners(df)
        return ~_has_partner(df) | (partner["matched_id"] == df["entry_id"].astype(str))

    @pa.dataframe_check(error="pair spans two rounds: the partner's round.base differs")
    def pair_in_one_round(cls, df: pd.DataFrame) -> Series[bool]:
        partner = partners(df)
        same = partner["round.base"] == df["round.base"].astype(str)
        return ~_has_partner(df) | same

    @pa.dataframe_check(error="matched_text differs from the partner's text")
    def matched_text_is_partner_text(cls, df: pd.DataFrame) -> Series[bool]:
        return ~_has_partner(df) | (partners(df)["text"] == df["matched_text"].astype(str))

    @pa.dataframe_check(error="a pair must be one original and one perturbation")
    def pair_original_and_perturbation(cls, df: pd.DataFrame) -> Series[bool]:
        partner = partners(df)
        return ~_has_partner(df) | (partner["set"] != df["set"].astype(str))
