"""Multilingual HateCheck's rules, each written once over pyarrow columns.

``schema.py``'s pandera model wraps them as its checks, and the streaming
validator runs them on each record batch (:mod:`hatemoji_datasets.schema.rules`).
A row's language is its file's (the pinned source it was read from), else its
case id's. A case may refer to another in the same files, or to a released one.
"""

from __future__ import annotations

import re

import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import scalar, strings
from hatemoji_datasets.schema.rules import (
    Rows,
    Rule,
    first_positions,
    numbers,
    optional_ids,
    pandas_integers,
    reference_agrees,
    same,
    text,
)

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
_LABEL = "'(" + "|".join(re.escape(label) for label in UPSTREAM_LABELS) + ")'"
#: ``['hateful', 'non-hateful', 'hateful']``: three quoted labels, the whole value.
LABELS_LITERAL = r"^\[" + ", ".join([_LABEL] * ANNOTATORS_PER_CASE) + r"\]$"


def languages_of(ids: pyarrow.Array) -> pyarrow.Array:
    """The language prefix of each case id (null where the id has none)."""
    return pc.struct_field(pc.extract_regex(text(ids), r"^(?P<language>[a-z]+)-"), [0])


def file_languages(rows: Rows) -> pyarrow.Array:
    """The language of the file each row was read from (null where unknown)."""
    if rows.sources is None:
        return pyarrow.nulls(rows.num_rows, pyarrow.string())
    known = pc.is_in(rows.sources, value_set=strings(LANGUAGES))
    return pc.if_else(known, rows.sources, pyarrow.nulls(1, pyarrow.string())[0])


def row_languages(rows: Rows) -> pyarrow.Array:
    """The language whose rules each row must keep: its file's where the reader knows it
    (the config's file, or a file named like upstream's), else its case id's."""
    return rows.once(
        "languages", lambda: pc.coalesce(file_languages(rows), languages_of(rows["mhc_case_id"]))
    )


def of_language(
    values: pyarrow.Array, languages: pyarrow.Array, vocabulary: dict[str, tuple[str, ...]]
) -> pyarrow.Array:
    """Whether each value is in its row's language's vocabulary (True where the language
    is none of the vocabulary's, or unknown: the id's pattern says so)."""
    values = text(values)
    keeps = pc.invert(pc.is_in(languages, value_set=strings(vocabulary)))
    for language, allowed in vocabulary.items():
        here = pc.equal(languages, scalar(language))
        keeps = pc.if_else(here, pc.is_in(values, value_set=strings(allowed)), keeps)
    return pc.fill_null(keeps, scalar(True))


def _owners(vocabulary: dict[str, tuple[str, ...]]) -> dict[str, list[str]]:
    """Each value of a per-language vocabulary -> the languages that have it."""
    owners: dict[str, list[str]] = {}
    for language, values in vocabulary.items():
        for value in values:
            owners.setdefault(value, []).append(language)
    return owners


_TEST_LANGUAGES = _owners(FUNCTIONALITIES_OF)
_TARGET_LANGUAGES = _owners(UPSTREAM_TARGETS)


def _whose(column: str, what: str, owners: dict[str, list[str]]):
    """Per row, the languages its value belongs to, for the message (null where none)."""

    def detail(rows: Rows) -> pyarrow.Array:
        languages = row_languages(rows).to_pylist()
        return pyarrow.array(
            [
                f"{value!r} is a {what} of {', '.join(owners[value])} only, not of "
                f"{'nan' if language is None else language}"
                if value in owners and language not in owners[value]
                else None
                for value, language in zip(text(rows[column]).to_pylist(), languages, strict=True)
            ],
            pyarrow.string(),
        )

    return detail


def _own(vocabulary: dict[str, tuple[str, ...]], also: tuple[str, ...] = ()):
    """Per row, the values of its language's vocabulary (``also`` first; null where the
    row's language is unknown): what a finding on the cell names and suggests from."""

    def allowed(rows: Rows) -> pyarrow.Array:
        return pyarrow.array(
            [
                [*also, *vocabulary[language]] if language in vocabulary else None
                for language in row_languages(rows).to_pylist()
            ],
            pyarrow.list_(pyarrow.string()),
        )

    return allowed


def expected_ids(rows: Rows) -> pyarrow.Array:
    """The id with its file's language: ``LANGUAGE-N`` (``<NA>`` where the id has no number,
    as pandas writes a missing integer)."""
    digits = pc.struct_field(pc.extract_regex(text(rows["mhc_case_id"]), r"-(?P<n>[0-9]+)$"), [0])
    number = numbers(digits).cast(pyarrow.int64()).cast(pyarrow.string())
    return pc.binary_join_element_wise(
        file_languages(rows), pc.fill_null(number, scalar("<NA>")), scalar("-")
    )


def _id_language(rows: Rows) -> pyarrow.Array:
    expected = file_languages(rows)
    return pc.or_(pc.is_null(expected), same(languages_of(rows["mhc_case_id"]), expected))


def gold_of_functionality(rows: Rows) -> pyarrow.Array:
    """The gold label a functionality's name promises (``_h`` hateful, ``_nh`` not)."""
    hateful = pc.ends_with(text(rows["functionality"]), HATEFUL_SUFFIX)
    return pc.if_else(hateful, scalar(HATEFUL), scalar(NON_HATEFUL))


def _label_suffix(rows: Rows) -> pyarrow.Array:
    hateful = pc.ends_with(text(rows["functionality"]), HATEFUL_SUFFIX)
    return pc.equal(same(rows["label_gold"], HATEFUL), hateful)


def _functionality_language(rows: Rows) -> pyarrow.Array:
    values = text(rows["functionality"])
    unknown = pc.invert(pc.is_in(values, value_set=strings(FUNCTIONALITIES)))  # its column says
    return pc.or_(unknown, of_language(values, row_languages(rows), FUNCTIONALITIES_OF))


def _target_language(rows: Rows) -> pyarrow.Array:
    values = rows["target_ident"]
    known = of_language(values, row_languages(rows), UPSTREAM_TARGETS)
    return pc.or_(same(values, UPSTREAM_NO_TARGET), known)


# -- references between cases ----------------------------------------------------------------


def referenced_ids(rows: Rows) -> pyarrow.Array:
    """The case id each row's ``ref_case_id`` names in its own language (null if none)."""
    references = optional_ids(rows["ref_case_id"]).cast(pyarrow.string())
    return pc.binary_join_element_wise(languages_of(rows["mhc_case_id"]), references, scalar("-"))


def _reference_names_a_case(rows: Rows) -> pyarrow.Array:
    named = referenced_ids(rows)
    ids = text(rows.with_released(("mhc_case_id",))["mhc_case_id"])
    return pc.or_(pc.is_null(named), pc.is_in(named, value_set=ids))


def referenced_templates(rows: Rows) -> pyarrow.Array:
    """The ``templ_id`` of the case each row's ``ref_case_id`` names (null where none): the
    first row of that id with a template."""
    every = rows.with_released(("mhc_case_id", "templ_id"))
    ids, templates = text(every["mhc_case_id"]), numbers(every["templ_id"])
    known = pc.is_valid(templates)
    at = first_positions(ids.filter(known), referenced_ids(rows))
    found = templates.filter(known).take(at)
    return pandas_integers(found)


def _reference_template_agrees(rows: Rows) -> pyarrow.Array:
    return reference_agrees(referenced_templates(rows), rows["ref_templ_id"])


# -- the annotators' labels ------------------------------------------------------------------


def _labels_literal(rows: Rows) -> pyarrow.Array:
    return pc.match_substring_regex(text(rows["label_annotated"]), LABELS_LITERAL)


def majority(rows: Rows) -> pyarrow.Array:
    """The label most of the three annotators gave (null where the literal is bad)."""
    literals = text(rows["label_annotated"])
    valid = pc.match_substring_regex(literals, LABELS_LITERAL)
    # A quoted label is whole: 'non-hateful' holds no 'hateful' with both its quotes.
    hateful = pc.count_substring(literals, f"'{HATEFUL}'")
    most = pc.greater(pc.multiply(hateful, scalar(2)), scalar(ANNOTATORS_PER_CASE))
    labels = pc.if_else(most, scalar(HATEFUL), scalar(NON_HATEFUL))
    return pc.if_else(valid, labels, pyarrow.nulls(1, pyarrow.string())[0])


def _majority(rows: Rows) -> pyarrow.Array:
    expected = majority(rows)
    return pc.or_(pc.is_null(expected), same(rows["label_annotated_maj"], expected))


def _differs(rows: Rows) -> pyarrow.Array:
    return pc.invert(same(rows["label_annotated_maj"], rows["label_gold"]))


def _disagreement(rows: Rows) -> pyarrow.Array:
    return pc.equal(same(rows["disagreement_in_case"], "True"), _differs(rows))


ID_LANGUAGE = Rule(
    "MHC-ID-LANGUAGE",
    "mhc_case_id must start with the language of its file",
    _id_language,
    column="mhc_case_id",
    expected=expected_ids,
)
LABEL_SUFFIX = Rule(
    "MHC-LABEL-SUFFIX",
    "label_gold must be hateful exactly when the functionality ends in _h",
    _label_suffix,
    column="label_gold",
    reads=("functionality",),
    expected=gold_of_functionality,
)
FUNCTIONALITY_LANGUAGE = Rule(
    "MHC-FUNCTIONALITY-LANGUAGE",
    "functionality must be one of the tests of the row's language (its file's, else its case id's)",
    _functionality_language,
    column="functionality",
    reads=("mhc_case_id",),
    detail=_whose("functionality", "test", _TEST_LANGUAGES),
    allowed=_own(FUNCTIONALITIES_OF),
)
TARGET_LANGUAGE = Rule(
    "MHC-TARGET-LANGUAGE",
    "target_ident must be empty or one of the groups upstream names in the row's language "
    "(its file's, else its case id's)",
    _target_language,
    column="target_ident",
    reads=("mhc_case_id",),
    detail=_whose("target_ident", "group", _TARGET_LANGUAGES),
    allowed=_own(UPSTREAM_TARGETS, (UPSTREAM_NO_TARGET,)),
)
REF_CASE = Rule(
    "MHC-REF-CASE",
    "ref_case_id must be empty or the number of a case of the same language in the files",
    _reference_names_a_case,
    column="ref_case_id",
    reads=("mhc_case_id",),
    across=True,
)
REF_TEMPLATE = Rule(
    "MHC-REF-TEMPLATE",
    "ref_templ_id must be the templ_id of the case that ref_case_id names",
    _reference_template_agrees,
    column="ref_templ_id",
    reads=("ref_case_id", "mhc_case_id", "templ_id"),
    expected=referenced_templates,
    across=True,
)
LABELS_LITERAL_RULE = Rule(
    "MHC-LABELS-LITERAL",
    f"label_annotated must be a list of {ANNOTATORS_PER_CASE} quoted labels, "
    "like ['hateful', 'non-hateful', 'hateful']",
    _labels_literal,
    column="label_annotated",
    of_column=True,
)
MAJORITY = Rule(
    "MHC-MAJORITY",
    "label_annotated_maj must be the label most of the three annotators gave",
    _majority,
    column="label_annotated_maj",
    reads=("label_annotated",),
    expected=majority,
)
DISAGREEMENT = Rule(
    "MHC-DISAGREEMENT",
    "disagreement_in_case must be True exactly where label_annotated_maj is not label_gold",
    _disagreement,
    column="disagreement_in_case",
    reads=("label_annotated_maj", "label_gold"),
    expected=lambda rows: pc.if_else(_differs(rows), scalar("True"), scalar("False")),
)

RULES = (
    ID_LANGUAGE,
    LABEL_SUFFIX,
    FUNCTIONALITY_LANGUAGE,
    TARGET_LANGUAGE,
    REF_CASE,
    REF_TEMPLATE,
    LABELS_LITERAL_RULE,
    MAJORITY,
    DISAGREEMENT,
)
