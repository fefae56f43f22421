"""What the shared tests expect of Korean UnSmile, counted in the upstream files
(never computed by the package)."""

#: Rows per split, built from the pinned upstream files.
SPLITS = {"default": {"train": 15005, "validation": 3737}}
#: Rows per split, built from ``dummy_data/``.
DUMMY_SPLITS = {"default": {"train": 4, "validation": 3}}
#: Hateful (any of the eight hate targets is 1) and non-hateful rows per split.
LABEL_COUNTS = {
    "default": {
        "train": {"non-hateful": 6884, "hateful": 8121},
        "validation": {"non-hateful": 1721, "hateful": 2016},
    }
}
CARD_ROWS = 15005 + 3737
CARD_STATEMENTS = ("Korean UnSmile",)
HUB_LANGUAGE = ["ko"]
#: None: Croissant has no `label_names` enumeration (`label` is computed, not read).
LABEL_NAMES = None
#: The lm-evaluation-harness tasks' choices: the shared label's names.
TASK_CHOICES = ("non-hateful", "hateful")
