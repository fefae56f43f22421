"""The text rules' Unicode prefilter ships precomputed, and selects what it always selected."""

from __future__ import annotations

import os
import re
import unicodedata

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hatemoji_datasets.validate import prefilter, prefilter_ranges


@pytest.fixture
def fresh_caches():
    prefilter.suspect_ranges.cache_clear()
    prefilter.suspect_pattern.cache_clear()
    yield
    prefilter.suspect_ranges.cache_clear()
    prefilter.suspect_pattern.cache_clear()


def test_the_shipped_ranges_are_this_unicode_version() -> None:
    """The drift check: regenerate with `python -m hatemoji_datasets.validate.prefilter`."""
    if unicodedata.unidata_version != prefilter_ranges.UNICODE_VERSION:
        pytest.skip(f"ranges are for Unicode {prefilter_ranges.UNICODE_VERSION}")
    assert prefilter.computed_ranges() == prefilter_ranges.RANGES
    with open(prefilter_ranges.__file__, encoding="utf-8") as module:
        assert module.read() == prefilter.render(prefilter_ranges.RANGES)


def test_the_shipped_ranges_are_used_without_computing(fresh_caches, monkeypatch) -> None:
    if unicodedata.unidata_version != prefilter_ranges.UNICODE_VERSION:
        pytest.skip(f"ranges are for Unicode {prefilter_ranges.UNICODE_VERSION}")

    def refuse() -> None:
        raise AssertionError("computed although shipped")

    monkeypatch.setattr(prefilter, "computed_ranges", refuse)
    assert prefilter.suspect_ranges() is prefilter_ranges.RANGES
    assert prefilter.suspect_pattern()


def test_another_unicode_version_is_computed_afresh(fresh_caches, monkeypatch) -> None:
    monkeypatch.setattr(prefilter_ranges, "UNICODE_VERSION", "0.0.0")
    monkeypatch.setattr(prefilter_ranges, "RANGES", ())
    assert prefilter.suspect_ranges() == prefilter.computed_ranges() != ()


def _pattern_as_before() -> str:
    """The pattern as the validator built it before it shipped ranges: one class member
    per character, computed here from ``unicodedata`` (the rule, stated again)."""
    found = set()
    for code in range(0xA0, 0x30000):
        char = chr(code)
        if unicodedata.combining(char) or unicodedata.normalize("NFKC", char) != char:
            found.add(char)
        decomposition = unicodedata.decomposition(char)
        if decomposition and not decomposition.startswith("<"):
            parts = decomposition.split()
            if len(parts) == 2:
                found.add(chr(int(parts[1], 16)))
    members = "".join(re.escape(c) for c in sorted(found) if ord(c) < 0xD800 or ord(c) > 0xDFFF)
    control, invisible = prefilter.CONTROL_CHARACTERS, prefilter.INVISIBLE_CHARACTERS
    return rf"^[\s\p{{Z}}]|[\s\p{{Z}}]$|{control}|{invisible}|[{members}]"


def test_the_pattern_selects_exactly_what_it_selected_before() -> None:
    characters = [chr(c) for c in range(0x30000) if not 0xD800 <= c <= 0xDFFF]
    # Each character alone, and inside a word (where the edge-space branches cannot match).
    texts = pa.array(characters + [f"a{c}b" for c in characters], type=pa.string())
    before = pc.match_substring_regex(texts, _pattern_as_before())
    now = pc.match_substring_regex(texts, prefilter.suspect_pattern())
    assert now.equals(before)


def test_check_says_whether_the_shipped_ranges_match(monkeypatch, capsys) -> None:
    if unicodedata.unidata_version != prefilter_ranges.UNICODE_VERSION:
        pytest.skip(f"ranges are for Unicode {prefilter_ranges.UNICODE_VERSION}")
    assert prefilter.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out
    monkeypatch.setattr(prefilter, "render", lambda ranges: "changed\n")
    assert prefilter.main(["--check"]) == 1  # and nothing written
    assert "differs:" in capsys.readouterr().out
    monkeypatch.setattr(prefilter_ranges, "UNICODE_VERSION", "0.0.0")
    assert prefilter.main(["--check"]) == 0  # another Unicode: computed at run time


#: Characters each branch of the prefilter sees (edge and inner spaces, controls, invisible
#: characters, combining marks, compatibility characters), and ordinary ones. Conjoining
#: Hangul jamo are left out: the ranges miss them (for the screen and the exact engine alike).
TEXT_CHARACTERS = (
    "ab e\u00e9\t\n\x07\x85\x1f\u00a0\u00ad\u200b\u200d\u2060\u2066\ufeff"
    "\u0301\u0308\u212b\ufb01\u2460\u3000\u2028\U0001f600\ufe0f\uff21"
)
TEXTS = st.lists(st.text(st.sampled_from(TEXT_CHARACTERS), max_size=6), max_size=8)


def _keeps_by_hand(texts: list[str], released: list[str]) -> bool:
    """Every text keeps every text rule, repeats no released text, and its canonical form
    is none of theirs: each text tested exactly, with no prefilter."""
    canonical = {prefilter.canonical_text(text) for text in released}
    known = set(released) | canonical
    return all(
        text not in known
        and not any(broken(text) for _, _, _, broken in prefilter.TEXT_RULES)
        and prefilter.canonical_text(text) not in canonical
        for text in texts
    )


@settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "300")), deadline=None)
@given(TEXTS, TEXTS)
def test_new_texts_keep_says_what_testing_each_text_says(texts, released) -> None:
    canonical = sorted({prefilter.canonical_text(text) for text in released})
    known = pa.array(sorted(set(released) | set(canonical)), pa.string())
    found = prefilter.new_texts_keep(
        pa.array(texts, pa.string()), known, pa.array(canonical, pa.string()), set(canonical)
    )
    assert found == _keeps_by_hand(texts, released)


def test_new_texts_keep_sees_an_invisible_near_duplicate() -> None:
    released = ["a b"]
    canonical = pa.array(released, pa.string())
    for text, keeps in (("a\u200b b", False), ("a\u200bb", True), ("a b\u00ad\u200d", False)):
        found = prefilter.new_texts_keep(pa.array([text]), canonical, canonical, set(released))
        assert found is keeps, text
