"""What the shared tests expect of APEACH and BEEP!, stated from the papers and the
upstream files (never computed by the package): split sizes of the real and the dummy
data, the corpora the card's data statements describe, the card's Hub language, and a
copy of a pinned file with a fault put in by hand, with the finding it must give, and the
recorded cases of ``validate`` on its files (tests/test_validate_golden.py)."""

from hatemoji_datasets.core.edits import (
    CorruptedCopy,
    Dummy,
    Fixture,
    GoldenCase,
    Mutate,
    Released,
    Renew,
    Replace,
)

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
#: its ``CorruptedCopy``.
CORRUPTED_COPIES = {
    "unknown hate level": CorruptedCopy(
        "beep_dev", Replace(2, "\tnone\n", "\tmild\n"), 1, (2, "hate", "VALUE-NOT-ALLOWED"),
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
#: see tests/test_validate_golden.py): case, by the name it is recorded under -> its
#: ``GoldenCase`` (``hatemoji_datasets.core.edits`` names the recipes).
#: ``Renew`` makes a synthetic contribution: rows have no id, their text is new.
GOLDEN = {
    "apeach released": GoldenCase(None, (), {"test.csv": Released("apeach_test")}),
    "beep released": GoldenCase("beep", ("--full",), {
        "train.tsv": Released("beep_train"),
        "dev.tsv": Released("beep_dev"),
    }),
    "apeach fixtures": GoldenCase(None, (), {
        "valid.csv": Fixture("apeach_valid.csv"),
        "broken.csv": Fixture("apeach_broken.csv"),
    }),
    "beep fixtures": GoldenCase("beep", (), {
        "valid.tsv": Fixture("beep_valid.tsv"),
        "broken.tsv": Fixture("beep_broken.tsv"),
    }),
    "apeach dummy data": GoldenCase(None, (), {"test.csv": Dummy("apeach_test")}),
    "beep dummy data": GoldenCase("beep", (), {
        "train.tsv": Dummy("beep_train"),
        "dev.tsv": Dummy("beep_dev"),
    }),
    "apeach corrupted 1": GoldenCase(
        None, (), {"test.csv": Released("apeach_test", Mutate(1, 30))},
    ),
    "apeach corrupted 2": GoldenCase(
        None, (), {"test.csv": Released("apeach_test", Mutate(2, 30))},
    ),
    "apeach corrupted 3": GoldenCase(
        None, (), {"test.csv": Released("apeach_test", Mutate(3, 400))},
    ),
    "beep corrupted 1": GoldenCase("beep", (), {
        "train.tsv": Released("beep_train", Mutate(1, 30)),
        "dev.tsv": Released("beep_dev", Mutate(1, 30)),
    }),
    "beep corrupted 2": GoldenCase("beep", (), {
        "train.tsv": Released("beep_train", Mutate(2, 30)),
        "dev.tsv": Released("beep_dev", Mutate(2, 30)),
    }),
    "beep corrupted 3": GoldenCase("beep", (), {
        "train.tsv": Released("beep_train", Mutate(3, 400)),
        "dev.tsv": Released("beep_dev", Mutate(3, 400)),
    }),
    "apeach synthetic 1x, 0 edits": GoldenCase(
        None, (), {"new.csv": Released("apeach_test", Renew(1))},
    ),
    "apeach synthetic 2x, 120 edits": GoldenCase(None, (), {
        "new.csv": Released("apeach_test", Renew(2), Mutate(32, 120)),
    }),
    "beep synthetic 1x, 0 edits": GoldenCase(
        "beep", (), {"new.tsv": Released("beep_train", Renew(1))},
    ),
    "beep synthetic 2x, 120 edits": GoldenCase("beep", (), {
        "new.tsv": Released("beep_train", Renew(2), Mutate(42, 120)),
    }),
}  # fmt: skip
#: The dataset ``GOLDEN``'s names are recorded for (a folder copied from this one keeps it).
GOLDEN_RECORDED_FOR = "apeach"
#: This dataset's rule codes the recorded findings show.
GOLDEN_CODES = ("AP-AGE-GROUP", "AP-TOPIC-NAMES", "BP-GENDER-FLAG")
