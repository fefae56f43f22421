"""The one ``datasets`` builder, driven by a dataset's declaration.

:func:`builder_class_for` makes a ``datasets.ArrowBasedBuilder`` subclass per
:class:`~hatemoji_datasets.core.spec.DatasetSpec`: its configs, versions and
features come from the declaration; ``_split_generators`` fetches and
verifies the config's pinned files and runs the shared read-validate-transform
pipeline; ``_generate_tables`` yields each split as one Arrow table cast to
the features. A dataset package adds a declaration, a schema and a transform,
and no builder code.

What a build checks: every pinned file's size and SHA-256 (always); the raw
files against the schema, unless they are byte for byte the files whose
fingerprints are recorded, which were validated when those were recorded
(``fingerprints --write`` always validates, and so do the tests); and the
built splits against the recorded fingerprints before the build is kept. A
build that skips the schema imports no ``pandera``; ``validate=True`` runs it
anyway.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

import datasets
import pyarrow
from datasets.table import table_cast

from hatemoji_datasets.building import manifest, recorded
from hatemoji_datasets.building.cache_files import read_split
from hatemoji_datasets.building.fingerprint import fingerprint_table
from hatemoji_datasets.core.card_source import card_source
from hatemoji_datasets.core.errors import CacheError, FingerprintError, OutputError
from hatemoji_datasets.core.numbers import size
from hatemoji_datasets.core.progress import step
from hatemoji_datasets.core.registry import dataset_spec, parse_spec
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec
from hatemoji_datasets.sources.fetch import fetch

log = logging.getLogger("hatemoji_datasets")


class _OtherVersionsAreExpected(logging.Filter):
    """Drops ``datasets``' "Found a different version ... of dataset" warning.

    Every version has its own cache folder by design (``<name>/<config>/<version>/``),
    so loading ``NAME:1.0.0`` beside a built 2.0.0 is normal, not worth a warning.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Found a different version")


_builder_log = logging.getLogger("datasets.builder")
if not any(isinstance(f, _OtherVersionsAreExpected) for f in _builder_log.filters):
    _builder_log.addFilter(_OtherVersionsAreExpected())

#: ``datasets`` makes each builder's modules stream (it swaps their ``open``, ``os.path``,
#: ``pathlib.Path``, ``pandas.read_csv``, ``scipy.io.loadmat`` ... for fsspec-aware ones)
#: unless they are marked done. Ours read local files that were fetched and verified first,
#: and the swap imports ``scipy.io`` wherever SciPy is installed (about 0.3 s a process).
_patched_for_streaming = True


@dataclass
class DeclaredConfig(datasets.BuilderConfig):
    """A ``datasets`` config carrying its declaration."""

    spec: ConfigSpec | None = None


class DeclaredBuilder(datasets.ArrowBasedBuilder):
    """A versioned builder whose sources are pinned and whose raw files are validated."""

    SPEC: ClassVar[DatasetSpec]
    BUILDER_CONFIG_CLASS = DeclaredConfig
    config: DeclaredConfig

    def __init__(
        self,
        *,
        mirror: str | None = None,
        check_fingerprints: bool = True,
        validate: bool = False,
        **kwargs: Any,
    ) -> None:
        # The mirror only changes where bytes come from, never what is built,
        # so it is kept out of the config (and out of the cache key).
        self.mirror = mirror
        self.check_fingerprints = check_fingerprints
        self.validate = validate
        #: Whether this builder validated the raw files (set when it builds).
        self.validated = False
        kwargs.setdefault("dataset_name", self.SPEC.name)
        super().__init__(**kwargs)

    @property
    def config_spec(self) -> ConfigSpec:
        assert self.config.spec is not None  # every registered config carries one
        return self.config.spec

    def _info(self) -> datasets.DatasetInfo:
        card = card_source(self.SPEC.card_source_path)
        return datasets.DatasetInfo(
            description=card.description,
            citation=card.citation,
            homepage=card.homepage,
            license=card.license,
            features=self.SPEC.load(self.config_spec.features)(
                self.config_spec, str(self.config.version)
            ),
        )

    def _split_generators(
        self, dl_manager: datasets.DownloadManager
    ) -> list[datasets.SplitGenerator]:
        from hatemoji_datasets.building.pipeline import build_tables

        pinned = self.SPEC.config_sources(self.config_spec)
        log.info("fetching and verifying %d source file(s)", len(pinned))
        paths = fetch(pinned, dl_manager, self.mirror)
        version = str(self.config.version)
        self.validated = self.validate or not self.validated_when_recorded()
        if not self.validated:
            log.info(
                "schema: the pinned files were validated when their fingerprints were recorded"
            )
        what = f"reading{' and validating' if self.validated else ''} {len(paths):,} file(s)"
        with step(f"{self.SPEC.name}/{self.config_spec.name} {version}: {what}"):
            tables = build_tables(
                self.SPEC, self.config_spec, version, paths, validate=self.validated
            )
        generators = []
        for split, table in tables.items():
            generator = datasets.SplitGenerator(
                name=split, gen_kwargs={"table": table, "split": split}
            )
            generator.split_info.num_examples = table.num_rows  # real progress totals
            generators.append(generator)
        return generators

    def _download_and_prepare(self, dl_manager, verification_mode, **kwargs):  # type: ignore[override]
        super()._download_and_prepare(dl_manager, verification_mode, **kwargs)
        if self.check_fingerprints:
            # Still in datasets' ``.incomplete`` folder: raising here keeps nothing.
            self._check_recorded_fingerprints()

    def validated_when_recorded(self) -> bool:
        """Whether the pinned files are those the recorded fingerprints were built from.

        Recording validates every file (so do the tests), and this build is
        compared with those fingerprints before it is kept: the schema could
        only say again what it said of exactly these bytes.
        """
        if not self.check_fingerprints:
            return False  # recording new fingerprints: nothing to rely on
        version = str(self.config.version)
        return recorded.expected_for(self.SPEC, self.config_spec, version) is not None

    def _check_recorded_fingerprints(self) -> None:
        version = str(self.config.version)
        expected = recorded.expected_for(self.SPEC, self.config_spec, version)
        if expected is None:
            log.info(
                "no fingerprint recorded for %s/%s %s", self.SPEC.name, self.config.name, version
            )
            return
        found = {
            split: (info.num_examples, self.split_fingerprint(split))
            for split, info in self.info.splits.items()
        }
        problems = recorded.compare(
            self.SPEC,
            self.config.name,
            version,
            {split: (r.rows, r.fingerprint) for split, r in expected.items()},
            found,
        )
        if problems:
            where = recorded.recorded_path(self.SPEC)
            raise FingerprintError(
                f"the build of {self.SPEC.name}/{self.config.name} {version} differs from the "
                f"fingerprints recorded in {where}; nothing was cached:\n  "
                + "\n  ".join(problems),
                problems,
            )

    def _save_info(self) -> None:
        super()._save_info()
        # The last file datasets writes into the ``.incomplete`` folder: record the digests
        # of the whole build before it becomes the cache.
        try:
            manifest.record(self._output_dir)
        except OutputError as error:
            raise CacheError(f"cannot write the datasets cache: {error}") from None

    def split_fingerprint(self, split: str) -> str:
        """The fingerprint of ``split`` as written in this builder's output folder."""
        return fingerprint_table(
            read_split(self._output_dir, self.dataset_name, split), self.info.features
        )

    def _generate_tables(self, table: pyarrow.Table, split: str = ""):
        rows, nbytes = f"{table.num_rows:,} rows", size(table.nbytes)
        with step(
            f"{self.SPEC.name}/{self.config_spec.name}: writing split {split} ({rows}, {nbytes})"
        ):
            yield _table_key(), table_cast(table, self.info.features.arrow_schema)


def _table_key() -> Any:
    # datasets 5 keys tables by (shard, batch); older releases take any key.
    key_type = getattr(datasets.builder, "Key", None)
    return key_type(0, 0) if key_type is not None else 0


def builder_class_for(spec: DatasetSpec, version: str | None = None) -> type[DeclaredBuilder]:
    """The builder class of ``spec`` at ``version`` (the current one for ``None``), made once.

    Each released version gets its own class whose configs carry that version,
    so ``datasets`` caches it under ``<name>/<config>/<version>/`` and never
    mixes versions; config names stay the declared ones (no hash suffix).
    """
    return _builder_class(spec, spec.check_version(version))


@cache
def _builder_class(spec: DatasetSpec, version: str) -> type[DeclaredBuilder]:
    configs = [
        DeclaredConfig(
            name=config.name,
            version=datasets.Version(version),
            description=config.description,
            spec=config,
        )
        for config in spec.configs_of(version)
    ]
    class_name = "".join(part.title() for part in spec.name.split("_"))
    if version != spec.version:
        class_name += "_" + version.replace(".", "_")
    # Marked as this module is (``_patched_for_streaming``): nothing here streams.
    importlib.import_module(spec.package)._patched_for_streaming = True
    # datasets names a builder after its module's last component: the dataset package.
    return type(
        class_name,
        (DeclaredBuilder,),
        {
            "SPEC": spec,
            "VERSION": datasets.Version(version),
            "BUILDER_CONFIGS": configs,
            "DEFAULT_CONFIG_NAME": spec.default_config_name,
            "__module__": spec.package,
        },
    )


def builder_class(name: str, version: str | None = None) -> type[DeclaredBuilder]:
    """The ``datasets`` builder class of dataset ``name`` at ``version`` (default: current).

    ``name`` may pin the version itself (``"NAME:1.0.0"``). The Hub loading
    scripts subclass it.
    """
    name, version = parse_spec(name, version)
    return builder_class_for(dataset_spec(name), version)
