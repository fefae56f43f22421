"""`schemas/` is generated from the pandera models and must not drift from them."""

from __future__ import annotations

import json
from pathlib import Path

import pandera.pandas as pa
import yaml
from conftest import REPO, upstream_path

from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.raw.files import read_files
from hatemoji_datasets.schema.table_schema import exports, write_exports

SCHEMAS = REPO / "schemas"


def test_committed_exports_match_the_code() -> None:
    stale = write_exports(SCHEMAS, check_only=True)
    assert stale == [], "run `hatemoji-datasets export-schemas` and commit schemas/"
    committed = {p.relative_to(SCHEMAS).as_posix() for p in SCHEMAS.rglob("*") if p.is_file()}
    assert committed == set(exports()), "schemas/ holds files the code no longer exports"


def test_every_dataset_config_has_an_export() -> None:
    for name, spec in specs().items():
        for config in spec.configs:
            for schema in config.schemas:  # its own rows' format, and each join's
                model = spec.load(schema)
                assert (SCHEMAS / name / f"{model.__name__}.pandera.yaml").is_file()
                assert (SCHEMAS / name / f"{model.__name__}.table-schema.json").is_file()


def test_drift_is_detected(tmp_path: Path) -> None:
    write_exports(tmp_path)
    target = tmp_path / "hatemoji_check" / "HatemojiCheckRaw.table-schema.json"
    data = json.loads(target.read_text(encoding="utf-8"))
    data["fields"][0]["constraints"]["minimum"] = 5
    target.write_text(json.dumps(data), encoding="utf-8")
    assert write_exports(tmp_path, check_only=True) == [target]


def test_table_schema_carries_the_vocabularies() -> None:
    schema = json.loads(exports()["hatemoji_check/HatemojiCheckRaw.table-schema.json"])
    fields = {field["name"]: field for field in schema["fields"]}
    assert fields["functionality"]["constraints"]["enum"][0] == "verb_swap"
    assert fields["case_id"]["constraints"] == {"required": True, "unique": True, "minimum": 0}
    assert any(rule["name"] == "label_matches_cell" for rule in schema["x-rules"])


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
