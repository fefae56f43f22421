"""Splits made of several files: stacking files of one format, joining files of two
formats on a key (on tiny neutral tables), and which format and source a contributed
file is (on the declarations of the datasets that have joins and stacked files)."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest

from hatemoji_datasets.core.spec import CSV, ConfigSpec, Join
from hatemoji_datasets.raw.joins import attach, join_findings, stack_frames, stack_tables

NOTES = Join("notes", "schema:Notes", "id", (("test", "notes"),), agree_on=("word",))
MEMBERS = Join("members", "schema:Rows", "id", (("test", "members"),), indicator="listed")


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
        schema="schema:Rows",
        features="transform:features_of",
        transform="transform:transform",
        key_column="id",
        text_column="word",
        eval_split="test",
        joins=(NOTES,),
    )
    assert config.split_sources("test") == ("first", "second")
    assert config.row_sources == ("first", "second")
    assert config.source_names == ("first", "second", "notes")
    assert config.schemas == ("schema:Rows", "schema:Notes")
    own, notes = config.parts
    assert own.join is None and own.sources == ("first", "second")
    assert notes.join is NOTES and notes.sources == ("notes",)
    assert NOTES.source_of("test") == "notes"
    assert config.raw_format == CSV


@pytest.mark.parametrize(
    ("name", "header", "expected"),
    [
        ("test_suite_annotations.csv", ["anything"], "suite_annotations"),  # by name first
        ("mine.csv", ["", "functionality", "case_id", "templ_id", "test_case", "label_gold",
                      *[f"label_{k}" for k in range(1, 11)], "count_label_h", "count_label_nh",
                      "label_annot_maj"], "suite_annotations"),  # by header
        ("mine.csv", ["case_id", "test_case"], "suite_cases"),  # a tie: the rows' own format
    ],
)  # fmt: skip
def test_a_contributed_files_format(name: str, header: list[str], expected: str) -> None:
    from hatemoji_datasets.core.registry import dataset_spec
    from hatemoji_datasets.validate.formats import part_of, source_of

    spec = dataset_spec("hatecheck")  # any dataset with a join serves; this one has one
    config = spec.config("default")
    part = part_of(name, header, spec, config)
    assert part.sources == (expected,)
    assert source_of(name, spec, part) == expected


def test_a_stacked_formats_source_is_known_by_name_only() -> None:
    from hatemoji_datasets.core.registry import dataset_spec
    from hatemoji_datasets.validate.formats import source_of

    spec = dataset_spec("multilingual_hatecheck")
    part = spec.config("all").parts[0]
    assert source_of("x/hatecheck_cases_final_german.csv", spec, part) == "german"
    assert source_of("mine.csv", spec, part) is None
    assert source_of("mine.csv", spec, spec.config("german").parts[0]) == "german"


def test_row_sources_marker() -> None:
    from hatemoji_datasets.schema.model import row_sources, with_row_sources

    frame = with_row_sources(pd.DataFrame({"a": range(5)}), [("one", 2), (None, 3)])
    found = row_sources(frame)
    assert found[:2].tolist() == ["one", "one"] and found[2:].isna().all()
    assert row_sources(pd.DataFrame({"a": [1]})) is None
