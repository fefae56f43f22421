"""The text rules' Unicode prefilter: the characters that may leave a text unnormalised.

A text is in NFC (and unchanged by NFKC) unless it holds a character that is
not normalised on its own or may combine with its neighbour (a combining mark,
or the second half of a canonical composition such as a Hangul vowel jamo).
Finding those characters means asking ``unicodedata`` about every code point
up to U+2FFFF, about 0.1–0.4 s: too slow for every ``validate`` process. So
the ranges are shipped precomputed in :mod:`hatemoji_datasets.validate.prefilter_ranges`
for the Unicode version they were computed with, and computed afresh (once
per process) only under a Python whose Unicode database differs. Regenerate
with ``python -m hatemoji_datasets.validate.prefilter``; a test fails on drift.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Set
from functools import cache
from pathlib import Path

import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.findings import Severity
from hatemoji_datasets.validate import prefilter_ranges

Ranges = tuple[tuple[int, int], ...]

#: C0 and C1 control characters except the line feed, which released texts contain.
CONTROL_CHARACTERS = r"[\x00-\x09\x0b-\x1f\x7f-\x9f]"
#: Characters a reader cannot see: zero-width ones, bidi controls, soft hyphen, NBSP.
INVISIBLE_CHARACTERS = "[\u00a0\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
#: Below U+00A0 nothing changes or combines; above U+2FFFF nothing changes.
FIRST, LAST = 0xA0, 0x2FFFF

_CONTROL, _INVISIBLE = re.compile(CONTROL_CHARACTERS), re.compile(INVISIBLE_CHARACTERS)

#: Text rules for new rows: (code, message, severity, exact test). One vectorised
#: regex finds the few texts that can break any of them; only those are tested exactly.
TEXT_RULES: tuple[tuple[str, str, Severity, Callable[[str], bool]], ...] = (
    (
        "TEXT-CONTROL",
        "text has a control character",
        "error",
        lambda text: _CONTROL.search(text) is not None,
    ),
    (
        "TEXT-NOT-NFC",
        "text is not in Unicode NFC",
        "error",
        lambda text: not unicodedata.is_normalized("NFC", text),
    ),
    (
        "TEXT-EDGE-SPACE",
        "text has leading or trailing spaces",
        "warning",
        lambda text: text != "" and text != text.strip(),
    ),
)


def canonical_text(text: str) -> str:
    """A text with invisible characters removed, then NFKC-normalised."""
    return unicodedata.normalize("NFKC", _INVISIBLE.sub("", text))


def computed_ranges() -> Ranges:
    """The code point ranges of every character that may leave a text unnormalised."""
    found = set()
    for code in range(FIRST, LAST + 1):
        char = chr(code)
        if unicodedata.combining(char) or unicodedata.normalize("NFKC", char) != char:
            found.add(code)
        decomposition = unicodedata.decomposition(char)
        if decomposition and not decomposition.startswith("<"):
            parts = decomposition.split()
            if len(parts) == 2:
                found.add(int(parts[1], 16))
    ranges: list[list[int]] = []
    for code in sorted(c for c in found if not 0xD800 <= c <= 0xDFFF):  # no surrogates
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return tuple((first, last) for first, last in ranges)


@cache
def suspect_ranges() -> Ranges:
    """The shipped ranges, or (another Unicode version) the computed ones."""
    if unicodedata.unidata_version == prefilter_ranges.UNICODE_VERSION:
        return prefilter_ranges.RANGES
    return computed_ranges()


@cache
def suspect_pattern() -> str:
    """Matches every text that may break a text rule or change under NFKC (a superset).

    NFKC changes every text NFC changes, so one pattern serves both.
    """
    return f"{_changing_pattern()}|{INVISIBLE_CHARACTERS}"


@cache
def _changing_pattern() -> str:
    """The suspect pattern but for invisible characters: a text that matches only those
    keeps every text rule, and its canonical form is the text without them."""
    characters = "".join(
        re.escape(chr(first)) + ("" if first == last else "-" + re.escape(chr(last)))
        for first, last in suspect_ranges()
    )
    # RE2's \s is ASCII only; \p{Z} adds the Unicode spaces str.strip() removes.
    return rf"^[\s\p{{Z}}]|[\s\p{{Z}}]$|{CONTROL_CHARACTERS}|[{characters}]"


def new_texts_keep(
    texts: pyarrow.Array, known: pyarrow.Array, canonical: pyarrow.Array, canonical_set: Set[str]
) -> bool:
    """Whether every text keeps every text rule and repeats no released text, as such or
    canonically (``known``: the released texts and their canonical forms; ``canonical``
    and ``canonical_set``: those forms).

    Vectorised in RE2 (which releases the GIL) but for the few texts that may change
    other than by losing invisible characters: those are tested one by one.
    """
    if pc.any(pc.is_in(texts, value_set=known)).as_py():
        return False  # repeats a released text, or its canonical form
    suspects = texts.filter(pc.match_substring_regex(texts, suspect_pattern()))
    if len(suspects) == 0:
        return True
    changing = pc.match_substring_regex(suspects, _changing_pattern())
    # The rest hold invisible characters and nothing else a rule or NFKC could see.
    visible = pc.replace_substring_regex(
        suspects.filter(pc.invert(changing)), INVISIBLE_CHARACTERS, ""
    )
    if pc.any(pc.is_in(visible, value_set=canonical)).as_py():
        return False
    for text in suspects.filter(changing).to_pylist():
        if any(broken(text) for _, _, _, broken in TEXT_RULES):
            return False
        if canonical_text(text) in canonical_set:
            return False
    return True


def render(ranges: Ranges) -> str:
    """The text of :mod:`hatemoji_datasets.validate.prefilter_ranges`."""
    lines = [
        '"""Generated by `python -m hatemoji_datasets.validate.prefilter`; do not edit.',
        "",
        "The code point ranges ``(first, last)`` of the characters that may leave a text",
        "unnormalised (see :mod:`hatemoji_datasets.validate.prefilter`), for the Unicode",
        "version below.",
        '"""',
        "",
        f'UNICODE_VERSION = "{unicodedata.unidata_version}"',
        "",
        "# fmt: off",
        "RANGES = (",
    ]
    for start in range(0, len(ranges), 4):
        pairs = ranges[start : start + 4]
        lines.append("    " + " ".join(f"(0x{a:05X}, 0x{b:05X})," for a, b in pairs))
    lines += [")", "# fmt: on", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Rewrite the shipped ranges (``--check``: only say whether they differ, exit 1 if so)."""
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    path = Path(prefilter_ranges.__file__)
    text = render(computed_ranges())
    unicode = f"Unicode {unicodedata.unidata_version}"
    if path.read_text(encoding="utf-8") == text:
        print(f"{path}: up to date ({unicode})")
        return 0
    if check and unicodedata.unidata_version != prefilter_ranges.UNICODE_VERSION:
        shipped = prefilter_ranges.UNICODE_VERSION
        print(f"{path}: for Unicode {shipped}; this Python ({unicode}) computes its own")
        return 0
    if check:
        print(f"differs: {path} ({unicode}); run `python -m hatemoji_datasets.validate.prefilter`")
        return 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path} ({unicode})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
