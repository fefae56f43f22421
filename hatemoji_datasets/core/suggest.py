""" "Did you mean ...?" for a misspelt name: a close match, only where one exists.

Suggestions only add words to a message: the error, its exit status and its
JSON shape stay what they were.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: How alike a name and a suggestion must be (``difflib``'s ratio, 0 to 1).
CUTOFF = 0.6


def close_matches(value: str, choices: Iterable[str], n: int = 1) -> list[str]:
    """Up to ``n`` of ``choices`` close to ``value``, the closest first (none for an exact one)."""
    choices = [str(choice) for choice in choices]
    if value in choices:
        return []
    return difflib.get_close_matches(value, choices, n=n, cutoff=CUTOFF)


def did_you_mean(value: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for the closest of ``choices``, or ``""`` if none is close."""
    found = close_matches(value, choices)
    return f" (did you mean {found[0]!r}?)" if found else ""
