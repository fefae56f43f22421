"""HatemojiCheck: 3,930 functional test cases of emoji-based hate, declared.

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
    Scoring,
)
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, Release

#: Functionalities in the paper's F1..F7 order.
FUNCTIONALITIES: tuple[str, ...] = (
    "verb_swap",
    "identity_swap",
    "descriptor_swap",
    "double_swap",
    "append",
    "positive_confounder",
    "emoji_leetspeak",
)
#: Upstream ``set`` value -> perturbation name, in the paper's .0 .. .3 order.
PERTURBATIONS: dict[str, str] = {
    "orig": "original",
    "identity_perturb": "identity",
    "polarity_perturb": "polarity",
    "no_emoji_perturb": "no_emoji",
}
#: Protected targets as upstream spells them.
PROTECTED_TARGETS: tuple[str, ...] = (
    "women",
    "trans people",
    "gay people",
    "black people",
    "disabled people",
    "Muslims",
)
#: Upstream writes the literal ``None`` where an identity perturbation has no protected target.
UPSTREAM_NO_TARGET = "None"
#: The explicit value the built dataset uses for those cases.
NO_TARGET = "none"
TARGETS: tuple[str, ...] = (NO_TARGET, *PROTECTED_TARGETS)

#: The paper's tables: accuracy per functionality x perturbation cell, per target, and
#: fairness across the protected targets.
SCORING = Scoring(
    breakdowns=(
        PER_GOLD_LABEL,
        Breakdown(
            "cells",
            "Accuracy per functionality x perturbation",
            by=("functionality", "perturbation"),
            info=("label", "n"),
            keys=("case", "functionality", "perturbation"),
            function=Ref("scoring", "cell_keys"),
        ),
        Breakdown(
            "targets",
            "Per target",
            by=("target",),
            info=("n", "n_hateful", "n_non_hateful"),
            metrics=("accuracy", "false_positive_rate", "false_negative_rate"),
        ),
        Fairness(
            "fairness",
            "Fairness across the six protected targets (fairlearn)",
            column="target",
            exclude=(NO_TARGET,),
            scope="protected targets",
            count="targets",
        ),
    ),
    plot=("cells", "accuracy"),
    matrix=Matrix(
        "cells",
        rows="functionality",
        columns="perturbation",
        metric="accuracy",
        row_label="F{position} {name}",
    ),
    notes=(
        "Fairness ratios exclude target `none` (identity perturbations); a ratio is "
        "undefined (None) when every group's rate is 0.",
    ),
)

#: The Hatemoji paper's main table (Kirk et al., NAACL 2022): accuracy and F1 of each model
#: on the emoji test sets (HatemojiBuild's rounds, HatemojiCheck) and on HateCheck. Its R1-R4
#: and R1-R7 columns are Dynabench rounds no dataset here holds; R5, R6 and R7 alone are
#: the rounds' own test splits, for runs scored round by round.
HATEMOJI_MAIN_TABLE = LeaderboardLayout(
    name="hatemoji",
    title="Hatemoji (Kirk et al., NAACL 2022), main table",
    columns=(
        ("hatemoji_build/r5", "R5"),
        ("hatemoji_build/r6", "R6"),
        ("hatemoji_build/r7", "R7"),
        ("hatemoji_build/all", "R5-R7"),
        ("hatemoji_check/default", "HatemojiCheck"),
        ("hatecheck/default", "HateCheck"),
    ),
    metrics=("accuracy", "f1_hateful"),
)

SPEC = DatasetSpec(
    name="hatemoji_check",
    pretty_name="HatemojiCheck",
    package=__package__,
    testing=Ref("testing"),
    releases=(
        Release(
            "1.0.0",
            "First release: upstream commit a626f63, one test split of 3,930 cases.",
            date="2026-11-29",
        ),
    ),
    configs=(
        ConfigSpec(
            name="default",
            description="All 3,930 test cases, one test split.",
            splits=(("test", "test"),),
            schema=Ref("schema", "HatemojiCheckRaw"),
            features=Ref("transform", "features_of"),
            transform=Ref("transform", "transform"),
            key_column="case_id",
            text_column="text",
            id_column="case_id",
            eval_split="test",
            statistics=Ref("statistics", "statistics"),
            scoring=SCORING,
        ),
    ),
    layouts=(HATEMOJI_MAIN_TABLE,),
)
