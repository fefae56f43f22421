"""A lazy reference to a part of a dataset's folder: a module of the folder, or one of its names.

A dataset's declaration (``datasets/<name>/spec.py``) imports only the standard
library, so that listing datasets, versions and configs stays fast. Its heavy
parts (the pandera models, the transform, the statistics, a score table's key
function) are therefore referenced, not imported: ``Ref("transform",
"features_of")`` says what ``from .transform import features_of`` would say,
and that import runs only when the part is used (:meth:`Ref.resolve`, or
:meth:`hatemoji_datasets.core.spec.DatasetSpec.load`, which resolves it in the
dataset's package). The module is named relative to the folder, so a copied
folder refers to its own parts; a test resolves every reference of every
registered dataset.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


@dataclass(frozen=True)
class Ref(Generic[T]):
    """``name`` of the module ``module`` of a dataset's folder (the module itself when
    ``name`` is None), imported when resolved."""

    #: A module of the dataset's folder, e.g. ``"transform"`` for ``transform.py``.
    module: str
    #: What the module defines, e.g. ``"features_of"``; None: the module itself.
    name: str | None = None

    def __post_init__(self) -> None:
        if not self.module.isidentifier() or not (self.name is None or self.name.isidentifier()):
            raise ValueError(
                f"Ref({self.module!r}, {self.name!r}): name a module of the dataset's folder "
                "and what it defines, e.g. Ref('transform', 'features_of')"
            )

    def resolve(self, package: str) -> T:
        """Import the part from the dataset package ``package`` (``__package__`` of its
        ``spec.py``)."""
        module = importlib.import_module(f".{self.module}", package)
        if self.name is None:
            return cast(T, module)
        found: Any = getattr(module, self.name, _MISSING)
        if found is _MISSING:
            raise AttributeError(
                f"{module.__name__} defines no {self.name!r} ({self} of {package})"
            )
        return cast(T, found)

    def __str__(self) -> str:
        return f"{self.module}.{self.name}" if self.name else self.module


_MISSING = object()
