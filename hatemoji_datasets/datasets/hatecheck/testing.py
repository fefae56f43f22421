"""What the shared tests expect of HateCheck, stated from the paper and the upstream files
(never computed by the package): split sizes of the real and the dummy data, the corpora
the card's data statements describe, the card's Hub language, and faults put into released
rows of its joined files by hand, with what they must be found as, and the recorded cases
of ``validate`` on its files (tests/test_validate_golden.py)."""

from hatemoji_datasets.core.edits import (
    CellFault,
    FirstRowAgain,
    GoldenCase,
    Mutate,
    Prefix,
    Released,
    Renew,
    SetCell,
    Suffix,
)

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
#: each alone): fault -> its ``CellFault``, whose column may be several, of which the fault
#: takes the first the row fills. The shareable faults each edit a column of their own, so they may
#: share a row; the exclusive ones change what the row is (its id) or a value joined across
#: the two files, each on a row of its own.
INDEPENDENT_FAULTS = {
    "shareable": {
        "gold label flipped": CellFault("suite_cases", "label_gold", SetCell("non-hateful")),
        # still a hateful test's name: the label's rule reads it, and still agrees
        "unknown functionality": CellFault(
            "suite_cases", "functionality", SetCell("spell_bogus_h"),
        ),
        "unknown group": CellFault("suite_cases", "target_ident", SetCell("martians")),
        "unknown direction": CellFault("suite_cases", "direction", SetCell("sideways")),
        "empty focus words": CellFault("suite_cases", "focus_words", SetCell("")),
        "a template that is not the referenced case's": CellFault(
            "suite_cases", "ref_templ_id", SetCell("7"),
        ),
        # the first of the five labels the case received
        "an annotator's label unknown": CellFault(
            "suite_annotations", tuple(f"label_{k}" for k in range(1, 11)), SetCell("maybe"),
        ),
        "majority flipped": CellFault(
            "suite_annotations", "label_annot_maj", SetCell("non-hateful"),
        ),
    },
    "exclusive": {
        "text changed in the cases only": CellFault("suite_cases", "test_case", Suffix("really ")),
        "text changed in the annotations only": CellFault(
            "suite_annotations", "test_case", Prefix("  "),
        ),
        "a new id in the cases only": CellFault("suite_cases", "case_id", SetCell("9001")),
        "a reference to no case": CellFault("suite_cases", "ref_case_id", SetCell("99999")),
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
#: see tests/test_validate_golden.py): case, by the name it is recorded under -> its
#: ``GoldenCase`` (``hatemoji_datasets.core.edits`` names the recipes).
#: ``Renew`` makes the cases and their annotations new alike, both restating the text. Files
#: are named like upstream's (the name says the format): a config's cases joined with their
#: annotations (and, in all, the suite's cases), and one format alone, its partners released.
GOLDEN = {
    "hatecheck default released": GoldenCase("default", (), {
        "test_suite_cases.csv": Released("suite_cases"),
        "test_suite_annotations.csv": Released("suite_annotations"),
    }),
    "hatecheck default corrupted": GoldenCase("default", (), {
        "test_suite_cases.csv": Released("suite_cases", Mutate(50, 30)),
        "test_suite_annotations.csv": Released("suite_annotations", Mutate(51, 30)),
    }),
    "hatecheck all released": GoldenCase("all", (), {
        "all_cases.csv": Released("all_cases"),
        "all_annotations.csv": Released("all_annotations"),
        "test_suite_cases.csv": Released("suite_cases"),
    }),
    "hatecheck all corrupted": GoldenCase("all", (), {
        "all_cases.csv": Released("all_cases", Mutate(50, 30)),
        "all_annotations.csv": Released("all_annotations", Mutate(51, 30)),
        "test_suite_cases.csv": Released("suite_cases", Mutate(52, 30)),
    }),
    "hatecheck suite_cases alone": GoldenCase(
        None, (), {"test_suite_cases.csv": Released("suite_cases")},
    ),
    "hatecheck suite_cases alone, corrupted": GoldenCase(None, (), {
        "test_suite_cases.csv": Released("suite_cases", Mutate(60, 40)),
    }),
    "hatecheck suite_cases alone, a row repeated": GoldenCase(None, (), {
        "test_suite_cases.csv": Released("suite_cases", FirstRowAgain()),
    }),
    "hatecheck suite_annotations alone": GoldenCase(
        None, (), {"test_suite_annotations.csv": Released("suite_annotations")},
    ),
    "hatecheck suite_annotations alone, corrupted": GoldenCase(None, (), {
        "test_suite_annotations.csv": Released("suite_annotations", Mutate(60, 40)),
    }),
    "hatecheck suite_annotations alone, a row repeated": GoldenCase(None, (), {
        "test_suite_annotations.csv": Released("suite_annotations", FirstRowAgain()),
    }),
    "hatecheck synthetic 1x, 0 edits": GoldenCase(None, (), {
        "new_test_suite_cases.csv": Released("suite_cases", Renew(1, 100_000)),
        "new_test_suite_annotations.csv": Released(
            "suite_annotations", Renew(1, 100_000),
        ),
    }),
    "hatecheck synthetic 2x, 120 edits": GoldenCase(None, (), {
        "new_test_suite_cases.csv": Released(
            "suite_cases", Renew(2, 100_000), Mutate(70, 120),
        ),
        "new_test_suite_annotations.csv": Released(
            "suite_annotations", Renew(2, 100_000), Mutate(71, 120),
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
