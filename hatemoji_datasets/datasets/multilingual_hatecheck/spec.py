"""Multilingual HateCheck (MHC): HateCheck's functional tests in ten languages, declared.

One config per language file and ``all``, which stacks the ten files; every
config has the same features, so languages can be compared and concatenated.
The vocabularies below are the single definition used by the schema and by
the built dataset's ClassLabels.
"""

from __future__ import annotations

from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.scoring import (
    PER_GOLD_LABEL,
    Breakdown,
    Fairness,
    LeaderboardLayout,
    Matrix,
    Rows,
    Scoring,
)
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, Release, Stack

#: The languages, as upstream names its files (``hatecheck_cases_final_<language>.csv``)
#: and its case ids (``<language>-<n>``); each is also the source name of its file.
LANGUAGES: tuple[str, ...] = (
    "arabic",
    "dutch",
    "french",
    "german",
    "hindi",
    "italian",
    "mandarin",
    "polish",
    "portuguese",
    "spanish",
)
#: BCP-47 codes for the card. Upstream's Hindi cases are romanised (Latin script).
LANGUAGE_CODES: dict[str, str] = {
    "arabic": "ar",
    "dutch": "nl",
    "french": "fr",
    "german": "de",
    "hindi": "hi",
    "italian": "it",
    "mandarin": "zh",
    "polish": "pl",
    "portuguese": "pt",
    "spanish": "es",
}
#: The union of every language's tests, under HateCheck's groups in HateCheck's order.
#: MHC leaves out HateCheck's two slur tests (``slur_homonym_nh``, ``slur_reclaimed_nh``);
#: Arabic and Mandarin replace some spelling tests with script-specific ones, listed
#: after HateCheck's five (Arabic's, then Mandarin's, each in its file's order).
FUNCTIONALITY_GROUPS: dict[str, tuple[str, ...]] = {
    "Derogation": ("derog_neg_emote_h", "derog_neg_attrib_h", "derog_dehum_h", "derog_impl_h"),
    "Threatening language": ("threat_dir_h", "threat_norm_h"),
    "Slur usage": ("slur_h",),
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
        "spell_sent_arabazi_h",
        "spell_char_eng_replace_h",
        "spell_char_repeat_h",
        "spell_word_variation_h",
        "spell_homoph_h",
        "spell_char_comp_h",
        "spell_pinyin_h",
    ),
}
FUNCTIONALITIES: tuple[str, ...] = tuple(
    f for group in FUNCTIONALITY_GROUPS.values() for f in group
)
#: Each functionality's group, as the paper's tables show it.
GROUP_OF: dict[str, str] = {
    f: group for group, members in FUNCTIONALITY_GROUPS.items() for f in members
}
HATEFUL_SUFFIX = "_h"
#: HateCheck's five spelling tests, kept by every language but Arabic and Mandarin.
HATECHECK_SPELLING: tuple[str, ...] = FUNCTIONALITY_GROUPS["Spelling variations"][:5]
#: Each language's spelling tests (as its file has them): Arabic keeps one of HateCheck's
#: five and adds four, Mandarin replaces all five with three of its own.
SPELLING_TESTS: dict[str, tuple[str, ...]] = {
    language: HATECHECK_SPELLING for language in LANGUAGES
} | {
    "arabic": (
        "spell_space_add_h",
        "spell_sent_arabazi_h",
        "spell_char_eng_replace_h",
        "spell_char_repeat_h",
        "spell_word_variation_h",
    ),
    "mandarin": ("spell_homoph_h", "spell_char_comp_h", "spell_pinyin_h"),
}
#: Each language's functional tests, in FUNCTIONALITIES' order: every test outside the
#: spelling group (22), then its own spelling tests (27, or 25 in Mandarin).
FUNCTIONALITIES_OF: dict[str, tuple[str, ...]] = {
    language: tuple(
        f
        for f in FUNCTIONALITIES
        if GROUP_OF[f] != "Spelling variations" or f in SPELLING_TESTS[language]
    )
    for language in LANGUAGES
}

#: Each language's protected groups, as its file spells them.
UPSTREAM_TARGETS: dict[str, tuple[str, ...]] = {
    "arabic": (
        "women", "trans people", "gay people", "black people", "Jews", "disabled people",
        "immigrants",
    ),
    "dutch": (
        "women", "trans people", "gay people", "black people", "disabled people", "immigrants",
        "Muslims",
    ),
    "french": (
        "women", "trans people", "gay people", "black people", "disabled people", "Muslims",
        "refugees",
    ),
    "german": (
        "women", "trans people", "gay people", "black people", "disabled people", "jews",
        "refugees",
    ),
    "hindi": (
        "women", "trans people", "gay people", "North-East Indians", "Muslims", "Lower Caste",
        "Black people",
    ),
    "italian": (
        "trans people", "gay people", "disabled people", "Muslims", "immigrants", "women",
        "black people",
    ),
    "mandarin": (
        "women", "trans people", "gay people", "black people", "disabled people", "Muslims",
        "foreigners",
    ),
    "polish": (
        "gay people", "asian people", "disabled people", "jewish people", "immigrants", "women",
        "trans people", "immigrant",
    ),
    "portuguese": (
        "women", "black people", "gay people", "trans people", "indigenous people", "jews",
        "disabled people",
    ),
    "spanish": (
        "black people", "gay people", "trans people", "indigenous people", "jews",
        "disabled people", "women",
    ),
}  # fmt: skip
#: Upstream spellings of one group that the built ``target`` unifies under one name
#: (the card lists each as an erratum).
UNIFIED_SPELLINGS: dict[str, str] = {
    "Black people": "black people",  # Hindi
    "jews": "Jews",  # German, Portuguese, Spanish (Arabic writes Jews)
    "jewish people": "Jews",  # Polish
    "immigrant": "immigrants",  # two Polish cases
}
UPSTREAM_NO_TARGET = ""
NO_TARGET = "none"
#: The built groups: ``none``, HateCheck's seven in HateCheck's order, then the groups
#: only MHC names, in the order they first appear (languages alphabetically).
TARGETS: tuple[str, ...] = (
    NO_TARGET,
    "women",
    "trans people",
    "gay people",
    "black people",
    "disabled people",
    "Muslims",
    "immigrants",
    "Jews",
    "refugees",
    "North-East Indians",
    "Lower Caste",
    "foreigners",
    "asian people",
    "indigenous people",
)
#: Every spelling the files use -> the built name.
TARGET_OF_SPELLING: dict[str, str] = {
    UPSTREAM_NO_TARGET: NO_TARGET,
    **{
        spelling: UNIFIED_SPELLINGS.get(spelling, spelling)
        for spellings in UPSTREAM_TARGETS.values()
        for spelling in spellings
    },
}
UPSTREAM_LABELS: tuple[str, ...] = ("non-hateful", "hateful")
#: Upstream's booleans.
UPSTREAM_BOOLEANS: dict[str, bool] = {"False": False, "True": True}
ANNOTATORS_PER_CASE = 3


_TARGETS = Breakdown(
    "targets",
    "Per target group over all cases naming it",
    by=("target",),
    info=("n", "n_hateful", "n_non_hateful"),
    metrics=("accuracy", "false_positive_rate", "false_negative_rate"),
)
#: The placeholders of a template that names a group: ``[IDENT_P]``, ``[IDENT_S]``, and
#: in gendered templates ``[male_IDENT_P]``, ``[female_IDENT_S]``, ...
GROUP_PLACEHOLDER = "IDENT_"
#: Where upstream writes a case's template: ``case_templ``, or, for a template with a
#: masculine and a feminine form, ``gender_male`` and ``gender_female`` (built
#: ``template_male``, ``template_female``), leaving ``case_templ`` empty.
TEMPLATE_COLUMNS: tuple[str, ...] = ("template", "template_male", "template_female")
_TEMPLATE_CASES = Rows(
    "the cases whose template names a group (an `IDENT_` placeholder in `template`, "
    "`template_male` or `template_female`), as HateCheck counts its per-group figures",
    columns=TEMPLATE_COLUMNS,
    contains=GROUP_PLACEHOLDER,
)
_TEMPLATE_NOTE = (
    "Where a template has a masculine and a feminine form, upstream writes them in "
    "`gender_male` and `gender_female` and leaves `case_templ` empty (Italian 3,395 of 3,690 "
    "cases, Spanish 3,450 of 3,745, Portuguese 2,269 of 3,691); the template-case table counts "
    "those templates too, and takes nothing from a case's text. Two French cases "
    "(french-1126, french-1913) have a gendered template but no target upstream: they are "
    "the table's `none` row."
)
#: One language: HateCheck's tables (accuracy per functional test and per target group,
#: fairness across the language's protected groups).
LANGUAGE_SCORING = Scoring(
    breakdowns=(
        PER_GOLD_LABEL,
        Breakdown(
            "functionalities",
            "Accuracy per functional test, in HateCheck's groups",
            by=("functionality",),
            info=("label", "n"),
            keys=("group", "functionality"),
            function=Ref("scoring", "functionality_keys"),
        ),
        Breakdown(
            "groups_in_templates",
            "Accuracy per protected group over the template cases",
            by=("target",),
            info=("n", "n_hateful", "n_non_hateful"),
            rows=_TEMPLATE_CASES,
        ),
        _TARGETS,
        Fairness(
            "fairness",
            "Fairness across the language's protected groups over all cases (fairlearn)",
            column="target",
            exclude=(NO_TARGET,),
            scope="protected groups",
            count="groups",
        ),
    ),
    plot=("functionalities", "accuracy"),
    notes=(
        "Fairness ratios exclude target `none` (cases aimed at no protected group); a ratio "
        "is undefined (None) when every group's rate is 0.",
        _TEMPLATE_NOTE,
    ),
)
#: Every language: per language, the functional test x language matrix (and heatmap),
#: and per target group.
ALL_SCORING = Scoring(
    breakdowns=(
        PER_GOLD_LABEL,
        Breakdown(
            "languages",
            "Per language",
            by=("language",),
            info=("n", "n_hateful", "n_non_hateful"),
            metrics=("accuracy", "f1_hateful", "f1_macro"),
        ),
        Breakdown(
            "cells",
            "Accuracy per functional test x language",
            by=("functionality", "language"),
            info=("label", "n"),
            keys=("group", "functionality", "language"),
            function=Ref("scoring", "cell_keys"),
        ),
        _TARGETS,
        Breakdown(
            "groups_in_templates",
            "Accuracy per language and protected group over the template cases",
            by=("language", "target"),
            info=("n", "n_hateful", "n_non_hateful"),
            rows=_TEMPLATE_CASES,
        ),
    ),
    plot=("cells", "accuracy"),
    matrix=Matrix("cells", rows="functionality", columns="language", metric="accuracy"),
    heatmap="matrix",
    notes=(
        "A test a language does not have (the slur tests nowhere, some spelling tests only "
        "in Arabic or Mandarin) is empty (n/a) in the matrix.",
        _TEMPLATE_NOTE,
    ),
)


def _config(name: str, description: str, languages: tuple[str, ...]) -> ConfigSpec:
    sources = languages[0] if len(languages) == 1 else languages
    # The languages' own groups and tests, in the order their files first name them.
    targets = dict.fromkeys(t for language in languages for t in UPSTREAM_TARGETS[language])
    tests = dict.fromkeys(f for language in languages for f in FUNCTIONALITIES_OF[language])
    return ConfigSpec(
        name=name,
        description=description,
        splits=(("test", sources),),
        schema=Ref("schema", "MultilingualHateCheckCases"),
        features=Ref("transform", "features_of"),
        transform=Ref("transform", "transform"),
        key_column="mhc_case_id",
        text_column="test_case",
        id_column="case_id",
        eval_split="test",
        cross_row_rules=True,  # a new case may refer to a released one
        statistics=Ref("statistics", "statistics"),
        scoring=LANGUAGE_SCORING if len(languages) == 1 else ALL_SCORING,
        vocabularies=(
            ("functionality", tuple(tests)),
            ("target_ident", (UPSTREAM_NO_TARGET, *targets)),
        ),
    )


#: Table 2 of Röttger et al., "Data-Efficient Strategies for Expanding Hate Speech
#: Detection into Under-Resourced Languages" (EMNLP 2022): macro F1 on MHC, the mean over
#: seeds of models trained on 20 to 2,000 examples of each of its five languages.
EFFICIENT_STRATEGIES_TABLE = LeaderboardLayout(
    name="mhc-efficient",
    title="Data-efficient strategies (Röttger et al., EMNLP 2022), Table 2: macro F1 on MHC",
    columns=tuple(
        (f"multilingual_hatecheck/{language}", LANGUAGE_CODES[language].upper())
        for language in ("spanish", "portuguese", "hindi", "arabic", "italian")
    ),
    metrics=("f1_macro",),
)

SPEC = DatasetSpec(
    name="multilingual_hatecheck",
    pretty_name="Multilingual HateCheck",
    package=__package__,
    testing=Ref("testing"),
    releases=(
        Release(
            "1.0.0",
            "First release: upstream commit a03f2ca; one config per language (36,582 cases "
            "in all) and all, the ten stacked; target spellings unified.",
            date="2026-12-01",
        ),
    ),
    configs=(
        *(
            _config(language, f"The {language.title()} test cases.", (language,))
            for language in LANGUAGES
        ),
        _config("all", "Every language's test cases, one after the other.", LANGUAGES),
    ),
    default_config="all",
    layouts=(EFFICIENT_STRATEGIES_TABLE,),
    stacks=(Stack("languages", "all", LANGUAGES),),
)
