"""Splits as pandas frames, and predictions made for them, for scoring against
independent computations."""

from __future__ import annotations

from hatemoji_datasets.core.registry import dataset_spec

_FRAMES: dict[tuple[str, str, str], object] = {}


def frame_of(name: str, config: str, split: str, where: dict[str, str]):
    """One split as a pandas frame, loaded once a session."""
    from hatemoji_datasets import load_dataset

    key = (name, config, split)
    if key not in _FRAMES:
        _FRAMES[key] = load_dataset(name, config, split=split, **where).to_pandas()
    return _FRAMES[key]


def ids_of(frame, id_column: str) -> list[int]:
    return list(range(len(frame))) if id_column == "index" else frame[id_column].tolist()


def predictions_frame(frame, id_column: str, labels):
    import pandas as pd

    return pd.DataFrame({id_column: ids_of(frame, id_column), "prediction": labels})


def random_labels(frame, seed: int = 7):
    import numpy as np

    return np.random.default_rng(seed).integers(0, 2, len(frame))


def load_names(where: dict[str, str], name: str, column: str, config: str | None = None):
    """The ClassLabel names of ``column`` in the config's evaluation split."""
    from hatemoji_datasets import load_dataset

    split = dataset_spec(name).config(config).eval_split
    return load_dataset(name, config, split=split, **where).features[column].names
