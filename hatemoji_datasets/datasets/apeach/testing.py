"""What the shared tests expect of APEACH and BEEP!, stated from the papers and the
upstream files (never computed by the package): split sizes of the real and the dummy
data, the corpora the card's data statements describe, the card's Hub language, and a
copy of a pinned file with a fault put in by hand, with the finding it must give, and the
recorded cases of ``validate`` on its files (tests/test_validate_golden.py)."""

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

#: ``validate``'s findings on inputs made from this dataset's files, recorded in
#: tests/golden/validate-findings.json (``GOLDEN``, ``GOLDEN_RECORDED_FOR``, ``GOLDEN_CODES``:
#: see tests/test_validate_golden.py): case, by the name it is recorded under -> (config,
#: None for the default; options; file name -> recipe). A recipe is a file, then edits in
#: turn: ("released", source), ("dummy", source) or ("fixture", name in tests/fixtures/);
#: ("mutate", seed, edits) seeded random edits, ("renew", copies) the rows made new (a
#: synthetic contribution: rows have no id, their text is new).
GOLDEN = {
    "apeach released": (None, (), {"test.csv": ("released", "apeach_test")}),
    "beep released": ("beep", ("--full",), {
        "train.tsv": ("released", "beep_train"),
        "dev.tsv": ("released", "beep_dev"),
    }),
    "apeach fixtures": (None, (), {
        "valid.csv": ("fixture", "apeach_valid.csv"),
        "broken.csv": ("fixture", "apeach_broken.csv"),
    }),
    "beep fixtures": ("beep", (), {
        "valid.tsv": ("fixture", "beep_valid.tsv"),
        "broken.tsv": ("fixture", "beep_broken.tsv"),
    }),
    "apeach dummy data": (None, (), {"test.csv": ("dummy", "apeach_test")}),
    "beep dummy data": ("beep", (), {
        "train.tsv": ("dummy", "beep_train"),
        "dev.tsv": ("dummy", "beep_dev"),
    }),
    "apeach corrupted 1": (None, (), {"test.csv": ("released", "apeach_test", ("mutate", 1, 30))}),
    "apeach corrupted 2": (None, (), {"test.csv": ("released", "apeach_test", ("mutate", 2, 30))}),
    "apeach corrupted 3": (
        None, (), {"test.csv": ("released", "apeach_test", ("mutate", 3, 400))},
    ),
    "beep corrupted 1": ("beep", (), {
        "train.tsv": ("released", "beep_train", ("mutate", 1, 30)),
        "dev.tsv": ("released", "beep_dev", ("mutate", 1, 30)),
    }),
    "beep corrupted 2": ("beep", (), {
        "train.tsv": ("released", "beep_train", ("mutate", 2, 30)),
        "dev.tsv": ("released", "beep_dev", ("mutate", 2, 30)),
    }),
    "beep corrupted 3": ("beep", (), {
        "train.tsv": ("released", "beep_train", ("mutate", 3, 400)),
        "dev.tsv": ("released", "beep_dev", ("mutate", 3, 400)),
    }),
    "apeach synthetic 1x, 0 edits": (
        None, (), {"new.csv": ("released", "apeach_test", ("renew", 1))},
    ),
    "apeach synthetic 2x, 120 edits": (None, (), {
        "new.csv": ("released", "apeach_test", ("renew", 2), ("mutate", 32, 120)),
    }),
    "beep synthetic 1x, 0 edits": (
        "beep", (), {"new.tsv": ("released", "beep_train", ("renew", 1))},
    ),
    "beep synthetic 2x, 120 edits": ("beep", (), {
        "new.tsv": ("released", "beep_train", ("renew", 2), ("mutate", 42, 120)),
    }),
}  # fmt: skip
#: The dataset ``GOLDEN``'s names are recorded for (a folder copied from this one keeps it).
GOLDEN_RECORDED_FOR = "apeach"
#: This dataset's rule codes the recorded findings show.
GOLDEN_CODES = ("AP-AGE-GROUP", "AP-TOPIC-NAMES", "BP-GENDER-FLAG")
