"""HatemojiCheck built from the real upstream file (through the mirror)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import datasets
import pytest
from conftest import upstream_path

from hatemoji_datasets import load_dataset
from hatemoji_datasets.registry import builder_class

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


@pytest.fixture(scope="module")
def upstream_rows(mirror: Path) -> dict[int, dict[str, str]]:
    url = builder_class("hatemoji_check").source_files()["test"].url
    with upstream_path(mirror, url).open(encoding="utf-8", newline="") as handle:
        return {int(row["case_id"]): row for row in csv.DictReader(handle)}


def test_size_and_features(check: datasets.Dataset) -> None:
    assert check.num_rows == 3930
    assert check.features["label"].names == ["non-hateful", "hateful"]
    assert check.features["functionality"].names == [
        "verb_swap", "identity_swap", "descriptor_swap", "double_swap",
        "append", "positive_confounder", "emoji_leetspeak",
    ]  # fmt: skip
    assert check.features["perturbation"].names == ["original", "identity", "polarity", "no_emoji"]
    assert check.features["case_id"].dtype == "int32"


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


def test_texts_are_byte_exact(check: datasets.Dataset, upstream_rows: dict) -> None:
    assert sorted(check["case_id"]) == sorted(upstream_rows)
    for case_id, text in zip(check["case_id"], check["text"]):
        assert text.encode("utf-8") == upstream_rows[case_id]["text"].encode("utf-8")


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


def test_second_load_offline_from_cache(check: datasets.Dataset, session_cache: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "HATEMOJI_DATASETS_MIRROR"}
    env.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    script = (
        "from hatemoji_datasets import load_dataset\n"
        f"d = load_dataset('hatemoji_check', cache_dir={str(session_cache)!r})\n"
        "print(d['test'].num_rows, d['test'][0]['text'])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split()[0] == "3930"


def test_pinned_version_loads(mirror: Path, session_cache: Path) -> None:
    data = load_dataset(
        "hatemoji_check:1.0.0", split="test", cache_dir=str(session_cache), mirror=str(mirror)
    )
    assert data.num_rows == 3930
