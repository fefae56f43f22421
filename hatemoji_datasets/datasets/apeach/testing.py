"""What the shared tests expect of APEACH and BEEP!, stated from the papers and the
upstream files (never computed by the package): split sizes of the real and the dummy
data, the corpora the card's data statements describe, the card's Hub language, and a
copy of a pinned file with a fault put in by hand, with the finding it must give."""

#: Rows per split of each config, built from the pinned upstream files.
SPLITS = {
    "default": {"test": 3770},
    "beep": {"train": 7896, "validation": 471},
}
#: Rows per split of each config, built from ``dummy_data/``.
DUMMY_SPLITS = {
    "default": {"test": 5},
    "beep": {"train": 5, "validation": 3},
}
#: Distinct rows the card counts (its size category): APEACH's test and BEEP!'s two splits.
CARD_ROWS = 3770 + 7896 + 471
#: The corpora the card's data statements describe.
CARD_STATEMENTS = ("APEACH", "BEEP!")
#: The card's Hub ``language`` tags.
HUB_LANGUAGE = ["ko"]
#: None: the card has no `label_names` enumeration (APEACH and BEEP! spell their labels
#: differently upstream; its enumerations are writer gender, hate level and bias).
LABEL_NAMES = None
#: The lm-evaluation-harness tasks' choices, in label id order: the card words them in
#: Korean (``lm_eval: choices``), "not hate" and "hate".
TASK_CHOICES = ("혐오 아님", "혐오")
#: Copies of the pinned files with one fault each, which ``validate`` rejects: case ->
#: (source, edit, exit status, (line, column, code) of the finding that names it,
#: (value, expected) the finding names, or None).
CORRUPTED_COPIES = {
    "unknown hate level": (
        "beep_dev", ("replace", 2, "\tnone\n", "\tmild\n"), 1, (2, "hate", "VALUE-NOT-ALLOWED"),
        ("mild", "one of none, offensive, hate"),
    ),
}  # fmt: skip
#: ClassLabel names a release renamed from the release before it, ids and rows unchanged:
#: release -> feature -> {id: (old name, new name)}. 2.0.0 renamed topic 1, the paper's
#: prompt 2 (about sexual orientation or gender identity, which upstream's English name
#: "Sexual harassment" misstates).
RENAMED_LABELS = {
    "2.0.0": {"topic": {1: ("sexual_harassment", "sexual_orientation_and_identity")}},
}
