"""The text rules' Unicode prefilter ships precomputed, and selects what it always selected."""

from __future__ import annotations

import re
import unicodedata

import pyarrow as pa
import pyarrow.compute as pc
import pytest

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
