"""Schema checks and error reporting, on small neutral fixtures."""

from __future__ import annotations

from conftest import FIXTURES

from hatemoji_datasets.datasets.hatemoji_check.schema import HatemojiCheckRaw
from hatemoji_datasets.validation import TableFormat, record_lines, validate_file


def _check(name: str):
    return validate_file(HatemojiCheckRaw, FIXTURES / name, TableFormat())


def test_valid_fixture_passes() -> None:
    frame, violations = _check("hatemoji_check_valid.csv")
    assert violations == []
    assert frame["text"].iloc[4] == "Neutral, quoted\ntext over two lines"


def test_record_lines_follow_multiline_fields() -> None:
    assert record_lines(FIXTURES / "hatemoji_check_valid.csv", TableFormat()) == [2, 3, 4, 5, 6]


def test_every_violation_is_reported_with_its_line() -> None:
    _, violations = _check("hatemoji_check_broken.csv")
    found = {(v.line, v.column, v.rule.split("(")[0]) for v in violations}
    assert (2, "case_id", "field_uniqueness") in found or (
        3,
        "case_id",
        "field_uniqueness",
    ) in found
    assert (4, None, "label_gold disagrees with its functionality x set cell") in found
    assert any(v.line == 5 and "emoji" in v.rule for v in violations)  # no_emoji with an emoji
    assert (6, "unrealistic_flags", "less_than_or_equal_to") in found  # record starting on line 6
    assert (8, "target", "isin") in found
    assert any(
        v.line == 8 and v.rule.startswith("templ_id must be test_group_id") for v in violations
    )
    assert any(v.line == 9 and "emoji" in v.rule for v in violations)  # original without emoji
    assert all(v.file.endswith("hatemoji_check_broken.csv") for v in violations)


def test_missing_column_is_reported_alone(tmp_path) -> None:
    source = (FIXTURES / "hatemoji_check_valid.csv").read_text(encoding="utf-8")
    broken = tmp_path / "no_label.csv"
    broken.write_text(source.replace(",label_gold", ",label"), encoding="utf-8")
    _, violations = validate_file(HatemojiCheckRaw, broken, TableFormat())
    assert [(v.line, v.column, v.rule) for v in violations] == [
        (1, "label", "unexpected column"),
        (1, "label_gold", "missing column"),
    ] or sorted((v.column, v.rule) for v in violations) == [
        ("label", "unexpected column"),
        ("label_gold", "missing column"),
    ]
