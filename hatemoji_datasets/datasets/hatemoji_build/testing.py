"""What the shared tests expect of HatemojiBuild, stated from the paper and the upstream
file (never computed by the package): split sizes of the real and the dummy data, which
raw rows a config keeps, the corpora the card's data statements describe, the card's Hub
language, how entries pair, and copies of a pinned file with faults put in by hand, with
the findings they must give, and the recorded cases of ``validate`` on its files
(tests/test_validate_golden.py)."""

from __future__ import annotations

from hatemoji_datasets.core.edits import (
    CorruptedCopy,
    Dummy,
    Fixture,
    GoldenCase,
    Mutate,
    Released,
    Renew,
    Replace,
    ReplaceFirst,
    SetField,
)

#: Rows per split of each config, built from the pinned upstream file.
SPLITS = {
    "all": {"train": 4728, "validation": 591, "test": 593},
    "r5": {"train": 1595, "validation": 199, "test": 200},
    "r6": {"train": 1572, "validation": 197, "test": 197},
    "r7": {"train": 1561, "validation": 195, "test": 196},
    # Pairs kept together: sizes within one pair of each round's upstream sizes.
    "pair_safe": {"train": 4728, "validation": 590, "test": 594},
    "r5_pair_safe": {"train": 1594, "validation": 200, "test": 200},
    "r6_pair_safe": {"train": 1572, "validation": 196, "test": 198},
    "r7_pair_safe": {"train": 1562, "validation": 194, "test": 196},
}
#: Rows per split of each config, built from ``dummy_data/``.
DUMMY_SPLITS = {
    "all": {"train": 5, "validation": 8, "test": 5},
    "r5": {"train": 2, "validation": 3, "test": 1},
    "r6": {"train": 2, "validation": 3, "test": 1},
    "r7": {"train": 1, "validation": 2, "test": 3},
    # Worked by hand from pair_safe.py's rules (see tests/test_hatemoji_build.py).
    "pair_safe": {"train": 6, "validation": 6, "test": 6},
    "r5_pair_safe": {"train": 2, "validation": 2, "test": 2},
    "r6_pair_safe": {"train": 2, "validation": 2, "test": 2},
    "r7_pair_safe": {"train": 2, "validation": 2, "test": 2},
}
#: Distinct rows the card counts (its size category): the round configs are subsets of
#: ``all``, and the pair-safe configs re-split the same 5,912 entries.
CARD_ROWS = 5912
#: The corpora the card's data statements describe.
CARD_STATEMENTS = ("HatemojiBuild",)
#: The card's Hub ``language`` tags.
HUB_LANGUAGE = ["en"]
#: Entries come in pairs: which of the partner's raw columns each of an entry's columns
#: copies (the one copying ``entry_id`` names the partner), for the new rows the shared
#: tests make.
PARTNER_COPIES = {"matched_id": "entry_id", "matched_text": "text"}


def keeps(row: dict[str, str], config) -> bool:
    """Whether ``config`` keeps a raw row (its ``round.base`` is one of the config's rounds)."""
    return int(row["round.base"]) in config.param("rounds")


#: The names of the card's `label_names` enumeration (the label ClassLabel), in id order.
LABEL_NAMES = ("non-hateful", "hateful")
#: Copies of the pinned files with one fault each, which ``validate`` rejects: case ->
#: its ``CorruptedCopy``. ``matched_id`` is the last column.
CORRUPTED_COPIES = {
    "unknown hate type": CorruptedCopy(
        "test", Replace(2, ",none,['none']", ",nothing,['none']"), 1,
        (2, "type", "VALUE-NOT-ALLOWED"), None,
    ),
    "malformed target literal": CorruptedCopy(
        "test", Replace(2, "['", "[`"), 1, (2, "target", "HB-TARGET-LITERAL"), None,
    ),
    "partner elsewhere": CorruptedCopy(
        "test", SetField(2, -1, "999999"), 1, (2, "matched_id", "HB-PAIR-MISSING"), None,
    ),
}  # fmt: skip

#: ``validate``'s findings on inputs made from this dataset's files, recorded in
#: tests/golden/validate-findings.json (``GOLDEN``, ``GOLDEN_RECORDED_FOR``, ``GOLDEN_CODES``:
#: see tests/test_validate_golden.py): case, by the name it is recorded under -> its
#: ``GoldenCase`` (``hatemoji_datasets.core.edits`` names the recipes).
#: ``PARTNER_COPIES`` says which columns follow the partner's when ``Renew`` makes rows new.
#: Each file of a split is named after it (the rules read a contributed file's split from
#: its name).
GOLDEN = {
    "build released": GoldenCase(None, ("--full",), {
        "train.csv": Released("train"),
        "validation.csv": Released("validation"),
        "test.csv": Released("test"),
    }),
    "build r6 train": GoldenCase("r6", (), {"train.csv": Released("train")}),
    "build fixtures": GoldenCase(None, (), {
        "train.csv": Fixture("hatemoji_build_train.csv"),
        "validation.csv": Fixture("hatemoji_build_validation.csv"),
        "test.csv": Fixture("hatemoji_build_test.csv"),
    }),
    "build fixture contribution": GoldenCase(
        None, (), {"contribution.csv": Fixture("hatemoji_build_contribution.csv")},
    ),
    "build dummy data": GoldenCase(None, (), {
        "train.csv": Dummy("train"),
        "validation.csv": Dummy("validation"),
        "test.csv": Dummy("test"),
    }),
    "build corrupted 1": GoldenCase(None, ("--full",), {
        "train.csv": Released("train", Mutate(1, 30)),
        "validation.csv": Released("validation", Mutate(1, 30)),
        "test.csv": Released("test", Mutate(1, 30)),
    }),
    "build corrupted 2": GoldenCase(None, (), {
        "train.csv": Released("train", Mutate(2, 30)),
        "validation.csv": Released("validation", Mutate(2, 30)),
        "test.csv": Released("test", Mutate(2, 30)),
    }),
    "build corrupted 3": GoldenCase(None, (), {
        "train.csv": Released("train", Mutate(3, 400)),
        "validation.csv": Released("validation", Mutate(3, 400)),
        "test.csv": Released("test", Mutate(3, 400)),
    }),
    "build train corrupted as a contribution": GoldenCase(
        None, (), {"contribution.csv": Released("train", Mutate(4, 60))},
    ),
    "build r7 validation corrupted": GoldenCase(
        "r7", (), {"validation.csv": Released("validation", Mutate(5, 40))},
    ),
    "build synthetic 1x, 0 edits": GoldenCase(
        None, (), {"train.csv": Released("train", Renew(1, 1_000_000))},
    ),
    "build synthetic 2x, 120 edits": GoldenCase(None, (), {
        "train.csv": Released("train", Renew(2, 1_000_000), Mutate(22, 120)),
    }),
    # Integers written as decimals: three rows' round.base of 6 as 6.0.
    "integers that are not": GoldenCase(
        None, (), {"test.csv": Released("test", ReplaceFirst(3, ",6,6a,", ",6.0,6a,"))},
    ),
}  # fmt: skip
#: The dataset ``GOLDEN``'s names are recorded for (a folder copied from this one keeps it).
GOLDEN_RECORDED_FOR = "hatemoji_build"
#: This dataset's rule codes the recorded findings show.
GOLDEN_CODES = (
    "HB-TARGET-LITERAL", "HB-TARGET-UNKNOWN", "HB-TARGET-REPEATED", "HB-TYPE-LABEL",
    "HB-TARGET-TYPE", "HB-ROUND-SET", "HB-SPLIT-FILE", "HB-PAIR-MISSING", "HB-PAIR-ASYMMETRIC",
    "HB-PAIR-ROUND", "HB-PAIR-TEXT", "HB-PAIR-SET",
)  # fmt: skip
