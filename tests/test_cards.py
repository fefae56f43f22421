"""Dataset cards and Croissant metadata: rendered from the data, committed, linted offline.

The tables of one dataset's card are recomputed independently (pandas over the loaded
datasets, never with the ``statistics`` functions the cards use) in that dataset's own
test module (``test_<name>.py``).
"""

from __future__ import annotations

import json
import re
import shutil
import socket
from pathlib import Path

import pytest
import yaml
from conftest import committed_card, dataset_facts
from huggingface_hub import DatasetCard

from hatemoji_datasets.cards.body import DATA_STATEMENT_SECTIONS
from hatemoji_datasets.cards.files import CROISSANT, README, rendered_files
from hatemoji_datasets.cards.gather import Built, build
from hatemoji_datasets.cards.lint import Expected, front_matter, lint_card, lint_text, size_category
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.features import element_of
from hatemoji_datasets.core.registry import dataset_spec, specs

REPO = Path(__file__).resolve().parents[1]
CARDS = REPO / "cards"
NAMES = list(specs())


@pytest.fixture(scope="module")
def built(mirror: Path, session_cache: Path) -> dict[str, Built]:
    return {name: build(name, cache_dir=str(session_cache), mirror=str(mirror)) for name in NAMES}


_readme = committed_card


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
    for corpus in dataset_facts(name).CARD_STATEMENTS:
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


#: The Hub's size categories this suite's datasets fall in: (rows below, category).
BUCKETS = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"))


def _bucket(rows: int) -> str:
    return next(bucket for limit, bucket in BUCKETS if rows < limit)


def test_lint_fails_on_a_wrong_size_category_offline(tmp_path: Path) -> None:
    name = NAMES[0]
    rows = dataset_facts(name).CARD_ROWS
    right = _bucket(rows)
    wrong = next(bucket for _, bucket in BUCKETS if bucket != right)
    path = _bad_copy(tmp_path, name, f"- {right}\n", f"- {wrong}\n")
    problems = [p for p in lint_card(path, Expected(rows=rows)) if p.startswith("size_categories")]
    assert problems == [f"size_categories: ['{wrong}'] but the dataset has {rows:,} rows ({right})"]


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
        spec = dataset_spec(name)
        declared = [spec.load(c.features)(c, spec.version) for c in spec.configs]
        has_list = any(element_of(f) is not None for fs in declared for f in fs.values())
        assert ("sequence" in used) == has_list  # APEACH's configs have no list feature
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
@pytest.mark.parametrize("name", NAMES)
def test_the_card_counts_every_distinct_row(name: str, card_data) -> None:
    rows = dataset_facts(name).CARD_ROWS
    assert card_data(name).rows == rows
    assert front_matter(_readme(name))["size_categories"] == [_bucket(rows)]


@pytest.mark.real_data
def test_lint_fails_on_wrong_dataset_info(tmp_path: Path, built: dict[str, Built]) -> None:
    name = NAMES[0]
    # A split whose size no other split of the dataset has: its card line is that split's.
    sizes = [(n, config) for config, splits in dataset_facts(name).SPLITS.items()
             for n in splits.values()]  # fmt: skip
    count, config = next((n, c) for n, c in sizes if [m for m, _ in sizes].count(n) == 1)
    path = _bad_copy(tmp_path, name, f"num_examples: {count}\n", f"num_examples: {count - 1}\n")
    problems = lint_card(path, built[name].expected())
    assert len(problems) == 1 and f"dataset_info {config}: splits" in problems[0]


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
    expected = dataset_facts(name).LABEL_NAMES
    if expected is not None:
        enumeration = next(rs for rs in dataset.metadata.record_sets if rs.id == "label_names")
        assert [row["label_names/name"] for row in enumeration.data] == list(expected)


def test_lint_text_without_front_matter() -> None:
    assert lint_text("# no metadata\n") == [
        "front matter: missing (the card must start with a YAML block between '---')"
    ]
    assert re.match(r"front matter: ", lint_text("---\n[unclosed\n---\n")[0])


# -- the HateCheck family ------------------------------------------------------------------


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
