"""HatemojiBuild: 5,912 adversarial entries of rounds R5-R7, each paired with a perturbation.

Every config reads the same three files: pair rules look across files, and a
round config keeps its rows only after every rule held for the whole dataset.
The vocabularies below are the single definition used by the schema and by
the built dataset's ClassLabels.
"""

from __future__ import annotations

from hatemoji_datasets.spec import (
    Breakdown,
    ConfigSpec,
    DatasetSpec,
    PairConsistency,
    Release,
    Scoring,
)

#: Splits of the built dataset, each read from the upstream file of the same name.
SPLITS: tuple[str, ...] = ("train", "validation", "test")
#: What upstream's ``split`` column says in each file (it calls validation ``dev``).
UPSTREAM_SPLIT_OF_FILE: dict[str, str] = {"train": "train", "validation": "dev", "test": "test"}

ROUNDS: tuple[int, ...] = (5, 6, 7)
#: Upstream ``type`` -> hate type name, in the paper's order (``none`` for non-hateful).
HATE_TYPES: dict[str, str] = {
    "none": "none",
    "derogation": "derogation",
    "animosity": "animosity",
    "threateninglanguage": "threatening",
    "dehumanizinglanguage": "dehumanizing",
}
NO_HATE_TYPE = "none"
#: Upstream ``set``: an annotator's original entry or its minimally changed perturbation.
PERTURBATIONS: tuple[str, ...] = ("original", "perturbation")
#: ``round.set`` is the round followed by this letter.
ROUND_SET_LETTER: dict[str, str] = {"original": "a", "perturbation": "b"}


#: Per round, recall of the gold class per hate type, and pair consistency.
SCORING = Scoring(
    breakdowns=(
        Breakdown(
            "rounds",
            "Per round",
            by=("round",),
            metrics=("accuracy", "f1_hateful"),
            show=(("round", "R{value}"),),
        ),
        Breakdown(
            "hate_types",
            "Recall of the gold class per hate type",
            by=("hate_type",),
            info=("label", "n"),
            metrics=("recall",),
        ),
        PairConsistency(
            "pairs",
            "Pair consistency: original and perturbation both predicted correctly",
            partner="matched_id",
            original=("perturbation", "original"),
            scopes_by="round",
            show="R{value}",
        ),
    ),
    plot=("hate_types", "recall"),
    notes=(
        "Hate type `none` is recall of the non-hateful class; the others, of the hateful class.",
    ),
)


def _config(name: str, description: str, rounds: tuple[int, ...]) -> ConfigSpec:
    return ConfigSpec(
        name=name,
        description=description,
        splits=tuple((split, split) for split in SPLITS),
        schema="schema:HatemojiBuildRaw",
        features="transform:features_of",
        transform="transform:transform",
        key_column="entry_id",
        text_column="text",
        id_column="entry_id",
        eval_split="test",
        cross_row_rules=True,
        split_of_file="schema:split_of_contribution",
        params=(("rounds", rounds),),
        statistics="statistics:statistics",
        scoring=SCORING,
    )


SPEC = DatasetSpec(
    name="hatemoji_build",
    pretty_name="HatemojiBuild",
    package=__package__,
    releases=(
        Release(
            "1.0.0",
            "First release: upstream commit a626f63, R5-R7, 5,912 entries in "
            "train/validation/test; configs all, r5, r6, r7.",
            date="2026-11-29",
        ),
    ),
    configs=(
        _config("all", "Rounds R5, R6 and R7 together.", ROUNDS),
        *(_config(f"r{n}", f"Round R{n} only.", (n,)) for n in ROUNDS),
    ),
    default_config="all",
)
