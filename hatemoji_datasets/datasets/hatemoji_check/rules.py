"""HatemojiCheck's row rules over pyarrow columns, for the validator's compiled plan.

One implementation per rule code (``SCREEN``), run on each record batch of a
contribution without pandas or pandera; ``schema.py`` declares the same rules
for the exact engine, and a test proves both agree.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import booleans, numpy_of, scalar, strings
from hatemoji_datasets.core.emoji_search import contains_emoji
from hatemoji_datasets.schema.plan import ScreenContext

from .spec import PERTURBATIONS, UPSTREAM_NO_TARGET


def template_ids(test_group_id: Any, upstream_set: Any) -> pyarrow.Array:
    """The ``templ_id`` each row should have, ``GROUP.DIGIT``."""
    sets = pyarrow.array(upstream_set).cast(pyarrow.string())
    # A set's digit is its position among the perturbations (missing when unknown).
    names = strings(PERTURBATIONS)
    digit = pc.index_in(sets, value_set=names).cast(pyarrow.string())
    group = pyarrow.array(test_group_id).cast(pyarrow.string())
    return pc.binary_join_element_wise(group, digit, scalar("."))


def hateful_cells(functionality: Any, upstream_set: Any) -> pyarrow.Array:
    """Whether each row's functionality x perturbation cell is hateful (see ``schema.py``)."""
    return pc.or_(
        pc.equal(upstream_set, scalar("orig")),
        pc.and_(
            pc.equal(upstream_set, scalar("no_emoji_perturb")),
            pc.not_equal(functionality, scalar("append")),
        ),
    )


def _template_id(batch: Any, context: ScreenContext) -> Any:
    """``templ_id == template_ids(test_group_id, set)``, without making every row's text:
    each distinct ``templ_id`` is read once as the group and digit that would make it."""
    ids, groups = batch["templ_id"], batch["test_group_id"]
    if ids.null_count or groups.null_count or not pyarrow.types.is_int64(groups.type):
        expected = template_ids(groups, batch["set"])
        return pc.equal(ids.cast(pyarrow.string()), expected)
    encoded = pc.dictionary_encode(ids.cast(pyarrow.string()))
    read = [_group_and_digit(text) for text in encoded.dictionary.to_pylist()]
    at = numpy_of(encoded.indices.cast(pyarrow.int64()))
    group = np.array([g for g, _ in read], dtype=np.int64)[at]
    digit = np.array([d for _, d in read], dtype=np.int64)[at]
    # A set that is no perturbation has no digit (-2), which no templ_id holds.
    wanted = pc.index_in(batch["set"], value_set=strings(PERTURBATIONS)).cast(pyarrow.int64())
    keeps = (group == numpy_of(groups)) & (digit == numpy_of(pc.fill_null(wanted, scalar(-2))))
    return booleans(keeps)


#: The digit of each perturbation, as the cast to text writes it.
_DIGITS = {str(position): position for position in range(len(PERTURBATIONS))}


@lru_cache(maxsize=1 << 16)
def _group_and_digit(text: str) -> tuple[int, int]:
    """The ``(group, digit)`` whose ``GROUP.DIGIT`` is ``text`` (the group as an int64 is
    written, the digit a perturbation's); ``(0, -1)`` where there are none."""
    group, _, digit = text.rpartition(".")
    try:
        number = int(group)  # no dot: the group is empty, and no number
    except ValueError:
        return 0, -1
    if digit not in _DIGITS or str(number) != group or not -(2**63) <= number < 2**63:
        return 0, -1
    return number, _DIGITS[digit]


def _no_target(batch: Any, context: ScreenContext) -> pyarrow.Array:
    return pc.equal(
        pc.equal(batch["target"], scalar(UPSTREAM_NO_TARGET)),
        pc.equal(batch["set"], scalar("identity_perturb")),
    )


def _label_cell(batch: Any, context: ScreenContext) -> pyarrow.Array:
    expected = hateful_cells(batch["functionality"], batch["set"]).cast(pyarrow.int64())
    return pc.equal(batch["label_gold"], expected)


def _emoji(batch: Any, context: ScreenContext) -> pyarrow.Array:
    present = booleans(contains_emoji(batch["text"]))
    return pc.equal(present, pc.not_equal(batch["set"], scalar("no_emoji_perturb")))


SCREEN = {
    "HC-TEMPLATE-ID": _template_id,
    "HC-NO-TARGET": _no_target,
    "HC-LABEL-CELL": _label_cell,
    "HC-EMOJI": _emoji,
}
