"""The registry: dataset names to their declarations.

Every sub-package of :mod:`hatemoji_datasets.datasets` with a ``spec`` module
is a dataset; adding one needs no change here. Declarations are light (see
:mod:`hatemoji_datasets.core.spec`), so listing names, versions, configs and
sources imports neither ``datasets`` nor pandera.

Folders named in ``HATEMOJI_DATASETS_EXTRA`` (``os.pathsep``-separated) are searched too,
as if their dataset folders were in the package: the tests register their synthetic
dataset so (``tests/synthetic/``), and nothing outside them sets it.

A folder without a ``spec`` module is not a dataset and is skipped. A broken one (a
``spec.py`` that cannot be imported, or holds no ``SPEC`` declaration) never breaks the
others: :func:`specs` leaves it out, and :func:`check_registry`, which the commands that
list every dataset call, names it in one :class:`RegistryError` line.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from functools import cache
from pathlib import Path

from hatemoji_datasets.core.errors import HatemojiDatasetsError, UnknownNameError
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec
from hatemoji_datasets.core.suggest import did_you_mean

DATASETS_PACKAGE = "hatemoji_datasets.datasets"


class RegistryError(HatemojiDatasetsError):
    """A dataset folder whose declaration cannot be read."""

    code = "REGISTRY"


#: Folders of further dataset folders, searched after the package's own (the tests' hook).
EXTRA_ENV = "HATEMOJI_DATASETS_EXTRA"


def specs() -> dict[str, DatasetSpec]:
    """Every registered dataset's declaration, by name (a broken folder left out)."""
    return _registry()[0]


def check_registry() -> None:
    """Raise :class:`RegistryError` naming the first broken dataset folder and its cause."""
    broken = _registry()[1]
    if broken:
        folder, cause = next(iter(broken.items()))
        others = f" (and {len(broken) - 1:,} more)" if len(broken) > 1 else ""
        raise RegistryError(f"dataset folder {DATASETS_FOLDER}/{folder} is broken{others}: {cause}")


#: Where the dataset folders are, as a contributor sees them.
DATASETS_FOLDER = DATASETS_PACKAGE.replace(".", "/")


def _registry() -> tuple[dict[str, DatasetSpec], dict[str, str]]:
    """The declarations by name, and each broken folder with what is wrong with it."""
    return _registry_of(os.environ.get(EXTRA_ENV, ""))


@cache
def _registry_of(extra: str) -> tuple[dict[str, DatasetSpec], dict[str, str]]:
    """:func:`_registry` with the folders ``extra`` names searched too."""
    package = importlib.import_module(DATASETS_PACKAGE)
    own = list(package.__spec__.submodule_search_locations or ())[:1]  # the package's folder
    searched = own + [str(Path(folder).resolve()) for folder in extra.split(os.pathsep) if folder]
    package.__path__.extend(p for p in searched if p not in package.__path__)  # importable
    found: dict[str, DatasetSpec] = {}
    broken: dict[str, str] = {}
    for module_info in pkgutil.iter_modules(searched):
        if not module_info.ispkg:
            continue
        folder = module_info.name
        if not any(Path(p, folder, "spec.py").is_file() for p in searched):
            continue  # not a dataset (yet): nothing declared
        try:
            module = importlib.import_module(f"{DATASETS_PACKAGE}.{folder}.spec")
        except Exception as error:  # any fault of a contributor's module, named, never raised
            broken[folder] = f"spec.py cannot be imported: {_cause(error)}"
            continue
        spec = getattr(module, "SPEC", None)
        if not isinstance(spec, DatasetSpec):
            what = "no SPEC" if spec is None else f"a SPEC of type {type(spec).__name__}"
            broken[folder] = f"spec.py declares {what}, not a DatasetSpec"
            continue
        found[spec.name] = spec
    return dict(sorted(found.items())), broken


def _cause(error: BaseException) -> str:
    """``SyntaxError: invalid syntax (line 3)``: the error's type, message and line."""
    if isinstance(error, SyntaxError):
        return f"{type(error).__name__}: {error.msg} (line {error.lineno})"
    return f"{type(error).__name__}: {error}"


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
    found, broken = _registry()
    if name not in found and name in broken:
        raise RegistryError(f"dataset folder {DATASETS_FOLDER}/{name} is broken: {broken[name]}")
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
