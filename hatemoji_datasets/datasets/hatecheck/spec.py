"""HateCheck: 3,728 functional test cases for English hate-speech classifiers, declared.

Each config joins a cases file with its annotations file on ``case_id``: the
cases say what each test is, the annotations which five of ten annotators
labelled it and how. The vocabularies below are the single definition used by
the schemas and by the built dataset's ClassLabels.
"""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.scoring import PER_GOLD_LABEL, Breakdown, Fairness, Rows, Scoring
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, Join, Release

#: The 29 functional tests in the paper's order (F1..F29), under the paper's groups.
#: The suffix says the gold label: ``_h`` hateful, ``_nh`` non-hateful.
FUNCTIONALITY_GROUPS: dict[str, tuple[str, ...]] = {
    "Derogation": ("derog_neg_emote_h", "derog_neg_attrib_h", "derog_dehum_h", "derog_impl_h"),
    "Threatening language": ("threat_dir_h", "threat_norm_h"),
    "Slur usage": ("slur_h", "slur_homonym_nh", "slur_reclaimed_nh"),
    "Profanity usage": ("profanity_h", "profanity_nh"),
    "Pronoun reference": ("ref_subs_clause_h", "ref_subs_sent_h"),
    "Negation": ("negate_pos_h", "negate_neg_nh"),
    "Phrasing": ("phrase_question_h", "phrase_opinion_h"),
    "Non-hateful group identity": ("ident_neutral_nh", "ident_pos_nh"),
    "Counter speech": ("counter_quote_nh", "counter_ref_nh"),
    "Abuse against non-protected targets": ("target_obj_nh", "target_indiv_nh", "target_group_nh"),
    "Spelling variations": (
        "spell_char_swap_h",
        "spell_char_del_h",
        "spell_space_del_h",
        "spell_space_add_h",
        "spell_leet_h",
    ),
}
FUNCTIONALITIES: tuple[str, ...] = tuple(
    f for group in FUNCTIONALITY_GROUPS.values() for f in group
)
#: Each functionality's group, as the paper's tables show it.
GROUP_OF: dict[str, str] = {
    f: group for group, members in FUNCTIONALITY_GROUPS.items() for f in members
}
#: The functionality name's suffix for hateful tests.
HATEFUL_SUFFIX = "_h"
#: Tests whose cases name no protected group (upstream leaves ``target_ident`` empty).
NO_TARGET_FUNCTIONALITIES: tuple[str, ...] = (
    "profanity_nh",
    "target_obj_nh",
    "target_indiv_nh",
    "target_group_nh",
)
#: The seven protected groups, as upstream spells them.
PROTECTED_TARGETS: tuple[str, ...] = (
    "women",
    "trans people",
    "gay people",
    "black people",
    "disabled people",
    "Muslims",
    "immigrants",
)
#: What upstream writes for a case without a protected group, and the built class for it.
UPSTREAM_NO_TARGET = ""
NO_TARGET = "none"
TARGETS: tuple[str, ...] = (NO_TARGET, *PROTECTED_TARGETS)
#: Upstream ``direction`` -> built name: hateful cases are aimed at a group in general
#: or at someone directly; upstream writes ``-`` for every non-hateful case.
DIRECTIONS: dict[str, str] = {"-": "none", "general": "general", "directed": "directed"}
NO_DIRECTION = "-"
#: Upstream writes ``-`` where a case has no focus words or lemma.
NO_FOCUS = "-"
#: Upstream ``label_gold`` and the annotators' labels, in the shared label's id order.
UPSTREAM_LABELS: tuple[str, ...] = ("non-hateful", "hateful")
#: The annotator pool, ``label_1`` .. ``label_10``; each case has labels from five of them.
ANNOTATORS: tuple[int, ...] = tuple(range(1, 11))
#: The annotations file's label column of each annotator in the pool.
LABEL_COLUMNS: tuple[str, ...] = tuple(f"label_{k}" for k in ANNOTATORS)
LABELS_PER_CASE = 5
#: Suite cases: at least this many of the five annotators gave the gold label.
SUITE_AGREEMENT = 4
#: What an annotations file restates of its case (its unnamed first column is each
#: file's own row number, so it is not among them).
RESTATED_COLUMNS: tuple[str, ...] = ("functionality", "templ_id", "test_case", "label_gold")


#: The placeholder of a template that names a protected group (``[IDENTITY_P]``,
#: ``[IDENTITY_S]``, ...): the paper's per-group figures count only cases built from one.
GROUP_PLACEHOLDER = "[IDENTITY"
#: The test of reclaimed slurs, which the paper breaks down per slur.
RECLAIMED_SLURS = "slur_reclaimed_nh"

#: The paper's analyses, each in its definition: accuracy per gold label, per functional
#: test (in its groups), per protected group over the template cases (421 per group), on
#: reclaimed slurs per lemma; then per target over every case and fairness across the
#: protected groups, which the paper does not report.
SCORING = Scoring(
    breakdowns=(
        PER_GOLD_LABEL,
        Breakdown(
            "functionalities",
            "Accuracy per functional test, in the paper's groups",
            by=("functionality",),
            info=("label", "n"),
            keys=("group", "test", "functionality"),
            function=Ref("scoring", "functionality_keys"),
        ),
        Breakdown(
            "groups_in_templates",
            "Accuracy per protected group over the 421 template cases per group, as in the paper",
            by=("target",),
            info=("n", "n_hateful", "n_non_hateful"),
            rows=Rows(
                f"the cases generated from a template that names a group (`template` "
                f"contains `{GROUP_PLACEHOLDER}`), as the paper counts them: cases written "
                "without one (slurs, some counter speech) are left out",
                columns=("template",),
                contains=GROUP_PLACEHOLDER,
            ),
        ),
        Breakdown(
            "reclaimed_slurs",
            f"Accuracy on reclaimed slurs (F9 `{RECLAIMED_SLURS}`) per focus lemma, as in the "
            "paper",
            by=("focus_lemma",),
            rows=Rows(
                f"the cases of F9 `{RECLAIMED_SLURS}`",
                columns=("functionality",),
                values=(RECLAIMED_SLURS,),
            ),
        ),
        Breakdown(
            "targets",
            "Per target group over all cases naming it (the paper counts template cases only)",
            by=("target",),
            info=("n", "n_hateful", "n_non_hateful"),
            metrics=("accuracy", "false_positive_rate", "false_negative_rate"),
        ),
        Fairness(
            "fairness",
            "Fairness across the seven protected groups over all cases (fairlearn)",
            column="target",
            exclude=(NO_TARGET,),
            scope="protected groups",
            count="groups",
        ),
    ),
    plot=("functionalities", "accuracy"),
    notes=(
        "Per target group and fairness count every case naming a group (509 for women); "
        "the paper's per-group figures count the template cases only (421 per group).",
        "Fairness ratios exclude target `none` (cases aimed at no protected group); a ratio "
        "is undefined (None) when every group's rate is 0.",
    ),
)


def _config(
    name: str,
    description: str,
    cases: str,
    annotations_schema: Ref[type[Any]],
    annotations: str,
    *joins: Join,
) -> ConfigSpec:
    """A config: the cases of source ``cases`` joined with their annotations (and ``joins``)."""
    return ConfigSpec(
        name=name,
        description=description,
        splits=(("test", cases),),
        schema=Ref("schema", "HateCheckCases"),
        features=Ref("transform", "features_of"),
        transform=Ref("transform", "transform"),
        key_column="case_id",
        text_column="test_case",
        id_column="case_id",
        eval_split="test",
        cross_row_rules=True,  # a new case may refer to a released one
        statistics=Ref("statistics", "statistics"),
        scoring=SCORING,
        joins=(
            Join(
                "annotations",
                annotations_schema,
                "case_id",
                (("test", annotations),),
                agree_on=RESTATED_COLUMNS,
            ),
            *joins,
        ),
    )


SPEC = DatasetSpec(
    name="hatecheck",
    pretty_name="HateCheck",
    package=__package__,
    testing=Ref("testing"),
    releases=(
        Release(
            "1.0.0",
            "First release: upstream commit d843022; the 3,728-case test suite (default) "
            "and all 3,901 generated cases (all), each joined with its annotations.",
            date="2026-12-01",
        ),
    ),
    configs=(
        _config(
            "default",
            "The test suite: 3,728 cases, each with its five annotations.",
            "suite_cases",
            Ref("schema", "HateCheckSuiteAnnotations"),
            "suite_annotations",
        ),
        _config(
            "all",
            "All 3,901 generated cases, marking the 3,728 the suite kept.",
            "all_cases",
            Ref("schema", "HateCheckAnnotations"),
            "all_annotations",
            Join(
                "test suite",
                Ref("schema", "HateCheckCases"),
                "case_id",
                (("test", "suite_cases"),),
                indicator="in_test_suite",
            ),
        ),
    ),
    default_config="default",
)
