"""Strict numbers: what a predictions file or a harness log may give where a number belongs.

A number is a JSON number or a decimal numeral (``-1.25``, ``3e-4``: CSV cells and
the harness's log-likelihoods are strings), and finite. Booleans are not numbers
here (``float(False)`` is 0.0, so a ``false`` log-likelihood would be scored), nor
are null, NaN, the infinities, or any other string.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

#: A decimal numeral: digits, an optional fraction and exponent (no ``nan``, ``inf``, ``0x``).
DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def strict_number(value: Any) -> float | None:
    """``value`` as a finite float, or None when it is not a number (see the module)."""
    if isinstance(value, bool | np.bool_):
        return None
    if isinstance(value, str):
        if not DECIMAL.fullmatch(value.strip()):
            return None
        value = value.strip()
    elif not isinstance(value, int | float | np.integer | np.floating):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer beyond any float
        return None
    return number if math.isfinite(number) else None


def strict_integer(value: Any) -> int | None:
    """``value`` as an integer when it is a strict number with no fraction, else None."""
    number = strict_number(value)
    if number is None or not number.is_integer():
        return None
    if isinstance(value, int | np.integer):
        return int(value)  # exact, however large
    return int(number)
