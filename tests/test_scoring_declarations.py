"""Every dataset config's scoring declaration, checked against its built features and,
with the mirror, its evaluation split: each table groups by and filters on built columns,
each declared row filter selects rows, and every config reports accuracy per gold label.

The tables' figures are checked elsewhere (tests/test_evaluate.py, the per-dataset tests,
tests/test_hatecheck_reproducing.py); here, only what a declaration promises.
"""

from __future__ import annotations

from pathlib import Path

import datasets
import numpy as np
import pandas as pd
import pytest
from support.paths import all_configs

from hatemoji_datasets import load_dataset
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.core.scoring import Breakdown, Rows, Scoring
from hatemoji_datasets.evaluate.breakdowns import Context, covered, declaration_problems, tables

CONFIGS = all_configs()


def _declared(name: str, config: str):
    spec = dataset_spec(name)
    config_spec = spec.config(config)
    features = spec.load(config_spec.features)(config_spec, spec.version)
    return spec, config_spec, features


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_every_config_reports_accuracy_per_gold_label(name: str, config: str) -> None:
    _, config_spec, _ = _declared(name, config)
    assert config_spec.scoring is not None
    by_label = [
        b
        for b in config_spec.scoring.breakdowns
        if isinstance(b, Breakdown) and b.by == ("label",) and b.rows is None
    ]
    assert by_label and "accuracy" in by_label[0].metrics, f"{name}/{config}"


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_declared_tables_use_built_columns(name: str, config: str) -> None:
    _, config_spec, features = _declared(name, config)
    scoring = config_spec.scoring
    assert scoring is not None
    empty = pd.DataFrame({column: [] for column in features})
    # On no rows every filter selects nothing: only that problem may be reported.
    problems = declaration_problems(scoring, empty, features)
    assert all("select none of the 0 rows" in p for p in problems), problems
    names = [declared.name for declared in scoring.breakdowns]
    assert len(names) == len(set(names)), names


@pytest.fixture(scope="module")
def evaluation_split(mirror: Path, session_cache: Path):
    def load(name: str, config: str) -> datasets.Dataset:
        spec, config_spec, _ = _declared(name, config)
        return load_dataset(
            name,
            config,
            split=config_spec.eval_split,
            cache_dir=str(session_cache),
            mirror=str(mirror),
        )

    return load


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_declared_row_filters_select_rows_of_the_real_split(
    evaluation_split, name: str, config: str
) -> None:
    _, config_spec, _ = _declared(name, config)
    data = evaluation_split(name, config)
    assert config_spec.scoring is not None
    assert declaration_problems(config_spec.scoring, data.to_pandas(), data.features) == []


# -- the row filter itself, on a tiny neutral frame -----------------------------------------

FEATURES = datasets.Features(
    {
        "label": datasets.ClassLabel(names=["non-hateful", "hateful"]),
        "kind": datasets.ClassLabel(names=["plain", "templated"]),
        "template": datasets.Value("string"),
        "template_b": datasets.Value("string"),
        "word": datasets.Value("string"),
    }
)
FRAME = pd.DataFrame(
    {
        "label": [1, 1, 0, 0, 1, 0],
        "kind": [1, 1, 1, 0, 0, 0],
        "template": ["I like [GROUP_P].", None, "", "", "No slot.", None],
        "template_b": [None, "We like [GROUP_S].", "", "", None, None],
        "word": ["cat", "cat", "dog", "dog", "cat", None],
        "_gold": [1, 1, 0, 0, 1, 0],
        "_pred": [1, 0, 0, 1, 1, 0],
    }
)
IN_TEMPLATES = Rows("templated rows", columns=("template", "template_b"), contains="[GROUP")
NOWHERE = Rows("rows of nowhere", columns=("template",), contains="[NOWHERE")


def _context(frame: pd.DataFrame = FRAME) -> Context:
    from sklearn import metrics

    return Context(frame, FEATURES, "index", metrics, None)


def test_a_text_filter_reads_every_declared_column_and_skips_nulls() -> None:
    assert covered(FRAME, FEATURES, IN_TEMPLATES).tolist() == [True, True, False] + [False] * 3


def test_a_value_filter_takes_class_names_or_plain_values() -> None:
    by_name = Rows("plain rows", columns=("kind",), values=("plain",))
    assert covered(FRAME, FEATURES, by_name).tolist() == [False] * 3 + [True] * 3
    plain = Rows("dogs", columns=("word",), values=("dog",))
    assert covered(FRAME, FEATURES, plain).tolist() == [False, False, True, True, False, False]


def test_a_filtered_table_counts_only_its_rows_and_says_so() -> None:
    scoring = Scoring(
        breakdowns=(
            Breakdown("words", "Per word, templated rows", by=("word",), rows=IN_TEMPLATES),
        ),
        plot=("words", "accuracy"),
    )
    found, notes = tables(None, scoring, _context())  # type: ignore[arg-type]
    assert [(row["word"], row["n"], row["accuracy"]) for row in found[0].rows] == [("cat", 2, 0.5)]
    assert notes == ["Per word, templated rows: 2 of the 6 scored rows, templated rows."]


def test_a_filter_that_selects_nothing_is_a_declaration_error_never_an_empty_table() -> None:
    scoring = Scoring(
        breakdowns=(Breakdown("nothing", "Nothing", by=("word",), rows=NOWHERE),),
        plot=("nothing", "accuracy"),
    )
    (problem,) = declaration_problems(scoring, FRAME, FEATURES)
    assert "'nothing'" in problem and "select none of the 6 rows" in problem
    assert "'[NOWHERE'" in problem and "template" in problem
    # On a slice of a split without those rows, the report leaves the table out, saying so.
    found, notes = tables(None, scoring, _context())  # type: ignore[arg-type]
    assert found == [] and notes == [
        "Nothing: left out, as none of the 6 scored rows are rows of nowhere."
    ]


def test_a_declaration_naming_a_column_or_class_that_does_not_exist_is_an_error() -> None:
    scoring = Scoring(
        breakdowns=(
            Breakdown("a", "A", by=("colour",)),
            Breakdown("b", "B", by=("word",), rows=Rows("x", columns=("kind",), values=("odd",))),
        ),
        plot=("a", "accuracy"),
    )
    assert declaration_problems(scoring, FRAME, FEATURES) == [
        "table 'a': no built column 'colour'",
        "table 'b': 'kind' has no class 'odd'",
    ]


@pytest.mark.parametrize(
    "arguments",
    [
        {"columns": ()},
        {"columns": ("word",)},
        {"columns": ("word",), "contains": "a", "values": ("b",)},
    ],
)
def test_rows_need_columns_and_exactly_one_test(arguments) -> None:
    with pytest.raises(ValueError, match="Rows"):
        Rows("x", **({"contains": "[x"} if arguments == {"columns": ()} else {}), **arguments)


def test_gold_label_accuracy_is_the_recall_of_each_class() -> None:
    from hatemoji_datasets.core.scoring import PER_GOLD_LABEL

    scoring = Scoring(breakdowns=(PER_GOLD_LABEL,), plot=("gold_labels", "accuracy"))
    found, _ = tables(None, scoring, _context())  # type: ignore[arg-type]
    gold, pred = FRAME["_gold"].to_numpy(), FRAME["_pred"].to_numpy()
    assert [(r["label"], r["n"]) for r in found[0].rows] == [("non-hateful", 3), ("hateful", 3)]
    recalls = [np.mean(pred[gold == label] == label) for label in (0, 1)]  # 2/3 each
    assert [r["accuracy"] for r in found[0].rows] == pytest.approx(recalls)


def test_a_list_column_counts_a_row_in_every_group_it_lists() -> None:
    features = datasets.Features(
        {**FEATURES, "tags": datasets.Sequence(datasets.ClassLabel(names=["a", "b", "c"]))}
    )
    frame = FRAME.assign(tags=[[0, 1], [1], [], [2], [0], [0, 2]])
    scoring = Scoring(breakdowns=(Breakdown("tags", "T", by=("tags",)),), plot=("tags", "accuracy"))
    assert declaration_problems(scoring, frame, features) == []
    context = Context(frame, features, "index", _context().metrics, None)
    found, _ = tables(None, scoring, context)  # type: ignore[arg-type]
    right = (FRAME["_gold"] == FRAME["_pred"]).to_numpy()
    # Independently: a row is in group g exactly when g is among its tags.
    expected = {
        name: (
            int(sum(g in t for t in frame["tags"])),
            right[[g in t for t in frame["tags"]]].mean(),
        )
        for g, name in enumerate("abc")
    }
    rows = [(r["tags"], r["n"], r["accuracy"]) for r in found[0].rows]
    assert rows == [(name, n, pytest.approx(accuracy)) for name, (n, accuracy) in expected.items()]


def test_a_table_grouped_by_a_column_it_cannot_group_by_is_a_declaration_error() -> None:
    features = datasets.Features(
        {**FEATURES, "pairs": datasets.Sequence({"x": datasets.Value("int8")})}
    )
    scoring = Scoring(breakdowns=(Breakdown("p", "P", by=("pairs",)),), plot=("p", "accuracy"))
    assert declaration_problems(scoring, FRAME, features) == [
        "table 'p': cannot group by 'pairs': a table groups by a ClassLabel or value column, "
        "or a list of them"
    ]


def test_a_table_naming_an_unknown_metric_is_a_declaration_error() -> None:
    scoring = Scoring(
        breakdowns=(Breakdown("a", "A", by=("kind",), metrics=("precison",)),),
        plot=("a", "accuracy"),
    )
    assert declaration_problems(scoring, FRAME, FEATURES) == [
        "table 'a': no metric or info 'precison'"
    ]
