"""Shared features: the vectorised emoji test and emoji lists agree with the `emoji` package."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import emoji
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import upstream_path

from hatemoji_datasets.core.emoji_search import contains_emoji, has_emoji, holding
from hatemoji_datasets.core.features import class_ids, emoji_lists, label
from hatemoji_datasets.core.registry import specs


def emoji_in(text: str) -> list[str]:
    return [match["emoji"] for match in emoji.emoji_list(text)]


def test_shared_label() -> None:
    assert label().names == ["non-hateful", "hateful"]


def test_emoji_lists_segment_sequences() -> None:
    texts = ["a 👍🏽 b 🏳️‍🌈 c 4️⃣ 🇬🇧", "plain text 4 # *", ""]
    assert emoji_in(texts[0]) == ["👍🏽", "🏳️‍🌈", "4️⃣", "🇬🇧"]
    assert emoji_lists(pa.array(texts)).to_pylist() == [emoji_in(t) for t in texts]
    chunked = pa.chunked_array([texts[:1], texts[1:]])
    assert emoji_lists(chunked).to_pylist() == [["👍🏽", "🏳️‍🌈", "4️⃣", "🇬🇧"], [], []]


def test_emoji_lists_segment_each_run_as_the_whole_text() -> None:
    # Each run of emoji characters is segmented on its own: joiners, modifiers and
    # selectors next to a run's edge must segment as they do inside the whole text.
    texts = [
        "🏻 \u200d🏻",
        "⛓️\u200d a ⛓️\u200d",
        "a\u200d👨 👨\u200d x 🏿",
        "👨 🏿👨🏿 👨\u200d🚒👨 \u200d🚒",
        "4 ️⃣ 4️⃣ #️⃣x*️⃣",
        "🇬 🇧🇬🇧🇬 🏴\U000e0067 \U000e0062",
        "🌻🌻 🌻 text 🌻🌻",
    ]
    assert emoji_lists(pa.array(texts)).to_pylist() == [emoji_in(text) for text in texts]


def test_class_ids_follow_the_upstream_order() -> None:
    assert class_ids(pa.array(["b", "a", "b"]), ["a", "b"]).to_pylist() == [1, 0, 1]
    with pytest.raises(ValueError, match="'c'"):
        class_ids(pa.array(["a", "c"]), ["a", "b"])


@pytest.mark.slow
def test_contains_emoji_matches_the_emoji_package_on_real_texts(mirror: Path) -> None:
    texts = []
    for spec in specs().values():
        read = set()  # configs share files: each is read once
        for config in spec.configs:
            fmt = config.raw_format
            for source in spec.config_sources(config).values():
                if source.name in read:
                    continue
                read.add(source.name)
                path = upstream_path(mirror, source.url)
                with path.open(encoding="utf-8", newline="") as handle:
                    reader = csv.reader(handle, delimiter=fmt.delimiter, quoting=fmt.quoting)
                    next(reader)
                    texts += [cell for row in reader for cell in row]
    texts = list(dict.fromkeys(texts))  # each distinct cell once (labels, flags repeat)
    series = pd.Series(texts, dtype="str")
    assert contains_emoji(series).tolist() == [has_emoji(text) for text in texts]
    assert contains_emoji(pa.array(texts)).tolist() == [has_emoji(text) for text in texts]
    assert emoji_lists(pa.array(texts)).to_pylist() == [emoji_in(text) for text in texts]


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


@settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "300")), deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.text(st.sampled_from("ab\ufe0f\u200d\u00e9"), max_size=5))),
    st.text(st.sampled_from("ab\ufe0f\u200d\u00e9"), min_size=1, max_size=3),
    st.data(),
)
def test_holding_finds_what_the_substring_kernel_finds(texts, needle, data) -> None:
    array = pa.array(texts, type=data.draw(st.sampled_from([pa.string(), pa.large_string()])))
    start = data.draw(st.integers(0, len(texts)))
    for part in (array, array.slice(start), pa.chunked_array([array, array.slice(start)])):
        kernel = pc.match_substring(part, needle)
        expected = [bool(found) for found in kernel.to_pylist()]  # a missing text: False
        assert holding(part, needle.encode()).tolist() == expected


# Pieces that emoji sequences are built from, to shuffle into near-misses.
_PIECES = st.one_of(
    st.sampled_from(sorted(emoji.EMOJI_DATA)),
    st.sampled_from(
        ["\u200d", "\ufe0f", "\ufe0e", "\u20e3", "#", "*", "4", "🇬", "🇧", "🏻", "\U000e0067"]
    ),
    st.text(max_size=3),
)


@settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "300")), deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=6).map("".join), max_size=20))
def test_contains_emoji_matches_on_emoji_fragments(texts: list[str]) -> None:
    texts = [text.encode("utf-8", "replace").decode("utf-8") for text in texts]
    series = pd.Series(texts, dtype="str")
    assert contains_emoji(series).tolist() == [has_emoji(text) for text in texts]
    assert emoji_lists(pa.array(texts, type=pa.string())).to_pylist() == [
        emoji_in(text) for text in texts
    ]
