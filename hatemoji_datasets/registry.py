"""The registry: dataset names and versions to builder classes.

Every sub-package of :mod:`hatemoji_datasets.datasets` with a ``builder``
module is a dataset; adding one needs no change here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import cache

from hatemoji_datasets.builder import HatemojiBuilder
from hatemoji_datasets.errors import UnknownNameError

DATASETS_PACKAGE = "hatemoji_datasets.datasets"


@cache
def builder_classes() -> dict[str, type[HatemojiBuilder]]:
    package = importlib.import_module(DATASETS_PACKAGE)
    found: dict[str, type[HatemojiBuilder]] = {}
    for module_info in pkgutil.iter_modules(package.__path__):
        if not module_info.ispkg:
            continue
        module = importlib.import_module(f"{DATASETS_PACKAGE}.{module_info.name}.builder")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, HatemojiBuilder) and cls.__module__ == module.__name__:
                found[cls.NAME] = cls
    return dict(sorted(found.items()))


def list_datasets() -> list[str]:
    """Names of every dataset the package can build."""
    return list(builder_classes())


def parse_spec(spec: str, version: str | None = None) -> tuple[str, str | None]:
    """Split ``"name:1.0.0"`` into name and version; a version given twice must agree."""
    name, _, pinned = spec.partition(":")
    pinned = pinned or None
    if pinned and version and pinned != version:
        raise UnknownNameError(f"{spec!r} pins version {pinned} but version={version!r} was given")
    return name, pinned or version


def builder_class(name: str) -> type[HatemojiBuilder]:
    classes = builder_classes()
    if name not in classes:
        raise UnknownNameError(
            f"unknown dataset {name!r}; available: {', '.join(classes) or '(none)'}"
        )
    return classes[name]


def check_version(cls: type[HatemojiBuilder], version: str | None) -> None:
    current = str(cls.VERSION)
    if version is None or version == current:
        return
    released = ", ".join(cls.released_versions())
    if version in cls.RELEASE_NOTES:
        raise UnknownNameError(
            f"{cls.NAME} version {version} was released, but this installation builds "
            f"only {current}; released versions: {released}"
        )
    raise UnknownNameError(f"unknown version {version!r} of {cls.NAME}; released: {released}")


def check_config(cls: type[HatemojiBuilder], config: str | None) -> str | None:
    names = cls.config_names()
    if config is None or config in names:
        return config
    raise UnknownNameError(
        f"unknown config {config!r} of {cls.NAME}; available: {', '.join(names)}"
    )


def make_builder(
    spec: str,
    config: str | None = None,
    *,
    version: str | None = None,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> HatemojiBuilder:
    """Instantiate the builder for ``spec`` (``name`` or ``name:version``)."""
    name, version = parse_spec(spec, version)
    cls = builder_class(name)
    check_version(cls, version)
    config = check_config(cls, config)
    return cls(config_name=config, cache_dir=cache_dir, mirror=mirror)
