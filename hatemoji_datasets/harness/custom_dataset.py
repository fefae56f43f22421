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

    Other keyword arguments (whatever the harness adds to the metadata) are ignored. A
    hand-written task's ``version: 1.0`` is a YAML number: it gets the error any unknown
    version gets, with the spelling that works; any other argument that is not text is an
    :class:`~hatemoji_datasets.core.errors.UnknownNameError` naming it.
    """
    from hatemoji_datasets.api import load_dataset
    from hatemoji_datasets.core.errors import UnknownNameError
    from hatemoji_datasets.core.registry import dataset_spec

    for name, value in (("dataset", dataset), ("config", config)):
        if not isinstance(value, str):
            raise UnknownNameError(
                f"the task's {name} must be a name, not {type(value).__name__} {value!r}"
            )
    if isinstance(version, int | float) and not isinstance(version, bool):
        released = dataset_spec(dataset).versions
        raise UnknownNameError(
            f"unknown version {str(version)!r} of {dataset}; released: {', '.join(released)} "
            f'(a YAML number: write the version as text, e.g. version: "{released[0]}")'
        )
    if not isinstance(version, str):
        raise UnknownNameError(
            f"the task's version must be text, not {type(version).__name__} {version!r}"
        )
    return load_dataset(dataset, config, version=version)
