"""HatemojiBuild's built features and the transform from validated raw rows."""

from __future__ import annotations

import datasets
import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets.core import features
from hatemoji_datasets.core.spec import ConfigSpec

from .spec import (
    HATE_TYPES,
    PERTURBATIONS,
    ROUNDS,
    SPLITS,
    UPSTREAM_SPLIT_OF_FILE,
)
from .targets import target_codes


def features_of(config: ConfigSpec, version: str) -> datasets.Features:
    upstream = {"upstream_split": features.class_label(SPLITS)} if config.param("pair_safe") else {}
    return datasets.Features(
        {
            "entry_id": datasets.Value("int32"),
            "text": datasets.Value("string"),
            "label": features.label(),
            "hate_type": features.class_label(HATE_TYPES.values()),
            "targets": features.list_of(features.class_label(target_codes())),
            "round": datasets.Value("int8"),
            "perturbation": features.class_label(PERTURBATIONS),
            "matched_id": datasets.Value("int32"),
            "matched_text": datasets.Value("string"),
            "emoji": features.emoji_feature(),
            **upstream,
        }
    )


def transform(raw: pa.Table, config: ConfigSpec, version: str) -> pa.Table:
    """One upstream file's rows of the config's rounds (every round, for a pair-safe config,
    whose re-split sees the whole dataset and keeps its rounds afterwards)."""
    rounds = ROUNDS if config.param("pair_safe") else config.param("rounds")
    kept = raw.filter(pc.is_in(raw["round.base"], value_set=pa.array(rounds)))
    upstream = {}
    if config.param("pair_safe"):
        # The schema proved each row's `split` names the file it sits in (dev: validation).
        upstream["upstream_split"] = features.class_ids(
            kept["split"], [UPSTREAM_SPLIT_OF_FILE[split] for split in SPLITS]
        )
    return pa.table(
        {
            "entry_id": kept["entry_id"],
            "text": kept["text"],
            "label": pc.cast(kept["label_gold"], pa.int64()),
            "hate_type": features.class_ids(kept["type"], list(HATE_TYPES)),
            "targets": features.list_literal_ids(kept["target"], target_codes()),
            "round": kept["round.base"],
            "perturbation": features.class_ids(kept["set"], PERTURBATIONS),
            "matched_id": kept["matched_id"],
            "matched_text": kept["matched_text"],
            "emoji": features.emoji_lists(kept["text"]),
            **upstream,
        }
    )
