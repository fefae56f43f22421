"""SQL engines and dataframes on the Hub export: the card's DuckDB query and its polars
equivalent run in the export's folder and show label names, counted as the package counts.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections import Counter
from pathlib import Path

import datasets
import pytest
from support.paths import REPO

from hatemoji_datasets import load_dataset
from hatemoji_datasets.cards.croissant.repository import parquet_name
from hatemoji_datasets.core.registry import dataset_spec, specs

duckdb = pytest.importorskip("duckdb")
polars = pytest.importorskip("polars")

NAMES = list(specs())


def card_blocks(name: str, language: str) -> list[str]:
    """The card's code blocks in ``language`` after its SQL paragraph."""
    text = (REPO / "cards" / name / "README.md").read_text(encoding="utf-8")
    section = text.split("With SQL or a dataframe library", 1)[1].split("\n### ", 1)[0]
    return re.findall(rf"```{language}\n(.*?)```", section, flags=re.DOTALL)


def expected_counts(name: str, mirror: Path, session_cache: Path) -> dict[str, int]:
    config = dataset_spec(name).config()
    data = load_dataset(
        name,
        config.name,
        split=config.eval_split,
        cache_dir=str(session_cache),
        mirror=str(mirror),
    )
    names = data.features["label"].names
    return {names[label]: count for label, count in Counter(data["label"]).items()}


@pytest.mark.parametrize("name", NAMES)
def test_the_cards_duckdb_query_shows_label_names(
    name: str, exported, mirror: Path, session_cache: Path, monkeypatch
) -> None:
    (query,) = card_blocks(name, "sql")
    monkeypatch.chdir(exported(name))  # the card's paths are relative to the export
    result = duckdb.sql(query)
    assert result.columns == ["label", "n"]
    rows = result.fetchall()
    print(result)  # the table a user sees: names, not ids
    assert {label: n for label, n in rows} == expected_counts(name, mirror, session_cache)
    assert all(isinstance(label, str) and not label.isdigit() for label, _ in rows)


@pytest.mark.parametrize("name", NAMES)
def test_the_cards_polars_code_prints_the_same(
    name: str, exported, mirror: Path, session_cache: Path, monkeypatch
) -> None:
    (code,) = card_blocks(name, "python")[-1:]
    monkeypatch.chdir(exported(name))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, f"cards/{name}/README.md", "exec"), {})
    for label, count in expected_counts(name, mirror, session_cache).items():
        assert re.search(rf"│ {re.escape(label)}\s*┆ {count}\s*│", printed.getvalue()), label


def _lists_of_class_labels() -> list[tuple[str, str, str]]:
    """``(dataset, config, feature)``: each dataset's first declared feature that is a list of
    ClassLabels, in its first config declaring one."""
    found = {}
    for name, spec in specs().items():
        for config in spec.configs:
            declared = spec.load(config.features)(config, spec.version)
            for column, feature in declared.items():
                if isinstance(getattr(feature, "feature", None), datasets.ClassLabel):
                    found.setdefault(name, (name, config.name, column))
    return list(found.values())


@pytest.mark.parametrize(("name", "config", "column"), _lists_of_class_labels())
def test_list_of_class_labels_through_the_label_table(
    name: str, config: str, column: str, exported, mirror, session_cache
) -> None:
    """A list of ClassLabels is ``BIGINT[]``: unnest it and join the label table for the
    codes."""
    split = dataset_spec(name).config(config).eval_split
    folder = exported(name)
    query = f"""
        SELECT l.name AS target, count(*) AS entries
        FROM (SELECT unnest("{column}") AS target
              FROM '{folder}/{parquet_name(config, split)}') AS t
        JOIN '{folder}/labels.parquet' AS l
          ON l.config = '{config}' AND l.feature = '{column}' AND l.id = t.target
        GROUP BY l.name
    """
    found = dict(duckdb.sql(query).fetchall())
    data = load_dataset(name, config, split=split, cache_dir=str(session_cache), mirror=str(mirror))
    names = data.features[column].feature.names
    assert found and found == dict(Counter(names[i] for row in data[column] for i in row))
