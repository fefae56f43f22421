"""``diff``: features and rows between two versions or configs, and each release's counts.

Small neutral datasets written here test every kind of change; the real data
checks the issue's figures (APEACH 2.0.0 renamed one topic and changed no
row; HatemojiBuild's pair-safe config moved entries between splits), each
recomputed here from the built data or the upstream files.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import datasets
import pytest
from conftest import upstream_path

from hatemoji_datasets import load_dataset
from hatemoji_datasets.cli import main
from hatemoji_datasets.cli.diffing import text_report
from hatemoji_datasets.core.errors import DiffError, UnknownNameError
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.core.spec import ConfigSpec
from hatemoji_datasets.diff import diff
from hatemoji_datasets.diff.compare import compare_data
from hatemoji_datasets.diff.model import ColumnChange, Move, NameChange
from hatemoji_datasets.diff.releases import END, START, markdown_table, release_changes, render
from hatemoji_datasets.diff.render import as_json, markdown

ROOT = Path(__file__).resolve().parents[1]


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
def where(mirror: Path, session_cache: Path) -> dict[str, str]:
    return {"cache_dir": str(session_cache), "mirror": str(mirror)}


def test_apeach_2_renamed_one_topic_and_no_row(where: dict[str, str]) -> None:
    found = diff("apeach:1.0.0", "apeach:2.0.0", **where)
    assert found.names == [
        NameChange("topic", 1, "renamed", "sexual_harassment", "sexual_orientation_and_identity")
    ]
    assert found.columns == []
    assert found.key == "text" and found.repeated_keys == 0
    assert found.totals() == {"added": 0, "removed": 0, "moved": 0, "changed": 0}
    assert [(s.split, s.rows_old, s.rows_new) for s in found.splits] == [("test", 3770, 3770)]
    # By name, every row of topic 1 changed: counted here from the built data.
    by_name = diff("apeach:1.0.0", "apeach:2.0.0", labels="name", **where)
    built = load_dataset("apeach:2.0.0", split="test", **where)
    topic_one = sum(value == 1 for value in built["topic"])
    assert by_name.totals()["changed"] == topic_one > 0
    assert by_name.splits[0].changed_columns == {"topic": topic_one}


def test_beep_did_not_change_in_2_0_0(where: dict[str, str]) -> None:
    assert diff("apeach/beep:1.0.0", "apeach/beep:2.0.0", **where).identical


def test_pair_safe_moves_by_split(where: dict[str, str], mirror: Path) -> None:
    found = diff("hatemoji_build/all", "hatemoji_build/pair_safe", **where)
    assert [c.column for c in found.columns] == ["upstream_split"]
    assert found.columns[0].change == "added"
    assert found.names == []
    totals = found.totals()
    assert (totals["added"], totals["removed"], totals["changed"]) == (0, 0, 0)
    # The moves, counted from the upstream files and the built pair-safe splits.
    file_of = {}
    spec = dataset_spec("hatemoji_build")
    for split, source in spec.source_files().items():
        with upstream_path(mirror, source.url).open(encoding="utf-8", newline="") as handle:
            file_of.update({int(row["entry_id"]): split for row in csv.DictReader(handle)})
    built = load_dataset("hatemoji_build/pair_safe", **where)
    moves = Counter(
        (file_of[entry_id], split)
        for split, ds in built.items()
        for entry_id in ds["entry_id"]
        if file_of[entry_id] != split
    )
    assert {(m.source, m.target): m.rows for m in found.moves} == dict(moves)
    for split in found.splits:
        assert split.moved_out == sum(n for (a, _), n in moves.items() if a == split.split)
        assert split.moved_in == sum(n for (_, b), n in moves.items() if b == split.split)


def test_a_version_against_itself_and_1_1_0_against_1_0_0(where: dict[str, str]) -> None:
    assert diff("hatemoji_build/r5:1.0.0", "hatemoji_build/r5:1.1.0", **where).identical
    assert diff("hatemoji_check", "hatemoji_check:1.0.0", **where).identical


# -- the command line ----------------------------------------------------------------------


def _cli(args: list[str], where: dict[str, str]) -> int:
    return main(["diff", *args, "--cache-dir", where["cache_dir"], "--mirror", where["mirror"]])


def test_cli_text_markdown_and_json(where: dict[str, str], capsys: pytest.CaptureFixture) -> None:
    assert _cli(["apeach:1.0.0", "apeach:2.0.0"], where) == 0
    out = capsys.readouterr().out
    assert out.startswith("apeach/default:1.0.0 -> apeach/default:2.0.0\n")
    assert "rows matched by text; ClassLabel cells compared by id" in out
    assert "topic    1  renamed  sexual_harassment  sexual_orientation_and_identity" in out
    assert "test      3,770     3,770      0        0         0          0        0" in out
    assert _cli(["hatemoji_build", "hatemoji_build/pair_safe", "--format", "markdown"], where) == 0
    out = capsys.readouterr().out
    assert "#### Rows moved between splits" in out and "| train | validation |" in out
    assert _cli(["apeach:1.0.0", "apeach:2.0.0", "--format", "json"], where) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["features"]["class_label_names"][0]["id"] == 1


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("no_such_dataset", "apeach", "unknown dataset 'no_such_dataset'"),
        ("apeach:9.9.9", "apeach", "unknown version '9.9.9' of apeach"),
        ("apeach", "hatemoji_check", "two datasets"),
        ("hatemoji_build/pair_safe:1.0.0", "hatemoji_build/pair_safe", "added in 1.1.0"),
    ],
)
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
    with pytest.raises(DiffError, match="two datasets"):
        diff("apeach", "hatemoji_check", **where)
    with pytest.raises(UnknownNameError, match="labels mode"):
        diff("apeach", "apeach", labels="both", **where)


# -- each release's counts, generated -------------------------------------------------------


def test_release_counts(where: dict[str, str]) -> None:
    build, apeach = (
        release_changes(dataset_spec(n), **where) for n in ("hatemoji_build", "apeach")
    )
    assert [r.version for r in build] == ["1.1.0", "1.0.0"]
    new = {c.config: c for c in build[0].configs}
    assert {name: c.rows for name, c in new.items() if c.diff is None} == {
        "pair_safe": 5912,
        "r5_pair_safe": 1994,
        "r6_pair_safe": 1966,
        "r7_pair_safe": 1952,
    }  # fmt: skip  (the paper's round table)
    assert all(new[name].diff.identical for name in ("all", "r5", "r6", "r7"))
    assert build[1].previous is None and "first release" in build[1].describe()
    line = apeach[0].describe()
    assert line.startswith("against 1.0.0: `default`: columns 0 added, 0 removed, 0 retyped; ")
    assert "ClassLabel names 0 added, 0 removed, 1 renamed (in `topic`)" in line
    assert "rows 0 added, 0 removed, 0 moved between splits, 0 changed" in line


def test_changelog_block_is_current(where: dict[str, str]) -> None:
    page = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    table = markdown_table((name, release_changes(spec, **where)) for name, spec in specs().items())
    assert START in page and END in page
    assert render(page, table) == page, (
        "CHANGELOG.md's release table is stale: run python -m hatemoji_datasets.diff.releases "
        "CHANGELOG.md"
    )


def test_cards_state_each_release_counts(where: dict[str, str]) -> None:
    for name, spec in specs().items():
        card = (ROOT / "cards" / name / "README.md").read_text(encoding="utf-8")
        for release in release_changes(spec, **where):
            assert f"| {release.version} | {release.notes} | {release.describe()} |" in card
