"""The registry: dataset names to their declarations and builder classes.

Every sub-package of :mod:`hatemoji_datasets.datasets` with a ``spec`` module
is a dataset; adding one needs no change here. Declarations are light (see
:mod:`hatemoji_datasets.spec`), so listing names, versions, configs and
sources imports neither ``datasets`` nor pandera.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

from hatemoji_datasets.errors import UnknownNameError
from hatemoji_datasets.spec import ConfigSpec, DatasetSpec

if TYPE_CHECKING:
    from hatemoji_datasets.builder import HatemojiBuilder

DATASETS_PACKAGE = "hatemoji_datasets.datasets"


@cache
def specs() -> dict[str, DatasetSpec]:
    """Every registered dataset's declaration, by name."""
    package = importlib.import_module(DATASETS_PACKAGE)
    found: dict[str, DatasetSpec] = {}
    for module_info in pkgutil.iter_modules(package.__path__):
        if module_info.ispkg:
            module = importlib.import_module(f"{DATASETS_PACKAGE}.{module_info.name}.spec")
            spec: DatasetSpec = module.SPEC
            found[spec.name] = spec
    return dict(sorted(found.items()))


def list_datasets() -> list[str]:
    """Names of every dataset the package can build."""
    return list(specs())


def parse_spec(text: str, version: str | None = None) -> tuple[str, str | None]:
    """Split ``"name:1.0.0"`` into name and version; a version given twice must agree."""
    name, _, pinned = text.partition(":")
    pinned = pinned or None
    if pinned and version and pinned != version:
        raise UnknownNameError(f"{text!r} pins version {pinned} but version={version!r} was given")
    return name, pinned or version


def dataset_spec(name: str) -> DatasetSpec:
    """The declaration of dataset ``name``."""
    found = specs()
    if name not in found:
        raise UnknownNameError(f"unknown dataset {name!r}; available: {', '.join(found)}")
    return found[name]


def resolve(
    text: str, config: str | None = None, version: str | None = None
) -> tuple[DatasetSpec, ConfigSpec, str]:
    """The declaration, config and version that ``"name[:version]"`` and ``config`` ask for."""
    name, version = parse_spec(text, version)
    spec = dataset_spec(name)
    return spec, spec.config(config), spec.check_version(version)


def builder_class(name: str) -> type[HatemojiBuilder]:
    """The ``datasets`` builder class of dataset ``name`` (imports ``datasets``)."""
    from hatemoji_datasets.builder import builder_class_for

    return builder_class_for(dataset_spec(name))


def make_builder(
    text: str,
    config: str | None = None,
    *,
    version: str | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> HatemojiBuilder:
    """Instantiate the builder for ``text`` (``name`` or ``name:version``)."""
    spec, config_spec, version = resolve(text, config, version)
    cls = builder_class(spec.name)
    return cls(config_name=config_spec.name, cache_dir=cache_dir, mirror=mirror)
