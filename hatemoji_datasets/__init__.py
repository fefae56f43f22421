"""HatemojiCheck, HatemojiBuild and APEACH as versioned, validated ``datasets``.

>>> from hatemoji_datasets import load_dataset, list_datasets
>>> list_datasets()
['apeach', 'hatemoji_build', 'hatemoji_check']
>>> check = load_dataset("hatemoji_check", split="test")
"""

from hatemoji_datasets.api import dataset_info, load_dataset
from hatemoji_datasets.errors import (
    ChecksumError,
    HatemojiDatasetsError,
    InputError,
    SchemaViolationError,
    SourceError,
    UnknownNameError,
)
from hatemoji_datasets.registry import list_datasets

__version__ = "0.1.0"

__all__ = [
    "ChecksumError",
    "HatemojiDatasetsError",
    "InputError",
    "SchemaViolationError",
    "SourceError",
    "UnknownNameError",
    "dataset_info",
    "list_datasets",
    "load_dataset",
]
