"""Multilingual HateCheck's rules over pyarrow columns, for the validator's compiled plan.

One implementation per rule code, run on record batches without pandas or
pandera: ``SCREEN`` for rules of one row, ``ACROSS`` for the references
between cases (a case may name one in the same files, or a released one);
``schema.py`` declares the same rules for the exact engine, and a test proves
both agree. A row's language is its file's (the pinned source the file stands
for), else its case id's.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import (
    booleans,
    first_rows,
    int64s,
    optional_ids,
    scalar,
    strings,
)
from hatemoji_datasets.schema.plan import ScreenContext

from .spec import (
    ANNOTATORS_PER_CASE,
    FUNCTIONALITIES,
    FUNCTIONALITIES_OF,
    HATEFUL_SUFFIX,
    LANGUAGES,
    UPSTREAM_LABELS,
    UPSTREAM_NO_TARGET,
    UPSTREAM_TARGETS,
)

NON_HATEFUL, HATEFUL = UPSTREAM_LABELS
#: The three-label literal, as ``schema.LABELS_LITERAL`` (whole value).
_LABEL = "'(" + "|".join(label.replace("-", "\\-") for label in UPSTREAM_LABELS) + ")'"
LABELS_LITERAL = r"^\[" + ", ".join([_LABEL] * ANNOTATORS_PER_CASE) + r"\]$"


def _id_languages(ids: Any) -> pyarrow.Array:
    """The language prefix of each case id (``^[a-z]+-``; null where there is none)."""
    return pc.struct_field(pc.extract_regex(ids, r"^(?P<language>[a-z]+)-"), [0])


def _file_language(context: ScreenContext) -> str | None:
    return context.source if context.source in LANGUAGES else None


def _row_languages(batch: Any, context: ScreenContext) -> pyarrow.Array:
    language = _file_language(context)
    if language is not None:
        return pyarrow.repeat(scalar(language), batch.num_rows)
    return _id_languages(batch["mhc_case_id"])


def _of_language(values: Any, languages: Any, vocabulary: dict[str, tuple[str, ...]]) -> Any:
    """Whether each value is in its row's language's vocabulary (True where the language
    is not one of the vocabulary's)."""
    keeps = pc.invert(pc.is_in(languages, value_set=strings(vocabulary)))
    for language, allowed in vocabulary.items():
        here = pc.equal(languages, scalar(language))
        allowed_here = pc.is_in(values, value_set=strings(allowed))
        keeps = pc.if_else(here, allowed_here, keeps)
    return pc.fill_null(keeps, scalar(True))  # a missing language: the id's pattern says so


def _id_language(batch: Any, context: ScreenContext) -> Any:
    language = _file_language(context)
    if language is None:
        return booleans(np.ones(batch.num_rows, dtype=bool))
    same = pc.equal(_id_languages(batch["mhc_case_id"]), scalar(language))
    return pc.fill_null(same, scalar(False))


def _label_suffix(batch: Any, context: ScreenContext) -> Any:
    hateful = pc.ends_with(batch["functionality"], HATEFUL_SUFFIX)
    return pc.equal(pc.equal(batch["label_gold"], scalar(HATEFUL)), hateful)


def _functionality_language(batch: Any, context: ScreenContext) -> Any:
    values = batch["functionality"]
    unknown = pc.invert(pc.is_in(values, value_set=strings(FUNCTIONALITIES)))
    known = _of_language(values, _row_languages(batch, context), FUNCTIONALITIES_OF)
    return pc.or_(unknown, known)


def _target_language(batch: Any, context: ScreenContext) -> Any:
    values = batch["target_ident"]
    known = _of_language(values, _row_languages(batch, context), UPSTREAM_TARGETS)
    return pc.or_(pc.equal(values, scalar(UPSTREAM_NO_TARGET)), known)


def _labels_literal(batch: Any, context: ScreenContext) -> Any:
    return pc.match_substring_regex(batch["label_annotated"], LABELS_LITERAL)


def _majority(batch: Any, context: ScreenContext) -> Any:
    literals = batch["label_annotated"]
    valid = pc.match_substring_regex(literals, LABELS_LITERAL)
    hateful = pc.count_substring(literals, f"'{HATEFUL}'")
    majority = pc.greater(pc.multiply(hateful, scalar(2)), scalar(ANNOTATORS_PER_CASE))
    expected = pc.if_else(majority, scalar(HATEFUL), scalar(NON_HATEFUL))
    return pc.or_(pc.invert(valid), pc.equal(batch["label_annotated_maj"], expected))


def _disagreement(batch: Any, context: ScreenContext) -> Any:
    differs = pc.not_equal(batch["label_annotated_maj"], batch["label_gold"])
    return pc.equal(pc.equal(batch["disagreement_in_case"], scalar("True")), differs)


class References:
    """``ref_case_id`` names a case of the same language in the files, and
    ``ref_templ_id`` is that case's template. Kept: the file's case ids with their
    template (the first row of each), and the references that name no released case
    (checked when every row has been read)."""

    def __init__(self, context: ScreenContext) -> None:
        self.context = context
        self.templates: dict[str, Any] = {}
        self.pending: list[tuple[str, int | None]] = []

    @cached_property
    def released(self) -> dict[str, Any]:
        """Each released case id's template (read only when a reference needs it)."""
        released = self.context.released
        return dict(
            zip(
                reversed(released["mhc_case_id"].to_pylist()),
                reversed(released["templ_id"].to_pylist()),
                strict=True,
            )
        )  # reversed: the first row of an id wins

    def add(self, batch: Any) -> bool:
        ids = batch["mhc_case_id"]
        # Each id's first row in the batch (a file may repeat ids: the schema says so).
        firsts = int64s(first_rows(ids))
        for case_id, template in zip(
            ids.take(firsts).to_pylist(), batch["templ_id"].take(firsts).to_pylist(), strict=True
        ):
            self.templates.setdefault(case_id, template)
        references, given = optional_ids(batch["ref_case_id"]), optional_ids(batch["ref_templ_id"])
        if references is None or given is None:
            return False  # a value only the exact engine reads (over 15 digits)
        named = pc.binary_join_element_wise(
            _id_languages(ids), references.cast(pyarrow.string()), scalar("-")
        )
        wanted = pc.is_valid(named)
        if not pc.any(wanted).as_py():
            return True
        chosen = pc.filter(named, wanted).to_pylist()
        templates = pc.filter(given, wanted).to_pylist()
        for case_id, template in zip(chosen, templates, strict=True):
            if case_id not in self.templates:
                self.pending.append((case_id, template))
            elif self.templates[case_id] != template:
                return False
        return True

    def finish(self) -> bool:
        for case_id, template in self.pending:
            named = self.templates.get(case_id, self.released.get(case_id, _MISSING))
            if named is _MISSING or named != template:
                return False
        return True


_MISSING = object()

SCREEN = {
    "MHC-ID-LANGUAGE": _id_language,
    "MHC-LABEL-SUFFIX": _label_suffix,
    "MHC-FUNCTIONALITY-LANGUAGE": _functionality_language,
    "MHC-TARGET-LANGUAGE": _target_language,
    "MHC-LABELS-LITERAL": _labels_literal,
    "MHC-MAJORITY": _majority,
    "MHC-DISAGREEMENT": _disagreement,
}
#: Both reference rules are kept by one state.
ACROSS = {"MHC-REF-CASE": References, "MHC-REF-TEMPLATE": References}
