"""What the shared tests expect of HatemojiBuild, stated from the paper and the upstream
file (never computed by the package): split sizes of the real and the dummy data, which
raw rows a config keeps, the corpora the card's data statements describe, the card's Hub
language, how entries pair, and copies of a pinned file with faults put in by hand, with
the findings they must give."""

from __future__ import annotations

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
#: (source, edit, exit status, (line, column, code) of the finding that names it,
#: (value, expected) the finding names, or None). ``matched_id`` is the last column.
CORRUPTED_COPIES = {
    "unknown hate type": (
        "test", ("replace", 2, ",none,['none']", ",nothing,['none']"), 1,
        (2, "type", "VALUE-NOT-ALLOWED"), None,
    ),
    "malformed target literal": (
        "test", ("replace", 2, "['", "[`"), 1, (2, "target", "HB-TARGET-LITERAL"), None,
    ),
    "partner elsewhere": (
        "test", ("field", 2, -1, "999999"), 1, (2, "matched_id", "HB-PAIR-MISSING"), None,
    ),
}  # fmt: skip
