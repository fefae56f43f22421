"""HateCheck's rules over pyarrow columns, for the validator's compiled plan.

One implementation per rule code, run on record batches without pandas or
pandera: ``SCREEN`` for rules of one row (of cases, and of annotations),
``ACROSS`` for the references between cases (a case may name one in the same
files, or a released one); ``schema.py`` declares the same rules for the exact
engine, and a test proves both agree.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import (
    concatenated,
    first_rows_of,
    numpy_of,
    optional_ids,
    scalar,
    strings,
)
from hatemoji_datasets.schema.plan import ScreenContext

from .spec import (
    HATEFUL_SUFFIX,
    LABEL_COLUMNS,
    LABELS_PER_CASE,
    NO_DIRECTION,
    NO_TARGET_FUNCTIONALITIES,
    SUITE_AGREEMENT,
    UPSTREAM_LABELS,
    UPSTREAM_NO_TARGET,
)

NON_HATEFUL, HATEFUL = UPSTREAM_LABELS
#: A missing text, as a scalar.
_NO_TEXT = pyarrow.nulls(1, pyarrow.string())[0]


def _label_suffix(batch: Any, context: ScreenContext) -> Any:
    hateful = pc.ends_with(batch["functionality"], HATEFUL_SUFFIX)
    return pc.equal(pc.equal(batch["label_gold"], scalar(HATEFUL)), hateful)


def _direction(batch: Any, context: ScreenContext) -> Any:
    return pc.equal(
        pc.equal(batch["direction"], scalar(NO_DIRECTION)),
        pc.equal(batch["label_gold"], scalar(NON_HATEFUL)),
    )


def _no_target(batch: Any, context: ScreenContext) -> Any:
    untargeted = pc.is_in(batch["functionality"], value_set=strings(NO_TARGET_FUNCTIONALITIES))
    return pc.equal(pc.equal(batch["target_ident"], scalar(UPSTREAM_NO_TARGET)), untargeted)


def _count(batch: Any, label: Any) -> Any:
    """How many of the ten annotator columns hold ``label`` (a scalar, or a column)."""
    counts = [pc.cast(pc.equal(batch[name], label), pyarrow.int64()) for name in LABEL_COLUMNS]
    total = counts[0]
    for count in counts[1:]:
        total = pc.add(total, count)
    return total


def _both_counts(batch: Any) -> tuple[Any, Any]:
    """How many annotators said hateful, and how many non-hateful."""
    return _count(batch, scalar(HATEFUL)), _count(batch, scalar(NON_HATEFUL))


def _five_labels(batch: Any, context: ScreenContext) -> Any:
    return pc.equal(pc.add(*_both_counts(batch)), scalar(LABELS_PER_CASE))


def _count_hateful(batch: Any, context: ScreenContext) -> Any:
    return pc.equal(batch["count_label_h"], _count(batch, scalar(HATEFUL)))


def _count_non_hateful(batch: Any, context: ScreenContext) -> Any:
    return pc.equal(batch["count_label_nh"], _count(batch, scalar(NON_HATEFUL)))


def _majority(batch: Any, context: ScreenContext) -> Any:
    hateful, non_hateful = _both_counts(batch)
    expected = pc.if_else(
        pc.greater(hateful, non_hateful),
        scalar(HATEFUL),
        pc.if_else(pc.greater(non_hateful, hateful), scalar(NON_HATEFUL), _NO_TEXT),
    )  # a tie has no majority: null, which breaks the rule
    return pc.equal(batch["label_annot_maj"], expected)


def _suite_agreement(batch: Any, context: ScreenContext) -> Any:
    agreeing = _count(batch, batch["label_gold"])
    return pc.greater_equal(agreeing, scalar(SUITE_AGREEMENT))


class References:
    """``ref_case_id`` is empty or names a case (in the files, else released), and
    ``ref_templ_id`` is that case's ``templ_id``.

    Kept: each row's case id and template (16 bytes a row), and each reference with the
    template it gives; the cases they name are looked up once every row has been read
    (the first row of an id stands for it, as in the exact engine)."""

    COLUMNS = ("case_id", "templ_id")

    def __init__(self, context: ScreenContext) -> None:
        self.context = context
        self.cases: list[np.ndarray] = []
        self.references: list[np.ndarray] = []

    def add(self, batch: Any) -> bool:
        if not _readable(batch):
            return False
        named, given = optional_ids(batch["ref_case_id"]), optional_ids(batch["ref_templ_id"])
        if named is None or given is None:
            return False
        self.cases.append(np.stack([numpy_of(batch[name]) for name in self.COLUMNS], axis=1))
        wanted = pc.is_valid(named)
        if not pc.any(wanted).as_py():
            return True
        given = given.filter(wanted)
        if given.null_count:  # a reference without its template
            return False
        self.references.append(np.stack([numpy_of(named.filter(wanted)), numpy_of(given)], 1))
        return True

    def finish(self) -> bool:
        if not self.references:
            return True
        cases, references = concatenated(self.cases), concatenated(self.references)
        named, given = references[:, 0], references[:, 1]
        inside, at = first_rows_of(cases[:, 0], named)
        templates = cases[at, 1]
        outside = ~inside
        if outside.any():
            released = self.context.released
            if released is None or not _readable(released):
                return False  # the release's own checks say what is wrong (a build's files)
            found, where = first_rows_of(numpy_of(released["case_id"]), named[outside])
            if not found.all():
                return False  # a reference to no case
            templates[outside] = numpy_of(released["templ_id"])[where]
        return bool((templates == given).all())


def _readable(rows: Any) -> bool:
    """Whether the references can be read: integer case ids and templates, none missing
    (else their own checks fail the file)."""
    return all(
        pyarrow.types.is_int64(rows[name].type) and not rows[name].null_count
        for name in References.COLUMNS
    ) and all(pyarrow.types.is_string(rows[name].type) for name in ("ref_case_id", "ref_templ_id"))


SCREEN = {
    "HCK-LABEL-SUFFIX": _label_suffix,
    "HCK-DIRECTION": _direction,
    "HCK-NO-TARGET": _no_target,
    "HCK-FIVE-LABELS": _five_labels,
    "HCK-COUNT-HATEFUL": _count_hateful,
    "HCK-COUNT-NON-HATEFUL": _count_non_hateful,
    "HCK-MAJORITY": _majority,
    "HCK-SUITE-AGREEMENT": _suite_agreement,
}
#: Both reference rules are kept by one state.
ACROSS = {"HCK-REF-CASE": References, "HCK-REF-TEMPLATE": References}
