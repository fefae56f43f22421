"""HatemojiCheck's rules, each written once over pyarrow columns.

``schema.py``'s pandera model wraps them as its checks, and the streaming
validator runs them on each record batch (:mod:`hatemoji_datasets.schema.rules`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import booleans, numpy_of, scalar, strings
from hatemoji_datasets.core.emoji_search import contains_emoji
from hatemoji_datasets.schema.rules import Rows, Rule, same, text

from .spec import PERTURBATIONS, UPSTREAM_NO_TARGET


def template_ids(test_group_id: Any, upstream_set: Any) -> pyarrow.Array:
    """The ``templ_id`` each row should have, ``GROUP.DIGIT`` (null for an unknown set)."""
    # A set's digit is its position among the perturbations (missing when unknown).
    digit = pc.index_in(text(upstream_set), value_set=strings(PERTURBATIONS))
    return pc.binary_join_element_wise(
        text(test_group_id), digit.cast(pyarrow.string()), scalar(".")
    )


def template_ids_agree(rows: Rows) -> pyarrow.Array:
    """``templ_id == template_ids(test_group_id, set)``; where the groups are integers, without
    making every row's text: each distinct ``templ_id`` is read once as the group and digit
    that would make it."""
    ids, groups = rows["templ_id"], rows["test_group_id"]
    if ids.null_count or groups.null_count or not pyarrow.types.is_int64(groups.type):
        expected = template_ids(groups, rows["set"])
        return pc.fill_null(pc.equal(text(ids), expected), scalar(False))
    encoded = pc.dictionary_encode(text(ids))
    read = [_group_and_digit(value) for value in encoded.dictionary.to_pylist()]
    at = numpy_of(encoded.indices.cast(pyarrow.int64()))
    group = np.array([g for g, _ in read], dtype=np.int64)[at]
    digit = np.array([d for _, d in read], dtype=np.int64)[at]
    # A set that is no perturbation has no digit (-2), which no templ_id holds.
    wanted = pc.index_in(text(rows["set"]), value_set=strings(PERTURBATIONS))
    wanted = pc.fill_null(wanted.cast(pyarrow.int64()), scalar(-2))
    return booleans((group == numpy_of(groups)) & (digit == numpy_of(wanted)))


#: The digit of each perturbation, as the cast to text writes it.
_DIGITS = {str(position): position for position in range(len(PERTURBATIONS))}


@lru_cache(maxsize=1 << 16)
def _group_and_digit(value: str) -> tuple[int, int]:
    """The ``(group, digit)`` whose ``GROUP.DIGIT`` is ``value`` (the group as an int64 is
    written, the digit a perturbation's); ``(0, -1)`` where there are none."""
    group, _, digit = value.rpartition(".")
    try:
        number = int(group)  # no dot: the group is empty, and no number
    except ValueError:
        return 0, -1
    if digit not in _DIGITS or str(number) != group or not -(2**63) <= number < 2**63:
        return 0, -1
    return number, _DIGITS[digit]


def gold_labels(rows: Rows) -> pyarrow.Array:
    """The documented gold label of each row's functionality x perturbation cell (1 =
    hateful): originals and their no-emoji rewrites stay hateful, identity and polarity
    perturbations are not; removing the appended emoji (F5 no-emoji) leaves neutral text."""
    upstream_set = rows["set"]
    hateful = pc.or_(
        same(upstream_set, "orig"),
        pc.and_(
            same(upstream_set, "no_emoji_perturb"),
            pc.invert(same(rows["functionality"], "append")),
        ),
    )
    return hateful.cast(pyarrow.int64())


def _no_target(rows: Rows) -> pyarrow.Array:
    return pc.equal(same(rows["target"], UPSTREAM_NO_TARGET), same(rows["set"], "identity_perturb"))


def _label_cell(rows: Rows) -> pyarrow.Array:
    return same(rows["label_gold"], gold_labels(rows))


def _emoji(rows: Rows) -> pyarrow.Array:
    present = booleans(contains_emoji(rows["text"]))
    return pc.equal(present, pc.invert(same(rows["set"], "no_emoji_perturb")))


TEMPLATE_ID = Rule(
    "HC-TEMPLATE-ID",
    "templ_id must be test_group_id, a dot, and set's digit "
    "(0 orig, 1 identity_perturb, 2 polarity_perturb, 3 no_emoji_perturb)",
    template_ids_agree,
    column="templ_id",
    reads=("test_group_id", "set"),
    expected=lambda rows: template_ids(rows["test_group_id"], rows["set"]),
)
NO_TARGET = Rule(
    "HC-NO-TARGET",
    "target must be None exactly for identity perturbations",
    _no_target,
    column="target",
    reads=("set",),
)
LABEL_CELL = Rule(
    "HC-LABEL-CELL",
    "label_gold disagrees with its functionality x set cell",
    _label_cell,
    column="label_gold",
    reads=("functionality", "set"),
    expected=gold_labels,
)
EMOJI = Rule(
    "HC-EMOJI",
    "originals and identity/polarity perturbations need an emoji; "
    "no_emoji perturbations must have none",
    _emoji,
    column="text",
    reads=("set",),
)

RULES = (TEMPLATE_ID, NO_TARGET, LABEL_CELL, EMOJI)
