"""The tests' synthetic dataset: sentences about fruit, weather and gardens, declared.

Written by hand for the tests of the machinery (caches, locks, exports, commands); see
``tests/synthetic/README.md``. A sentence with an exclamation mark is a complaint, the
label's positive class. It is registered only in a test session (``HATEMOJI_DATASETS_EXTRA``).
"""

from __future__ import annotations

from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.scoring import PER_GOLD_LABEL, Breakdown, Scoring
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, Release

#: Upstream ``topic``, in ClassLabel order.
TOPICS: tuple[str, ...] = ("fruit", "weather", "garden")
#: What marks a complaint (label 1) in a sentence.
COMPLAINT_MARK = "!"

SCORING = Scoring(
    breakdowns=(
        PER_GOLD_LABEL,
        Breakdown("topics", "Per topic", by=("topic",), metrics=("accuracy", "f1_hateful")),
    ),
    plot=("topics", "accuracy"),
)

SPEC = DatasetSpec(
    name="synthetic",
    pretty_name="Synthetic sentences (tests only)",
    package=__package__,
    releases=(
        Release("1.0.0", "First release: 24 train and 16 test sentences.", date="2026-12-06"),
    ),
    configs=(
        ConfigSpec(
            name="default",
            description="Every sentence: train and test.",
            splits=(("train", "train"), ("test", "test")),
            schema=Ref("schema", "SyntheticRaw"),
            features=Ref("transform", "features_of"),
            transform=Ref("transform", "transform"),
            key_column="sentence_id",
            text_column="sentence",
            id_column="sentence_id",
            eval_split="test",
            statistics=Ref("statistics", "statistics"),
            scoring=SCORING,
        ),
    ),
)
