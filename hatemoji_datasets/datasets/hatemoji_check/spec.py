"""HatemojiCheck: 3,930 functional test cases of emoji-based hate, declared.

The vocabularies below are the single definition used by the schema and by
the built dataset's ClassLabels.
"""

from __future__ import annotations

from hatemoji_datasets.spec import ConfigSpec, DatasetSpec, Release

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

SPEC = DatasetSpec(
    name="hatemoji_check",
    pretty_name="HatemojiCheck",
    package=__package__,
    releases=(
        Release("1.0.0", "First release: upstream commit a626f63, one test split of 3,930 cases."),
    ),
    configs=(
        ConfigSpec(
            name="default",
            description="All 3,930 test cases, one test split.",
            splits=(("test", "test"),),
            schema="schema:HatemojiCheckRaw",
            features="builder:features_of",
            transform="builder:transform",
            key_column="case_id",
            text_column="text",
            id_column="case_id",
            eval_split="test",
        ),
    ),
    statistics="builder:statistics",
)
