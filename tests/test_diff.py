"""``diff``: features and rows between two versions or configs, and each release's counts.

Small neutral datasets written here test every kind of change. On the real data, the
command shows what the library renders, a version is identical to itself, bad input is
one error, and each release's counts are generated and agree with each dataset's
``testing.py``; what a dataset's own releases changed (a label renamed, rows moved between
splits) is checked in that dataset's tests (``tests/test_<dataset>*.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import datasets
import pytest
from conftest import dataset_facts

from hatemoji_datasets.cli import main
from hatemoji_datasets.cli.diffing import text_report
from hatemoji_datasets.core.errors import DiffError, UnknownNameError
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.core.spec import ConfigSpec
from hatemoji_datasets.diff import diff
from hatemoji_datasets.diff.compare import compare_data
from hatemoji_datasets.diff.model import ColumnChange, Move, NameChange
from hatemoji_datasets.diff.releases import (
    END,
    START,
    ReleaseChanges,
    markdown_table,
    release_changes,
    render,
)
from hatemoji_datasets.diff.render import as_json, markdown

ROOT = Path(__file__).resolve().parents[1]
#: Every registered dataset; the first two stand for any two.
DATASETS = list(specs())


def _config(id_column: str | None = "id") -> ConfigSpec:
    return ConfigSpec(
        name="toy",
        description="",
        splits=(("train", "train"), ("test", "test")),
        schema="",
        features="",
        transform="",
        key_column=id_column or "text",
        text_column="text",
        eval_split="test",
        id_column=id_column,
    )


def _data(features: dict, splits: dict[str, dict[str, list]]) -> datasets.DatasetDict:
    return datasets.DatasetDict(
        {
            split: datasets.Dataset.from_dict(columns, features=datasets.Features(features))
            for split, columns in splits.items()
        }
    )


COLOURS = datasets.ClassLabel(names=["red", "green", "blue"])
OLD = _data(
    {
        "id": datasets.Value("int32"),
        "text": datasets.Value("string"),
        "colour": COLOURS,
        "size": datasets.Value("int32"),
        "gone": datasets.Value("string"),
    },
    {
        "train": {
            "id": [1, 2, 3, 4],
            "text": ["one", "two", "three", "four"],
            "colour": [0, 1, 2, 0],
            "size": [1, 2, 3, 4],
            "gone": ["a", "b", "c", "d"],
        },
        "test": {
            "id": [5, 6],
            "text": ["five", "six"],
            "colour": [1, 1],
            "size": [5, 6],
            "gone": ["e", "f"],
        },
    },
)
NEW = _data(
    {
        "id": datasets.Value("int32"),
        "text": datasets.Value("string"),
        "colour": datasets.ClassLabel(names=["red", "lime", "blue", "black"]),
        "size": datasets.Value("float32"),
        "extra": datasets.Value("bool"),
    },
    {
        # 1 unchanged; 2 its text changed (a long one with a line break); 3 moved to test;
        # 4 removed; 7 added; 5 moved to train with its colour changed.
        "train": {
            "id": [1, 2, 5, 7],
            "text": ["one", "two\nand a much longer text than before", "five", "seven"],
            "colour": [0, 1, 2, 3],
            "size": [1.0, 2.0, 5.0, 7.0],
            "extra": [True, False, True, False],
        },
        "test": {
            "id": [3, 6],
            "text": ["three", "six"],
            "colour": [2, 1],
            "size": [3.0, 6.0],
            "extra": [True, True],
        },
    },
)


def _toy(old=OLD, new=NEW, config=None, **options):
    config = config or _config()
    return compare_data((config, "1.0.0", old), (config, "2.0.0", new), name="toy", **options)


def test_feature_changes() -> None:
    found = _toy()
    assert found.columns == [
        ColumnChange("gone", "removed", "string", None),
        ColumnChange("extra", "added", None, "bool"),
        ColumnChange("size", "retyped", "int32", "float32"),
    ]
    assert found.names == [
        NameChange("colour", 1, "renamed", "green", "lime"),
        NameChange("colour", 3, "added", None, "black"),
    ]
    assert found.compared == ["id", "text", "colour", "size"]


def test_row_changes_per_split() -> None:
    found = _toy()
    assert found.key == "id" and found.repeated_keys == 0
    by_split = {s.split: s for s in found.splits}
    train, test = by_split["train"], by_split["test"]
    assert (train.rows_old, train.rows_new, test.rows_old, test.rows_new) == (4, 4, 2, 2)
    assert (train.added, train.removed, train.moved_in, train.moved_out) == (1, 1, 1, 1)
    assert (test.added, test.removed, test.moved_in, test.moved_out) == (0, 0, 1, 1)
    # Changed: 2 (text), 5 (colour 1 -> 2); ids equal, sizes equal as numbers.
    assert (train.changed, train.changed_columns) == (2, {"text": 1, "colour": 1})
    assert (test.changed, test.changed_columns) == (0, {})
    assert found.moves == [Move("train", "test", 1), Move("test", "train", 1)]
    assert found.totals() == {"added": 1, "removed": 1, "moved": 2, "changed": 2}
    assert not found.identical


def test_examples_are_short_and_escaped() -> None:
    found = _toy()
    (text, colour) = next(s for s in found.splits if s.split == "train").examples
    assert (text.key, text.column, text.old) == ("2", "text", "two")
    assert len(text.new) <= 24 and text.new.endswith("…")
    assert (colour.key, colour.old, colour.new) == ("5", "1 (green)", "2 (blue)")
    shown = text_report(found)
    assert "two\\nand a much" in shown  # the line break is escaped, never printed
    assert "longer text than before" not in shown
    assert all("\n" not in line for line in shown.splitlines())
    assert "two\\nand a much" in markdown(found)
    assert _toy(examples=0).splits[0].examples == []


def test_labels_by_name() -> None:
    """By id, a renamed ClassLabel name is not a changed row; by name it is."""
    renamed = _data(
        {**OLD["train"].features, "colour": datasets.ClassLabel(names=["red", "lime", "blue"])},
        {split: OLD[split].to_dict() for split in OLD},
    )
    by_id = _toy(OLD, renamed)
    assert by_id.names == [NameChange("colour", 1, "renamed", "green", "lime")]
    assert by_id.totals() == {"added": 0, "removed": 0, "moved": 0, "changed": 0}
    by_name = _toy(OLD, renamed, labels="name")
    green = sum(value == 1 for split in OLD for value in OLD[split]["colour"])
    assert by_name.totals()["changed"] == green == 3


def test_rows_without_ids_are_matched_by_text_and_occurrence() -> None:
    features = {"text": datasets.Value("string"), "label": datasets.ClassLabel(names=["n", "y"])}
    old = _data(features, {"train": {"text": ["a", "b", "a"], "label": [0, 1, 1]}})
    new = _data(features, {"train": {"text": ["a", "a", "a", "c"], "label": [0, 0, 1, 1]}})
    found = _toy(old, new, config=_config(None))
    (train,) = found.splits
    assert found.key == "text" and found.repeated_keys == 2
    # a#0 same, a#1 label 1 -> 0, a#2 added, c added, b removed.
    assert (train.added, train.removed, train.changed) == (2, 1, 1)
    (example,) = train.examples
    assert example.key == "row 1"  # a row matched by its text is named by position
    assert "| row |" in markdown(found)


def test_identical_data() -> None:
    found = _toy(OLD, OLD)
    assert found.identical and found.columns == [] and found.names == []
    assert "identical: 0 column(s)" in text_report(found)


def test_json_form() -> None:
    report = json.loads(as_json(_toy()))
    assert report["format"] == 1
    assert report["rows_matched_by"] == "id" and report["labels_compared_by"] == "id"
    assert report["totals"] == {"added": 1, "removed": 1, "moved": 2, "changed": 2}
    assert report["moves"] == [
        {"source": "train", "target": "test", "rows": 1},
        {"source": "test", "target": "train", "rows": 1},
    ]
    assert report["features"]["class_label_names"][0]["new"] == "lime"


def test_a_config_without_a_key_is_refused() -> None:
    features = {"n": datasets.Value("int32")}
    data = _data(features, {"train": {"n": [1]}})
    with pytest.raises(DiffError, match="no id or text column"):
        _toy(data, data, config=_config(None))


# -- the real data ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def releases(where: dict[str, str]) -> Callable[[str], list[ReleaseChanges]]:
    """``releases(name)``: what each release of the dataset changed, computed once."""
    found: dict[str, list[ReleaseChanges]] = {}

    def get(name: str) -> list[ReleaseChanges]:
        if name not in found:
            found[name] = release_changes(dataset_spec(name), **where)
        return found[name]

    return get


def test_a_version_against_itself(synthetic: str, where: dict[str, str]) -> None:
    """The synthetic dataset, its current version named and not."""
    assert diff(synthetic, "synthetic:1.0.0", **where).identical


# -- the command line ----------------------------------------------------------------------


def _cli(args: list[str], where: dict[str, str]) -> int:
    return main(["diff", *args, "--cache-dir", where["cache_dir"], "--mirror", where["mirror"]])


def test_cli_text_markdown_and_json(where: dict[str, str], capsys: pytest.CaptureFixture) -> None:
    """Each format shows what the library renders, headed by the two references resolved: on
    APEACH's two releases (named: the synthetic dataset has one)."""
    pair = ["apeach:1.0.0", "apeach:2.0.0"]
    found = diff(*pair, **where)
    assert _cli(pair, where) == 0
    out = capsys.readouterr().out
    assert out.startswith("apeach/default:1.0.0 -> apeach/default:2.0.0\n")
    assert out == text_report(found)
    assert _cli([*pair, "--format", "markdown"], where) == 0
    assert capsys.readouterr().out == markdown(found)
    assert _cli([*pair, "--format", "json"], where) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(as_json(found))


def _bad_inputs() -> list[tuple[str, str, str]]:
    """Two references ``diff`` refuses, and what the error says: an unknown dataset and
    version, two datasets, and a config in a release before the one that added it (the
    first such config)."""
    first, second = DATASETS[:2]
    cases = [
        ("no_such_dataset", first, "unknown dataset 'no_such_dataset'"),
        (f"{first}:9.9.9", first, f"unknown version '9.9.9' of {first}"),
        (first, second, "two datasets"),
    ]
    added = [
        (f"{name}/{config.name}", version, config.added_in)
        for name, spec in specs().items()
        for config in spec.configs
        for version in spec.versions
        if not config.in_version(version)
    ]
    for reference, version, added_in in added[:1]:
        cases.append((f"{reference}:{version}", reference, f"added in {added_in}"))
    return cases


@pytest.mark.parametrize(("old", "new", "message"), _bad_inputs())
def test_cli_bad_input(
    old: str, new: str, message: str, where: dict[str, str], capsys: pytest.CaptureFixture
) -> None:
    assert _cli([old, new], where) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err and "Traceback" not in captured.err
    assert _cli([old, new, "--format", "json"], where) == 1
    report = json.loads(capsys.readouterr().out)  # JSON, even on an error
    assert message in report["error"]["message"] and report["exit_code"] == 1
    assert report["error"]["code"] in ("UNKNOWN-NAME", "DIFF")  # the shape of every command


def test_python_bad_input(where: dict[str, str]) -> None:
    first, second = DATASETS[:2]
    with pytest.raises(DiffError, match="two datasets"):
        diff(first, second, **where)
    with pytest.raises(UnknownNameError, match="labels mode"):
        diff(first, first, labels="both", **where)


# -- each release's counts, generated -------------------------------------------------------


@pytest.mark.parametrize("name", DATASETS)
def test_release_counts(name: str, releases: Callable) -> None:
    """Every release, newest first, each against the one before; the newest one's configs
    have the rows ``testing.py`` states, and a config it added has no diff."""
    spec, changes = dataset_spec(name), releases(name)
    assert [r.version for r in changes] == spec.versions
    assert [r.previous for r in changes] == [*spec.versions[1:], None]
    assert "first release" in changes[-1].describe()
    newest, sizes = changes[0], dataset_facts(name).SPLITS
    assert [c.config for c in newest.configs] == [c.name for c in spec.configs_of(spec.version)]
    for change in newest.configs:
        assert change.rows == sum(sizes[change.config].values()), change.config
        added = newest.previous is None or not spec.config(change.config).in_version(
            newest.previous
        )
        assert (change.diff is None) == added, change.config


def test_changelog_block_is_current(releases: Callable) -> None:
    page = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    table = markdown_table((name, releases(name)) for name in specs())
    assert START in page and END in page
    assert render(page, table) == page, (
        "CHANGELOG.md's release table is stale: run python -m hatemoji_datasets.diff.releases "
        "CHANGELOG.md"
    )


def test_cards_state_each_release_counts(releases: Callable) -> None:
    for name in specs():
        card = (ROOT / "cards" / name / "README.md").read_text(encoding="utf-8")
        for release in releases(name):
            assert f"| {release.version} | {release.notes} | {release.describe()} |" in card
