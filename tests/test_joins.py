"""Splits made of several files: stacking files of one format, joining files of two
formats on a key (on tiny neutral tables), and which format and source a contributed
file is (on the declarations of the datasets that have joins and stacked files)."""

from __future__ import annotations

import csv

import pandas as pd
import pyarrow as pa
import pytest
from conftest import dummy_data_dir
from support.paths import upstream_path

from hatemoji_datasets.core.ref import Ref
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.core.spec import CSV, ConfigSpec, Join
from hatemoji_datasets.raw.joins import attach, join_findings, stack_frames, stack_tables

NOTES = Join("notes", Ref("schema", "Notes"), "id", (("test", "notes"),), agree_on=("word",))
MEMBERS = Join("members", Ref("schema", "Rows"), "id", (("test", "members"),), indicator="listed")


def place(file: str):
    return lambda position: (file, position + 2)


def test_stacking_fills_what_a_file_lacks_and_unifies_types() -> None:
    one = pa.table({"id": pa.array([1, 2]), "word": ["a", "b"], "extra": ["x", ""]})
    two = pa.table({"id": pa.array(["3"]), "word": ["c"]})
    stacked = stack_tables([one, two])
    assert stacked.column_names == ["id", "word", "extra"]
    assert stacked["id"].to_pylist() == ["1", "2", "3"]  # one file's ids were text
    assert stacked["extra"].to_pylist() == ["x", "", ""]  # absent = empty, as in the file
    frame = stack_frames([one.to_pandas(), two.to_pandas()])
    assert frame["extra"].tolist() == ["x", "", ""]
    assert stack_tables([one]) is one


def test_an_exact_join_appends_the_partners_columns() -> None:
    rows = pa.table({"id": [1, 2, 3], "word": ["a", "b", "c"]})
    notes = pa.table({"id": [3, 1, 2], "word": ["c", "a", "b"], "note": ["z", "x", "y"]})
    joined = attach(rows, notes, NOTES)
    assert joined.column_names == ["id", "word", "note"]
    assert joined["note"].to_pylist() == ["x", "y", "z"]  # in the rows' order
    assert join_findings(rows, place("rows.csv"), notes, place("notes.csv"), NOTES,
                         rows_file="rows.csv", partner_file="notes.csv") == []  # fmt: skip


def test_an_indicator_join_marks_membership() -> None:
    rows = pa.table({"id": [1, 2, 3], "word": ["a", "b", "c"]})
    members = pa.table({"id": [3, 1], "word": ["other", "words"]})  # words need not agree
    assert attach(rows, members, MEMBERS)["listed"].to_pylist() == [True, False, True]
    found = join_findings(rows, place("rows.csv"), members, place("members.csv"), MEMBERS,
                          rows_file="rows.csv", partner_file="members.csv")  # fmt: skip
    assert found == []
    stray = pa.table({"id": [4], "word": ["d"]})
    [finding] = join_findings(rows, place("rows.csv"), stray, place("members.csv"), MEMBERS,
                              rows_file="rows.csv", partner_file="members.csv")  # fmt: skip
    assert (finding.file, finding.line, finding.column, finding.code, finding.value) == (
        "members.csv",
        2,
        "id",
        "JOIN-UNMATCHED",
        "4",
    )


def test_join_findings_name_each_side_and_cell() -> None:
    rows = pa.table({"id": [1, 2, 3], "word": ["a", "b", "c"]})
    notes = pa.table({"id": ["1", "2", "9"], "word": ["a", "B", "z"], "note": ["x", "y", "z"]})
    found = join_findings(rows, place("rows.csv"), notes, place("notes.csv"), NOTES,
                          rows_file="rows.csv", partner_file="notes.csv")  # fmt: skip
    got = {(f.file, f.line, f.column, f.code, f.value, f.expected) for f in found}
    assert got == {
        ("notes.csv", 4, "id", "JOIN-UNMATCHED", "9", None),  # a note for no row
        ("rows.csv", 4, "id", "JOIN-UNMATCHED", "3", None),  # a row without a note
        ("notes.csv", 3, "word", "JOIN-MISMATCH", "B", "b"),  # restated, and wrong
    }


def test_declaration_helpers() -> None:
    config = ConfigSpec(
        name="c",
        description="",
        splits=(("test", ("first", "second")),),
        schema=Ref("schema", "Rows"),
        features=Ref("transform", "features_of"),
        transform=Ref("transform", "transform"),
        key_column="id",
        text_column="word",
        eval_split="test",
        joins=(NOTES,),
    )
    assert config.split_sources("test") == ("first", "second")
    assert config.row_sources == ("first", "second")
    assert config.source_names == ("first", "second", "notes")
    assert config.schemas == (Ref("schema", "Rows"), Ref("schema", "Notes"))
    own, notes = config.parts
    assert own.join is None and own.sources == ("first", "second")
    assert notes.join is NOTES and notes.sources == ("notes",)
    assert NOTES.source_of("test") == "notes"
    assert config.raw_format == CSV


#: The declarations the format of a contributed file is told on: the first config that joins
#: a file of another format to its rows (one source each), and the first that stacks several
#: files of one format in a split.
JOINED = next(
    (name, config.name)
    for name, spec in specs().items()
    for config in spec.configs
    if len(config.parts) > 1 and all(len(part.sources) == 1 for part in config.parts)
)
STACKED = next(
    (name, config.name)
    for name, spec in specs().items()
    for config in spec.configs
    if any(len(config.split_sources(split)) > 1 for split in config.split_names)
)


def _file_name(name: str, source: str) -> str:
    """The name of the upstream file a pinned source is."""
    return dataset_spec(name).source_files()[source].url.rsplit("/", 1)[1]


def _header(name: str, source: str) -> list[str]:
    """The header of the source's dummy file (a file in its format)."""
    path = upstream_path(dummy_data_dir(name), dataset_spec(name).source_files()[source].url)
    with path.open(encoding="utf-8", newline="") as handle:
        return next(csv.reader(handle))


def _format_cases() -> list:
    name, config = JOINED
    own, joined = (part.sources[0] for part in dataset_spec(name).config(config).parts[:2])
    shared = [column for column in _header(name, own) if column in _header(name, joined)]
    return [
        pytest.param(_file_name(name, joined), ["anything"], joined, id="by name first"),
        pytest.param("mine.csv", _header(name, joined), joined, id="by header"),
        pytest.param("mine.csv", shared, own, id="a tie: the rows' own format"),
    ]


@pytest.mark.parametrize(("file", "header", "expected"), _format_cases())
def test_a_contributed_files_format(file: str, header: list[str], expected: str) -> None:
    from hatemoji_datasets.validate.formats import part_of, source_of

    name, config = JOINED
    spec = dataset_spec(name)
    part = part_of(file, header, spec, spec.config(config))
    assert part.sources == (expected,)
    assert source_of(file, spec, part) == expected


def test_a_stacked_formats_source_is_known_by_name_only() -> None:
    from hatemoji_datasets.validate.formats import source_of

    name, config = STACKED
    spec = dataset_spec(name)
    part = next(part for part in spec.config(config).parts if len(part.sources) > 1)
    source = part.sources[-1]
    assert source_of(f"x/{_file_name(name, source)}", spec, part) == source
    assert source_of("mine.csv", spec, part) is None
    alone = next(c for c in spec.configs if c.parts[0].sources == (source,))  # its own config
    assert source_of("mine.csv", spec, alone.parts[0]) == source


def test_row_sources_marker() -> None:
    from hatemoji_datasets.schema.model import row_sources, with_row_sources

    frame = with_row_sources(pd.DataFrame({"a": range(5)}), [("one", 2), (None, 3)])
    found = row_sources(frame)
    assert found[:2].tolist() == ["one", "one"] and found[2:].isna().all()
    assert row_sources(pd.DataFrame({"a": [1]})) is None
