"""APEACH (with the BEEP! corpus it is trained against), declared.

Config ``default`` is APEACH itself (one ``test`` split). Config ``beep`` is the
labeled BEEP! corpus the APEACH paper trains on and also evaluates against
(``train`` and ``validation``), with ``hate`` and ``offensive`` folded into the
shared ``hateful`` label as the paper does. Neither corpus has ids: a row is
identified by its text (unique in each file), and scored by its position.

The vocabularies below are the single definition used by the schemas and by
the built dataset's ClassLabels.
"""

from __future__ import annotations

import csv

from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.scoring import PER_GOLD_LABEL, Breakdown, Scoring
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, RawFormat, Release, version_key

# -- APEACH -------------------------------------------------------------------------

#: Upstream ``class`` -> the package's shared label (non-hateful, hateful).
APEACH_CLASSES: dict[str, str] = {"Default": "non-hateful", "Spoiled": "hateful"}
#: Upstream ``text_topic_eng`` as upstream spells it, in the order the paper lists
#: the ten prompts. The schema validates these; they do not change between versions.
UPSTREAM_TOPICS: tuple[str, ...] = (
    "Gender sterotypes",
    "Sexual harassment",
    "Age and social status",
    "Nationality",
    "Racism",
    "Origin and residence",
    "Appearance",
    "Disabled",
    "Diets",
    "Education",
)
#: Version 1.0.0's topic names: upstream's wording in snake_case, only the spelling
#: of ``Gender sterotypes`` corrected (``sexual_harassment`` is the prompt about
#: sexual orientation and gender identity).
TOPICS_1: dict[str, str] = {
    "Gender sterotypes": "gender_stereotypes",
    "Sexual harassment": "sexual_harassment",
    "Age and social status": "age_and_social_status",
    "Nationality": "nationality",
    "Racism": "racism",
    "Origin and residence": "origin_and_residence",
    "Appearance": "appearance",
    "Disabled": "disabled",
    "Diets": "diets",
    "Education": "education",
}
#: Version 2.0.0's: the paper's prompt 2 is about sexual orientation or gender
#: identity, which upstream's English name "Sexual harassment" misstates.
TOPICS_2: dict[str, str] = {
    **TOPICS_1,
    "Sexual harassment": "sexual_orientation_and_identity",
}
#: The first version that uses each naming, newest first.
_TOPICS_SINCE: tuple[tuple[tuple[int, ...], dict[str, str]], ...] = (
    ((2, 0, 0), TOPICS_2),
    ((1, 0, 0), TOPICS_1),
)


def topics(version: str) -> dict[str, str]:
    """Upstream ``text_topic_eng`` -> the built ``topic`` name in dataset ``version``.

    Keys are in ClassLabel order (the paper's prompt order) in every version.
    """
    key = version_key(version)
    for since, names in _TOPICS_SINCE:
        if key >= since:
            return names
    raise ValueError(f"APEACH has no version {version}")


#: ``user_gender`` as upstream writes it.
WRITER_GENDERS: tuple[str, ...] = ("female", "male")
AGE_GROUP_WIDTH = 5
#: Upstream files its few writers under 20 (aged 18 and 19) under the 20 group.
YOUNGEST_AGE_GROUP = 20

# -- BEEP! --------------------------------------------------------------------------

#: BEEP!'s TSVs: tab-separated with no quoting, so quote characters are data.
BEEP_FORMAT = RawFormat(delimiter="\t", quoting=csv.QUOTE_NONE)
#: Upstream ``hate``, from no to most severe.
HATE_LEVELS: tuple[str, ...] = ("none", "offensive", "hate")
#: The levels the APEACH paper folds into one hateful class.
HATEFUL_LEVELS: tuple[str, ...] = ("offensive", "hate")
#: Upstream ``bias``.
BIASES: tuple[str, ...] = ("none", "gender", "others")
GENDER_BIAS = "gender"
#: Upstream ``contain_gender_bias`` spellings.
UPSTREAM_BOOLEANS: dict[str, bool] = {"True": True, "False": False}

#: APEACH is scored per topic, as the paper reports it.
APEACH_SCORING = Scoring(
    breakdowns=(
        PER_GOLD_LABEL,
        Breakdown(
            "topics", "Per topic", by=("topic",), metrics=("accuracy", "f1_hateful", "f1_macro")
        ),
    ),
    plot=("topics", "f1_hateful"),
)
#: BEEP! per hate level: recall of the gold class.
BEEP_SCORING = Scoring(
    breakdowns=(
        PER_GOLD_LABEL,
        Breakdown(
            "hate_levels",
            "Recall of the gold class per hate level",
            by=("hate_level",),
            info=("label", "n"),
            metrics=("recall",),
        ),
    ),
    plot=("hate_levels", "recall"),
    notes=("Hate level `none` is recall of the non-hateful class; the others, of the hateful.",),
)

SPEC = DatasetSpec(
    name="apeach",
    pretty_name="APEACH (with the BEEP! training corpus)",
    package=__package__,
    testing=Ref("testing"),
    releases=(
        Release(
            "2.0.0",
            "Topic `sexual_harassment` renamed `sexual_orientation_and_identity`: upstream's "
            'English name "Sexual harassment" labels the paper\'s prompt 2, about sexual '
            "orientation or gender identity. The topic ClassLabel's names change (ids and rows "
            "do not), so this is a major version. Config beep is unchanged.",
            date="2026-11-30",
        ),
        Release(
            "1.0.0",
            "First release: APEACH a904c08 (test, 3,770) and, as config beep, "
            "BEEP! f8d05dc labeled train (7,896) and dev (471).",
            date="2026-11-29",
        ),
    ),
    configs=(
        ConfigSpec(
            name="default",
            description="APEACH: crowd-written sentences on ten topic prompts, test only.",
            splits=(("test", "apeach_test"),),
            schema=Ref("schema", "ApeachRaw"),
            features=Ref("transform", "apeach_features"),
            transform=Ref("transform", "apeach_transform"),
            key_column="text",
            text_column="text",
            eval_split="test",
            statistics=Ref("statistics", "apeach_statistics"),
            scoring=APEACH_SCORING,
        ),
        ConfigSpec(
            name="beep",
            description="BEEP!: labeled Korean news comments, hate and offensive as hateful.",
            splits=(("train", "beep_train"), ("validation", "beep_dev")),
            schema=Ref("schema", "BeepRaw"),
            features=Ref("transform", "beep_features"),
            transform=Ref("transform", "beep_transform"),
            key_column="comments",
            text_column="comments",
            eval_split="validation",
            raw_format=BEEP_FORMAT,
            statistics=Ref("statistics", "beep_statistics"),
            scoring=BEEP_SCORING,
        ),
    ),
    default_config="default",
)
