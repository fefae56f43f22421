"""`schemas/` is generated from the pandera models and must not drift from them."""

from __future__ import annotations

import json
from pathlib import Path

import pandera.pandas as pa
import pytest
import yaml
from support.paths import REPO, upstream_path

from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.raw.files import read_files
from hatemoji_datasets.schema.model import rules_of
from hatemoji_datasets.schema.table_schema import exports, write_exports

SCHEMAS = REPO / "schemas"


def test_committed_exports_match_the_code() -> None:
    stale = write_exports(SCHEMAS, check_only=True)
    assert stale == [], "run `hatemoji-datasets export-schemas` and commit schemas/"
    committed = {p.relative_to(SCHEMAS).as_posix() for p in SCHEMAS.rglob("*") if p.is_file()}
    assert committed == set(exports()), "schemas/ holds files the code no longer exports"


@pytest.mark.parametrize("name", list(specs()))
def test_every_dataset_config_has_an_export(name: str) -> None:
    spec = specs()[name]
    for config in spec.configs:
        for schema in config.schemas:  # its own rows' format, and each join's
            model = spec.load(schema)
            assert (SCHEMAS / name / f"{model.__name__}.pandera.yaml").is_file()
            assert (SCHEMAS / name / f"{model.__name__}.table-schema.json").is_file()


def test_drift_is_detected(synthetic: str, tmp_path: Path) -> None:
    write_exports(tmp_path)  # the synthetic dataset's too, while it is registered
    target = tmp_path / "synthetic" / "SyntheticRaw.table-schema.json"
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["fields"][0]["name"] == "sentence_id"
    assert data["fields"][0]["constraints"]["minimum"] == 1
    data["fields"][0]["constraints"]["minimum"] = 5
    target.write_text(json.dumps(data), encoding="utf-8")
    assert write_exports(tmp_path, check_only=True) == [target]


#: Every format a config of a dataset reads (its own rows', and each join's), once.
FORMATS = list(
    dict.fromkeys(
        (name, schema)
        for name, spec in specs().items()
        for config in spec.configs
        for schema in config.schemas
    )
)


@pytest.mark.parametrize(("name", "schema"), FORMATS)
def test_table_schema_carries_the_vocabularies(name: str, schema: str) -> None:
    """Each column's vocabulary, bounds and uniqueness, and every coded rule, as the pandera
    model declares them."""
    model = dataset_spec(name).load(schema)
    exported = json.loads(exports()[f"{name}/{model.__name__}.table-schema.json"])
    fields = {field["name"]: field.get("constraints", {}) for field in exported["fields"]}
    columns = model.to_schema().columns
    assert list(fields) == list(columns)
    for column_name, column in columns.items():
        constraints = fields[column_name]
        assert constraints.get("unique", False) == column.unique, column_name
        assert constraints["required"] == (column.required and not column.nullable), column_name
        stated = {check.name: check.statistics for check in column.checks}
        if "isin" in stated:
            assert constraints["enum"] == list(stated["isin"]["allowed_values"]), column_name
        if "greater_than_or_equal_to" in stated:
            assert constraints["minimum"] == stated["greater_than_or_equal_to"]["min_value"]
        if "less_than_or_equal_to" in stated:
            assert constraints["maximum"] == stated["less_than_or_equal_to"]["max_value"]
    # The rules across columns, then each column's own.
    rules = exported["x-rules"] + [
        r for field in exported["fields"] for r in field.get("x-rules", [])
    ]
    codes = [rule["code"] for rule in rules]
    assert len(codes) == len(set(codes))
    assert set(codes) == {info.code for info in rules_of(model).values()}


def test_pandera_yaml_loads_back_and_validates_released_data(mirror: Path) -> None:
    """The export is usable on its own: pandera reads it and accepts the released files."""
    for name, spec in specs().items():
        seen = set()
        for config in spec.configs:
            paths = {
                source: str(upstream_path(mirror, pin.url))
                for source, pin in spec.config_sources(config).items()
            }
            files = read_files(spec, config, paths).values()
            # Each format the config reads: its own rows' files, and each join's.
            formats = [(config.schema, [raw for f in files for _, raw in f.sources])]
            formats += [(j.schema, [f.joined[j.name] for f in files]) for j in config.joins]
            for reference, raws in formats:
                if reference in seen:
                    continue
                seen.add(reference)
                model = spec.load(reference)
                text = exports()[f"{name}/{model.__name__}.pandera.yaml"]
                data = yaml.safe_load(text)
                data.pop("x-rules")
                schema = pa.DataFrameSchema.from_yaml(yaml.safe_dump(data))
                for raw in raws:
                    schema.validate(raw.table.to_pandas())
