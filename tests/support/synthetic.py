"""The tests' synthetic dataset (``tests/synthetic/README.md``): its name, where it is, and
what it holds, stated by hand from its files."""

from __future__ import annotations

from pathlib import Path

from hatemoji_datasets.core.registry import EXTRA_ENV

#: The folder of the synthetic dataset folder, as ``HATEMOJI_DATASETS_EXTRA`` names it.
FOLDER = Path(__file__).resolve().parents[1] / "synthetic"
#: Its upstream files, laid out as the mirror (``HOST/PATH``).
MIRROR = FOLDER / "mirror"
#: Its name (what ``list`` shows while it is registered).
SYNTHETIC = "synthetic"
#: The environment that registers it.
REGISTERED = {EXTRA_ENV: str(FOLDER)}

#: Its pinned files: source -> (upstream URL, size in bytes).
SOURCES = {
    "train": ("https://data.example/synthetic/v1/train.csv", 1107),
    "test": ("https://data.example/synthetic/v1/test.csv", 693),
}
#: Rows per split, and per label (non-hateful, hateful) of each split.
SPLITS = {"train": 24, "test": 16}
LABELS = {"train": (15, 9), "test": (10, 6)}
#: The categorical column: its raw and built name, and its values in ClassLabel order.
TOPICS = ("fruit", "weather", "garden")


def mirror_file(source: str, mirror: Path = MIRROR) -> Path:
    """Where ``mirror`` keeps the synthetic source ``source``."""
    return mirror / SOURCES[source][0].split("://", 1)[1]
