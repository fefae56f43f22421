"""HatemojiBuild; the pair helper is importable from here."""

from hatemoji_datasets.datasets.hatemoji_build.pairs import (
    CrossSplitPair,
    count_cross_split_pairs,
    cross_split_pairs,
)

__all__ = ["CrossSplitPair", "count_cross_split_pairs", "cross_split_pairs"]
