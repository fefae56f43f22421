"""Rules that compare a contributed file with the released data, and rules for new text.

- released rows must not change (``RELEASE-CHANGED``);
- a new row must not repeat a released text (``RELEASE-REPEATED-TEXT``), nor
  one that differs only by invisible characters or compatibility forms
  (``RELEASE-NEAR-DUPLICATE``, a warning);
- new text must be clean: no control characters, NFC (``TEXT-CONTROL``,
  ``TEXT-NOT-NFC``); edge white space is a warning (``TEXT-EDGE-SPACE``).
  Empty text is the schema's to report (``TEXT-EMPTY``).

Every rule is vectorised through pyarrow; only the few rows a rule selects
are looked at in Python.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np
import pandas as pd
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.emoji_search import text_array
from hatemoji_datasets.findings import Finding, Severity, preview

#: C0 and C1 control characters except the line feed, which released texts contain.
CONTROL_CHARACTERS = r"[\x00-\x09\x0b-\x1f\x7f-\x9f]"
#: Characters a reader cannot see: zero-width ones, bidi controls, soft hyphen, NBSP.
INVISIBLE_CHARACTERS = "[\u00a0\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"


@dataclass
class ContributedRows:
    """One contributed file under check, with what every rule needs."""

    name: str
    frame: pd.DataFrame
    key_column: str
    text_column: str
    released: pd.DataFrame
    #: ``line(position)``: the file line of a row.
    line: Callable[[int], int]
    #: Rows whose key is released (to compare); the others are new.
    is_released: np.ndarray

    @cached_property
    def texts(self) -> pyarrow.Array:
        return text_array(self.frame[self.text_column])

    @cached_property
    def suspects(self) -> np.ndarray:
        """Texts that may break a text rule or change under NFKC (one regex pass, shared)."""
        found = pc.match_substring_regex(self.texts, _suspect_pattern())
        return found.to_numpy(zero_copy_only=False)

    def finding(
        self,
        position: int,
        column: str | None,
        code: str,
        message: str,
        value: object = None,
        expected: object = None,
        severity: Severity = "error",
    ) -> Finding:
        line = self.line(position)
        return Finding(
            self.name,
            line,
            column,
            code,
            message,
            preview(value),
            preview(expected, None),
            severity,
        )


def member(values: pd.Series, pool: pd.Series) -> np.ndarray:
    """``values.isin(pool)`` through pyarrow (pandas' isin is slow for a large pool)."""
    left, right = pyarrow.array(values), pyarrow.array(pool)
    if left.type != right.type:  # e.g. ids that failed to parse as integers
        left, right = left.cast(pyarrow.string()), right.cast(pyarrow.string())
    found = pc.is_in(left, value_set=right)
    return found.fill_null(False).to_numpy(zero_copy_only=False)


def changed_rows(rows: ContributedRows, severity: Severity) -> list[Finding]:
    """Cells of released rows that the file changes."""
    if not rows.is_released.any():
        return []
    key = rows.key_column
    columns = [c for c in rows.released.columns if c in rows.frame.columns]
    mine = rows.frame.loc[rows.is_released, columns].astype(str)
    theirs = rows.released[columns].astype(str).drop_duplicates(key).set_index(key, drop=False)
    theirs = theirs.reindex(mine[key]).set_axis(mine.index)
    key_at = columns.index(key)
    found = []
    for row, column in zip(*mine.ne(theirs).to_numpy().nonzero(), strict=True):
        found.append(
            rows.finding(
                rows.frame.index.get_loc(mine.index[row]),
                columns[column],
                "RELEASE-CHANGED",
                f"changes released row {key}={preview(mine.iat[row, key_at])}",
                mine.iat[row, column],
                theirs.iat[row, column],
                severity,
            )
        )
    return found


def repeated_texts(rows: ContributedRows) -> list[Finding]:
    """New rows whose text is released (exactly, or but for invisible characters and NFKC)."""
    texts, released = rows.frame[rows.text_column], rows.released[rows.text_column]
    if rows.key_column == rows.text_column:
        exact = np.zeros(len(texts), dtype=bool)  # a repeated text is a released row
    else:
        exact = ~rows.is_released & member(texts, released)
    found = _repeat_findings(rows, exact, released, "RELEASE-REPEATED-TEXT")
    new = ~rows.is_released & ~exact
    if new.any():
        canonical_released = canonical(released)
        # Most texts are their own canonical form; only the few that may change
        # (an invisible or compatibility character) are normalised one by one.
        mine = rows.texts
        changing = rows.suspects & new
        if changing.any():
            values = mine.to_pylist()
            for position in changing.nonzero()[0]:
                values[position] = _canonical_text(values[position])
            mine = pyarrow.array(values, type=pyarrow.large_string())
        known = pc.is_in(mine, value_set=pyarrow.array(canonical_released, type=mine.type))
        near = new & known.fill_null(False).to_numpy(zero_copy_only=False)
        found += _repeat_findings(
            rows, near, pd.Series(canonical_released), "RELEASE-NEAR-DUPLICATE", mine
        )
    return found


def _repeat_findings(
    rows: ContributedRows,
    selected: np.ndarray,
    released_texts: pd.Series,
    code: str,
    texts: pyarrow.Array | None = None,
) -> list[Finding]:
    if not selected.any():
        return []
    key = rows.key_column
    first: dict[str, object] = {}
    for text, released_key in zip(released_texts, rows.released[key], strict=True):
        first.setdefault(text, released_key)
    near = code == "RELEASE-NEAR-DUPLICATE"
    what = "nearly repeats (but for invisible characters or NFKC)" if near else "repeats"
    found = []
    for position in selected.nonzero()[0]:
        text = rows.frame[rows.text_column].iat[position]
        looked_up = texts[int(position)].as_py() if texts is not None else text
        message = f"{what} the text of released {key}={preview(first[looked_up])}"
        severity: Severity = "warning" if near else "error"
        found.append(rows.finding(position, rows.text_column, code, message, text, None, severity))
    return found


def _canonical_text(text: str) -> str:
    return unicodedata.normalize("NFKC", re.sub(INVISIBLE_CHARACTERS, "", text))


def canonical(texts: pd.Series) -> list[str]:
    """Texts with invisible characters removed, then NFKC-normalised."""
    return [_canonical_text(text) for text in texts.astype(str)]


#: Text rules for new rows: (code, message, severity, exact test). One vectorised
#: regex finds the few texts that can break any of them; only those are tested exactly.
TEXT_RULES: tuple[tuple[str, str, Severity, Callable[[str], bool]], ...] = (
    (
        "TEXT-CONTROL",
        "text has a control character",
        "error",
        lambda text: re.search(CONTROL_CHARACTERS, text) is not None,
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


@cache
def _suspect_pattern() -> str:
    """Matches every text that may break a text rule or change under NFKC (a superset).

    NFKC changes every text NFC changes, so one pattern serves both.
    """
    # A text is normalised unless it holds a character that is not normalised on
    # its own or may combine with its neighbour (a combining mark, or the second
    # half of a canonical composition such as a Hangul vowel jamo).
    combining = set()
    # Below U+00A0 nothing changes or combines; above U+2FFFF nothing changes.
    for code in range(0xA0, 0x30000):
        char = chr(code)
        if unicodedata.combining(char) or unicodedata.normalize("NFKC", char) != char:
            combining.add(char)
        decomposition = unicodedata.decomposition(char)
        if decomposition and not decomposition.startswith("<"):
            parts = decomposition.split()
            if len(parts) == 2:
                combining.add(chr(int(parts[1], 16)))
    ranges = "".join(re.escape(c) for c in sorted(combining) if ord(c) < 0xD800 or ord(c) > 0xDFFF)
    # RE2's \s is ASCII only; \p{Z} adds the Unicode spaces str.strip() removes.
    return rf"^[\s\p{{Z}}]|[\s\p{{Z}}]$|{CONTROL_CHARACTERS}|{INVISIBLE_CHARACTERS}|[{ranges}]"


def text_rules(rows: ContributedRows) -> list[Finding]:
    """Control characters and non-NFC are errors; edge spaces a warning."""
    column = rows.text_column
    texts = rows.frame[column]
    candidates = rows.suspects & ~rows.is_released
    found = []
    for position in candidates.nonzero()[0]:
        text = texts.iat[position]
        for code, message, severity, broken in TEXT_RULES:
            if broken(text):
                found.append(rows.finding(position, column, code, message, text, None, severity))
    return found


def missing_rows(
    files: list[str], key_column: str, released_keys: pd.Series, seen: pd.Series
) -> list[Finding]:
    """Released rows that files claiming to be the whole dataset do not hold."""
    lost = sorted(released_keys[~member(released_keys, seen)].astype(str), key=_natural)
    where = ", ".join(files)
    return [
        Finding(where, None, key_column, "RELEASE-MISSING", "released row missing", key)
        for key in lost
    ]


def _natural(key: str) -> tuple[int, str]:
    return (int(key), "") if key.isdecimal() else (0, key)
