"""What the shared tests expect of HateCheck, stated from the paper and the upstream files
(never computed by the package): split sizes of the real and the dummy data, the corpora
the card's data statements describe, the card's Hub language, and faults put into released
rows of its joined files by hand, with what they must be found as."""

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
