"""Every registered dataset and config, tested the same way (in the manner of TFDS's
``DatasetBuilderTestCase``): split sizes, features, reload from the cache, no network,
byte-exact texts, pinned sources, disjoint splits and the build digests of release 1.0.0.

Each test runs on the dataset's ``dummy_data/`` (always) and on the real upstream files
(marked ``real_data``; needs the mirror). Dataset-specific facts live in the
per-dataset test modules; the facts these shared tests check (split sizes, which raw rows
a config keeps) are stated in each dataset's folder, ``datasets/<name>/testing.py``.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import datasets
import pytest
from conftest import dataset_facts, dummy_data_dir
from support.paths import all_configs, upstream_path
from support.synthetic import mirror_file

import hatemoji_datasets
from hatemoji_datasets import SourceError, UnknownNameError, load_dataset
from hatemoji_datasets.core.errors import SourceUnreachableError
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.core.spec import ConfigSpec
from hatemoji_datasets.sources.settings import MIRROR_ENV
from hatemoji_datasets.sources.verify import sha256_of

GOLDEN = Path(__file__).resolve().parent / "golden" / "build-digests-1.0.0.json"
CONFIGS = all_configs()
#: Every config release 1.0.0 of its dataset has (later releases may add configs).
CONFIGS_1_0_0 = [
    (name, config.name) for name, spec in specs().items() for config in spec.configs_of("1.0.0")
]
DATASETS = list(specs())

HEX40 = re.compile(r"^[0-9a-f]{40}$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")


def build_digest(ds: datasets.Dataset) -> str:
    """The digest the pre-refactor code recorded in ``golden/`` (features, then rows)."""
    h = hashlib.sha256()
    h.update(json.dumps(ds.features.to_dict(), sort_keys=True).encode())
    for row in ds.data.table.to_pylist():
        h.update(json.dumps(row, ensure_ascii=False, sort_keys=True).encode() + b"\n")
    return h.hexdigest()


# -- the data: dummy always, real with the mirror ------------------------------------------

DATA = ["dummy", pytest.param("real", marks=pytest.mark.real_data)]


@pytest.fixture(scope="session")
def real_build(mirror: Path, session_cache: Path) -> Callable[[str, str], datasets.DatasetDict]:
    built: dict[tuple[str, str], datasets.DatasetDict] = {}

    def load(name: str, config: str) -> datasets.DatasetDict:
        if (name, config) not in built:
            built[name, config] = load_dataset(
                name, config, cache_dir=str(session_cache), mirror=str(mirror)
            )
        return built[name, config]

    return load


class Data:
    """One data mode: where raw files are, and how a config is built from them."""

    def __init__(self, mode: str, root: Path | None, build: Callable, cache: Path) -> None:
        self.mode, self.root, self.build, self.cache = mode, root, build, cache

    def raw_path(self, name: str, source: str) -> Path:
        root = self.root or dummy_data_dir(name)
        return upstream_path(root, dataset_spec(name).source_files()[source].url)


@pytest.fixture(params=DATA)
def data(request: pytest.FixtureRequest) -> Data:
    if request.param == "real":
        return Data(
            "real",
            request.getfixturevalue("mirror"),
            request.getfixturevalue("real_build"),
            request.getfixturevalue("session_cache"),
        )
    return Data(
        "dummy",
        None,
        request.getfixturevalue("dummy_build"),
        request.getfixturevalue("dummy_cache"),
    )


def raw_rows(path: Path, config: ConfigSpec) -> list[dict[str, str]]:
    """A raw file's rows, read independently of the package."""
    fmt = config.raw_format
    if fmt.quoted:
        with path.open(encoding="utf-8", newline="") as handle:
            return list(csv.DictReader(handle, delimiter=fmt.delimiter))
    # Most files end with a newline; UnSmile's do not.
    header, *records = path.read_bytes().decode("utf-8").removesuffix("\n").split("\n")
    names = header.split(fmt.delimiter)
    return [dict(zip(names, r.split(fmt.delimiter), strict=True)) for r in records]


# -- per config -----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_split_sizes(data: Data, name: str, config: str) -> None:
    built = data.build(name, config)
    stated = dataset_facts(name).SPLITS if data.mode == "real" else dataset_facts(name).DUMMY_SPLITS
    assert {split: ds.num_rows for split, ds in built.items()} == stated[config]
    assert list(built) == dataset_spec(name).config(config).split_names


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_features_follow_the_declaration(data: Data, name: str, config: str) -> None:
    spec = dataset_spec(name)
    config_spec = spec.config(config)
    declared = spec.load(config_spec.features)(config_spec, spec.version)
    for split, ds in data.build(name, config).items():
        assert list(ds.features) == list(declared), split
        assert ds.features == declared, split
        for column, feature in declared.items():
            if isinstance(feature, datasets.ClassLabel):
                assert ds.features[column].names == feature.names, column
        assert ds.info.builder_name == name
        assert ds.info.config_name == config
        assert str(ds.info.version) == spec.version


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_texts_are_byte_exact(data: Data, name: str, config: str) -> None:
    """Every built ``text`` is its raw file's text cell, byte for byte and in order (for a
    config that re-splits its files: the text of the raw row with the same key, every
    kept raw row built once)."""
    spec = dataset_spec(name)
    config_spec = spec.config(config)
    keep = getattr(dataset_facts(name), "keeps", lambda row, config: True)
    built = data.build(name, config)
    raw = {
        split: [
            row
            for source in config_spec.split_sources(split)  # several are stacked in order
            for row in raw_rows(data.raw_path(name, source), config_spec)
            if keep(row, config_spec)
        ]
        for split in config_spec.split_names
    }
    if config_spec.resplit:
        key, text = config_spec.key_column, config_spec.text_column
        expected = {row[key]: row[text] for rows in raw.values() for row in rows}
        found = {
            str(row_key): built_text
            for ds in built.values()
            for row_key, built_text in zip(ds[config_spec.id_column], ds["text"])
        }
        assert sorted(found) == sorted(expected)
        for row_key, built_text in found.items():
            assert built_text.encode("utf-8") == expected[row_key].encode("utf-8"), row_key
        return
    for split, rows in raw.items():
        expected_texts = [row[config_spec.text_column] for row in rows]
        texts = built[split]["text"]
        assert len(texts) == len(expected_texts), split
        for built_text, raw_text in zip(texts, expected_texts):
            assert built_text.encode("utf-8") == raw_text.encode("utf-8")


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_no_example_in_two_splits(data: Data, name: str, config: str) -> None:
    config_spec = dataset_spec(name).config(config)
    key = config_spec.id_column or "text"
    keys = [ds[key] for ds in data.build(name, config).values()]
    assert all(len(set(k)) == len(k) for k in keys)
    assert sum(map(len, keys)) == len(set().union(*map(set, keys)))


@pytest.fixture(scope="session")
def golden() -> dict[str, str]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


#: The datasets whose 1.0.0 builds the golden digests pin (recorded before the one-pipeline
#: refactor), as the file names them; datasets added since are pinned by their recorded
#: fingerprints alone.
GOLDEN_DATASETS = sorted({key.split("/")[0] for key in json.loads(GOLDEN.read_text("utf-8"))})
GOLDEN_CONFIGS = [(name, config) for name, config in CONFIGS_1_0_0 if name in GOLDEN_DATASETS]


def test_golden_covers_every_split() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    expected = {
        f"{name}/{config}/{split}"
        for name, config in GOLDEN_CONFIGS
        for split in dataset_spec(name).config(config).split_names
    }
    assert set(golden) == expected


@pytest.mark.parametrize(("name", "config"), GOLDEN_CONFIGS)
def test_build_equals_release_1_0_0(
    mirror: Path, session_cache: Path, golden: dict[str, str], name: str, config: str
) -> None:
    """The builder still builds release 1.0.0 byte for byte, whatever the current version."""
    if int(datasets.__version__.split(".")[0]) < 4:
        pytest.skip(
            "the golden digests hash Features.to_dict() of datasets 4+ (List, not Sequence); "
            "under datasets 3 the version-independent fingerprints are checked instead"
        )
    built = load_dataset(
        name, config, version="1.0.0", cache_dir=str(session_cache), mirror=str(mirror)
    )
    for split, ds in built.items():
        assert str(ds.info.version) == "1.0.0"
        assert build_digest(ds) == golden[f"{name}/{config}/{split}"], split


# -- the cache and the network: one subprocess per data mode ------------------------------

_RELOAD = """
import json, sys
from hatemoji_datasets import load_dataset
sys.path.insert(0, {tests!r})
from test_datasets import build_digest
found = {{}}
for name, config in {configs!r}:
    for split, ds in load_dataset(name, config, cache_dir={cache!r}).items():
        found[f"{{name}}/{{config}}/{{split}}"] = [ds.num_rows, build_digest(ds)]
print(json.dumps(found))
"""


def _offline_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != MIRROR_ENV}
    env.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    return env


@pytest.fixture(scope="session")
def reloaded(request: pytest.FixtureRequest) -> Callable[[Data], dict[str, list]]:
    """Each config of a data mode, loaded again in a NEW process: no mirror, HF offline."""
    found: dict[str, dict[str, list]] = {}

    def reload(data: Data) -> dict[str, list]:
        if data.mode not in found:
            for name, config in CONFIGS:
                data.build(name, config)  # everything is in the cache first
            script = _RELOAD.format(
                tests=str(Path(__file__).parent), configs=CONFIGS, cache=str(data.cache)
            )
            out = subprocess.run(
                [sys.executable, "-c", script],
                env=_offline_env(),
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert out.returncode == 0, out.stderr
            found[data.mode] = json.loads(out.stdout.splitlines()[-1])
        return found[data.mode]

    return reload


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_reload_from_cache_in_a_new_process(
    data: Data, reloaded: Callable, name: str, config: str
) -> None:
    again = reloaded(data)
    for split, ds in data.build(name, config).items():
        assert again[f"{name}/{config}/{split}"] == [ds.num_rows, build_digest(ds)]


_NO_NETWORK = """
import json
from hatemoji_datasets import HatemojiDatasetsError, load_dataset
found = {{}}
for name, config in {configs!r}:
    try:
        load_dataset(name, config, cache_dir={cache!r})
        found[f"{{name}}/{{config}}"] = ["built", ""]
    except HatemojiDatasetsError as error:
        found[f"{{name}}/{{config}}"] = [type(error).__name__, str(error)]
print(json.dumps(found))
"""


@pytest.fixture(scope="session")
def no_network(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, list], Path]:
    """Every config loaded with an empty cache, no mirror and HF offline, in one process."""
    cache = tmp_path_factory.mktemp("no-network")
    out = subprocess.run(
        [sys.executable, "-c", _NO_NETWORK.format(configs=CONFIGS, cache=str(cache))],
        env=_offline_env(),
        capture_output=True,
        text=True,
        timeout=120,  # a clean error, not a hang
    )
    assert out.returncode == 0, out.stderr  # only the package's own errors
    return json.loads(out.stdout.splitlines()[-1]), cache


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_no_network_is_a_clean_error(no_network: tuple, name: str, config: str) -> None:
    found, cache = no_network
    kind, message = found[f"{name}/{config}"]
    # No DNS or no route: nothing could be fetched, the error that exits 2; else a source
    # error all the same.
    unreachable = "DNS lookup of" in message or "network unreachable" in message
    assert kind == (SourceUnreachableError if unreachable else SourceError).__name__
    spec = dataset_spec(name)
    assert any(s.url in message for s in spec.config_sources(spec.config(config)).values())
    assert "\n" not in message.strip()
    assert not [p for p in cache.glob(f"{name}/*/*") if p.is_dir()]


# -- per dataset: the declaration's sources ------------------------------------------------


@pytest.mark.parametrize("name", DATASETS)
def test_sources_are_pinned_and_used(name: str) -> None:
    spec = dataset_spec(name)
    pinned = spec.source_files()
    used = {source for config in spec.configs for source in config.source_names}
    assert used == set(pinned)  # every config's source is pinned, every pin is used
    for config in spec.configs:
        assert set(spec.config_sources(config)) == set(config.source_names)
    for source in pinned.values():
        assert source.url.startswith("https://"), source.url
        assert any(HEX40.match(part) for part in source.url.split("/")), source.url
        assert HEX64.match(source.sha256), source.url
        assert source.size > 0 and source.license


@pytest.mark.parametrize("name", DATASETS)
def test_dummy_data_mirrors_every_source(name: str) -> None:
    root = dummy_data_dir(name)
    pinned = dataset_spec(name).source_files().values()
    expected = {upstream_path(root, source.url) for source in pinned}
    assert {p for p in root.rglob("*") if p.is_file()} == expected
    # Small, and not a copy of the real files.
    assert all(p.stat().st_size < 4096 for p in expected)
    assert {sha256_of(p) for p in expected}.isdisjoint(s.sha256 for s in pinned)


@pytest.mark.real_data
@pytest.mark.parametrize("name", DATASETS)
def test_real_sources_match_the_mirror(name: str, mirror: Path) -> None:
    for source in dataset_spec(name).source_files().values():
        local = upstream_path(mirror, source.url)
        assert local.stat().st_size == source.size, source.url
        assert sha256_of(local) == source.sha256, source.url


# -- split syntax ------------------------------------------------------------------------------


#: Split syntax is checked on the tests' synthetic dataset (``tests/synthetic/README.md``):
#: a slice of its ``test`` split, the sum of ``train`` and ``test``, a percentage of
#: ``train``, and an unknown split.


def test_split_slices_and_sums(synthetic: str, mirror: Path, session_cache: Path) -> None:
    options = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    head = load_dataset(synthetic, split="test[:10]", **options)
    assert head.num_rows == 10
    with mirror_file("test", mirror).open(encoding="utf-8", newline="") as handle:
        raw = list(csv.DictReader(handle))
    assert head["text"] == [row["sentence"] for row in raw[:10]]  # the first ten, in order
    assert head["sentence_id"] == list(range(25, 35))
    _sums_and_percents(synthetic, (24, 16), 10, 2, "dev", options)  # 10% of 24 is 2.4


def test_split_syntax_on_dummy_data(synthetic: str, dummy_build: Callable, dummy_cache: Path):
    dummy_build(synthetic, "default")  # six rows in each split
    options = {"cache_dir": str(dummy_cache), "mirror": str(dummy_cache / "no-mirror")}
    assert load_dataset(synthetic, split="test[:5]", **options).num_rows == 5  # fewer than all
    _sums_and_percents(synthetic, (6, 6), 40, 2, "tset", options)  # 40% of 6 is 2.4


def _sums_and_percents(
    name: str, rows: tuple[int, int], percent: int, part: int, unknown: str, options: dict
) -> None:
    """``train+test`` (``rows`` of each), ``part`` rows in ``train[:percent%]``, and an
    unknown split."""
    both = load_dataset(name, split="train+test", **options)
    assert both.num_rows == sum(rows)
    assert load_dataset(name, split=f"train[:{percent}%]", **options).num_rows == part
    with pytest.raises(UnknownNameError, match=f"'{unknown}'"):
        load_dataset(name, split=f"train+{unknown}", **options)


def test_lazy_entry_points_are_listed() -> None:
    assert "load_dataset" in dir(hatemoji_datasets)
    assert "dataset_info" in dir(hatemoji_datasets)


@pytest.mark.parametrize("name", DATASETS)
def test_each_folder_states_the_facts_the_shared_tests_check(name: str) -> None:
    """``testing.py`` names every config and split, so a new dataset fails here, by name,
    rather than with a KeyError deep in a shared test."""
    facts = dataset_facts(name)
    spec = dataset_spec(name)
    for stated in (facts.SPLITS, facts.DUMMY_SPLITS):
        assert sorted(stated) == sorted(spec.config_names)
        for config, sizes in stated.items():
            assert list(sizes) == spec.config(config).split_names, config
            assert all(isinstance(rows, int) and rows > 0 for rows in sizes.values()), config
    assert isinstance(facts.CARD_ROWS, int) and facts.CARD_ROWS > 0
    assert facts.CARD_STATEMENTS and all(isinstance(c, str) for c in facts.CARD_STATEMENTS)
    assert facts.HUB_LANGUAGE and all(isinstance(code, str) for code in facts.HUB_LANGUAGE)
