"""Rules that compare a contributed file with the released data, and rules for new text.

- released rows must not change (``RELEASE-CHANGED``), and a new row must not reuse a
  released id (``ID-RELEASED``: its text and another cell differ from the released row);
- a new row must not repeat a released text (``RELEASE-REPEATED-TEXT``), nor
  one that differs only by invisible characters or compatibility forms
  (``RELEASE-NEAR-DUPLICATE``, a warning);
- where rows are keyed by position, a text must not repeat an earlier row's
  (``TEXT-REPEATED``; a warning between released rows);
- new text must be clean: no control characters, NFC (``TEXT-CONTROL``,
  ``TEXT-NOT-NFC``); edge white space is a warning (``TEXT-EDGE-SPACE``).
  Empty text is the schema's to report (``TEXT-EMPTY``).

Every rule is vectorised through pyarrow; only the few rows a rule selects
are looked at in Python.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.emoji_search import text_array
from hatemoji_datasets.core.findings import Finding, Severity, natural_key, preview
from hatemoji_datasets.core.spec import ROW_ID
from hatemoji_datasets.validate.prefilter import TEXT_RULES, canonical_text, suspect_pattern


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
    #: How a new row repeating a text is reported (the config's ``repeated_text``).
    repeated_text: Severity = "error"

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
    """Cells of released rows that the file changes, or, for a row whose text and another
    cell both differ from its id's released row (a new row given a released id), one
    finding naming that row and the next free id."""
    if not rows.is_released.any():
        return []
    key = rows.key_column
    columns = [c for c in rows.released.columns if c in rows.frame.columns]
    mine = rows.frame.loc[rows.is_released, columns].astype(str)
    theirs = rows.released[columns].astype(str).drop_duplicates(key).set_index(key, drop=False)
    theirs = theirs.reindex(mine[key]).set_axis(mine.index)
    key_at = columns.index(key)
    differs = mine.ne(theirs).to_numpy()
    reused = np.zeros(len(mine), dtype=bool)
    if rows.text_column != key and rows.text_column in columns:
        text_at = columns.index(rows.text_column)
        others = [at for at in range(len(columns)) if at not in (key_at, text_at)]
        reused = differs[:, text_at] & differs[:, others].any(axis=1)
    found = _reused_ids(rows, mine, theirs, reused, severity)
    differs[reused] = False
    for row, column in zip(*differs.nonzero(), strict=True):
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


def _reused_ids(
    rows: ContributedRows,
    mine: pd.DataFrame,
    theirs: pd.DataFrame,
    reused: np.ndarray,
    severity: Severity,
) -> list[Finding]:
    """One ``ID-RELEASED`` per row that reuses a released id: the released row's text, and
    the next id no released row nor the file holds (expected)."""
    from hatemoji_datasets.validate.formats import next_free_id

    key, text = rows.key_column, rows.text_column
    every = [*rows.released[key].astype(str), *rows.frame[key].astype(str)]
    found = []
    for row in reused.nonzero()[0]:
        released_id = mine[key].iat[row]
        message = (
            f"{key}={preview(released_id)} is the id of a released row "
            f"({text} {preview(theirs[text].iat[row], 40)!r}): a new row needs a new id"
        )
        position = rows.frame.index.get_loc(mine.index[row])
        found.append(
            rows.finding(
                position,
                None,
                "ID-RELEASED",
                message,
                released_id,
                next_free_id(released_id, every),
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
        # Most texts are their own canonical form: they are looked up as they are,
        # in one vectorised pass. Only the few that may change (an invisible or
        # compatibility character) are normalised, and looked up, one by one.
        value_set = pyarrow.array(canonical_released, type=rows.texts.type)
        known = pc.is_in(rows.texts, value_set=value_set).fill_null(False)
        known = np.array(known.to_numpy(zero_copy_only=False), dtype=bool)
        changing = (rows.suspects & new).nonzero()[0]
        canonical_of: dict[int, str] = {}
        released_set = set(canonical_released)
        for position, text in zip(changing, _texts_at(rows.texts, changing), strict=True):
            canonical_of[position] = canonical_text(text)
            known[position] = canonical_of[position] in released_set
        found += _repeat_findings(
            rows, new & known, pd.Series(canonical_released), "RELEASE-NEAR-DUPLICATE", canonical_of
        )
    return found


def repeated_within(rows: ContributedRows) -> list[Finding]:
    """Where rows are keyed by position, a row repeating an earlier row's text: a warning
    where both are released rows (the release holds them so), else as the config says. A
    new row repeating a released text is :func:`repeated_texts`' to report."""
    if rows.key_column != ROW_ID:
        return []
    texts = rows.frame[rows.text_column]
    repeats = texts.duplicated(keep="first").to_numpy() & (
        rows.is_released | ~member(texts, rows.released[rows.text_column])
    )
    if not repeats.any():
        return []
    first: dict[str, int] = {}
    for position in texts.duplicated(keep=False).to_numpy().nonzero()[0]:
        first.setdefault(texts.iat[position], int(position))
    found = []
    for position in repeats.nonzero()[0]:
        earlier = first[texts.iat[position]]
        both = rows.is_released[position] and rows.is_released[earlier]
        found.append(
            rows.finding(
                position,
                rows.text_column,
                "TEXT-REPEATED",
                f"repeats the text of line {rows.line(earlier)}",
                texts.iat[position],
                severity="warning" if both else rows.repeated_text,
            )
        )
    return found


def _repeat_findings(
    rows: ContributedRows,
    selected: np.ndarray,
    released_texts: pd.Series,
    code: str,
    canonical_of: dict[int, str] | None = None,
) -> list[Finding]:
    """A finding per selected row; ``canonical_of`` gives the canonical form of the
    texts that have another (a near-duplicate is looked up by it)."""
    if not selected.any():
        return []
    key = rows.key_column
    first: dict[str, object] = {}
    for text, released_key in zip(released_texts, rows.released[key], strict=True):
        first.setdefault(text, released_key)
    near = code == "RELEASE-NEAR-DUPLICATE"
    what = "nearly repeats (but for invisible characters or NFKC)" if near else "repeats"
    found = []
    positions = selected.nonzero()[0]
    # Selected texts are never missing (a missing text matches no text), so the
    # pyarrow texts are the frame's cells.
    own = _texts_at(rows.texts, positions)
    looked_up = own
    if canonical_of is not None:
        looked_up = [canonical_of.get(p, text) for p, text in zip(positions, own, strict=True)]
    for position, text, looked_up_text in zip(positions, own, looked_up, strict=True):
        message = f"{what} the text of released {key}={preview(first[looked_up_text])}"
        severity: Severity = "warning" if near else rows.repeated_text
        found.append(rows.finding(position, rows.text_column, code, message, text, None, severity))
    return found


def _texts_at(texts: pyarrow.Array | pyarrow.ChunkedArray, positions: np.ndarray) -> list[str]:
    """The texts at ``positions`` as Python strings, taken chunk by chunk.

    (A take from a chunked array would first copy every chunk into one.)
    """
    if not isinstance(texts, pyarrow.ChunkedArray):
        return texts.take(pyarrow.array(positions, pyarrow.int64())).to_pylist()
    starts = np.cumsum([0] + [len(chunk) for chunk in texts.chunks])
    chunk_of = np.searchsorted(starts, positions, side="right") - 1
    found: list[str] = [""] * len(positions)
    for index in np.unique(chunk_of):
        at = np.flatnonzero(chunk_of == index)
        local = pyarrow.array(positions[at] - starts[index], pyarrow.int64())
        for slot, text in zip(at, texts.chunk(int(index)).take(local).to_pylist(), strict=True):
            found[slot] = text
    return found


def canonical(texts: pd.Series) -> list[str]:
    """Texts with invisible characters removed, then NFKC-normalised."""
    return [canonical_text(text) for text in texts.astype(str)]


#: The regex that finds the few texts a text rule may fail on (shipped precomputed).
_suspect_pattern = suspect_pattern


def text_rules(rows: ContributedRows) -> list[Finding]:
    """Control characters and non-NFC are errors; edge spaces a warning."""
    column = rows.text_column
    positions = (rows.suspects & ~rows.is_released).nonzero()[0]
    found = []
    for position, text in zip(positions, _texts_at(rows.texts, positions), strict=True):
        for code, message, severity, broken in TEXT_RULES:
            if broken(text):
                found.append(rows.finding(position, column, code, message, text, None, severity))
    return found


def missing_rows(
    files: list[str], key_column: str, released_keys: pd.Series, seen: pd.Series
) -> list[Finding]:
    """Released rows that files claiming to be the whole dataset do not hold."""
    lost = sorted(released_keys[~member(released_keys, seen)].astype(str), key=natural_key)
    where = ", ".join(files)
    return [
        Finding(where, None, key_column, "RELEASE-MISSING", "released row missing", key)
        for key in lost
    ]
