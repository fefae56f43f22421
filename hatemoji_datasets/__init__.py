"""HatemojiCheck, HatemojiBuild and APEACH as versioned, validated ``datasets``.

>>> from hatemoji_datasets import load_dataset, list_datasets
>>> list_datasets()
['apeach', 'hatemoji_build', 'hatemoji_check']
>>> check = load_dataset("hatemoji_check", split="test")
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from hatemoji_datasets.errors import (
    CacheError,
    ChecksumError,
    FingerprintError,
    HatemojiDatasetsError,
    InputError,
    SchemaViolationError,
    SourceError,
    UnknownNameError,
)

if TYPE_CHECKING:
    from hatemoji_datasets.api import dataset_info, load_dataset
    from hatemoji_datasets.registry import list_datasets

__version__ = "0.2.0"

# The entry points import datasets, pandas and pandera; they load on first use so
# that the command line (whose `--help` and argument errors need none of them)
# starts quickly.
_LAZY = {
    "dataset_info": "hatemoji_datasets.api",
    "load_dataset": "hatemoji_datasets.api",
    "list_datasets": "hatemoji_datasets.registry",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'hatemoji_datasets' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "CacheError",
    "ChecksumError",
    "FingerprintError",
    "HatemojiDatasetsError",
    "InputError",
    "SchemaViolationError",
    "SourceError",
    "UnknownNameError",
    "dataset_info",
    "list_datasets",
    "load_dataset",
]
