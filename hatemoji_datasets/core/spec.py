"""Dataset declarations: each dataset config stated once, as data.

A dataset package (``hatemoji_datasets/datasets/<name>/spec.py``) defines one
:class:`DatasetSpec` named ``SPEC``. The builder, the validator, the schema
export, ``info``, cards and scoring all read it; none restates it.

This module imports only the standard library, so that listing datasets,
versions, configs and sources stays fast. Heavy parts (the pandera schema, the
``datasets`` features, the Arrow transform, the statistics and any scoring
function of the dataset's own) are lazy references to the folder's modules
(:class:`~hatemoji_datasets.core.ref.Ref`, e.g. ``Ref("transform", "transform")``),
imported only when needed (:meth:`DatasetSpec.load`).
"""

from __future__ import annotations

import csv
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from hatemoji_datasets.core.checksums import SourceFile, read_checksums
from hatemoji_datasets.core.errors import UnknownNameError
from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.scoring import LeaderboardLayout, Scoring
from hatemoji_datasets.core.suggest import did_you_mean

if TYPE_CHECKING:
    import pyarrow as pa
    from datasets import DatasetDict, Features

T = TypeVar("T")

CHECKSUMS_FILE = "checksums.tsv"
CARD_SOURCE_FILE = "card.yaml"
#: The ``key_column`` of a config whose rows have no id and whose texts may repeat: a row
#: is identified by its position, ``<source>:<line>`` (its pinned source and its line in
#: that file, the header being line 1). No raw file holds it: the package derives it for
#: validation, and the transform receives it as a column of this name to keep as a feature.
ROW_ID = "row_id"


@dataclass(frozen=True)
class RawFormat:
    """How an upstream file is laid out on disk (and so how contributors write it)."""

    delimiter: str = ","
    #: ``csv.QUOTE_MINIMAL`` for ordinary CSV, ``csv.QUOTE_NONE`` for files whose
    #: quote characters are data (BEEP!'s TSVs).
    quoting: int = csv.QUOTE_MINIMAL

    @property
    def quoted(self) -> bool:
        return self.quoting != csv.QUOTE_NONE


#: Ordinary comma-separated values with a header row.
CSV = RawFormat()


@dataclass(frozen=True)
class Release:
    """One released version of a dataset and what changed in it."""

    version: str
    notes: str
    #: When the version was first published (ISO 8601, ``YYYY-MM-DD``): the date of the
    #: package release that first built it. ``None`` until it is released.
    date: str | None = None


# -- scoring: which tables a score report holds ----------------------------------------


@dataclass(frozen=True)
class Join:
    """Files of a second format whose rows are joined to a config's rows on a key column.

    Each split reads one file of this format beside its own file(s); the files
    are validated with their own ``schema``, and keys are unique on both sides.
    Without ``indicator`` every row has exactly one partner and the reverse,
    the ``agree_on`` columns (which both formats hold) must be equal, and the
    partner's columns the rows lack are appended to the raw table the
    transform receives. With ``indicator`` the
    partner's files only mark membership: their keys must be among the config's,
    and a boolean column of that name (is the row's key among them?) is appended.
    """

    #: What these files hold, for messages ("annotations").
    name: str
    #: The pandera model of these files, e.g. ``Ref("schema", "Notes")``.
    schema: Ref[type[Any]]
    #: The column both formats identify a row by.
    key_column: str
    #: ``(split, source)`` pairs, as ``ConfigSpec.splits``.
    splits: tuple[tuple[str, str], ...]
    #: Columns both formats hold that must say the same for a key.
    agree_on: tuple[str, ...] = ()
    indicator: str | None = None

    @property
    def source_names(self) -> tuple[str, ...]:
        return tuple(source for _, source in self.splits)

    def source_of(self, split: str) -> str:
        """The file joined to ``split``'s rows."""
        return dict(self.splits)[split]


@dataclass(frozen=True)
class RawPart:
    """One file format a config reads: its own rows' (``join`` None) or a join's."""

    schema: Ref[type[Any]]
    key_column: str
    #: Every source of this format the config reads.
    sources: tuple[str, ...]
    join: Join | None = None


@dataclass(frozen=True)
class ConfigSpec:
    """One config of a dataset: where its rows come from and how they become a dataset."""

    name: str
    description: str
    #: ``(split, source)`` pairs: each split is read from the ``checksums.tsv`` source
    #: of that name, or from several sources of one format, stacked in the order given
    #: (``(split, (source, ...))``). Only the config's sources are fetched.
    splits: tuple[tuple[str, str | tuple[str, ...]], ...]
    #: The pandera model of the raw files, e.g. ``Ref("schema", "RawCases")``.
    schema: Ref[type[Any]]
    #: ``features(config, version) -> datasets.Features``.
    features: Ref[Callable[[ConfigSpec, str], Features]]
    #: ``transform(raw: pyarrow.Table, config, version) -> pyarrow.Table``: validated raw
    #: rows of one split to rows of the built dataset (columns in feature order).
    transform: Ref[Callable[[pa.Table, ConfigSpec, str], pa.Table]]
    #: The raw column that identifies a row: its id, its text where rows have no id and
    #: texts are unique, or :data:`ROW_ID` (its position in its pinned file).
    key_column: str
    #: The raw column holding the text.
    text_column: str
    #: The split models are scored on.
    eval_split: str
    raw_format: RawFormat = CSV
    #: The built column that identifies a row; ``None`` where rows are identified by
    #: their 0-based position in the split.
    id_column: str | None = None
    #: The schema has rules across rows and files (pairs): a contribution is checked
    #: together with the released rows it does not hold, so partners can be found.
    cross_row_rules: bool = False
    #: ``split_of_file(path) -> str | None``: for schemas whose rules need to know which
    #: split's file each row came from, the split a contributed file's name says (None:
    #: each row's own column says). Imports no pandera (the streaming validator calls it).
    split_of_file: Ref[Callable[[str], str | None]] | None = None
    #: ``resplit(tables: {split: pyarrow.Table}, config, version) -> {split: table}``: for a
    #: config whose splits are not its files, the transformed tables of every split at
    #: once, regrouped into the declared splits (same split names, same columns).
    resplit: Ref[Callable[[dict[str, pa.Table], ConfigSpec, str], dict[str, pa.Table]]] | None = (
        None
    )
    #: The release that added this config; ``None``: every release has it.
    added_in: str | None = None
    #: Dataset-specific settings read by the transform (e.g. which rounds to keep).
    params: tuple[tuple[str, Any], ...] = ()
    #: ``statistics(data: datasets.DatasetDict) -> dict``: the config's figures for
    #: ``info`` and the card, computed from the built data.
    statistics: Ref[Callable[[DatasetDict], dict[str, Any]]] | None = None
    #: The tables ``score`` reports (overall metrics only when None).
    scoring: Scoring | None = None
    #: Files of other formats joined to each split's rows (see :class:`Join`).
    joins: tuple[Join, ...] = ()
    #: The values a raw column allows in this config where they are fewer than its model
    #: allows in every config (one language's groups): ``(column, values)`` pairs, what
    #: ``template`` lists for a contributor.
    vocabularies: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: How a new row of a contribution that repeats a text is reported (a released row
    #: repeating another released row's text is a warning, in a config keyed by ROW_ID).
    repeated_text: Literal["error", "warning"] = "error"

    @property
    def by_position(self) -> bool:
        """Whether rows are identified by their position in their pinned file."""
        return self.key_column == ROW_ID

    def param(self, key: str, default: Any = None) -> Any:
        return dict(self.params).get(key, default)

    def in_version(self, version: str) -> bool:
        """Whether release ``version`` of the dataset has this config."""
        return self.added_in is None or version_key(version) >= version_key(self.added_in)

    @property
    def split_names(self) -> list[str]:
        return [split for split, _ in self.splits]

    def split_sources(self, split: str) -> tuple[str, ...]:
        """The sources ``split``'s own rows are read from (several are stacked)."""
        sources = dict(self.splits)[split]
        return (sources,) if isinstance(sources, str) else tuple(sources)

    @property
    def row_sources(self) -> tuple[str, ...]:
        """Every source holding the config's own rows (not those of its joins)."""
        return tuple(source for split in self.split_names for source in self.split_sources(split))

    @property
    def source_names(self) -> tuple[str, ...]:
        """Every source the config reads: its rows', then each join's."""
        joined = tuple(source for join in self.joins for source in join.source_names)
        return tuple(dict.fromkeys((*self.row_sources, *joined)))

    @property
    def parts(self) -> tuple[RawPart, ...]:
        """Each file format the config reads: its own rows', then each join's."""
        own = RawPart(self.schema, self.key_column, self.row_sources)
        return (own, *(RawPart(j.schema, j.key_column, j.source_names, j) for j in self.joins))

    @property
    def schemas(self) -> tuple[Ref[type[Any]], ...]:
        """Every raw-file model the config validates with: its own, then its joins'."""
        return tuple(dict.fromkeys(part.schema for part in self.parts))


@dataclass(frozen=True)
class Stack:
    """Configs whose evaluation splits, stacked, are another config's: Multilingual
    HateCheck's ten languages make ``all``, HatemojiBuild's rounds make ``all``. The
    harness reports them as a group aggregated over its parts (``<dataset>_<name>``)."""

    #: What the parts are (``languages``, ``rounds``): the group's name after the dataset's.
    name: str
    #: The config that holds every part's rows.
    whole: str
    parts: tuple[str, ...]


@dataclass(frozen=True)
class DatasetSpec:
    """A dataset: its name, released versions and configs."""

    name: str
    pretty_name: str
    #: Newest first; the first is the version built by default.
    releases: tuple[Release, ...]
    configs: tuple[ConfigSpec, ...]
    #: The module of the dataset package (``hatemoji_datasets.datasets.<name>``).
    package: str
    default_config: str | None = None
    #: Tables of many models the dataset's papers print (``leaderboard(..., layout=NAME)``).
    layouts: tuple[LeaderboardLayout, ...] = ()
    #: The module of the folder stating what the shared tests expect of the dataset
    #: (``Ref("testing")``: split sizes, card statements, known output).
    testing: Ref[ModuleType] | None = None
    #: Configs that stack into another (:class:`Stack`).
    stacks: tuple[Stack, ...] = ()

    # -- versions and configs ------------------------------------------------------------

    @property
    def version(self) -> str:
        return self.releases[0].version

    @property
    def versions(self) -> list[str]:
        return [release.version for release in self.releases]

    @property
    def release_notes(self) -> dict[str, str]:
        return {release.version: release.notes for release in self.releases}

    @property
    def config_names(self) -> list[str]:
        return [config.name for config in self.configs]

    @property
    def default_config_name(self) -> str:
        return self.default_config or self.configs[0].name

    def configs_of(self, version: str) -> tuple[ConfigSpec, ...]:
        """The configs release ``version`` has (configs added later are left out)."""
        return tuple(config for config in self.configs if config.in_version(version))

    def config(self, name: str | None = None, version: str | None = None) -> ConfigSpec:
        """The config called ``name`` (the default one for ``None``), in ``version`` if given."""
        name = name or self.default_config_name
        for config in self.configs:
            if config.name == name:
                if version is not None and not config.in_version(version):
                    older = ", ".join(c.name for c in self.configs_of(version))
                    raise UnknownNameError(
                        f"config {name!r} of {self.name} was added in {config.added_in}; "
                        f"version {version} has {older}"
                    )
                return config
        hint = did_you_mean(name, self.config_names)
        raise UnknownNameError(
            f"unknown config {name!r} of {self.name}{hint}; "
            f"available: {', '.join(self.config_names)}"
        )

    def check_version(self, version: str | None) -> str:
        """``version`` (the current one for ``None``), if this package builds it."""
        if version is None:
            return self.version
        if version not in self.versions:
            hint = did_you_mean(version, self.versions)
            raise UnknownNameError(
                f"unknown version {version!r} of {self.name}{hint}; "
                f"released: {', '.join(self.versions)}"
            )
        return version

    # -- files the dataset package ships -------------------------------------------------

    @property
    def package_dir(self) -> Path:
        return _package_dir(self.package)

    @property
    def card_source_path(self) -> Path:
        return self.package_dir / CARD_SOURCE_FILE

    def source_files(self) -> dict[str, SourceFile]:
        """Every pinned upstream file of the dataset, ``{name: SourceFile}``."""
        return _checksums(self.package_dir / CHECKSUMS_FILE)

    def config_sources(self, config: ConfigSpec) -> dict[str, SourceFile]:
        """The pinned files ``config`` reads, by source name."""
        pinned = self.source_files()
        missing = [name for name in config.source_names if name not in pinned]
        if missing:
            raise UnknownNameError(
                f"{self.name}/{config.name} reads {', '.join(missing)}, which "
                f"{self.package_dir / CHECKSUMS_FILE} does not pin"
            )
        return {name: pinned[name] for name in config.source_names}

    def load(self, reference: Ref[T]) -> T:
        """Import the part of the dataset's folder ``reference`` names."""
        if not isinstance(reference, Ref):
            raise TypeError(
                f"{self.name} names a part by {reference!r}: write Ref(module, name), "
                "e.g. Ref('transform', 'features_of')"
            )
        return reference.resolve(self.package)


def version_key(version: str) -> tuple[int, ...]:
    """``"1.10.0"`` -> ``(1, 10, 0)``: versions in release order."""
    return tuple(int(part) for part in version.split("."))


@cache
def _package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise UnknownNameError(f"no dataset package {package}")
    return Path(next(iter(spec.submodule_search_locations)))


@cache
def _checksums(path: Path) -> dict[str, SourceFile]:
    return read_checksums(path)
