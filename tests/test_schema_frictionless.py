"""The exported Table Schemas validate the upstream files they describe, with frictionless."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import dataset_facts, delimiter_of
from support.paths import upstream_path
from support.real import HATEMOJI_CHECK

from hatemoji_datasets.core.edits import edited
from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.registry import dataset_spec, specs

frictionless = pytest.importorskip("frictionless")
from frictionless import formats  # noqa: E402 - only once frictionless is known to be there

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


def _cases() -> list[tuple[str, Ref[Any], str]]:
    """(dataset, the model of its format, source) for every upstream file, each once."""
    cases = {}
    for name, spec in specs().items():
        for config in spec.configs:
            for part in config.parts:  # its rows' files, and each join's
                for source in part.sources:
                    cases.setdefault((name, source), part.schema)
    return [(name, schema, source) for (name, source), schema in cases.items()]


def _resource(path: Path, name: str, schema: Ref[Any]) -> frictionless.Resource:
    spec = specs()[name]
    config_spec = next(c for c in spec.configs if schema in c.schemas)
    model = schema.name
    descriptor = json.loads((SCHEMAS / name / f"{model}.table-schema.json").read_text("utf-8"))
    fmt = config_spec.raw_format
    control = formats.CsvControl(delimiter=fmt.delimiter, quote_char='"' if fmt.quoted else "\x00")
    return frictionless.Resource(
        path=path.name,
        basepath=str(path.parent),
        schema=frictionless.Schema.from_descriptor(descriptor),
        control=control,
    )


#: A header cell that is empty (an upstream file's unnamed first column, which the schema
#: names ""): frictionless reports every blank label, whatever the schema says.
SKIPPED = ["blank-label"]


@pytest.mark.parametrize(("name", "schema", "source"), _cases(), ids=str)
def test_exported_table_schema_validates_the_upstream_file(
    mirror: Path, name: str, schema: Ref[Any], source: str
) -> None:
    path = upstream_path(mirror, specs()[name].source_files()[source].url)
    report = _resource(path, name, schema).validate(
        checklist=frictionless.Checklist(skip_errors=SKIPPED)
    )
    assert report.valid, report.flatten(["rowNumber", "fieldName", "type", "note"])[:5]
    assert report.tasks[0].stats["rows"] > 0


#: The findings a Table Schema's types, vocabularies and uniqueness express.
IN_A_TABLE_SCHEMA = ("VALUE-TYPE", "VALUE-NOT-ALLOWED", "VALUE-DUPLICATE")


def test_exported_table_schema_rejects_a_broken_copy(mirror: Path, tmp_path: Path) -> None:
    """The plain dataset's pinned file with the first of its stated faults (``CORRUPTED_COPIES``)
    that a Table Schema expresses: the first error is on the stated line."""
    name, schema = HATEMOJI_CHECK, dataset_spec(HATEMOJI_CHECK).config().schema
    copy = next(
        copy
        for copy in dataset_facts(name).CORRUPTED_COPIES.values()
        if copy.exit_status == 1 and copy.finding[2] in IN_A_TABLE_SCHEMA
    )
    source, edit, line = copy.source, copy.edit, copy.finding[0]
    original = upstream_path(mirror, specs()[name].source_files()[source].url)
    broken = tmp_path / original.name
    broken.write_bytes(edited(original.read_bytes(), [edit], delimiter_of(name, source)))
    report = _resource(broken, name, schema).validate()
    assert not report.valid
    assert report.flatten(["rowNumber"])[0] == [line]
