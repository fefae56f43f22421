"""The hand-written card sources (``card.yaml``) are complete and use the Hub's vocabularies.

Allowed values come from the lists that ``datasets`` ships in
``datasets.utils.resources``: ``creators.json`` (a mapping with the keys
``language`` and ``annotations``), ``multilingualities.json``,
``size_categories.json`` and ``languages.json``. Which corpora each card describes and
its Hub language are stated in the dataset's folder (``testing.py``).
"""

from __future__ import annotations

import pytest
import yaml
from conftest import dataset_facts

from hatemoji_datasets.cards.lint import allowed_values
from hatemoji_datasets.core.registry import dataset_spec, specs

CARD_NAMES = list(specs())

#: The long-form data statement (Bender & Friedman 2018; McMillan-Major et al. 2023).
DATA_STATEMENT_KEYS = (
    "curation_rationale",
    "language_variety",
    "speaker_demographic",
    "annotator_demographic",
    "speech_situation",
    "text_characteristics",
    "preprocessing_and_data_formatting",
    "capture_quality",
    "limitations",
    "metadata",
    "disclosures_and_ethical_review",
)
#: Keys the Hub has deprecated in favour of ``language`` and ``license``.
DEPRECATED_KEYS = ("languages", "licenses")


def _as_list(value: object) -> list:
    return value if isinstance(value, list) else [value]


@pytest.fixture(scope="module")
def allowed() -> dict[str, set[str]]:
    return allowed_values()  # the lists datasets ships, as the card lint reads them


@pytest.fixture(scope="module", params=CARD_NAMES)
def card(request: pytest.FixtureRequest) -> tuple[str, dict]:
    path = dataset_spec(request.param).card_source_path
    with path.open(encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    assert isinstance(data, dict), path
    return request.param, data


def test_existing_keys_kept(card: tuple[str, dict]) -> None:
    _, data = card
    for key in ("homepage", "license", "content_warning", "description"):
        assert isinstance(data.get(key), str) and data[key].strip(), key
    # The pretty name is declared once, in the dataset's spec.py.
    assert "pretty_name" not in data and "pretty_name" not in data.get("hub", {})
    assert isinstance(data.get("citation"), str) and data["citation"].startswith(
        ("@inproceedings", "@misc")
    )


def test_uses_are_lists_of_strings(card: tuple[str, dict]) -> None:
    _, data = card
    for key in ("intended_uses", "out_of_scope_uses"):
        uses = data.get(key)
        assert isinstance(uses, list) and uses, key
        assert all(isinstance(use, str) and use.strip() for use in uses), key


def test_data_statements_complete(card: tuple[str, dict]) -> None:
    name, data = card
    statements = data.get("data_statements")
    assert isinstance(statements, dict)
    assert sorted(statements) == sorted(dataset_facts(name).CARD_STATEMENTS)
    for corpus, statement in statements.items():
        assert isinstance(statement, dict), corpus
        assert set(statement) == set(DATA_STATEMENT_KEYS), corpus
        for key in DATA_STATEMENT_KEYS:
            value = statement[key]
            assert isinstance(value, str) and value.strip(), f"{corpus}: {key}"


def test_hub_values_allowed(card: tuple[str, dict], allowed: dict[str, set[str]]) -> None:
    name, data = card
    hub = data.get("hub")
    assert isinstance(hub, dict)
    for key, values in allowed.items():
        assert key in hub, key
        for value in _as_list(hub[key]):
            assert value in values, f"{name}: {key}: {value!r}"
    assert hub["language"] == dataset_facts(name).HUB_LANGUAGE
    assert hub["license"] == data["license"]
    assert hub["task_categories"] == ["text-classification"]
    assert "hate-speech-detection" in hub["task_ids"]


def test_no_deprecated_keys(card: tuple[str, dict]) -> None:
    _, data = card
    for mapping in (data, data.get("hub", {})):
        for key in DEPRECATED_KEYS:
            assert key not in mapping, key
