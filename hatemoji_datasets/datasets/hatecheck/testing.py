"""What the shared tests expect of HateCheck, stated from the paper and the upstream files
(never computed by the package): split sizes of the real and the dummy data, the corpora
the card's data statements describe, the card's Hub language, and faults put into released
rows of its joined files by hand, with what they must be found as, and the recorded cases
of ``validate`` on its files (tests/test_validate_golden.py)."""

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

#: Faults put into released rows of the default config's files, one cell each, as a careless
#: contributor or an attacker would (the findings of several together must be the union of
#: each alone): fault -> (source, column, edit), where the column may be several, of which
#: the fault takes the first the row fills, and the edit is ("set", value), ("prefix", text)
#: or ("suffix", text). The shareable faults each edit a column of their own, so they may
#: share a row; the exclusive ones change what the row is (its id) or a value joined across
#: the two files, each on a row of its own.
INDEPENDENT_FAULTS = {
    "shareable": {
        "gold label flipped": ("suite_cases", "label_gold", ("set", "non-hateful")),
        # still a hateful test's name: the label's rule reads it, and still agrees
        "unknown functionality": ("suite_cases", "functionality", ("set", "spell_bogus_h")),
        "unknown group": ("suite_cases", "target_ident", ("set", "martians")),
        "unknown direction": ("suite_cases", "direction", ("set", "sideways")),
        "empty focus words": ("suite_cases", "focus_words", ("set", "")),
        "a template that is not the referenced case's": (
            "suite_cases", "ref_templ_id", ("set", "7"),
        ),
        # the first of the five labels the case received
        "an annotator's label unknown": (
            "suite_annotations", tuple(f"label_{k}" for k in range(1, 11)), ("set", "maybe"),
        ),
        "majority flipped": ("suite_annotations", "label_annot_maj", ("set", "non-hateful")),
    },
    "exclusive": {
        "text changed in the cases only": ("suite_cases", "test_case", ("suffix", "really ")),
        "text changed in the annotations only": (
            "suite_annotations", "test_case", ("prefix", "  "),
        ),
        "a new id in the cases only": ("suite_cases", "case_id", ("set", "9001")),
        "a reference to no case": ("suite_cases", "ref_case_id", ("set", "99999")),
    },
}  # fmt: skip
#: Shareable faults whose findings interfered on one row in 0.3.0: the label's rule reads
#: the functionality, and an unknown one hid it (RELEASE-CHANGED spoke for the label's cell).
INDEPENDENT_ON_ONE_ROW = (
    ("gold label flipped", "unknown functionality"),
    ("majority flipped", "an annotator's label unknown"),
)
#: What an exclusive fault alone is found as: fault -> (source, column, code) of findings it
#: must give, and whether they are all. Upstream's texts end in a space, so a new id makes
#: the row new and TEXT-EDGE-SPACE appears on it; the join's findings of the changed id must
#: appear too (in 0.3.0 the warning hid them). A released row's text changed in one file is
#: RELEASE-CHANGED, which stands for the join mismatch on that same cell.
INDEPENDENT_ALONE = {
    "a new id in the cases only": (
        {
            ("suite_cases", "test_case", "TEXT-EDGE-SPACE"),
            ("suite_cases", "case_id", "JOIN-UNMATCHED"),
            ("suite_annotations", "case_id", "JOIN-UNMATCHED"),
        },
        False,
    ),
    "text changed in the annotations only": (
        {("suite_annotations", "test_case", "RELEASE-CHANGED")}, True,
    ),
}  # fmt: skip

#: ``validate``'s findings on inputs made from this dataset's files, recorded in
#: tests/golden/validate-findings.json (``GOLDEN``, ``GOLDEN_RECORDED_FOR``, ``GOLDEN_CODES``:
#: see tests/test_validate_golden.py): case, by the name it is recorded under -> (config,
#: None for the default; options; file name -> recipe). A recipe is a file, then edits in
#: turn: ("released", source); ("mutate", seed, edits) seeded random edits, ("renew",
#: copies, id step) the rows made new (a synthetic contribution: the cases and their
#: annotations alike, both restating the text), ("first row again",) the first row repeated
#: at the end. Files are named like upstream's (the name says the format): a config's
#: cases joined with their annotations (and, in all, the suite's cases), and one format
#: alone, its partners released.
GOLDEN = {
    "hatecheck default released": ("default", (), {
        "test_suite_cases.csv": ("released", "suite_cases"),
        "test_suite_annotations.csv": ("released", "suite_annotations"),
    }),
    "hatecheck default corrupted": ("default", (), {
        "test_suite_cases.csv": ("released", "suite_cases", ("mutate", 50, 30)),
        "test_suite_annotations.csv": ("released", "suite_annotations", ("mutate", 51, 30)),
    }),
    "hatecheck all released": ("all", (), {
        "all_cases.csv": ("released", "all_cases"),
        "all_annotations.csv": ("released", "all_annotations"),
        "test_suite_cases.csv": ("released", "suite_cases"),
    }),
    "hatecheck all corrupted": ("all", (), {
        "all_cases.csv": ("released", "all_cases", ("mutate", 50, 30)),
        "all_annotations.csv": ("released", "all_annotations", ("mutate", 51, 30)),
        "test_suite_cases.csv": ("released", "suite_cases", ("mutate", 52, 30)),
    }),
    "hatecheck suite_cases alone": (
        None, (), {"test_suite_cases.csv": ("released", "suite_cases")},
    ),
    "hatecheck suite_cases alone, corrupted": (None, (), {
        "test_suite_cases.csv": ("released", "suite_cases", ("mutate", 60, 40)),
    }),
    "hatecheck suite_cases alone, a row repeated": (None, (), {
        "test_suite_cases.csv": ("released", "suite_cases", ("first row again",)),
    }),
    "hatecheck suite_annotations alone": (
        None, (), {"test_suite_annotations.csv": ("released", "suite_annotations")},
    ),
    "hatecheck suite_annotations alone, corrupted": (None, (), {
        "test_suite_annotations.csv": ("released", "suite_annotations", ("mutate", 60, 40)),
    }),
    "hatecheck suite_annotations alone, a row repeated": (None, (), {
        "test_suite_annotations.csv": ("released", "suite_annotations", ("first row again",)),
    }),
    "hatecheck synthetic 1x, 0 edits": (None, (), {
        "new_test_suite_cases.csv": ("released", "suite_cases", ("renew", 1, 100_000)),
        "new_test_suite_annotations.csv": (
            "released", "suite_annotations", ("renew", 1, 100_000),
        ),
    }),
    "hatecheck synthetic 2x, 120 edits": (None, (), {
        "new_test_suite_cases.csv": (
            "released", "suite_cases", ("renew", 2, 100_000), ("mutate", 70, 120),
        ),
        "new_test_suite_annotations.csv": (
            "released", "suite_annotations", ("renew", 2, 100_000), ("mutate", 71, 120),
        ),
    }),
}  # fmt: skip
#: The dataset ``GOLDEN``'s names are recorded for (a folder copied from this one keeps it).
GOLDEN_RECORDED_FOR = "hatecheck"
#: This dataset's rule codes the recorded findings show (no case breaks HCK-REF-CASE or
#: HCK-SUITE-AGREEMENT).
GOLDEN_CODES = (
    "HCK-COUNT-HATEFUL", "HCK-COUNT-NON-HATEFUL", "HCK-DIRECTION", "HCK-FIVE-LABELS",
    "HCK-LABEL-SUFFIX", "HCK-MAJORITY", "HCK-NO-TARGET", "HCK-REF-TEMPLATE",
)  # fmt: skip
