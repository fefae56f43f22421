"""HatemojiCheck's own facts: the paper's 28 cells, targets, emoji, and its schema on
small neutral fixtures. (Split sizes, features, reload, byte-exact texts and sources are
tested for every dataset in test_datasets.py.)"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import datasets
import pytest
from conftest import FIXTURES, check_one_file

from hatemoji_datasets import load_dataset
from hatemoji_datasets.core.spec import CSV
from hatemoji_datasets.datasets.hatemoji_check.schema import HatemojiCheckRaw
from hatemoji_datasets.datasets.hatemoji_check.spec import FUNCTIONALITIES, PERTURBATIONS
from hatemoji_datasets.raw.reader import read_raw

# The paper's per-functionality table: (functionality, perturbation) -> (n, gold label).
PAPER_CELLS = {
    ("verb_swap", "original"): (300, "hateful"),
    ("verb_swap", "identity"): (50, "non-hateful"),
    ("verb_swap", "polarity"): (60, "non-hateful"),
    ("verb_swap", "no_emoji"): (60, "hateful"),
    ("identity_swap", "original"): (120, "hateful"),
    ("identity_swap", "identity"): (20, "non-hateful"),
    ("identity_swap", "polarity"): (120, "non-hateful"),
    ("identity_swap", "no_emoji"): (120, "hateful"),
    ("descriptor_swap", "original"): (260, "hateful"),
    ("descriptor_swap", "identity"): (40, "non-hateful"),
    ("descriptor_swap", "polarity"): (60, "non-hateful"),
    ("descriptor_swap", "no_emoji"): (60, "hateful"),
    ("double_swap", "original"): (288, "hateful"),
    ("double_swap", "identity"): (46, "non-hateful"),
    ("double_swap", "polarity"): (60, "non-hateful"),
    ("double_swap", "no_emoji"): (60, "hateful"),
    ("append", "original"): (288, "hateful"),
    ("append", "identity"): (48, "non-hateful"),
    ("append", "polarity"): (60, "non-hateful"),
    ("append", "no_emoji"): (60, "non-hateful"),
    ("positive_confounder", "original"): (440, "hateful"),
    ("positive_confounder", "identity"): (65, "non-hateful"),
    ("positive_confounder", "polarity"): (112, "non-hateful"),
    ("positive_confounder", "no_emoji"): (88, "hateful"),
    ("emoji_leetspeak", "original"): (430, "hateful"),
    ("emoji_leetspeak", "identity"): (45, "non-hateful"),
    ("emoji_leetspeak", "polarity"): (430, "non-hateful"),
    ("emoji_leetspeak", "no_emoji"): (140, "hateful"),
}


@pytest.fixture(scope="module")
def check(mirror: Path, session_cache: Path) -> datasets.Dataset:
    return load_dataset(
        "hatemoji_check", split="test", cache_dir=str(session_cache), mirror=str(mirror)
    )


def test_vocabularies(check: datasets.Dataset) -> None:
    assert check.features["label"].names == ["non-hateful", "hateful"]
    assert check.features["functionality"].names == [
        "verb_swap", "identity_swap", "descriptor_swap", "double_swap",
        "append", "positive_confounder", "emoji_leetspeak",
    ]  # fmt: skip
    assert check.features["functionality"].names == list(FUNCTIONALITIES)
    assert check.features["perturbation"].names == ["original", "identity", "polarity", "no_emoji"]
    assert check.features["perturbation"].names == list(PERTURBATIONS.values())
    assert check.features["case_id"].dtype == "int32"
    assert sum(n for n, _ in PAPER_CELLS.values()) == check.num_rows == 3930


def test_cells_reproduce_the_paper(check: datasets.Dataset) -> None:
    functionality = check.features["functionality"].int2str
    perturbation = check.features["perturbation"].int2str
    label = check.features["label"].int2str
    cells = Counter(
        (functionality(f), perturbation(p), label(y))
        for f, p, y in zip(check["functionality"], check["perturbation"], check["label"])
    )
    expected = Counter({(f, p, y): n for (f, p), (n, y) in PAPER_CELLS.items()})
    assert cells == expected


def test_missing_target_is_explicit(check: datasets.Dataset) -> None:
    targets = [check.features["target"].int2str(t) for t in check["target"]]
    perturbations = [check.features["perturbation"].int2str(p) for p in check["perturbation"]]
    no_target = [p for t, p in zip(targets, perturbations) if t == "none"]
    assert len(no_target) == 314
    assert set(no_target) == {"identity"}
    assert "" not in targets


def test_emoji_feature(check: datasets.Dataset) -> None:
    by_id = dict(zip(check["case_id"], check["emoji"]))
    assert by_id[0] == ["🔪"]  # "I want to 🔪 all women"
    perturbations = check["perturbation"]
    no_emoji = check.features["perturbation"].str2int("no_emoji")
    for found, perturbation in zip(check["emoji"], perturbations):
        assert bool(found) == (perturbation != no_emoji)


def test_pinned_version_loads(mirror: Path, session_cache: Path) -> None:
    data = load_dataset(
        "hatemoji_check:1.0.0", split="test", cache_dir=str(session_cache), mirror=str(mirror)
    )
    assert data.num_rows == 3930


# -- the schema on small neutral fixtures ------------------------------------------------------


def _findings(path: Path) -> list:
    return check_one_file(HatemojiCheckRaw, str(path), CSV)


def test_valid_fixture_passes() -> None:
    path = FIXTURES / "hatemoji_check_valid.csv"
    assert _findings(path) == []
    raw = read_raw(path, CSV)
    assert raw.table["text"][4].as_py() == "Neutral, quoted\ntext over two lines"
    assert raw.lines() == [2, 3, 4, 5, 6]  # a record's line follows multi-line fields


def test_every_finding_names_its_line_and_code() -> None:
    found = _findings(FIXTURES / "hatemoji_check_broken.csv")
    assert {(f.line, f.column, f.code) for f in found} == {
        (2, "case_id", "VALUE-DUPLICATE"),
        (3, "case_id", "VALUE-DUPLICATE"),
        (4, "label_gold", "HC-LABEL-CELL"),
        (5, "text", "HC-EMOJI"),  # no_emoji with an emoji
        (6, "unrealistic_flags", "VALUE-OUT-OF-RANGE"),  # the record starting on line 6
        (8, "target", "VALUE-NOT-ALLOWED"),
        (8, "templ_id", "HC-TEMPLATE-ID"),
        (9, "text", "HC-EMOJI"),  # an original without an emoji
    }
    by_place = {(f.line, f.column): f for f in found}
    assert (by_place[4, "label_gold"].value, by_place[4, "label_gold"].expected) == ("1", "0")
    assert (by_place[8, "templ_id"].value, by_place[8, "templ_id"].expected) == ("3.0", "4.0")
    assert by_place[6, "unrealistic_flags"].value == "9"
    assert by_place[8, "target"].value == "cats"
    assert all(f.file.endswith("hatemoji_check_broken.csv") for f in found)
    assert all(f.severity == "error" for f in found)


def test_missing_column_is_reported_alone(tmp_path: Path) -> None:
    source = (FIXTURES / "hatemoji_check_valid.csv").read_text(encoding="utf-8")
    broken = tmp_path / "no_label.csv"
    broken.write_text(source.replace(",label_gold", ",label"), encoding="utf-8")
    assert sorted((f.line, f.column, f.code) for f in _findings(broken)) == [
        (1, "label", "COLUMN-UNEXPECTED"),
        (1, "label_gold", "COLUMN-MISSING"),
    ]


@pytest.mark.parametrize(
    ("text", "line"),
    [(",I want to plant flowers for all women,", 5), (",I want to 🌻 all women,", 2)],
)
def test_empty_text_is_one_finding(tmp_path: Path, text: str, line: int) -> None:
    # On line 2 the original's empty text also lacks its emoji: still one finding.
    source = (FIXTURES / "hatemoji_check_valid.csv").read_text(encoding="utf-8")
    assert source.count(text) == 1
    broken = tmp_path / "empty.csv"
    broken.write_text(source.replace(text, ",,"), "utf-8")
    assert [(f.line, f.column, f.code) for f in _findings(broken)] == [(line, "text", "TEXT-EMPTY")]
