"""`schemas/` is generated from the pandera models and must not drift from them."""

from __future__ import annotations

import json
from pathlib import Path

import pandera.pandas as pa
import yaml
from conftest import REPO, upstream_path

from hatemoji_datasets.registry import builder_classes
from hatemoji_datasets.schema_export import exports, write_exports
from hatemoji_datasets.validation import read_table

SCHEMAS = REPO / "schemas"


def test_committed_exports_match_the_code() -> None:
    stale = write_exports(SCHEMAS, check_only=True)
    assert stale == [], "run `hatemoji-datasets export-schemas` and commit schemas/"
    committed = {p.relative_to(SCHEMAS).as_posix() for p in SCHEMAS.rglob("*") if p.is_file()}
    assert committed == set(exports()), "schemas/ holds files the code no longer exports"


def test_every_dataset_config_has_an_export() -> None:
    for name, cls in builder_classes().items():
        for fmt in cls.upstream_formats().values():
            assert (SCHEMAS / name / f"{fmt.schema.__name__}.pandera.yaml").is_file()


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
    """The export is usable on its own: pandera reads it and accepts the released file."""
    for name, cls in builder_classes().items():
        for fmt in {f.schema: f for f in cls.upstream_formats().values()}.values():
            text = exports()[f"{name}/{fmt.schema.__name__}.pandera.yaml"]
            data = yaml.safe_load(text)
            data.pop("x-rules")
            schema = pa.DataFrameSchema.from_yaml(yaml.safe_dump(data))
            source = fmt.released[0]
            frame = read_table(upstream_path(mirror, cls.source_files()[source].url), fmt.table)
            if fmt.source_column:
                frame[fmt.source_column] = source
            schema.validate(frame)
