"""HatemojiBuild's rules over pyarrow columns, for the validator's compiled plan.

One implementation per rule code, run on record batches without pandas or
pandera: ``SCREEN`` for rules of one row, ``ACROSS`` for the pair rules (an
entry's partner may sit in another batch, another file, or the release);
``schema.py`` declares the same rules for the exact engine, and a test proves
both agree. The target literals are read by ``targets.py``'s own parser, once
per distinct literal of a batch.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import (
    booleans,
    concatenated,
    digests,
    first_rows_of,
    int64s,
    numpy_of,
    scalar,
    strings,
)
from hatemoji_datasets.schema.plan import ScreenContext

from .spec import (
    NO_HATE_TYPE,
    PERTURBATIONS,
    ROUND_SET_LETTER,
    UPSTREAM_SPLIT_OF_FILE,
)
from .targets import (
    NO_TARGET,
    is_target_literal,
    parse_target_literal,
    target_codes,
)


@lru_cache(maxsize=1 << 16)
def _literal(literal: str) -> tuple[bool, bool, bool, bool, bool]:
    """What the target rules ask of one literal: ``(well formed, every code known, no code
    repeated, names only "none", names "none")``; a malformed one keeps the other rules."""
    if not is_target_literal(literal):
        return False, True, True, False, False
    codes = parse_target_literal(literal)
    return (
        True,
        frozenset(target_codes()).issuperset(codes),
        len(set(codes)) == len(codes),
        codes == (NO_TARGET,),
        NO_TARGET in codes,
    )


def _per_literal(batch: Any) -> np.ndarray:
    """:func:`_literal`'s answers for every row (a column each), each distinct literal read
    once."""
    if batch["target"].null_count:  # missing literals: the column's own check says so
        return np.zeros((batch.num_rows, 5), dtype=bool)
    encoded = pc.dictionary_encode(batch["target"])
    answers = np.array(
        [_literal(text) for text in encoded.dictionary.to_pylist()], dtype=bool
    ).reshape(-1, 5)
    return answers[numpy_of(encoded.indices.cast(pyarrow.int64()))]


def _target_literal(batch: Any, context: ScreenContext) -> Any:
    return booleans(_per_literal(batch)[:, 0])


def _target_known(batch: Any, context: ScreenContext) -> Any:
    return booleans(_per_literal(batch)[:, 1])


def _target_distinct(batch: Any, context: ScreenContext) -> Any:
    return booleans(_per_literal(batch)[:, 2])


def _type_label(batch: Any, context: ScreenContext) -> Any:
    return pc.equal(
        pc.equal(batch["type"], scalar(NO_HATE_TYPE)), pc.equal(batch["label_gold"], scalar(0))
    )


def _target_type(batch: Any, context: ScreenContext) -> Any:
    """``['none']`` exactly when the type is none, and ``none`` never among other codes."""
    answers = _per_literal(batch)
    well_formed, only_none, mentions_none = answers[:, 0], answers[:, 3], answers[:, 4]
    no_type = numpy_of(pc.fill_null(pc.equal(batch["type"], scalar(NO_HATE_TYPE)), scalar(False)))
    agrees = (only_none == no_type) & (only_none | ~mentions_none)
    return booleans(~well_formed | agrees)


def _round_set(batch: Any, context: ScreenContext) -> Any:
    letters = strings(ROUND_SET_LETTER[name] for name in PERTURBATIONS)
    at = pc.index_in(batch["set"], value_set=strings(PERTURBATIONS))
    expected = pc.binary_join_element_wise(
        batch["round.base"].cast(pyarrow.string()), pc.take(letters, at), scalar("")
    )
    return pc.equal(batch["round.set"], expected)  # an unknown set: null, which breaks it


def _split_file(batch: Any, context: ScreenContext) -> Any:
    if context.split is None:  # the rows' own column says: nothing to compare
        return booleans(np.ones(batch.num_rows, dtype=bool))
    return pc.equal(batch["split"], scalar(UPSTREAM_SPLIT_OF_FILE[context.split]))


class Pairs:
    """Every entry's partner (the row whose ``entry_id`` is its ``matched_id``: in the
    files, else released) exists, names it back, shares its round and is the other of
    original and perturbation, and its text is the entry's ``matched_text``.

    Kept for each row: its ids, round, set and two text digests, never the texts."""

    COLUMNS = ("entry_id", "matched_id", "round.base")

    def __init__(self, context: ScreenContext) -> None:
        self.context = context
        self.numbers: list[np.ndarray] = []
        self.sets: list[np.ndarray] = []
        self.texts: list[np.ndarray] = []
        self.matched_texts: list[np.ndarray] = []

    def add(self, batch: Any) -> bool:
        if not _readable(batch):
            return False
        self.numbers.append(np.stack([numpy_of(batch[name]) for name in self.COLUMNS], axis=1))
        self.sets.append(_set_codes(batch["set"]).astype(np.int8))
        self.texts.append(digests(batch["text"]))
        self.matched_texts.append(digests(batch["matched_text"]))
        return True

    def finish(self) -> bool:
        if not self.numbers:
            return True
        numbers, sets = concatenated(self.numbers), concatenated(self.sets)
        texts, matched_texts = concatenated(self.texts), concatenated(self.matched_texts)
        ids, matched, rounds = numbers[:, 0], numbers[:, 1], numbers[:, 2]
        # Each entry's partner: the first row of its matched_id in the files (with a repeated
        # entry_id the first row stands for it, as in the exact engine), else the release's.
        inside, at = first_rows_of(ids, matched)
        partner = [matched[at], rounds[at], sets[at], texts[at]]
        outside = ~inside
        if outside.any():
            released = self._released_partners(matched[outside])
            if released is None:
                return False
            for theirs, from_release in zip(partner, released, strict=True):
                theirs[outside] = from_release
        partner_matched, partner_rounds, partner_sets, partner_texts = partner
        return bool(
            (partner_matched == ids).all()
            and (partner_rounds == rounds).all()
            and (partner_sets != sets).all()
            and (partner_texts == matched_texts).all()
        )

    def _released_partners(self, wanted: np.ndarray) -> list[np.ndarray] | None:
        """The matched id, round, set and text digest of the first released row of each
        wanted entry_id (None where one has no released row, or the release cannot tell)."""
        released = self.context.released
        if released is None or not _readable(released):
            return None  # the release's own checks say what is wrong (a build's files)
        found, at = first_rows_of(numpy_of(released["entry_id"]), wanted)
        if not found.all():
            return None  # no partner anywhere
        theirs = released.take(int64s(at))
        return [
            numpy_of(theirs["matched_id"]),
            numpy_of(theirs["round.base"]),
            _set_codes(theirs["set"]),
            digests(theirs["text"]),
        ]


def _readable(rows: Any) -> bool:
    """Whether the pair rules can read a batch or table: integer ids and rounds, and no
    missing value in the columns they compare (else their own checks fail it)."""
    return all(pyarrow.types.is_int64(rows[name].type) for name in Pairs.COLUMNS) and not any(
        rows[name].null_count for name in (*Pairs.COLUMNS, "set", "text", "matched_text")
    )


def _set_codes(values: Any) -> np.ndarray:
    """Each ``set`` as its position among the perturbations (-1: none of them)."""
    at = pc.index_in(values, value_set=strings(PERTURBATIONS)).cast(pyarrow.int64())
    return numpy_of(pc.fill_null(at, scalar(-1)))


SCREEN = {
    "HB-TARGET-LITERAL": _target_literal,
    "HB-TARGET-UNKNOWN": _target_known,
    "HB-TARGET-REPEATED": _target_distinct,
    "HB-TYPE-LABEL": _type_label,
    "HB-TARGET-TYPE": _target_type,
    "HB-ROUND-SET": _round_set,
    "HB-SPLIT-FILE": _split_file,
}
#: The five pair rules are kept by one state.
ACROSS = {
    code: Pairs
    for code in (
        "HB-PAIR-MISSING",
        "HB-PAIR-ASYMMETRIC",
        "HB-PAIR-ROUND",
        "HB-PAIR-TEXT",
        "HB-PAIR-SET",
    )
}
