"""What the shared tests expect of HatemojiCheck, stated from the paper and the upstream
file (never computed by the package): split sizes of the real and the dummy data, the
corpora the card's data statements describe, and the card's Hub language."""

#: Rows per split of each config, built from the pinned upstream file (the paper's 3,930).
SPLITS = {"default": {"test": 3930}}
#: Rows per split of each config, built from ``dummy_data/``.
DUMMY_SPLITS = {"default": {"test": 16}}
#: Distinct rows the card counts (its size category): the paper's 3,930 cases.
CARD_ROWS = 3930
#: The corpora the card's data statements describe.
CARD_STATEMENTS = ("HatemojiCheck",)
#: The card's Hub ``language`` tags.
HUB_LANGUAGE = ["en"]
#: The names of the card's `label_names` enumeration (the label ClassLabel), in id order.
LABEL_NAMES = ("non-hateful", "hateful")
