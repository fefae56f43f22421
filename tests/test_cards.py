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
from conftest import dataset_facts
from huggingface_hub import DatasetCard
from support.cards import committed_card

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


def _languages(name: str) -> str:
    """The card's ``language`` block, as ``HUB_LANGUAGE`` states it."""
    return "language:\n" + "".join(f"- {code}\n" for code in dataset_facts(name).HUB_LANGUAGE)


def _first_creator(name: str) -> str:
    """The card's ``annotations_creators`` line with its first creator."""
    return f"annotations_creators:\n- {front_matter(_readme(name))['annotations_creators'][0]}\n"


@pytest.mark.parametrize("name", NAMES)
def test_lint_fails_on_a_deprecated_key(name: str, tmp_path: Path) -> None:
    old = _languages(name)
    path = _bad_copy(tmp_path, name, old, old.replace("language:", "languages:", 1))
    problems = lint_card(path)
    assert any(p.startswith("languages: deprecated") for p in problems), problems


@pytest.mark.parametrize("name", NAMES)
def test_lint_fails_on_an_unknown_creator(name: str, tmp_path: Path) -> None:
    path = _bad_copy(tmp_path, name, _first_creator(name), "annotations_creators:\n- volunteers\n")
    problems = lint_card(path)
    assert problems == ["annotations_creators: 'volunteers' is not an allowed value"]


@pytest.mark.parametrize("name", NAMES)
def test_lint_fails_on_an_unknown_key(name: str, tmp_path: Path) -> None:
    path = _bad_copy(tmp_path, name, "\ntags:\n", "\nlabels:\n- x\ntags:\n")
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
    for name in NAMES:
        rows = dataset_facts(name).CARD_ROWS
        assert size_category(rows) == _bucket(rows), name


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
        assert ("sequence" in used) == has_list  # a card without list features has none
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


def _card_problems(name: str) -> list[tuple[tuple[str, str], str]]:
    """Three edits of the card of ``name`` (its language key, a creator, its size category)
    and the problem ``card --check`` names for each."""
    right = _bucket(dataset_facts(name).CARD_ROWS)
    wrong = next(bucket for _, bucket in BUCKETS if bucket != right)
    languages = _languages(name)
    return [
        ((languages, languages.replace("language:", "languages:", 1)), "languages: deprecated key"),
        ((_first_creator(name), "annotations_creators:\n- bots\n"), "'bots'"),
        ((f"- {right}\n", f"- {wrong}\n"), f"size_categories: ['{wrong}']"),
    ]


@pytest.mark.real_data
@pytest.mark.parametrize(("bad", "message"), _card_problems(NAMES[0]))
def test_card_check_command_names_each_problem(
    bad: tuple[str, str],
    message: str,
    tmp_path: Path,
    mirror: Path,
    session_cache: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = NAMES[0]
    shutil.copy(CARDS / name / CROISSANT, tmp_path / CROISSANT)
    _bad_copy(tmp_path, name, *bad)
    argv = ["card", name, "--check", "--out", str(tmp_path)]
    argv += ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err and "differs" in err and "Traceback" not in err


@pytest.mark.real_data
def test_card_command_writes_and_checks(
    tmp_path: Path, mirror: Path, session_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = NAMES[0]
    common = ["--out", str(tmp_path), "--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["card", name, *common]) == 0
    assert (tmp_path / README).read_text(encoding="utf-8") == _readme(name)
    assert main(["card", name, "--check", *common]) == 0
    (tmp_path / CROISSANT).unlink()
    assert main(["card", name, "--check", *common]) == 1
    assert "missing" in capsys.readouterr().err


# -- distribution tables, recomputed independently ----------------------------------------


@pytest.mark.real_data
@pytest.mark.parametrize("name", NAMES)
def test_info_shows_the_card_statistics(name: str, built: dict[str, Built]) -> None:
    """``info`` shows each config's statistics, the tables the card's source names among
    them; a statistic that is no table (a library's version) is left out of the card."""
    tables = yaml.safe_load(dataset_spec(name).card_source_path.read_text(encoding="utf-8"))
    for config, found in built[name].configs.items():
        json.dumps(found.statistics)  # stored as JSON by info
        tabulated = {t["statistic"] for t in tables.get("tables", []) if t["config"] == config}
        assert tabulated <= set(found.statistics), config
        for key, value in found.statistics.items():
            if isinstance(value, str):
                assert key not in _readme(name), (config, key)


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


# -- languages against multilinguality ----------------------------------------------------


def _language_edits(name: str) -> list:
    """Edits of the card's language tags and multilinguality, and the problem each makes:
    a one-language card called multilingual; a card of several languages cut to its first,
    with its first repeated, called monolingual, and (three or more) one language fewer."""
    codes = dataset_facts(name).HUB_LANGUAGE
    block, one = _languages(name), "language: a multilingual card names 1, fewer than 2"

    def tags(*kept: str) -> str:
        return "language:\n" + "".join(f"- {code}\n" for code in kept)

    cases = {}
    if len(codes) == 1:
        cases["multilingual"] = ("- monolingual\n", "- multilingual\n", one)
    else:
        repeat = f"language: {codes[0]} listed more than once"
        many = f"language: a monolingual card names {len(codes)} languages, not 1"
        cases["only the first"] = (block, tags(codes[0]), one)
        cases["a repeat"] = (block, tags(codes[0], codes[0], *codes[2:]), repeat)
        cases["monolingual"] = ("- multilingual\n", "- monolingual\n", many)
    if len(codes) >= 3:
        cases["one fewer"] = (block, tags(*codes[1:]), None)  # still multilingual
    return [pytest.param(name, *case, id=f"{name}-{what}") for what, case in cases.items()]


@pytest.mark.parametrize(
    ("name", "old", "new", "problem"), [case for name in NAMES for case in _language_edits(name)]
)
def test_lint_checks_languages_against_multilinguality(
    name: str, tmp_path: Path, old: str, new: str, problem: str | None
) -> None:
    path = _bad_copy(tmp_path, name, old, new)
    problems = [p for p in lint_card(path) if p.startswith("language:")]
    assert problems == ([problem] if problem else [])
