"""Shared features: the vectorised emoji test agrees with the `emoji` package."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import emoji
import pandas as pd
from conftest import upstream_path
from hypothesis import given, settings
from hypothesis import strategies as st

from hatemoji_datasets.features import contains_emoji, emoji_in, has_emoji, label
from hatemoji_datasets.registry import builder_classes


def test_shared_label() -> None:
    assert label().names == ["non-hateful", "hateful"]


def test_emoji_in_segments_sequences() -> None:
    assert emoji_in("a 👍🏽 b 🏳️‍🌈 c 4️⃣ 🇬🇧") == ["👍🏽", "🏳️‍🌈", "4️⃣", "🇬🇧"]
    assert emoji_in("plain text 4 # *") == []


def test_contains_emoji_matches_the_emoji_package_on_real_texts(mirror: Path) -> None:
    texts = []
    for cls in builder_classes().values():
        for source in cls.source_files().values():
            path = upstream_path(mirror, source.url)
            delimiter = "\t" if path.suffix == ".tsv" else ","
            with path.open(encoding="utf-8", newline="") as handle:
                reader = csv.reader(handle, delimiter=delimiter)
                next(reader)
                texts += [cell for row in reader for cell in row]
    series = pd.Series(texts, dtype="str")
    assert contains_emoji(series).tolist() == [has_emoji(text) for text in texts]


@settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "300")), deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.characters(
                min_codepoint=0x20, max_codepoint=0x1FAFF, exclude_categories=("Cs",)
            )
        ),
        max_size=20,
    )
)
def test_contains_emoji_matches_the_emoji_package_on_any_text(texts: list[str]) -> None:
    series = pd.Series(texts, dtype="str")
    assert contains_emoji(series).tolist() == [has_emoji(text) for text in texts]


# Pieces that emoji sequences are built from, to shuffle into near-misses.
_PIECES = st.one_of(
    st.sampled_from(sorted(emoji.EMOJI_DATA)),
    st.sampled_from(["\u200d", "\ufe0f", "\u20e3", "#", "*", "4", "🇬", "🇧", "🏻", "\U000e0067"]),
    st.text(max_size=3),
)


@settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "300")), deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=6).map("".join), max_size=20))
def test_contains_emoji_matches_on_emoji_fragments(texts: list[str]) -> None:
    texts = [text.encode("utf-8", "replace").decode("utf-8") for text in texts]
    series = pd.Series(texts, dtype="str")
    assert contains_emoji(series).tolist() == [has_emoji(text) for text in texts]
