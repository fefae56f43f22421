"""HatemojiBuild: 5,912 adversarial entries of rounds R5-R7, each paired with a perturbation.

Every config reads the same three files: pair rules look across files, and a
round config keeps its rows only after every rule held for the whole dataset.
The pair-safe configs (since 1.1.0) re-split all rounds at once
(``pair_safe.py``) and then keep their rounds, so a round's pair-safe split is
exactly config ``pair_safe``'s rows of that round.
The vocabularies below are the single definition used by the schema and by
the built dataset's ClassLabels.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.scoring import PER_GOLD_LABEL, Breakdown, PairConsistency, Scoring
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, Release, Stack

#: Splits of the built dataset, each read from the upstream file of the same name.
SPLITS: tuple[str, ...] = ("train", "validation", "test")
#: What upstream's ``split`` column says in each file (it calls validation ``dev``).
UPSTREAM_SPLIT_OF_FILE: dict[str, str] = {"train": "train", "validation": "dev", "test": "test"}


def split_named_by(path: str) -> str | None:
    """The split a contributed file's name says (``train.csv``: train); None where it names
    none, and each row's own ``split`` column says."""
    stem = Path(path).stem
    return stem if stem in SPLITS else None


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
        PER_GOLD_LABEL,
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


#: The release that added the pair-safe configs.
PAIR_SAFE_SINCE = "1.1.0"
#: A pair-safe config's name is its upstream config's with this suffix (``r5_pair_safe``);
#: the one over every round is ``pair_safe``.
PAIR_SAFE_SUFFIX = "_pair_safe"


def _config(
    name: str, description: str, rounds: tuple[int, ...], *, pair_safe: bool = False
) -> ConfigSpec:
    if pair_safe:
        return replace(
            _config(name, description, rounds),
            resplit=Ref("pair_safe", "resplit"),
            params=(("rounds", rounds), ("pair_safe", True)),
            statistics=Ref("statistics", "pair_safe_statistics"),
            added_in=PAIR_SAFE_SINCE,
        )
    return ConfigSpec(
        name=name,
        description=description,
        splits=tuple((split, split) for split in SPLITS),
        schema=Ref("schema", "HatemojiBuildRaw"),
        features=Ref("transform", "features_of"),
        transform=Ref("transform", "transform"),
        key_column="entry_id",
        text_column="text",
        id_column="entry_id",
        eval_split="test",
        cross_row_rules=True,
        split_of_file=Ref("spec", "split_named_by"),
        params=(("rounds", rounds),),
        statistics=Ref("statistics", "statistics"),
        scoring=SCORING,
    )


SPEC = DatasetSpec(
    name="hatemoji_build",
    pretty_name="HatemojiBuild",
    package=__package__,
    testing=Ref("testing"),
    releases=(
        Release(
            "1.1.0",
            "Configs pair_safe, r5_pair_safe, r6_pair_safe and r7_pair_safe added: the same "
            "5,912 entries re-split so that no original/perturbation pair straddles two "
            "splits, keeping upstream's split sizes, each round's share of each split and the "
            "label balance of each split; they add the column upstream_split. Configs all, r5, "
            "r6 and r7 are unchanged, and all stays the default.",
            date="2026-12-01",
        ),
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
        _config(
            "pair_safe",
            "Rounds R5, R6 and R7, re-split so that both members of every pair share a split.",
            ROUNDS,
            pair_safe=True,
        ),
        *(
            _config(
                f"r{n}{PAIR_SAFE_SUFFIX}",
                f"Round R{n} only, as config pair_safe splits it.",
                (n,),
                pair_safe=True,
            )
            for n in ROUNDS
        ),
    ),
    default_config="all",
    stacks=(
        Stack("rounds", "all", tuple(f"r{n}" for n in ROUNDS)),
        Stack("pair_safe_rounds", "pair_safe", tuple(f"r{n}{PAIR_SAFE_SUFFIX}" for n in ROUNDS)),
    ),
)
