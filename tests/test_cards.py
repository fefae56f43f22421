"""Dataset cards and Croissant metadata: rendered from the data, committed, linted offline.

Expected figures are computed here independently (pandas over the loaded
datasets), never with the datasets' ``statistics`` functions the cards use.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
from collections import Counter
from pathlib import Path

import datasets
import numpy as np
import pandas as pd
import pytest
import yaml
from huggingface_hub import DatasetCard

from hatemoji_datasets.cards.body import DATA_STATEMENT_SECTIONS
from hatemoji_datasets.cards.files import CROISSANT, README, rendered_files
from hatemoji_datasets.cards.gather import Built, build
from hatemoji_datasets.cards.lint import Expected, front_matter, lint_card, lint_text, size_category
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.registry import dataset_spec

REPO = Path(__file__).resolve().parents[1]
CARDS = REPO / "cards"
NAMES = ("hatemoji_check", "hatemoji_build", "apeach", "hatecheck", "multilingual_hatecheck")
STATEMENTS = {
    "hatemoji_check": ("HatemojiCheck",),
    "hatemoji_build": ("HatemojiBuild",),
    "apeach": ("APEACH", "BEEP!"),
    "hatecheck": ("HateCheck",),
    "multilingual_hatecheck": ("Multilingual HateCheck",),
}


@pytest.fixture(scope="module")
def built(mirror: Path, session_cache: Path) -> dict[str, Built]:
    return {name: build(name, cache_dir=str(session_cache), mirror=str(mirror)) for name in NAMES}


def _readme(name: str) -> str:
    return (CARDS / name / README).read_text(encoding="utf-8")


def _frame(data: datasets.DatasetDict) -> pd.DataFrame:
    return pd.concat([data[split].to_pandas().assign(split=split) for split in data])


def _table(text: str, title: str) -> dict[str, dict[str, str]]:
    """The markdown table under ``#### title``: ``{row: {column: cell}}``."""
    lines = text.splitlines()
    start = lines.index(f"#### {title}")
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    header, body = rows[0], rows[2:]
    return {
        row[0].strip("*"): dict(zip(header[1:], (cell.replace(",", "") for cell in row[1:])))
        for row in body
    }


# -- the committed cards ------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_huggingface_hub_reads_each_card(name: str) -> None:
    card = DatasetCard.load(CARDS / name / README)
    hub = yaml.safe_load(dataset_spec(name).card_source_path.read_text(encoding="utf-8"))["hub"]
    assert card.data.pretty_name == dataset_spec(name).pretty_name
    assert card.data.license == hub["license"]
    assert "Content warning" in card.text.split("##", 1)[0]


@pytest.mark.parametrize("name", NAMES)
def test_every_data_statement_section_present_and_non_empty(name: str) -> None:
    text = _readme(name)
    for corpus in STATEMENTS[name]:
        section = text.split(f"### Data statement: {corpus}\n", 1)[1].split("\n### ", 1)[0]
        section = section.split("\n## ", 1)[0]
        for heading in DATA_STATEMENT_SECTIONS.values():
            body = section.split(f"#### {heading}\n", 1)[1].split("\n#### ", 1)[0]
            assert body.strip(), f"{corpus}: {heading}"


@pytest.mark.parametrize("name", NAMES)
def test_offline_lint_passes_without_data(name: str) -> None:
    assert lint_card(CARDS / name / README) == []


def _bad_copy(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = _readme(name)
    assert old in text
    path = tmp_path / README
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_lint_fails_on_a_deprecated_key(tmp_path: Path) -> None:
    path = _bad_copy(tmp_path, "hatemoji_check", "language:\n- en\n", "languages:\n- en\n")
    problems = lint_card(path)
    assert any(p.startswith("languages: deprecated") for p in problems), problems


def test_lint_fails_on_an_unknown_creator(tmp_path: Path) -> None:
    old = "annotations_creators:\n- expert-generated\n"
    path = _bad_copy(tmp_path, "hatemoji_build", old, "annotations_creators:\n- volunteers\n")
    problems = lint_card(path)
    assert problems == ["annotations_creators: 'volunteers' is not an allowed value"]


def test_lint_fails_on_an_unknown_key(tmp_path: Path) -> None:
    path = _bad_copy(tmp_path, "apeach", "tags:\n", "labels:\n- x\ntags:\n")
    assert "labels: unknown metadata key" in lint_card(path)


def test_lint_fails_on_a_wrong_size_category_offline(tmp_path: Path) -> None:
    path = _bad_copy(tmp_path, "hatemoji_check", "- 1K<n<10K\n", "- 10K<n<100K\n")
    expected = Expected(rows=3930)
    problems = [p for p in lint_card(path, expected) if p.startswith("size_categories")]
    assert problems == ["size_categories: ['10K<n<100K'] but the dataset has 3,930 rows (1K<n<10K)"]


def test_size_categories_buckets() -> None:
    assert size_category(999) == "n<1K"
    assert size_category(1000) == "1K<n<10K"
    assert size_category(5912) == "1K<n<10K"
    assert size_category(12137) == "10K<n<100K"


def test_dataset_info_features_use_the_form_datasets_3_and_5_both_read() -> None:
    """Lists are ``sequence:``, never ``list:``.

    datasets >= 4 writes ``list:``; datasets 3.6 reads that as a legacy Python-list
    feature (``[Value('string')]``), not a ``Sequence``. ``sequence:`` is read as
    ``Sequence`` by 3.6 and as ``List`` by 5.x, with the same ClassLabel names (checked
    by hand with datasets 3.6.0 and huggingface-hub 0.36: identical configs, features and
    split sizes for all three cards). Here: the installed ``datasets`` reads it back.
    """
    from datasets.info import DatasetInfosDict

    def keys(value: object) -> set[str]:
        if isinstance(value, dict):
            return set(value).union(*(keys(item) for item in value.values()))
        if isinstance(value, list):
            return set().union(*(keys(item) for item in value))
        return set()

    for name in NAMES:
        card = DatasetCard.load(CARDS / name / README)
        used = keys([info["features"] for info in card.data.to_dict()["dataset_info"]])
        assert "list" not in used and "large_list" not in used
        assert ("sequence" in used) == (name != "apeach")  # apeach has no list feature
        infos = DatasetInfosDict.from_dataset_card_data(card.data)
        assert sorted(infos) == sorted(dataset_spec(name).config_names)


@pytest.mark.parametrize("name", NAMES)
def test_card_yaml_size_category_matches_the_committed_card(name: str) -> None:
    hub = yaml.safe_load(dataset_spec(name).card_source_path.read_text(encoding="utf-8"))["hub"]
    assert front_matter(_readme(name))["size_categories"] == hub["size_categories"]


# -- against the real data ------------------------------------------------------------------


@pytest.mark.real_data
@pytest.mark.parametrize("name", NAMES)
def test_committed_cards_do_not_drift(name: str, built: dict[str, Built]) -> None:
    for file_name, text in rendered_files(built[name]).items():
        committed = (CARDS / name / file_name).read_text(encoding="utf-8")
        assert committed == text, f"cards/{name}/{file_name} is stale: run hatemoji-datasets card"


@pytest.mark.real_data
@pytest.mark.parametrize("name", NAMES)
def test_lint_passes_against_the_data(name: str, built: dict[str, Built]) -> None:
    assert lint_card(CARDS / name / README, built[name].expected()) == []


@pytest.mark.real_data
def test_size_categories_from_all_rows(built: dict[str, Built]) -> None:
    assert built["apeach"].rows == 3770 + 7896 + 471
    assert built["hatemoji_build"].rows == 5912  # round configs are subsets of `all`
    assert front_matter(_readme("apeach"))["size_categories"] == ["10K<n<100K"]
    assert built["hatecheck"].rows == 3901  # the suite is a subset of all generated cases
    assert built["multilingual_hatecheck"].rows == 36582  # `all` stacks the languages
    assert front_matter(_readme("multilingual_hatecheck"))["size_categories"] == ["10K<n<100K"]


@pytest.mark.real_data
def test_lint_fails_on_wrong_dataset_info(tmp_path: Path, built: dict[str, Built]) -> None:
    path = _bad_copy(tmp_path, "apeach", "num_examples: 471", "num_examples: 470")
    problems = lint_card(path, built["apeach"].expected())
    assert len(problems) == 1 and "dataset_info beep: splits" in problems[0]


@pytest.mark.real_data
def test_installed_datasets_reads_the_same_features(built: dict[str, Built]) -> None:
    from datasets.info import DatasetInfosDict

    for name in NAMES:
        infos = DatasetInfosDict.from_dataset_card_data(
            DatasetCard.load(CARDS / name / README).data
        )
        for config, found in built[name].configs.items():
            assert infos[config].features == found.features
            assert {s: i.num_examples for s, i in infos[config].splits.items()} == {
                split: rows for split, (rows, _) in found.splits.items()
            }


@pytest.mark.real_data
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (("language:\n- en\n", "languages:\n- en\n"), "languages: deprecated key"),
        (("- expert-generated\nlanguage_creators", "- bots\nlanguage_creators"), "'bots'"),
        (("- 1K<n<10K\n", "- n<1K\n"), "size_categories: ['n<1K']"),
    ],
)
def test_card_check_command_names_each_problem(
    bad: tuple[str, str],
    message: str,
    tmp_path: Path,
    mirror: Path,
    session_cache: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shutil.copy(CARDS / "hatemoji_check" / CROISSANT, tmp_path / CROISSANT)
    _bad_copy(tmp_path, "hatemoji_check", *bad)
    argv = ["card", "hatemoji_check", "--check", "--out", str(tmp_path)]
    argv += ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err and "differs" in err and "Traceback" not in err


@pytest.mark.real_data
def test_card_command_writes_and_checks(
    tmp_path: Path, mirror: Path, session_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--out", str(tmp_path), "--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["card", "apeach", *common]) == 0
    assert (tmp_path / README).read_text(encoding="utf-8") == _readme("apeach")
    assert main(["card", "apeach", "--check", *common]) == 0
    (tmp_path / CROISSANT).unlink()
    assert main(["card", "apeach", "--check", *common]) == 1
    assert "missing" in capsys.readouterr().err


# -- distribution tables, recomputed independently ----------------------------------------


@pytest.mark.real_data
def test_hatemoji_check_functionality_table(built: dict[str, Built]) -> None:
    data = built["hatemoji_check"].configs["default"].data
    frame = data["test"].to_pandas()
    features = data["test"].features
    table = _table(_readme("hatemoji_check"), "Cases per functionality and perturbation")
    assert len(table) == 7
    for (f, p), group in frame.groupby(["functionality", "perturbation"]):
        row = table[f"F{f + 1} {features['functionality'].names[f]}"]
        perturbation = features["perturbation"].names[p]
        assert int(row[f"{perturbation} cases"]) == len(group)
        labels = group["label"].unique()
        assert len(labels) == 1
        assert row[f"{perturbation} label"] == features["label"].names[labels[0]]
    for f, group in frame.groupby("functionality"):
        assert int(table[f"F{f + 1} {features['functionality'].names[f]}"]["cases"]) == len(group)
    # The paper's originals per functionality (F1..F7).
    originals = [int(table[key]["original cases"]) for key in table]
    assert originals == [300, 120, 260, 288, 288, 440, 430]


@pytest.mark.real_data
def test_hatemoji_build_round_table(built: dict[str, Built]) -> None:
    data = built["hatemoji_build"].configs["all"].data
    frame = _frame(data)
    features = data["train"].features
    frame["emoji_count"] = frame["emoji"].map(len)
    table = _table(_readme("hatemoji_build"), "Entries per round")
    groups = [(f"R{r}", group) for r, group in frame.groupby("round")] + [("all", frame)]
    assert list(table) == [key for key, _ in groups]
    for key, group in groups:
        row = table[key]
        assert int(row["entries"]) == len(group)
        for split, count in group["split"].value_counts().items():
            assert int(row[split]) == count
        for label, count in group["label"].value_counts().items():
            assert int(row[features["label"].names[label]]) == count
        for kind, count in group["hate_type"].value_counts().items():
            assert int(row[f"hate type: {features['hate_type'].names[kind]}"]) == count
        mean, sd = group["emoji_count"].mean(), group["emoji_count"].std(ddof=1)
        assert float(row["mean emoji count"]) == round(mean, 2)
        assert float(row["sd emoji count"]) == round(sd, 2)
        distinct = {e for found in group["emoji"] for e in found}
        assert int(row["distinct emoji"]) == len(distinct)


@pytest.mark.real_data
def test_hatemoji_build_pair_leakage_table(built: dict[str, Built]) -> None:
    frame = _frame(built["hatemoji_build"].configs["all"].data)
    split_of = dict(zip(frame["entry_id"], frame["split"]))
    leaking = frame[[split_of[m] != s for m, s in zip(frame["matched_id"], frame["split"])]]
    table = _table(_readme("hatemoji_build"), "Pairs whose members lie in different splits")
    counts = {key: int(row["count"]) for key, row in table.items()}
    assert counts["pairs"] == len(frame) // 2
    assert counts["pairs with members in different splits"] == len(leaking) // 2 == 982
    for split, count in Counter(leaking["split"]).items():
        assert counts[f"{split} entries whose partner is in another split"] == count


@pytest.mark.real_data
def test_apeach_topic_table(built: dict[str, Built]) -> None:
    data = built["apeach"].configs["default"].data
    frame = data["test"].to_pandas()
    features = data["test"].features
    table = _table(_readme("apeach"), "APEACH: sentences per topic and label")
    crosstab = pd.crosstab(frame["topic"], frame["label"])
    for topic, row in crosstab.iterrows():
        cells = table[features["topic"].names[topic]]
        assert int(cells["hateful"]) == row[1] and int(cells["non-hateful"]) == row[0]
        assert int(cells["total"]) == row.sum()
    assert int(table["all"]["total"]) == len(frame) == 3770


@pytest.mark.real_data
def test_beep_hate_level_table(built: dict[str, Built]) -> None:
    data = built["apeach"].configs["beep"].data
    frame = _frame(data)
    names = data["train"].features["hate_level"].names
    table = _table(_readme("apeach"), "BEEP!: comments per hate level and split")
    crosstab = pd.crosstab(frame["split"], frame["hate_level"])
    for split, row in crosstab.iterrows():
        for level, count in row.items():
            assert int(table[split][names[level]]) == count
        hateful = int(row[names.index("offensive")] + row[names.index("hate")])
        assert int(table[split]["label: hateful"]) == hateful


@pytest.mark.real_data
def test_info_shows_the_card_statistics(built: dict[str, Built]) -> None:
    statistics = built["hatemoji_check"].configs["default"].statistics
    json.dumps(statistics)  # stored as JSON by info
    assert "cases per functionality" in statistics
    assert "emoji package" not in _readme("hatemoji_build")


# -- Croissant ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_croissant_file_objects_pin_the_upstream_files(name: str) -> None:
    metadata = json.loads((CARDS / name / CROISSANT).read_text(encoding="utf-8"))
    files = {item["@id"]: item for item in metadata["distribution"]}
    pinned = dataset_spec(name).source_files()
    assert sorted(files) == sorted(pinned)
    for source in pinned.values():
        assert files[source.name]["sha256"] == source.sha256
        assert files[source.name]["contentUrl"] == source.url
    assert metadata["conformsTo"] == "http://mlcommons.org/croissant/1.0"
    assert metadata["rai:dataLimitations"]


@pytest.mark.parametrize("name", NAMES)
def test_mlcroissant_accepts_each_croissant_file(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    mlc = pytest.importorskip("mlcroissant")

    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("validation tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    dataset = mlc.Dataset(jsonld=CARDS / name / CROISSANT)  # raises on any error
    assert not dataset.metadata.ctx.issues.errors
    # Each enumeration (ClassLabel names) is referenced by a field that yields the ids or
    # names (tests/test_croissant.py compares every record with the package's data).
    enumerations = {rs.id for rs in dataset.metadata.record_sets if rs.data}
    referenced = {
        field.references.field.split("/")[0]
        for rs in dataset.metadata.record_sets
        for field in rs.fields
        if field.references and field.references.field
    }
    assert enumerations == referenced
    if name != "apeach":  # APEACH and BEEP! spell their labels differently upstream
        enumeration = next(rs for rs in dataset.metadata.record_sets if rs.id == "label_names")
        assert [row["label_names/name"] for row in enumeration.data] == ["non-hateful", "hateful"]


def test_lint_text_without_front_matter() -> None:
    assert lint_text("# no metadata\n") == [
        "front matter: missing (the card must start with a YAML block between '---')"
    ]
    assert re.match(r"front matter: ", lint_text("---\n[unclosed\n---\n")[0])


# -- the HateCheck family ------------------------------------------------------------------

#: BCP-47 codes of Multilingual HateCheck's ten languages.
MHC_LANGUAGES = ["ar", "nl", "fr", "de", "hi", "it", "zh", "pl", "pt", "es"]


def test_multilingual_metadata_lists_every_language() -> None:
    from hatemoji_datasets.datasets.multilingual_hatecheck.spec import LANGUAGE_CODES, LANGUAGES

    card = front_matter(_readme("multilingual_hatecheck"))
    assert card["multilinguality"] == ["multilingual"]
    assert card["language"] == MHC_LANGUAGES == [LANGUAGE_CODES[lang] for lang in LANGUAGES]
    metadata = json.loads((CARDS / "multilingual_hatecheck" / CROISSANT).read_text("utf-8"))
    assert metadata["inLanguage"] == MHC_LANGUAGES
    assert front_matter(_readme("hatecheck"))["language"] == ["en"]


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("- ar\n", "", None),  # nine languages: still multilingual
        ("- nl\n- fr\n- de\n- hi\n- it\n- zh\n- pl\n- pt\n- es\n", "",
         "language: a multilingual card names 1, fewer than 2"),
        ("- nl\n", "- ar\n", "language: ar listed more than once"),
        ("- multilingual\n", "- monolingual\n",
         "language: a monolingual card names 10 languages, not 1"),
    ],
)  # fmt: skip
def test_lint_checks_languages_against_multilinguality(tmp_path: Path, old, new, problem) -> None:
    path = _bad_copy(tmp_path, "multilingual_hatecheck", old, new)
    problems = [p for p in lint_card(path) if p.startswith("language:")]
    assert problems == ([problem] if problem else [])


def test_errata_list_the_unified_spellings() -> None:
    text = _readme("multilingual_hatecheck")
    errata = text.split("### Errata\n", 1)[1].split("\n### ", 1)[0]
    for spelling in ("`Black people`", "`jews`", "`jewish people`", "`immigrant`"):
        assert spelling in errata


@pytest.mark.real_data
def test_hatecheck_functional_test_table(built: dict[str, Built]) -> None:
    data = built["hatecheck"].configs["default"].data["test"]
    frame = data.to_pandas()
    names = data.features["functionality"].names
    table = _table(_readme("hatecheck"), "Cases per functional test")
    assert list(table) == [f"F{i + 1} {name}" for i, name in enumerate(names)]
    for code, group in frame.groupby("functionality"):
        row = table[f"F{code + 1} {names[code]}"]
        assert int(row["cases"]) == len(group)
        assert row["label"] == ("hateful" if group["label"].iloc[0] == 1 else "non-hateful")
    assert sum(int(row["cases"]) for row in table.values()) == 3728


@pytest.mark.real_data
def test_hatecheck_agreement_tables(built: dict[str, Built]) -> None:
    from statsmodels.stats.inter_rater import fleiss_kappa

    for config, title in (
        ("default", "Annotator agreement in the test suite"),
        ("all", "Annotator agreement over all generated cases"),
    ):
        data = built["hatecheck"].configs[config].data["test"]
        given = np.array(data["annotator_labels"])
        counts = np.column_stack([(given == 0).sum(axis=1), (given == 1).sum(axis=1)])
        row = _table(_readme("hatecheck"), title)["test"]
        assert row["Fleiss' kappa"] == f"{fleiss_kappa(counts):.3f}"
        gold = np.array(data["label"])
        agreeing = Counter((given == gold[:, None]).sum(axis=1))
        for n, count in agreeing.items():
            assert int(row[f"cases with {n} agreeing with gold"]) == count
    assert _table(_readme("hatecheck"), "All generated cases and the test suite") == {
        "in the suite": {"count": "3728"},
        "not in the suite": {"count": "173"},
    }


@pytest.mark.real_data
def test_multilingual_hatecheck_language_table(built: dict[str, Built]) -> None:
    data = built["multilingual_hatecheck"].configs["all"].data["test"]
    frame = data.to_pandas()
    languages = data.features["language"].names
    table = _table(_readme("multilingual_hatecheck"), "Cases per language")
    assert list(table) == languages
    for code, group in frame.groupby("language"):
        row = table[languages[code]]
        assert int(row["cases"]) == len(group)
        assert int(row["hateful"]) == int(group["label"].sum())
        assert int(row["functionalities"]) == group["functionality"].nunique()
    agreement = _table(_readme("multilingual_hatecheck"), "Annotator agreement per language")
    assert agreement["french"]["majority differs from gold"] == "789"
    assert agreement["italian"]["majority differs from gold"] == "27"
    assert agreement["all"]["cases"] == "36582"
