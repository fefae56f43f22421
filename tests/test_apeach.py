"""APEACH (config ``default``) and BEEP! (config ``beep``): real data and error paths.

Expected values come from the APEACH paper (Table 1), the issue, or the upstream
files read here with the csv module (APEACH) or split on tabs by hand (BEEP!).
"""

from __future__ import annotations

import csv
import json
import shutil
from collections import Counter
from pathlib import Path

import datasets
import pandas as pd
import pytest
from conftest import check_one_file
from support.cards import card_frame, card_table, committed_card
from support.frames import frame_of, load_names, predictions_frame, random_labels
from support.paths import FIXTURES, REPO, upstream_path

from hatemoji_datasets import (
    ChecksumError,
    InputError,
    SchemaViolationError,
    SourceError,
    UnknownNameError,
    dataset_info,
    load_dataset,
)
from hatemoji_datasets.cli import main as cli_main
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.core.spec import CSV
from hatemoji_datasets.datasets.apeach.schema import ApeachRaw, BeepRaw
from hatemoji_datasets.datasets.apeach.spec import (
    BEEP_FORMAT,
    HATE_LEVELS,
    UPSTREAM_TOPICS,
    topics,
)
from hatemoji_datasets.diff import diff
from hatemoji_datasets.diff.model import NameChange
from hatemoji_datasets.diff.releases import release_changes
from hatemoji_datasets.evaluate import leaderboard
from hatemoji_datasets.raw.files import raise_for
from hatemoji_datasets.raw.reader import read_raw
from hatemoji_datasets.schema.engine import check_frame, integer_columns

SPEC = dataset_spec("apeach")

# The ten prompts in the paper's order: upstream English name -> clean name (2.0.0 on;
# 1.0.0 called prompt 2 `sexual_harassment`).
TOPIC_NAMES = {
    "Gender sterotypes": "gender_stereotypes",
    "Sexual harassment": "sexual_orientation_and_identity",
    "Age and social status": "age_and_social_status",
    "Nationality": "nationality",
    "Racism": "racism",
    "Origin and residence": "origin_and_residence",
    "Appearance": "appearance",
    "Disabled": "disabled",
    "Diets": "diets",
    "Education": "education",
}
# BEEP! train composition (issue #4) and the APEACH paper's Table 1 composition.
BEEP_TRAIN_LEVELS = {"hate": 1911, "offensive": 2499, "none": 3486}
BEEP_DEV_LABELS = {"hateful": 311, "non-hateful": 160}
APEACH_LABELS = {"hateful": 1922, "non-hateful": 1848}


# -- upstream, read independently of the package ---------------------------------------


def _upstream_file(mirror: Path, source: str) -> Path:
    return upstream_path(mirror, SPEC.source_files()[source].url)


@pytest.fixture(scope="module")
def apeach_upstream(mirror: Path) -> list[dict[str, str]]:
    with _upstream_file(mirror, "apeach_test").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _beep_records(path: Path) -> list[dict[str, str]]:
    lines = path.read_bytes().decode("utf-8").split("\n")
    assert lines[-1] == ""  # the file ends with a newline
    header, *records = lines[:-1]
    names = header.split("\t")
    return [dict(zip(names, record.split("\t"), strict=True)) for record in records]


@pytest.fixture(scope="module")
def beep_upstream(mirror: Path) -> dict[str, list[dict[str, str]]]:
    return {
        "train": _beep_records(_upstream_file(mirror, "beep_train")),
        "validation": _beep_records(_upstream_file(mirror, "beep_dev")),
    }


# -- built datasets ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def apeach(mirror: Path, session_cache: Path) -> datasets.Dataset:
    return load_dataset("apeach", split="test", cache_dir=str(session_cache), mirror=str(mirror))


@pytest.fixture(scope="module")
def beep(mirror: Path, session_cache: Path) -> datasets.DatasetDict:
    return load_dataset("apeach", "beep", cache_dir=str(session_cache), mirror=str(mirror))


def _names(dataset: datasets.Dataset, column: str) -> list[str]:
    return [dataset.features[column].int2str(value) for value in dataset[column]]


# -- APEACH -----------------------------------------------------------------------------


def test_apeach_features_and_size(apeach: datasets.Dataset) -> None:
    assert apeach.num_rows == 3770
    assert list(apeach.features) == [
        "text", "label", "topic", "topic_ko", "writer_age", "writer_age_group", "writer_gender",
    ]  # fmt: skip
    assert apeach.features["label"].names == ["non-hateful", "hateful"]
    assert apeach.features["topic"].names == list(TOPIC_NAMES.values())
    assert TOPIC_NAMES == topics(SPEC.version) == topics("2.0.0")
    assert list(TOPIC_NAMES) == list(UPSTREAM_TOPICS)
    assert apeach.features["writer_gender"].names == ["female", "male"]
    assert apeach.features["writer_age"].dtype == "int8"


def test_apeach_labels_match_the_paper(apeach: datasets.Dataset) -> None:
    assert Counter(_names(apeach, "label")) == APEACH_LABELS


def test_apeach_rows_equal_upstream(apeach: datasets.Dataset, apeach_upstream: list) -> None:
    assert apeach.num_rows == len(apeach_upstream)
    built = zip(
        apeach["text"],
        _names(apeach, "label"),
        _names(apeach, "topic"),
        apeach["topic_ko"],
        apeach["writer_age"],
        apeach["writer_age_group"],
        _names(apeach, "writer_gender"),
    )
    upstream_label = {"Spoiled": "hateful", "Default": "non-hateful"}
    for row, (text, label, topic, topic_ko, age, age_group, gender) in zip(apeach_upstream, built):
        assert text.encode("utf-8") == row["text"].encode("utf-8")
        assert topic_ko.encode("utf-8") == row["text_topic"].encode("utf-8")
        assert label == upstream_label[row["class"]]
        assert topic == TOPIC_NAMES[row["text_topic_eng"]]
        assert (age, age_group) == (int(row["user_age"]), int(row["age"]))
        assert gender == row["user_gender"]


def test_apeach_topic_counts_equal_upstream(apeach: datasets.Dataset, apeach_upstream) -> None:
    expected = Counter(TOPIC_NAMES[row["text_topic_eng"]] for row in apeach_upstream)
    assert Counter(_names(apeach, "topic")) == expected
    assert len(expected) == 10


def test_apeach_topic_prompts_one_to_one(apeach: datasets.Dataset) -> None:
    pairs = set(zip(_names(apeach, "topic"), apeach["topic_ko"]))
    assert len(pairs) == len({topic for topic, _ in pairs}) == len({ko for _, ko in pairs}) == 10


def test_apeach_age_group_is_five_year_bucket(apeach: datasets.Dataset) -> None:
    for age, group in zip(apeach["writer_age"], apeach["writer_age_group"]):
        assert group == max(20, age // 5 * 5)  # the 18- and 19-year-olds sit in group 20


def test_apeach_edge_whitespace_is_kept_and_counted(
    apeach: datasets.Dataset, apeach_upstream: list, mirror: Path, session_cache: Path
) -> None:
    upstream_edged = [row["text"] for row in apeach_upstream if row["text"] != row["text"].strip()]
    assert len(upstream_edged) == 24
    built_edged = [text for text in apeach["text"] if text != text.strip()]
    assert built_edged == upstream_edged
    info = dataset_info("apeach", cache_dir=str(session_cache), mirror=str(mirror))
    statistics = info["statistics"]
    assert statistics["test"]["texts with leading or trailing whitespace"] == 24
    labels = statistics["sentences per topic"]["all"]
    assert (labels["non-hateful"], labels["hateful"]) == (1848, 1922)


# -- BEEP! ------------------------------------------------------------------------------


def test_beep_features_and_splits(beep: datasets.DatasetDict) -> None:
    assert {split: data.num_rows for split, data in beep.items()} == {
        "train": 7896,
        "validation": 471,
    }
    features = beep["train"].features
    assert list(features) == ["text", "label", "hate_level", "bias", "contain_gender_bias"]
    assert features["label"].names == ["non-hateful", "hateful"]
    assert features["hate_level"].names == ["none", "offensive", "hate"] == list(HATE_LEVELS)
    assert features["bias"].names == ["none", "gender", "others"]
    assert features["contain_gender_bias"].dtype == "bool"


def test_beep_composition(beep: datasets.DatasetDict) -> None:
    train, validation = beep["train"], beep["validation"]
    assert Counter(_names(train, "hate_level")) == BEEP_TRAIN_LEVELS
    assert Counter(_names(train, "label")) == {
        "hateful": BEEP_TRAIN_LEVELS["hate"] + BEEP_TRAIN_LEVELS["offensive"],
        "non-hateful": BEEP_TRAIN_LEVELS["none"],
    }
    assert Counter(_names(validation, "label")) == BEEP_DEV_LABELS


def test_beep_rows_equal_upstream(beep: datasets.DatasetDict, beep_upstream: dict) -> None:
    for split, records in beep_upstream.items():
        data = beep[split]
        assert data.num_rows == len(records)
        built = zip(
            data["text"],
            _names(data, "label"),
            _names(data, "hate_level"),
            _names(data, "bias"),
            data["contain_gender_bias"],
        )
        for record, (text, label, level, bias, gender_flag) in zip(records, built):
            assert text.encode("utf-8") == record["comments"].encode("utf-8")
            assert level == record["hate"]
            assert label == ("non-hateful" if record["hate"] == "none" else "hateful")
            assert bias == record["bias"]
            assert gender_flag == (record["contain_gender_bias"] == "True")


def test_beep_quote_characters_survive(beep: datasets.DatasetDict, beep_upstream: dict) -> None:
    for split, records in beep_upstream.items():
        quoted = [r["comments"] for r in records if '"' in r["comments"]]
        assert quoted  # upstream has such comments in both files
        assert [text for text in beep[split]["text"] if '"' in text] == quoted


# -- configs, sources and the cache -------------------------------------------------


def test_every_fetched_source_is_pinned() -> None:
    pinned = SPEC.source_files()
    fetched = [name for config in SPEC.configs for name in config.source_names]
    assert sorted(fetched) == sorted(pinned)
    assert {source.license for source in pinned.values()} == {"CC-BY-SA-4.0"}
    assert SPEC.config_names == ["default", "beep"]
    assert SPEC.config("default").source_names == ("apeach_test",)
    assert SPEC.config("beep").source_names == ("beep_train", "beep_dev")


def _partial_mirror(mirror: Path, root: Path, sources: list[str]) -> Path:
    for source in sources:
        target = upstream_path(root, SPEC.source_files()[source].url)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(_upstream_file(mirror, source))
    return root


def test_each_config_fetches_only_its_own_sources(mirror: Path, tmp_path: Path) -> None:
    only_apeach = _partial_mirror(mirror, tmp_path / "mirror", ["apeach_test"])
    cache = str(tmp_path / "cache")
    test = load_dataset("apeach", split="test", cache_dir=cache, mirror=str(only_apeach))
    assert test.num_rows == 3770
    with pytest.raises(SourceError, match="labeled/train.tsv"):
        load_dataset("apeach", "beep", cache_dir=cache, mirror=str(only_apeach))


def test_altered_source_fails_its_checksum(mirror: Path, tmp_path: Path) -> None:
    altered = _partial_mirror(mirror, tmp_path / "mirror", ["beep_train"])
    dev = upstream_path(altered, SPEC.source_files()["beep_dev"].url)
    shutil.copyfile(FIXTURES / "beep_valid.tsv", dev)
    cache = str(tmp_path / "cache")
    with pytest.raises(ChecksumError, match="dev.tsv"):
        load_dataset("apeach", "beep", cache_dir=cache, mirror=str(altered))
    # Nothing half-built was cached: the real files still build into the same cache.
    assert load_dataset("apeach", "beep", cache_dir=cache, mirror=str(mirror))["validation"]


def test_unknown_config_and_split(mirror: Path, session_cache: Path) -> None:
    with pytest.raises(UnknownNameError, match="available: default, beep"):
        load_dataset("apeach", "beeps", cache_dir=str(session_cache), mirror=str(mirror))
    with pytest.raises(UnknownNameError, match="available: train, validation"):
        load_dataset(
            "apeach", "beep", split="test", cache_dir=str(session_cache), mirror=str(mirror)
        )


def test_cli_info_and_error(
    mirror: Path, session_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert cli_main(["info", "apeach", *args]) == 0
    out = capsys.readouterr().out
    assert "texts with leading or trailing whitespace: 24" in out
    assert "ClassLabel (0 gender_stereotypes, 1 sexual_orientation_and_identity," in out
    assert "2.0.0: Topic `sexual_harassment` renamed" in out
    assert "1.0.0: First release" in out
    assert cli_main(["build", "apeach", "--config", "nope", *args]) == 1
    assert "unknown config 'nope'" in capsys.readouterr().err


# -- schemas on small neutral fixtures ---------------------------------------------------


def _findings(model, name: str | Path, fmt=CSV) -> list:
    return check_one_file(model, str(FIXTURES / name), fmt)


def test_apeach_valid_fixture_passes() -> None:
    raw = read_raw(FIXTURES / "apeach_valid.csv", CSV, integer_columns(ApeachRaw))
    frame, findings = check_frame(ApeachRaw, raw.table.to_pandas(), file=raw.path)
    assert findings == []
    texts = list(frame["text"])
    assert texts[1] == '그는 "안녕하세요"라고 말했다, 웃으면서.'
    assert texts[2] == "날씨가 참 좋네요 "  # trailing space kept
    assert texts[3] == "첫째 줄입니다.\n둘째 줄입니다.\n"  # line breaks kept
    assert list(frame["age"]) == [20, 30, 20, 45, 65]  # a 19-year-old sits in group 20


def test_apeach_findings_name_their_lines() -> None:
    findings = _findings(ApeachRaw, "apeach_broken.csv")
    found = {(f.line, f.column, f.code) for f in findings}
    assert (2, "class", "VALUE-NOT-ALLOWED") in found
    [age] = [f for f in findings if f.code == "AP-AGE-GROUP"]
    assert (age.line, age.column, age.value, age.expected) == (3, "age", "30", "25")
    # the corrected spelling is not upstream's
    assert (4, "text_topic_eng", "VALUE-NOT-ALLOWED") in found
    one_to_one = {f.line for f in findings if f.code == "AP-TOPIC-NAMES"}
    assert one_to_one == {2, 5, 6, 8}  # one prompt with two names, one name with two prompts
    assert (7, "user_gender", "VALUE-NOT-ALLOWED") in found
    assert {(2, "text", "VALUE-DUPLICATE"), (8, "text", "VALUE-DUPLICATE")} <= found
    assert all(f.file.endswith("apeach_broken.csv") for f in findings)


def test_uncoercible_age_is_reported_once(tmp_path: Path) -> None:
    source = (FIXTURES / "apeach_valid.csv").read_text(encoding="utf-8")
    broken = tmp_path / "age.csv"
    broken.write_text(source.replace(",24,female,", ",twenty,female,"), encoding="utf-8")
    assert [(f.line, f.column, f.value, f.code) for f in _findings(ApeachRaw, broken)] == [
        (2, "user_age", "twenty", "VALUE-TYPE")
    ]


def test_beep_valid_fixture_keeps_quotes_and_spaces() -> None:
    assert _findings(BeepRaw, "beep_valid.tsv", BEEP_FORMAT) == []
    raw = read_raw(FIXTURES / "beep_valid.tsv", BEEP_FORMAT)
    assert raw.table["comments"].to_pylist() == [
        '"따옴표로 시작하는 댓글',
        '끝에 따옴표가 있어요"',
        '"그는 ""좋아요""라고 했다"',
        "'작은따옴표' 댓글입니다",
        " 앞뒤에 공백이 있어요 ",
    ]


def test_beep_findings_name_their_lines() -> None:
    findings = _findings(BeepRaw, "beep_broken.tsv", BEEP_FORMAT)
    with pytest.raises(SchemaViolationError) as raised:
        raise_for(findings)
    assert raised.value.findings == findings
    found = {(f.line, f.column, f.code) for f in findings}
    assert (2, "hate", "VALUE-NOT-ALLOWED") in found
    # Line 4's flag is not a boolean at all: reported once, by its column's check.
    assert {f.line for f in findings if f.code == "BP-GENDER-FLAG"} == {3}
    assert (4, "contain_gender_bias", "VALUE-NOT-ALLOWED") in found
    assert (5, "bias", "VALUE-NOT-ALLOWED") in found
    assert {(2, "comments", "VALUE-DUPLICATE"), (6, "comments", "VALUE-DUPLICATE")} <= found
    assert (7, "comments", "TEXT-EMPTY") in found


@pytest.mark.parametrize("bad_line", [2, 3])
def test_tab_inside_a_comment_is_an_error(tmp_path: Path, bad_line: int) -> None:
    # Never a silent shift: pandas' C parser turned an extra first field into an index.
    good = "노래가 좋아요\tFalse\tnone\tnone\n"
    bad = "노래가\t좋아요\tFalse\tnone\tnone\n"
    body = bad + good if bad_line == 2 else good + bad
    path = tmp_path / "tab.tsv"
    path.write_text("comments\tcontain_gender_bias\tbias\thate\n" + body, encoding="utf-8")
    with pytest.raises(InputError) as raised:
        read_raw(path, BEEP_FORMAT)
    finding = raised.value.finding
    assert (finding.file, finding.line, finding.code) == (str(path), bad_line, "FILE-FIELD-COUNT")


# -- the card's tables, recomputed independently (moved from test_cards.py) ---------


@pytest.mark.real_data
def test_apeach_topic_table(card_data) -> None:
    data = card_data("apeach").configs["default"].data
    frame = data["test"].to_pandas()
    features = data["test"].features
    table = card_table(committed_card("apeach"), "APEACH: sentences per topic and label")
    crosstab = pd.crosstab(frame["topic"], frame["label"])
    for topic, row in crosstab.iterrows():
        cells = table[features["topic"].names[topic]]
        assert int(cells["hateful"]) == row[1] and int(cells["non-hateful"]) == row[0]
        assert int(cells["total"]) == row.sum()
    assert int(table["all"]["total"]) == len(frame) == 3770


@pytest.mark.real_data
def test_beep_hate_level_table(card_data) -> None:
    data = card_data("apeach").configs["beep"].data
    frame = card_frame(data)
    names = data["train"].features["hate_level"].names
    table = card_table(committed_card("apeach"), "BEEP!: comments per hate level and split")
    crosstab = pd.crosstab(frame["split"], frame["hate_level"])
    for split, row in crosstab.iterrows():
        for level, count in row.items():
            assert int(table[split][names[level]]) == count
        hateful = int(row[names.index("offensive")] + row[names.index("hate")])
        assert int(table[split]["label: hateful"]) == hateful


# -- scores against independent computations (moved from test_evaluate.py) --------


def test_apeach_and_beep_metrics_match_sklearn(where) -> None:
    pytest.importorskip("sklearn")
    from sklearn.metrics import f1_score, recall_score

    from hatemoji_datasets.evaluate import score

    frame = frame_of("apeach", "default", "test", where).copy()
    frame["pred"] = random_labels(frame, seed=11)
    report = score("apeach", predictions_frame(frame, "index", frame["pred"]), **where)
    assert report.overall["f1_hateful"] == pytest.approx(f1_score(frame["label"], frame["pred"]))
    topics = load_names(where, "apeach", "topic")
    rows = {row["topic"]: row for row in report.table("topics").rows}
    for code, group in frame.groupby("topic"):
        row = rows[topics[code]]
        assert row["n"] == len(group)
        assert row["f1_hateful"] == pytest.approx(f1_score(group["label"], group["pred"]))

    beep = frame_of("apeach", "beep", "validation", where).copy()
    beep["pred"] = random_labels(beep, seed=5)
    report = score("apeach", predictions_frame(beep, "index", beep["pred"]), config="beep", **where)
    assert report.split == "validation" and report.n == 471
    assert report.overall["f1_hateful"] == pytest.approx(f1_score(beep["label"], beep["pred"]))
    levels = load_names(where, "apeach", "hate_level", "beep")
    rows = {row["hate_level"]: row for row in report.table("hate_levels").rows}
    for code, group in beep.groupby("hate_level"):
        expected = recall_score(group["label"], group["pred"], pos_label=int(group["label"].max()))
        assert rows[levels[code]]["recall"] == pytest.approx(expected)
        assert rows[levels[code]]["n"] == len(group)


# -- what release 2.0.0 changed, by diff (moved from tests/test_diff.py) -------------------


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


def _diff_cli(args: list[str], where: dict[str, str]) -> int:
    return cli_main(["diff", *args, "--cache-dir", where["cache_dir"], "--mirror", where["mirror"]])


def test_diff_cli_text_and_json_of_2_0_0(
    where: dict[str, str], capsys: pytest.CaptureFixture
) -> None:
    assert _diff_cli(["apeach:1.0.0", "apeach:2.0.0"], where) == 0
    out = capsys.readouterr().out
    assert out.startswith("apeach/default:1.0.0 -> apeach/default:2.0.0\n")
    assert "rows matched by text; ClassLabel cells compared by id" in out
    assert "topic    1  renamed  sexual_harassment  sexual_orientation_and_identity" in out
    assert "test      3,770     3,770      0        0         0          0        0" in out
    assert _diff_cli(["apeach:1.0.0", "apeach:2.0.0", "--format", "json"], where) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["features"]["class_label_names"][0]["id"] == 1


def test_release_2_0_0_counts(where: dict[str, str]) -> None:
    apeach = release_changes(dataset_spec("apeach"), **where)
    line = apeach[0].describe()
    assert line.startswith("against 1.0.0: `default`: columns 0 added, 0 removed, 0 retyped; ")
    assert "ClassLabel names 0 added, 0 removed, 1 renamed (in `topic`)" in line
    assert "rows 0 added, 0 removed, 0 moved between splits, 0 changed" in line


# -- releases (the rename's data are RENAMED_LABELS in testing.py, checked by test_versions) --


def test_apeach_has_two_versions() -> None:
    assert dataset_spec("apeach").versions == ["2.0.0", "1.0.0"]


# -- Croissant (moved from tests/test_croissant.py, which checks every card's alike) --------


def test_committed_croissant_leaves_out_what_a_reader_cannot_derive() -> None:
    """BEEP!'s text (quote characters are data, a CSV reader applies quoting) and the
    labels upstream spells differently are left out, and the description says why."""
    metadata = json.loads((REPO / "cards" / "apeach" / "croissant.json").read_text("utf-8"))
    sets = {rs["@id"]: rs for rs in metadata["recordSet"]}
    beep = sets["beep/train"]
    assert "text" not in [field["name"] for field in beep["field"]]
    assert "`text` (upstream's file has no quoting" in beep["description"]
    assert "`label` (upstream column `class` spells" in sets["default/test"]["description"]
    assert "Hub export" in metadata["description"]


def test_other_fingerprints_never_share_a_column(
    reference: Path, mirror: Path, session_cache: Path, tmp_path: Path
) -> None:
    """APEACH 1.0.0 and 2.0.0 hold other data (other recorded fingerprints): runs of each get
    a column of their own, told apart by version and fingerprint."""
    where = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    rows = load_dataset("apeach", split="test", **where).num_rows
    for version in ("1.0.0", "2.0.0"):
        folder = tmp_path / version
        folder.mkdir()
        pd.DataFrame({"index": range(rows), "prediction": 1}).to_csv(
            folder / "always.csv", index=False
        )
    report = leaderboard(
        {"apeach:1.0.0": tmp_path / "1.0.0", "apeach:2.0.0": tmp_path / "2.0.0"}, **where
    )
    first, second = report.columns
    assert (first.version, second.version) == ("1.0.0", "2.0.0")
    assert first.fingerprint != second.fingerprint
    assert first.heading.startswith("apeach/default (1.0.0, ")
    (row,) = report.rows
    assert set(row.cells) == {first.heading, second.heading}
