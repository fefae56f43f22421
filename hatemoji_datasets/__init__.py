"""Hate-speech benchmarks as versioned, validated Hugging Face ``datasets``.

>>> from hatemoji_datasets import load_dataset, list_datasets
>>> list_datasets()  # the names of every dataset the package builds
>>> data = load_dataset(list_datasets()[0])  # a DatasetDict, built once, then cached

The layout is described in ``docs/architecture.md``; each sub-package holds one
concern (``sources``, ``build``, ``pinning``, ``validate``, ``cards``, ``hub``,
``evaluate``, ``cli``) and each dataset one folder under ``datasets/``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from hatemoji_datasets.core.errors import (
    CacheError,
    ChecksumError,
    DiffError,
    FingerprintError,
    HatemojiDatasetsError,
    InputError,
    OutputError,
    SchemaViolationError,
    SourceError,
    UnknownNameError,
)
from hatemoji_datasets.version import __version__ as __version__

if TYPE_CHECKING:
    from hatemoji_datasets.api import dataset_info, load_dataset
    from hatemoji_datasets.core.registry import list_datasets


# The entry points import datasets, pandas and pandera; they load on first use so
# that the command line (whose `--help` and argument errors need none of them)
# starts quickly.
_LAZY = {
    "dataset_info": "hatemoji_datasets.api",
    "load_dataset": "hatemoji_datasets.api",
    "list_datasets": "hatemoji_datasets.core.registry",
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
    "DiffError",
    "FingerprintError",
    "HatemojiDatasetsError",
    "InputError",
    "OutputError",
    "SchemaViolationError",
    "SourceError",
    "UnknownNameError",
    "dataset_info",
    "list_datasets",
    "load_dataset",
]
