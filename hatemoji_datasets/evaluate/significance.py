"""The statistics of a score report: Wilson intervals, exact McNemar tests, Holm's correction.

Each is the textbook closed form (the tests check them against statsmodels):

- :func:`wilson`: the 95% Wilson score interval of a proportion (``k`` right of ``n``),
  statsmodels' ``proportion_confint(k, n, method="wilson")``;
- :func:`mcnemar_exact`: the exact (binomial) McNemar test of two classifiers on the
  same rows, from the discordant counts ``b`` (only the first right) and ``c`` (only the
  second), statsmodels' ``mcnemar([[., b], [c, .]], exact=True)``: twice the binomial
  tail at ``min(b, c)`` of ``b + c`` fair coin flips, at most 1;
- :func:`holm`: Holm's step-down adjusted p-values, statsmodels'
  ``multipletests(p, method="holm")``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

#: The level of every interval and test.
ALPHA = 0.05
#: The normal quantile of a two-sided 95% interval (1.959964...).
Z = NormalDist().inv_cdf(1 - ALPHA / 2)


def wilson(successes: int, n: int) -> tuple[float, float] | None:
    """The 95% Wilson score interval of ``successes`` out of ``n``; None when ``n`` is 0."""
    if n <= 0:
        return None
    share = successes / n
    z2 = Z * Z
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = Z / (1 + z2 / n) * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def mcnemar_exact(b: int, c: int) -> float:
    """The two-sided exact McNemar p-value of the discordant counts ``b`` and ``c``."""
    from scipy.special import bdtr  # the binomial CDF; scikit-learn has loaded scipy already

    n = b + c
    if n == 0:
        return 1.0
    return min(1.0, 2 * float(bdtr(min(b, c), n, 0.5)))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given: the i-th smallest times ``m - i``
    (0-based), made non-decreasing, at most 1."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted
