"""The loader the committed lm-evaluation-harness tasks name (``custom_dataset:``).

A task YAML may name a function instead of a Hub repository::

    custom_dataset: !function hatemoji_datasets.harness.custom_dataset.load
    dataset_kwargs: {dataset: hatemoji_check, config: default}
    metadata: {version: 1.0.0}

The harness calls it with the task's ``metadata`` and ``dataset_kwargs`` as
keyword arguments and evaluates the ``DatasetDict`` it returns, so a task runs
with only this package installed: built from the pinned upstream files (or
``$HATEMOJI_DATASETS_MIRROR``), offline from a mirror, before any Hub push.
``version`` (the task's metadata) pins the version the task was generated for.
"""

from __future__ import annotations

from typing import Any


def load(*, dataset: str, config: str, version: str, **_: Any) -> Any:
    """``DatasetDict`` of ``dataset``/``config`` at ``version``, as :func:`load_dataset` builds it.

    Other keyword arguments (whatever the harness adds to the metadata) are ignored.
    """
    from hatemoji_datasets.api import load_dataset

    return load_dataset(dataset, config, version=version)
