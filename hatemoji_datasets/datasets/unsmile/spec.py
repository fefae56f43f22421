"""Korean UnSmile (Smilegate AI, 2022), declared: multi-label Korean hate speech.

Upstream's files have no id, and one train text appears twice with different labels,
so a row is identified by its position in its pinned file (``ROW_ID``). Each Korean
header is given its English feature name once, here; the schema, the features and
the card read these mappings.
"""

from __future__ import annotations

import csv

from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.scoring import PER_GOLD_LABEL, Breakdown, Scoring
from hatemoji_datasets.core.spec import ROW_ID, ConfigSpec, DatasetSpec, RawFormat, Release

#: Tab-separated, no quoting: quote characters are part of the comments.
UNSMILE_FORMAT = RawFormat(delimiter="\t", quoting=csv.QUOTE_NONE)
#: The upstream column holding the comment.
TEXT = "문장"
#: The eight hate targets, upstream header -> feature name. ``label`` is hateful where
#: any of them is 1.
TARGETS: dict[str, str] = {
    "여성/가족": "women_family",
    "남성": "men",
    "성소수자": "sexual_minorities",
    "인종/국적": "race_nationality",
    "연령": "age",
    "지역": "region",
    "종교": "religion",
    "기타 혐오": "other_hate",
}
#: The other 0/1 columns: abuse or profanity aimed at no group, clean, and whether the
#: text names a recognisable individual.
FLAGS: dict[str, str] = {"악플/욕설": "abuse", "clean": "clean", "개인지칭": "individual"}

SPEC = DatasetSpec(
    name="unsmile",
    pretty_name="Korean UnSmile",
    package=__package__,
    testing=Ref("testing"),
    releases=(
        Release(
            "1.0.0",
            "First release: smilegate-ai/korean_unsmile_dataset 569ab5f, train (15,005) and "
            "valid (3,737) as validation.",
        ),
    ),
    configs=(
        ConfigSpec(
            name="default",
            description="Korean news and community comments, multi-label hate targets.",
            splits=(("train", "unsmile_train"), ("validation", "unsmile_valid")),
            schema=Ref("schema", "UnsmileRaw"),
            features=Ref("transform", "unsmile_features"),
            transform=Ref("transform", "unsmile_transform"),
            key_column=ROW_ID,
            id_column=ROW_ID,
            text_column=TEXT,
            eval_split="validation",
            raw_format=UNSMILE_FORMAT,
            scoring=Scoring(
                breakdowns=(
                    PER_GOLD_LABEL,
                    Breakdown(
                        "targets",
                        "Per hate target",
                        by=("targets",),
                        metrics=("accuracy", "group_precision", "group_recall", "group_f1"),
                    ),
                ),
                plot=("targets", "accuracy"),
                notes=(
                    "A comment with several hate targets counts in each of their rows. "
                    "Precision, recall and F1 per target take the target's comments as "
                    "positives, the non-hateful comments as negatives, and a hateful "
                    "prediction as flagging a comment.",
                ),
            ),
        ),
    ),
)
