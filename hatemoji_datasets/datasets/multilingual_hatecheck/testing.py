"""What the shared tests expect of Multilingual HateCheck, stated from the paper and the
upstream files (never computed by the package): split sizes of the real and the dummy
data, the corpora the card's data statements describe, and the card's Hub language."""

#: Rows per split of each config, built from the pinned upstream files.
SPLITS = {
    "arabic": {"test": 3570},
    "dutch": {"test": 3765},
    "french": {"test": 3718},
    "german": {"test": 3645},
    "hindi": {"test": 3565},
    "italian": {"test": 3690},
    "mandarin": {"test": 3378},
    "polish": {"test": 3815},
    "portuguese": {"test": 3691},
    "spanish": {"test": 3745},
    "all": {"test": 36582},
}
#: Rows per split of each config, built from ``dummy_data/`` (three Arabic and Mandarin
#: cases, two of every other language).
DUMMY_SPLITS = {
    "arabic": {"test": 3},
    "dutch": {"test": 2},
    "french": {"test": 2},
    "german": {"test": 2},
    "hindi": {"test": 2},
    "italian": {"test": 2},
    "mandarin": {"test": 3},
    "polish": {"test": 2},
    "portuguese": {"test": 2},
    "spanish": {"test": 2},
    "all": {"test": 22},
}
#: Distinct rows the card counts (its size category): ``all`` stacks the ten languages.
CARD_ROWS = 36582
#: The corpora the card's data statements describe.
CARD_STATEMENTS = ("Multilingual HateCheck",)
#: The card's Hub ``language`` tags (BCP-47), in the paper's order of the languages.
HUB_LANGUAGE = ["ar", "nl", "fr", "de", "hi", "it", "zh", "pl", "pt", "es"]
#: The names of the card's `label_names` enumeration (the label ClassLabel), in id order.
LABEL_NAMES = ("non-hateful", "hateful")
