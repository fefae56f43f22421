"""An offline lint of a rendered dataset card (``README.md`` with YAML front matter).

``huggingface_hub.DatasetCard.validate()`` asks the Hub, so it cannot run in CI
without network access. This lint checks what it can from files that
``datasets`` ships (``datasets/utils/resources``): every metadata key is one the
Hub knows and none is deprecated; the creators, multilinguality, size
category and language values come from the allowed lists; a monolingual card
names one language and a multilingual one each of its (two or more); ``size_categories``
agrees with the number of rows; and, given the built data, ``dataset_info``
names the same configs, features and split sizes.
"""

from __future__ import annotations

import importlib.resources
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.file_reads import read_text

#: Dataset card metadata keys the Hub reads (hub-docs ``datasetcard.md``).
KNOWN_KEYS = frozenset(
    {
        "language",
        "license",
        "license_name",
        "license_link",
        "license_details",
        "tags",
        "annotations_creators",
        "language_creators",
        "language_details",
        "pretty_name",
        "size_categories",
        "source_datasets",
        "task_categories",
        "task_ids",
        "paperswithcode_id",
        "multilinguality",
        "configs",
        "dataset_info",
        "extra_gated_prompt",
        "extra_gated_fields",
        "extra_gated_button_content",
        "extra_gated_heading",
        "extra_gated_description",
        "viewer",
        "train-eval-index",
        "config_names",
    }
)
#: Deprecated keys and what replaced them.
DEPRECATED_KEYS = {
    "languages": "language",
    "licenses": "license",
    "task_categories_ids": "task_ids",
    "train_eval_index": "train-eval-index",
}
#: ``size_categories`` buckets by upper bound (exclusive), as the Hub names them.
SIZE_BUCKETS: tuple[tuple[int, str], ...] = (
    (10**3, "n<1K"),
    (10**4, "1K<n<10K"),
    (10**5, "10K<n<100K"),
    (10**6, "100K<n<1M"),
    (10**7, "1M<n<10M"),
    (10**8, "10M<n<100M"),
    (10**9, "100M<n<1B"),
    (10**10, "1B<n<10B"),
    (10**11, "10B<n<100B"),
    (10**12, "100B<n<1T"),
)


@dataclass(frozen=True)
class Expected:
    """What the built data says a card's metadata must hold."""

    #: Rows of the dataset (each upstream row counted once).
    rows: int
    #: ``{config: {"features": [names...], "splits": {split: rows}}}``.
    configs: dict[str, dict[str, Any]] = field(default_factory=dict)


def size_category(rows: int) -> str:
    """The Hub's ``size_categories`` bucket for ``rows`` rows."""
    for bound, name in SIZE_BUCKETS:
        if rows < bound:
            return name
    return "n>1T"


@cache
def _resource(name: str) -> Any:
    resources = importlib.resources.files("datasets.utils.resources")
    return json.loads(resources.joinpath(name).read_text(encoding="utf-8"))


def allowed_values() -> dict[str, set[str]]:
    """The values ``datasets`` allows for the keys that have a closed list."""
    creators = _resource("creators.json")
    return {
        "annotations_creators": set(creators["annotations"]),
        "language_creators": set(creators["language"]),
        "multilinguality": set(_resource("multilingualities.json")),
        "size_categories": set(_resource("size_categories.json")),
        "language": set(_resource("languages.json")),
    }


def front_matter(text: str) -> dict[str, Any]:
    """The YAML metadata block of a card's text (``{}`` when there is none)."""
    if not text.startswith("---"):
        return {}
    parts = text.split("\n---", 1)
    if len(parts) != 2:
        raise ValueError("the YAML front matter is not closed by a '---' line")
    data = yaml.safe_load(parts[0][3:])
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError("the YAML front matter is not a mapping")
    return data


def lint_text(text: str, expected: Expected | None = None) -> list[str]:
    """Every problem of a card's metadata, one message each (empty when the card is fine)."""
    try:
        metadata = front_matter(text)
    except (ValueError, yaml.YAMLError) as exc:
        return [f"front matter: {exc}".replace("\n", " ")]
    if not metadata:
        return ["front matter: missing (the card must start with a YAML block between '---')"]
    problems: list[str] = []
    for key in metadata:
        if key in DEPRECATED_KEYS:
            problems.append(f"{key}: deprecated key, use {DEPRECATED_KEYS[key]!r}")
        elif key not in KNOWN_KEYS:
            problems.append(f"{key}: unknown metadata key")
    for key, allowed in allowed_values().items():
        if key not in metadata:
            problems.append(f"{key}: missing")
            continue
        for value in as_list(metadata[key]):
            if value not in allowed:
                problems.append(f"{key}: {value!r} is not an allowed value")
    problems += _check_languages(metadata)
    if expected is not None:
        problems += _check_size(metadata, expected)
        problems += _check_dataset_info(metadata, expected)
    return problems


def lint_card(path: str | Path, expected: Expected | None = None) -> list[str]:
    """:func:`lint_text` of the card at ``path``."""
    try:
        text = read_text(path)
    except InputError as error:
        return [f"{path}: cannot read ({error.finding.message})"]
    return lint_text(text, expected)


def as_list(value: Any) -> list[Any]:
    """A YAML value that may be one item or a list, as a list."""
    return value if isinstance(value, list) else [value]


def _check_languages(metadata: dict[str, Any]) -> list[str]:
    """A monolingual card names one language; a multilingual one names each of its languages
    (at least two), none twice."""
    languages = as_list(metadata.get("language", []))
    kinds = as_list(metadata.get("multilinguality", []))
    problems = []
    if "monolingual" in kinds and len(languages) != 1:
        problems.append(f"language: a monolingual card names {len(languages)} languages, not 1")
    if "multilingual" in kinds and len(languages) < 2:
        problems.append(f"language: a multilingual card names {len(languages)}, fewer than 2")
    repeated = sorted({str(lang) for lang in languages if languages.count(lang) > 1})
    if repeated:
        problems.append(f"language: {', '.join(repeated)} listed more than once")
    return problems


def _check_size(metadata: dict[str, Any], expected: Expected) -> list[str]:
    wanted = size_category(expected.rows)
    found = as_list(metadata.get("size_categories", []))
    if found != [wanted]:
        return [f"size_categories: {found} but the dataset has {expected.rows:,} rows ({wanted})"]
    return []


def _check_dataset_info(metadata: dict[str, Any], expected: Expected) -> list[str]:
    infos = metadata.get("dataset_info")
    if infos is None:
        return ["dataset_info: missing"]
    if isinstance(infos, dict):
        infos = [infos]
    if not isinstance(infos, list) or not all(isinstance(info, dict) for info in infos):
        return ["dataset_info: not a list of configs"]
    problems: list[str] = []
    found = {info.get("config_name", "default"): info for info in infos}
    if sorted(found) != sorted(expected.configs):
        problems.append(
            f"dataset_info: configs {sorted(found)} but the data has {sorted(expected.configs)}"
        )
    for config, wanted in expected.configs.items():
        info = found.get(config)
        if info is None:
            continue
        names = [feature.get("name") for feature in info.get("features") or []]
        if names != wanted["features"]:
            problems.append(
                f"dataset_info {config}: features {names} but the data has {wanted['features']}"
            )
        splits = {
            split.get("name"): split.get("num_examples") for split in info.get("splits") or []
        }
        if splits != wanted["splits"]:
            problems.append(
                f"dataset_info {config}: splits {splits} but the data has {wanted['splits']}"
            )
    return problems
