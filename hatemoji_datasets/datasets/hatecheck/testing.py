"""What the shared tests expect of HateCheck, stated from the paper and the upstream files
(never computed by the package): split sizes of the real and the dummy data, the corpora
the card's data statements describe, and the card's Hub language."""

#: Rows per split of each config, built from the pinned upstream files.
SPLITS = {
    "default": {"test": 3728},
    "all": {"test": 3901},
}
#: Rows per split of each config, built from ``dummy_data/``.
DUMMY_SPLITS = {
    "default": {"test": 5},
    "all": {"test": 6},
}
#: Distinct rows the card counts (its size category): the suite is a subset of all 3,901
#: generated cases.
CARD_ROWS = 3901
#: The corpora the card's data statements describe.
CARD_STATEMENTS = ("HateCheck",)
#: The card's Hub ``language`` tags.
HUB_LANGUAGE = ["en"]
#: The names of the card's `label_names` enumeration (the label ClassLabel), in id order.
LABEL_NAMES = ("non-hateful", "hateful")
