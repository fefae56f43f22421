"""The registry: dataset names to their declarations.

Every sub-package of :mod:`hatemoji_datasets.datasets` with a ``spec`` module
is a dataset; adding one needs no change here. Declarations are light (see
:mod:`hatemoji_datasets.core.spec`), so listing names, versions, configs and
sources imports neither ``datasets`` nor pandera.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from hatemoji_datasets.core.errors import UnknownNameError
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec
from hatemoji_datasets.core.suggest import did_you_mean

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


#: How a dataset is named everywhere (``load_dataset``, the CLI, lockfiles).
REFERENCE_GRAMMAR = "NAME[/CONFIG][:VERSION], e.g. NAME/CONFIG:1.0.0"


def parse_reference(
    text: str, config: str | None = None, version: str | None = None
) -> tuple[str, str | None, str | None]:
    """Split ``"name[/config][:version]"``; a config or version given twice must agree.

    ``"name:version/config"`` is refused with a pointer to the one spelling.
    """
    head, colon, pinned = text.partition(":")
    if colon and ("/" in pinned or ":" in pinned or not pinned):
        raise UnknownNameError(f"cannot read {text!r}: write {REFERENCE_GRAMMAR}{_reordered(text)}")
    name, slash, named_config = head.partition("/")
    if slash and (not named_config or "/" in named_config or not name):
        raise UnknownNameError(f"cannot read {text!r}: write {REFERENCE_GRAMMAR}")
    for what, in_text, given in (("config", named_config, config), ("version", pinned, version)):
        if in_text and given and in_text != given:
            raise UnknownNameError(f"{text!r} pins {what} {in_text} but {what}={given!r} was given")
    return name, named_config or config, pinned or version


def _reordered(text: str) -> str:
    """``"; did you mean 'name/config:version'?"`` for ``"name:version/config"``, else ``""``."""
    name, _, rest = text.partition(":")
    version, slash, config = rest.partition("/")
    if not (slash and name and version and config) or ":" in rest or "/" in name + config:
        return ""
    return f"; did you mean {format_reference(name, config, version)!r}?"


def parse_spec(text: str, version: str | None = None) -> tuple[str, str | None]:
    """Split ``"name:1.0.0"`` into name and version; a version given twice must agree."""
    name, config, version = parse_reference(text, version=version)
    if config is not None:
        raise UnknownNameError(f"{text!r} names a config; only NAME[:VERSION] is accepted here")
    return name, version


def format_reference(name: str, config: str | None = None, version: str | None = None) -> str:
    """The inverse of :func:`parse_reference`."""
    return name + (f"/{config}" if config else "") + (f":{version}" if version else "")


def dataset_spec(name: str) -> DatasetSpec:
    """The declaration of dataset ``name``."""
    found = specs()
    if name not in found:
        raise UnknownNameError(
            f"unknown dataset {name!r}{did_you_mean(name, found)}; available: {', '.join(found)}"
        )
    return found[name]


def lookup(
    text: str, config: str | None = None, version: str | None = None
) -> tuple[DatasetSpec, ConfigSpec, str]:
    """The declaration, config and version that ``"name[/config][:version]"`` asks for."""
    name, config, version = parse_reference(text, config, version)
    spec = dataset_spec(name)
    version = spec.check_version(version)
    return spec, spec.config(config, version), version
