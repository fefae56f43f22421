"""HatemojiBuild; the pair helper is importable from here."""

from .pairs import (
    CrossSplitPair,
    count_cross_split_pairs,
    cross_split_pairs,
)

__all__ = ["CrossSplitPair", "count_cross_split_pairs", "cross_split_pairs"]
