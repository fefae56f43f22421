"""When a build validates its raw files, and why a pinned file may be validated only once.

A build skips the raw-schema pass only for the files whose fingerprints are
recorded (their digest is in ``fingerprints.tsv``): recording validates every
file, so does this suite, and the build is still compared with the recorded
fingerprints. Any other file (a new pin, a test's stand-in) is validated;
``validate=True`` and ``build --validate`` validate anyway.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import broken_dummy, declaring
from support.paths import all_configs, upstream_path
from support.synthetic import SYNTHETIC

from hatemoji_datasets import SchemaViolationError, load_dataset
from hatemoji_datasets.building import pipeline as building_pipeline
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.pinning.record import compute_records
from hatemoji_datasets.raw import files as pipeline
from hatemoji_datasets.schema import table_schema as schema_export
from hatemoji_datasets.schema.engine import compiled, integer_columns
from hatemoji_datasets.schema.raw_columns import layout_of


@pytest.fixture
def schema_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The configs the raw-schema pass ran on, in order."""
    seen: list[str] = []
    original = pipeline.check_files

    def counting(spec, config, raws):
        seen.append(f"{spec.name}/{config.name}")
        return original(spec, config, raws)

    monkeypatch.setattr(pipeline, "check_files", counting)
    monkeypatch.setattr(building_pipeline, "check_files", counting)
    return seen


#: A config read from more than one pinned file (each is validated): the synthetic
#: dataset's, of ``train.csv`` and ``test.csv``.
NAME, CONFIG = SYNTHETIC, "default"


def test_a_build_of_recorded_files_skips_the_schema_unless_asked(
    synthetic: str, mirror: Path, tmp_path: Path, schema_runs: list[str], capsys
) -> None:
    cache, where = str(tmp_path / "cache"), {"mirror": str(mirror)}
    ran = "synthetic/default"
    data = load_dataset(NAME, CONFIG, cache_dir=cache, **where)
    assert schema_runs == []  # the pinned files are the recorded ones
    sizes = {split: ds.num_rows for split, ds in data.items()}
    assert sizes == {"train": 24, "test": 16}
    load_dataset(NAME, CONFIG, cache_dir=cache, validate=True, **where)
    assert schema_runs == [ran]  # from the cache: fetched, verified, validated
    args = ["build", NAME, "--config", CONFIG, "--cache-dir", cache, "--mirror", str(mirror)]
    assert main(args) == 0
    assert "schema:" not in capsys.readouterr().out
    assert main([*args, "--validate"]) == 0
    assert "schema: 2 pinned file(s) valid against SyntheticRaw" in capsys.readouterr().out
    assert schema_runs == [ran, ran]
    fresh = str(tmp_path / "fresh")
    load_dataset(NAME, CONFIG, cache_dir=fresh, validate=True, **where)
    assert schema_runs == [ran] * 3  # a fresh build validates once


#: The datasets whose ``testing.py`` states faults put into their dummy data (``BROKEN``).
BROKEN = declaring("BROKEN")


@pytest.mark.parametrize("name", BROKEN)
def test_files_without_recorded_fingerprints_are_validated(
    name: str, fake_mirror, tmp_path: Path, schema_runs: list[str]
) -> None:
    good = fake_mirror(name)  # dummy data, pinned by its own digest
    load_dataset(name, cache_dir=str(tmp_path / "good"), mirror=str(good))
    assert schema_runs == [f"{name}/{dataset_spec(name).default_config_name}"]
    broken = fake_mirror(name, broken_dummy(name))
    with pytest.raises(SchemaViolationError):
        load_dataset(name, cache_dir=str(tmp_path / "broken"), mirror=str(broken))


@pytest.mark.parametrize("name", BROKEN)
def test_recording_fingerprints_validates_every_file(name: str, fake_mirror, tmp_path) -> None:
    """A new pin cannot land unvalidated: recording its fingerprints checks it first,
    also when a build of it is already cached."""
    cache = str(tmp_path / "cache")
    broken = fake_mirror(name, broken_dummy(name))
    with pytest.raises(SchemaViolationError):
        compute_records(dataset_spec(name), cache_dir=cache, mirror=str(broken))


def test_recording_validates_a_cached_build(
    synthetic: str, fake_mirror, tmp_path: Path, schema_runs: list[str]
) -> None:
    """On the synthetic dataset: one config in one release, each built to record it."""
    cache = str(tmp_path / "cache")
    mirror = str(fake_mirror(synthetic))
    load_dataset(synthetic, cache_dir=cache, mirror=mirror)
    assert schema_runs == ["synthetic/default"]
    compute_records(dataset_spec(synthetic), cache_dir=cache, mirror=mirror)
    # Every config of every release, validated once more, the cached default one included.
    assert schema_runs == ["synthetic/default", "synthetic/default"]


@pytest.mark.parametrize(("name", "config"), all_configs())
def test_every_pinned_file_is_valid(name: str, config: str, mirror: Path) -> None:
    """The suite validates every pinned file, as builds that skip the schema rely on."""
    spec = dataset_spec(name)
    building_pipeline.check_released(spec, spec.config(config), str(mirror), None)


# -- the generated layout builds read with -------------------------------------------------


def test_committed_layouts_match_the_schemas() -> None:
    assert schema_export.write_layouts(check_only=True) == [], (
        "run `hatemoji-datasets export-schemas` and commit each raw_columns.tsv"
    )


@pytest.mark.parametrize("name", list(specs()))
def test_layout_drift_is_detected(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(schema_export, "layout_path", lambda spec: tmp_path / f"{spec.name}.tsv")
    schema_export.write_layouts()
    target = tmp_path / f"{name}.tsv"
    comment, header, first, rest = target.read_text(encoding="utf-8").split("\n", 3)
    assert header == "model\tcolumn\ttype", header
    model, column, kind = first.split("\t")
    drifted = "str" if kind == "int64" else "int64"  # the first column's type changes
    lines = [comment, header, f"{model}\t{column}\t{drifted}", rest]
    target.write_text("\n".join(lines), encoding="utf-8")
    assert schema_export.write_layouts(check_only=True) == [target]


@pytest.mark.parametrize(("name", "config"), all_configs())
def test_builds_read_as_validation_reads(name: str, config: str, mirror: Path) -> None:
    """Reading by the layout gives the very tables reading by the pandera model gives."""
    spec = dataset_spec(name)
    config_spec = spec.config(config)
    fmt = config_spec.raw_format
    for reference in config_spec.schemas:
        model, layout = spec.load(reference), layout_of(spec, reference)
        assert layout.columns == tuple(compiled(model).columns)
        assert layout.integers == tuple(integer_columns(model))
    pinned = spec.config_sources(config_spec)
    paths = {source: str(upstream_path(mirror, pin.url)) for source, pin in pinned.items()}
    by_layout = pipeline.read_files(spec, config_spec, paths)
    own = spec.load(config_spec.schema)
    for split in config_spec.split_names:
        files = by_layout[split]
        for source, raw in files.sources:
            assert raw.table.equals(pipeline.read_for(own, paths[source], fmt).table), source
        for join in config_spec.joins:
            joined = pipeline.read_for(spec.load(join.schema), paths[join.source_of(split)], fmt)
            assert files.joined[join.name].table.equals(joined.table), join.name
