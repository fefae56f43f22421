"""What the shared tests expect of HatemojiCheck, stated from the paper and the upstream
file (never computed by the package): split sizes of the real and the dummy data, the
corpora the card's data statements describe, the card's Hub language, what ``sources``,
``build`` and ``info`` show of the pinned file, and copies of the dummy data and of the
pinned file with faults put in by hand, with the findings they must give, and the
recorded cases of ``validate`` on its files (tests/test_validate_golden.py)."""

from hatemoji_datasets.core.edits import (
    CorruptedCopy,
    Crlf,
    Dummy,
    Fixture,
    GoldenCase,
    Mutate,
    Released,
    Renew,
    Replace,
    SameId,
    SetField,
    Truncate,
)

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

#: Pinned upstream files: size in bytes and the first 12 hex digits of the sha256, of the
#: file at the pinned commit.
UPSTREAM_FILES = {"test": (349_034, "9aa6bf78370a")}
#: Rows per label (the label ClassLabel's names) in each split of a config, counted in the
#: pinned file: 1,276 non-hateful and 2,654 hateful cases.
LABEL_COUNTS = {"default": {"test": {"non-hateful": 1276, "hateful": 2654}}}
#: The names of the default config's ClassLabel features besides ``label`` (LABEL_NAMES),
#: in id order: feature -> names. The paper's functionalities F1 to F7.
CLASS_LABELS = {
    "functionality": (
        "verb_swap",
        "identity_swap",
        "descriptor_swap",
        "double_swap",
        "append",
        "positive_confounder",
        "emoji_leetspeak",
    ),
}
#: Tables ``info`` shows of the default config: title -> the cells of its header's last
#: line and of its first row (``...``: more cells follow). F1 has 300 original cases.
INFO_TABLES = {
    "cases per label": (("label", "cases"), ("non-hateful", "1,276")),
    "cases per functionality": (("functionality", ...), ("F1", "verb_swap", "300", ...)),
}

#: Faults put into ``dummy_data/`` by hand, which the raw schema rejects (a build validates
#: the files no recorded fingerprint covers): source -> its edits of lines.
BROKEN = {
    "test": (
        SameId(3, 2),
        SetField(4, 7, "1"),  # a polarity perturbation labelled hateful
        Replace(5, "plant flowers for", "plant \N{BLOSSOM} for"),  # no_emoji, an emoji
        Replace(6, ",gay people,identity_swap,", ",cats,identity_swap,"),
        SetField(7, 1, "3.1"),  # the template of another test group
        Replace(11, ",orig,1,0,1", ",orig,1,9,1"),  # the record starting on line 10
        Replace(14, "\N{SUN WITH FACE} ", ""),  # an original without an emoji
    ),
}
#: Every finding a build of them names: source -> (line, column, code) each.
BROKEN_FINDINGS = {
    "test": (
        (2, "case_id", "VALUE-DUPLICATE"),
        (3, "case_id", "VALUE-DUPLICATE"),
        (4, "label_gold", "HC-LABEL-CELL"),
        (5, "text", "HC-EMOJI"),
        (6, "target", "VALUE-NOT-ALLOWED"),
        (7, "templ_id", "HC-TEMPLATE-ID"),
        (10, "unrealistic_flags", "VALUE-OUT-OF-RANGE"),
        (14, "text", "HC-EMOJI"),
    ),
}
#: Copies of the pinned files with one fault each, which ``validate`` rejects: case ->
#: its ``CorruptedCopy``.
CORRUPTED_COPIES = {
    "wrong type": CorruptedCopy(
        "test", SetField(5, 0, "four"), 1, (5, "case_id", "VALUE-TYPE"), ("four", None),
    ),
    "unknown functionality": CorruptedCopy(
        "test", SetField(6, 5, "verb_swapp"), 1, (6, "functionality", "VALUE-NOT-ALLOWED"), None,
    ),
    "unknown label": CorruptedCopy(
        "test", SetField(7, 7, "2"), 1, (7, "label_gold", "VALUE-NOT-ALLOWED"),
        ("2", "one of 0, 1"),
    ),
    "duplicate id": CorruptedCopy("test", SameId(9, 8), 1, (9, "case_id", "VALUE-DUPLICATE"), None),
    "label disagrees with cell": CorruptedCopy(
        "test", SetField(2, 7, "0"), 1, (2, "label_gold", "HC-LABEL-CELL"), ("0", "1"),
    ),
    "emoji rule": CorruptedCopy(
        "test", Replace(2, "\N{HOCHO}", "knife"), 1, (2, "text", "HC-EMOJI"), None,
    ),
    "bad encoding": CorruptedCopy(
        "test", Replace(4, "women", b"wom\xe9n"), 2, (4, None, "FILE-NOT-UTF8"), None,
    ),
    "truncated line": CorruptedCopy("test", Truncate(10), 2, (10, None, "FILE-FIELD-COUNT"), None),
}  # fmt: skip
#: Tables ``score`` reports of a config, from the paper: config -> table -> (its number of
#: rows, its first row, its last row), a row being its key and data columns (the declared
#: ``keys`` or ``by``, then ``info``). The paper's 7 x 4 cells, F1 to F7.3.
SCORE_TABLES = {
    "default": {
        "cells": (
            28,
            {"case": "F1", "functionality": "verb_swap", "perturbation": "original",
             "label": "hateful", "n": 300},
            {"case": "F7.3", "functionality": "emoji_leetspeak", "perturbation": "no_emoji",
             "label": "hateful", "n": 140},
        ),
    },
}  # fmt: skip

#: ``validate``'s findings on inputs made from this dataset's files, recorded in
#: tests/golden/validate-findings.json (``GOLDEN``, ``GOLDEN_RECORDED_FOR``, ``GOLDEN_CODES``:
#: see tests/test_validate_golden.py): case, by the name it is recorded under -> its
#: ``GoldenCase`` (``hatemoji_datasets.core.edits`` names the recipes).
GOLDEN = {
    "check released": GoldenCase(None, ("--full", "--strict"), {"test.csv": Released("test")}),
    "check fixtures": GoldenCase(None, (), {
        "valid.csv": Fixture("hatemoji_check_valid.csv"),
        "broken.csv": Fixture("hatemoji_check_broken.csv"),
        "contribution.csv": Fixture("hatemoji_check_contribution.csv"),
    }),
    "check dummy data": GoldenCase(None, (), {"test.csv": Dummy("test")}),
    "check corrupted 1": GoldenCase(None, (), {"test.csv": Released("test", Mutate(1, 30))}),
    "check corrupted 2": GoldenCase(None, (), {"test.csv": Released("test", Mutate(2, 30))}),
    "check corrupted 3": GoldenCase(None, (), {"test.csv": Released("test", Mutate(3, 400))}),
    "check corrupted, changes allowed": GoldenCase(
        None, ("--allow-changes", "--full"), {"test.csv": Released("test", Mutate(1, 30))},
    ),
    "check synthetic 1x, 0 edits": GoldenCase(
        None, ("--strict",), {"new.csv": Released("test", Renew(1, 100_000))},
    ),
    "check synthetic 1x, 60 edits": GoldenCase(None, ("--strict",), {
        "new.csv": Released("test", Renew(1, 100_000), Mutate(11, 60)),
    }),
    "check synthetic 5x, 300 edits": GoldenCase(None, ("--strict",), {
        "new.csv": Released("test", Renew(5, 100_000), Mutate(15, 300)),
    }),
    "crlf fixture": GoldenCase(
        None, (), {"crlf.csv": Fixture("hatemoji_check_broken.csv", Crlf())},
    ),
}  # fmt: skip
#: The dataset ``GOLDEN``'s names are recorded for (a folder copied from this one keeps it).
GOLDEN_RECORDED_FOR = "hatemoji_check"
#: This dataset's rule codes the recorded findings show.
GOLDEN_CODES = ("HC-TEMPLATE-ID", "HC-NO-TARGET", "HC-LABEL-CELL", "HC-EMOJI")
