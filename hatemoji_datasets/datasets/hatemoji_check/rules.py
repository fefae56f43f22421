"""HatemojiCheck's row rules over pyarrow columns, for the validator's compiled plan.

One implementation per rule code (``SCREEN``), run on each record batch of a
contribution without pandas or pandera; ``schema.py`` declares the same rules
for the exact engine, and a test proves both agree.
"""

from __future__ import annotations

from typing import Any

import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import booleans, scalar, strings
from hatemoji_datasets.core.emoji_search import contains_emoji
from hatemoji_datasets.datasets.hatemoji_check.spec import PERTURBATIONS, UPSTREAM_NO_TARGET
from hatemoji_datasets.schema.plan import ScreenContext


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


def _template_id(batch: Any, context: ScreenContext) -> pyarrow.Array:
    expected = template_ids(batch["test_group_id"], batch["set"])
    return pc.equal(batch["templ_id"].cast(pyarrow.string()), expected)


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
