"""HatemojiBuild's rules, each written once over pyarrow columns.

``schema.py``'s pandera model wraps them as its checks, and the streaming
validator runs them on each record batch (:mod:`hatemoji_datasets.schema.rules`).
The pair rules compare an entry with its partner, which may sit in another
file, or be released. The target literals are read by ``targets.py``'s own
parser, once per distinct literal.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import booleans, numpy_of, scalar, strings
from hatemoji_datasets.schema.rules import Rows, Rule, everywhere, first_positions, same, text

from .spec import NO_HATE_TYPE, PERTURBATIONS, ROUND_SET_LETTER, UPSTREAM_SPLIT_OF_FILE
from .targets import NO_TARGET, is_target_literal, parse_target_literal, target_codes


@cache
def _known_codes() -> frozenset[str]:
    return frozenset(target_codes())


@lru_cache(maxsize=1 << 16)
def _literal(literal: str) -> tuple[bool, bool, bool, bool, bool]:
    """What the target rules ask of one literal: ``(well formed, every code known, no code
    repeated, names only "none", names "none")``; a malformed one keeps the other rules."""
    if not is_target_literal(literal):
        return False, True, True, False, False
    codes = parse_target_literal(literal)
    return (
        True,
        _known_codes().issuperset(codes),
        len(set(codes)) == len(codes),
        codes == (NO_TARGET,),
        NO_TARGET in codes,
    )


def _per_literal(rows: Rows) -> np.ndarray:
    """:func:`_literal`'s answers for every row (a column each), each distinct literal read
    once."""

    def answers() -> np.ndarray:
        encoded = pc.dictionary_encode(text(rows["target"]))
        per_literal = [_literal(value) for value in encoded.dictionary.to_pylist()]
        found = np.array(per_literal, dtype=bool).reshape(-1, 5)
        # A missing literal (only a batch can hold one) keeps no rule: its column's check says.
        found = np.concatenate([found, np.zeros((1, 5), dtype=bool)])
        missing = scalar(len(per_literal))
        return found[numpy_of(pc.fill_null(encoded.indices.cast(pyarrow.int64()), missing))]

    return rows.once("target literals", answers)


def _target_literal(rows: Rows) -> pyarrow.Array:
    return booleans(_per_literal(rows)[:, 0])


def _target_known(rows: Rows) -> pyarrow.Array:
    return booleans(_per_literal(rows)[:, 1])


def _target_distinct(rows: Rows) -> pyarrow.Array:
    return booleans(_per_literal(rows)[:, 2])


def _type_label(rows: Rows) -> pyarrow.Array:
    return pc.equal(same(rows["type"], NO_HATE_TYPE), same(text(rows["label_gold"]), "0"))


def _target_type(rows: Rows) -> pyarrow.Array:
    """``['none']`` exactly when the type is none, and ``none`` never among other codes (a
    malformed literal is reported once, by its own rule)."""
    answers = _per_literal(rows)
    well_formed, only_none, mentions_none = answers[:, 0], answers[:, 3], answers[:, 4]
    no_type = numpy_of(same(rows["type"], NO_HATE_TYPE))
    agrees = (only_none == no_type) & (only_none | ~mentions_none)
    return booleans(~well_formed | agrees)


def round_sets(rows: Rows) -> pyarrow.Array:
    """``round.set`` as round.base and set say it should be (null: an unknown set)."""
    letters = strings(ROUND_SET_LETTER[name] for name in PERTURBATIONS)
    at = pc.index_in(text(rows["set"]), value_set=strings(PERTURBATIONS))
    return pc.binary_join_element_wise(text(rows["round.base"]), pc.take(letters, at), scalar(""))


def _round_set(rows: Rows) -> pyarrow.Array:
    return same(text(rows["round.set"]), round_sets(rows))


def file_splits(rows: Rows) -> pyarrow.Array:
    """The ``split`` value of the file each row was read from (null where unknown)."""
    if rows.splits is None:
        return pyarrow.nulls(rows.num_rows, pyarrow.string())
    files = strings(UPSTREAM_SPLIT_OF_FILE)
    values = strings(UPSTREAM_SPLIT_OF_FILE.values())
    return pc.take(values, pc.index_in(rows.splits, value_set=files))


def _split_file(rows: Rows) -> pyarrow.Array:
    # A rule across files: it needs each row's file, which the reader records; rows
    # read some other way have nothing to compare against.
    if rows.splits is None:
        return everywhere(rows)
    expected = file_splits(rows)
    return pc.or_(pc.is_null(expected), same(text(rows["split"]), expected))


# -- pairs: only reported where the partner exists, so a missing one is named once ------

#: What the pair rules read of an entry's partner.
_PAIR_COLUMNS = ("entry_id", "matched_id", "round.base", "text", "set")


def _partners(rows: Rows) -> dict[str, pyarrow.Array]:
    """Each row's partner, the first row whose ``entry_id`` is its ``matched_id`` (in the
    rows, else released), as text: a cell that is no integer still finds its partner."""

    def found() -> dict[str, pyarrow.Array]:
        every = rows.with_released(_PAIR_COLUMNS)
        at = first_positions(text(every["entry_id"]), text(rows["matched_id"]))
        partner = {name: text(every[name]).take(at) for name in _PAIR_COLUMNS}
        return {**partner, "found": pc.is_valid(at)}

    return rows.once("partners", found)


def _partner_agrees(rows: Rows, partner_column: str, own: str) -> pyarrow.Array:
    """Whether the partner's ``partner_column`` equals the row's ``own`` (rows without a
    partner keep it: HB-PAIR-MISSING names them, once)."""
    partner = _partners(rows)
    return pc.or_(pc.invert(partner["found"]), same(partner[partner_column], text(rows[own])))


def _pair_set(rows: Rows) -> pyarrow.Array:
    partner = _partners(rows)
    return pc.or_(pc.invert(partner["found"]), pc.invert(same(partner["set"], text(rows["set"]))))


TARGET_LITERAL = Rule(
    "HB-TARGET-LITERAL",
    "target must be a bracketed list of quoted codes like ['mus', 'asi.south']",
    _target_literal,
    column="target",
    of_column=True,
)
TARGET_UNKNOWN = Rule(
    "HB-TARGET-UNKNOWN",
    "target names a code missing from targets.tsv",
    _target_known,
    column="target",
    of_column=True,
)
TARGET_REPEATED = Rule(
    "HB-TARGET-REPEATED",
    "target repeats a code",
    _target_distinct,
    column="target",
    of_column=True,
)
TYPE_LABEL = Rule(
    "HB-TYPE-LABEL",
    "type must be none exactly when label_gold is 0 (non-hateful)",
    _type_label,
    column="type",
    reads=("label_gold",),
)
TARGET_TYPE = Rule(
    "HB-TARGET-TYPE",
    "target must be ['none'] exactly when type is none",
    _target_type,
    column="target",
    reads=("type",),
)
ROUND_SET = Rule(
    "HB-ROUND-SET",
    "round.set must be round.base then a (original) or b (perturbation)",
    _round_set,
    column="round.set",
    reads=("round.base", "set"),
    expected=round_sets,
)
SPLIT_FILE = Rule(
    "HB-SPLIT-FILE",
    "split must name the file the row sits in (dev in validation.csv)",
    _split_file,
    column="split",
    expected=file_splits,
)
PAIR_MISSING = Rule(
    "HB-PAIR-MISSING",
    "matched_id must be the entry_id of an entry in one of the files",
    lambda rows: _partners(rows)["found"],
    column="matched_id",
    reads=_PAIR_COLUMNS,
    compared=("text", "matched_text"),
    across=True,
)
PAIR_ASYMMETRIC = Rule(
    "HB-PAIR-ASYMMETRIC",
    "pair not symmetric: the partner's matched_id is not this entry_id",
    lambda rows: _partner_agrees(rows, "matched_id", "entry_id"),
    column="matched_id",
    reads=_PAIR_COLUMNS,
    compared=("text", "matched_text"),
    across=True,
)
PAIR_ROUND = Rule(
    "HB-PAIR-ROUND",
    "pair spans two rounds: the partner's round.base differs",
    lambda rows: _partner_agrees(rows, "round.base", "round.base"),
    column="round.base",
    reads=_PAIR_COLUMNS,
    compared=("text", "matched_text"),
    expected=lambda rows: _partners(rows)["round.base"],
    across=True,
)
PAIR_TEXT = Rule(
    "HB-PAIR-TEXT",
    "matched_text differs from the partner's text",
    lambda rows: _partner_agrees(rows, "text", "matched_text"),
    column="matched_text",
    reads=_PAIR_COLUMNS,
    compared=("text", "matched_text"),
    expected=lambda rows: _partners(rows)["text"],
    across=True,
)
PAIR_SET = Rule(
    "HB-PAIR-SET",
    "a pair must be one original and one perturbation",
    _pair_set,
    column="set",
    reads=_PAIR_COLUMNS,
    compared=("text", "matched_text"),
    across=True,
)

RULES = (
    TARGET_LITERAL,
    TARGET_UNKNOWN,
    TARGET_REPEATED,
    TYPE_LABEL,
    TARGET_TYPE,
    ROUND_SET,
    SPLIT_FILE,
    PAIR_MISSING,
    PAIR_ASYMMETRIC,
    PAIR_ROUND,
    PAIR_TEXT,
    PAIR_SET,
)
