"""HateCheck's rules, each written once over pyarrow columns: of cases, and of annotations.

``schema.py``'s pandera models wrap them as their checks, and the streaming
validator runs them on each record batch (:mod:`hatemoji_datasets.schema.rules`).
A case may refer to another in the same files, or to a released one.
"""

from __future__ import annotations

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import booleans, int64s, numpy_of, scalar, strings
from hatemoji_datasets.schema.rules import (
    Rows,
    Rule,
    numbers,
    optional_ids,
    pandas_integers,
    reference_agrees,
    same,
    text,
)

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


def gold_of_functionality(rows: Rows) -> pyarrow.Array:
    """The gold label a functionality's name promises (``_h`` hateful, ``_nh`` not)."""
    hateful = pc.ends_with(text(rows["functionality"]), HATEFUL_SUFFIX)
    return pc.if_else(hateful, scalar(HATEFUL), scalar(NON_HATEFUL))


def _label_suffix(rows: Rows) -> pyarrow.Array:
    return same(rows["label_gold"], gold_of_functionality(rows))


def _direction(rows: Rows) -> pyarrow.Array:
    return pc.equal(same(rows["direction"], NO_DIRECTION), same(rows["label_gold"], NON_HATEFUL))


def _no_target(rows: Rows) -> pyarrow.Array:
    untargeted = pc.is_in(text(rows["functionality"]), value_set=strings(NO_TARGET_FUNCTIONALITIES))
    return pc.equal(same(rows["target_ident"], UPSTREAM_NO_TARGET), untargeted)


# -- references between cases ----------------------------------------------------------------


def _case_numbers(rows: Rows) -> tuple[pyarrow.Array, pyarrow.Array]:
    """Every case's id and template as numbers (the rows', then the released ones)."""
    every = rows.with_released(("case_id", "templ_id"))
    return numbers(every["case_id"]), numbers(every["templ_id"])


def _reference_names_a_case(rows: Rows) -> pyarrow.Array:
    references = optional_ids(rows["ref_case_id"])
    ids = _case_numbers(rows)[0].drop_null()
    if references.type != ids.type:
        references = references.cast(ids.type)
    return pc.or_(pc.is_null(references), pc.is_in(references, value_set=ids))


def referenced_templates(rows: Rows) -> pyarrow.Array:
    """The ``templ_id`` of the case each row's ``ref_case_id`` names (null where none): the
    first row of that id with a template."""
    ids, templates = _case_numbers(rows)
    known = pc.and_(pc.is_valid(ids), pc.is_valid(templates))
    ids, templates = ids.filter(known), templates.filter(known)
    references = optional_ids(rows["ref_case_id"])
    if references.type != ids.type:
        references = references.cast(ids.type)
    found = templates.take(pc.index_in(references, value_set=ids))
    return pandas_integers(found)


def _reference_template_agrees(rows: Rows) -> pyarrow.Array:
    return reference_agrees(referenced_templates(rows), rows["ref_templ_id"])


# -- annotations -----------------------------------------------------------------------------


def label_counts(rows: Rows, label: str | pyarrow.Array) -> pyarrow.Array:
    """How many of the ten annotator columns hold ``label`` (a label, or one per row)."""
    total = np.zeros(rows.num_rows, dtype=np.int64)
    for name in LABEL_COLUMNS:
        total += numpy_of(same(text(rows[name]), label))
    return int64s(total)


def _per_row(values: pyarrow.Array) -> np.ndarray:
    """Counts as numpy: int64, or float64 with NaN where a value is no number."""
    if pyarrow.types.is_int64(values.type) and not values.null_count:
        return numpy_of(values)
    return np.asarray(values.to_numpy(zero_copy_only=False), dtype=np.float64)


def _five_labels(rows: Rows) -> pyarrow.Array:
    given = numpy_of(label_counts(rows, HATEFUL)) + numpy_of(label_counts(rows, NON_HATEFUL))
    return booleans(given == LABELS_PER_CASE)


def _count_agrees(rows: Rows, column: str, label: str) -> pyarrow.Array:
    counted = numpy_of(label_counts(rows, label))
    return booleans(_per_row(numbers(rows[column])) == counted)


def majority(rows: Rows) -> pyarrow.Array:
    """The label most annotators gave (null on a tie, which five labels cannot have)."""
    hateful, non_hateful = label_counts(rows, HATEFUL), label_counts(rows, NON_HATEFUL)
    return pc.if_else(
        pc.greater(hateful, non_hateful),
        scalar(HATEFUL),
        pc.if_else(pc.greater(non_hateful, hateful), scalar(NON_HATEFUL), _NO_TEXT),
    )


def _suite_agreement(rows: Rows) -> pyarrow.Array:
    agreeing = label_counts(rows, text(rows["label_gold"]))
    return pc.greater_equal(agreeing, scalar(SUITE_AGREEMENT))


LABEL_SUFFIX = Rule(
    "HCK-LABEL-SUFFIX",
    "label_gold must be hateful exactly when the functionality ends in _h",
    _label_suffix,
    column="label_gold",
    reads=("functionality",),
    expected=gold_of_functionality,
)
DIRECTION = Rule(
    "HCK-DIRECTION",
    "direction must be - exactly for non-hateful cases",
    _direction,
    column="direction",
    reads=("label_gold",),
)
NO_TARGET = Rule(
    "HCK-NO-TARGET",
    "target_ident must be empty exactly for "
    + ", ".join(NO_TARGET_FUNCTIONALITIES)
    + " (abuse of no protected group)",
    _no_target,
    column="target_ident",
    reads=("functionality",),
)
REF_CASE = Rule(
    "HCK-REF-CASE",
    "ref_case_id must be empty or the case_id of a case in the files",
    _reference_names_a_case,
    column="ref_case_id",
    reads=("case_id", "templ_id"),
    across=True,
)
REF_TEMPLATE = Rule(
    "HCK-REF-TEMPLATE",
    "ref_templ_id must be the templ_id of the case that ref_case_id names",
    _reference_template_agrees,
    column="ref_templ_id",
    reads=("ref_case_id", "case_id", "templ_id"),
    expected=referenced_templates,
    across=True,
)
LABEL_SUFFIX_ANNOTATIONS = Rule(
    LABEL_SUFFIX.code,
    "label_gold must be hateful exactly when the functionality ends in _h (annotations)",
    _label_suffix,
    column="label_gold",
    reads=("functionality",),
    expected=gold_of_functionality,
)
FIVE_LABELS = Rule(
    "HCK-FIVE-LABELS",
    f"exactly {LABELS_PER_CASE} of label_1 .. label_10 must hold a label",
    _five_labels,
    reads=LABEL_COLUMNS,
)
COUNT_HATEFUL = Rule(
    "HCK-COUNT-HATEFUL",
    "count_label_h must count the hateful labels",
    lambda rows: _count_agrees(rows, "count_label_h", HATEFUL),
    column="count_label_h",
    reads=LABEL_COLUMNS,
    expected=lambda rows: label_counts(rows, HATEFUL),
)
COUNT_NON_HATEFUL = Rule(
    "HCK-COUNT-NON-HATEFUL",
    "count_label_nh must count the non-hateful labels",
    lambda rows: _count_agrees(rows, "count_label_nh", NON_HATEFUL),
    column="count_label_nh",
    reads=LABEL_COLUMNS,
    expected=lambda rows: label_counts(rows, NON_HATEFUL),
)
MAJORITY = Rule(
    "HCK-MAJORITY",
    "label_annot_maj must be the label most of the five annotators gave",
    lambda rows: same(rows["label_annot_maj"], majority(rows)),
    column="label_annot_maj",
    reads=LABEL_COLUMNS,
    expected=majority,
)
SUITE_AGREEMENT_RULE = Rule(
    "HCK-SUITE-AGREEMENT",
    f"at least {SUITE_AGREEMENT} of the five annotators must have given label_gold "
    "(as for every case the suite kept)",
    _suite_agreement,
    column="label_gold",
    reads=LABEL_COLUMNS,
)

RULES = (
    LABEL_SUFFIX,
    DIRECTION,
    NO_TARGET,
    REF_CASE,
    REF_TEMPLATE,
    LABEL_SUFFIX_ANNOTATIONS,
    FIVE_LABELS,
    COUNT_HATEFUL,
    COUNT_NON_HATEFUL,
    MAJORITY,
    SUITE_AGREEMENT_RULE,
)
