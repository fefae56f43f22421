"""The schema's checks run without pandera's machinery find exactly what pandera finds.

Each frame is checked twice through ``schema.engine.check_frame``: as it runs (the
direct path of ``schema.direct`` where it can answer) and with that path
switched off (pandera's lazy validation). The findings must be equal, code,
line, column, message, value and expected value; and the direct path must
actually answer for most frames, or the comparison would prove nothing.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import all_configs, upstream_path
from support.real import HATEMOJI_CHECK

from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.raw.files import read_files
from hatemoji_datasets.schema import engine as schema_module
from hatemoji_datasets.schema.direct import failure_cases
from hatemoji_datasets.schema.engine import check_frame, compiled
from hatemoji_datasets.schema.model import with_source_splits

#: Text cells a random edit may write: vocabulary, edges, patterns, literals.
TEXTS = [
    "", " ", "x", "none", "None", "orig", "identity_perturb", "no_emoji_perturb", "women",
    "verb_swap", "['none']", "['wom']", "['wom', 'wom']", "['zzz']", "[`wom`]", "5a", "7b",
    "8c", "5a\n", "train", "dev", "test", "original", "perturbation", "derogation", "🔪",
    "I like 🌻", "True", "False", "gender", "hate", "offensive", "Spoiled", "Default", "1.0",
]  # fmt: skip
INTEGERS = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 19, 20, 25, 99, 100, 10**12]


def released_frame(name: str, config: str, mirror: Path) -> tuple[object, pd.DataFrame, list]:
    spec = dataset_spec(name)
    config_spec = spec.config(config)
    pinned = spec.config_sources(config_spec)
    paths = {source: str(upstream_path(mirror, pin.url)) for source, pin in pinned.items()}
    raws = read_files(spec, config_spec, paths)
    frame = pd.concat([raw.table.to_pandas() for raw in raws.values()], ignore_index=True)
    runs = [(split, raw.num_rows) for split, raw in raws.items()]
    return spec.load(config_spec.schema), frame, runs


def edited(frame: pd.DataFrame, seed: int, edits: int) -> pd.DataFrame:
    """``frame`` with ``edits`` random cell edits that keep every column's type."""
    rng = random.Random(seed)
    out = frame.copy()
    for _ in range(edits):
        row, column = rng.randrange(len(out)), rng.choice(list(out.columns))
        integer = str(out[column].dtype) == "int64"
        kind = rng.random()
        if kind < 0.4:
            value = out[column].iat[rng.randrange(len(out))]  # another row's value
        elif integer:
            value = rng.choice(INTEGERS)
        else:
            value = rng.choice(TEXTS)
        out.iloc[row, out.columns.get_loc(column)] = value
    return out


def both_ways(model, frame: pd.DataFrame, runs, monkeypatch) -> tuple[list, list, bool]:
    with_source_splits(frame, runs)
    answered = failure_cases(compiled(model), frame) is not None
    direct = check_frame(model, frame, file="f.csv")[1]
    with monkeypatch.context() as patch:
        patch.setattr(schema_module, "failure_cases", lambda schema, frame: None)
        by_pandera = check_frame(model, frame, file="f.csv")[1]
    return direct, by_pandera, answered


#: Both ways over each edited frame, per input: configs that read the same pinned files into
#: the same splits with the same schema (such as a dataset's subsets of one file) check the
#: very same frames, so each such input is checked once per worker and every config asserts
#: on its result (and the configs of one input run on one worker: :func:`_by_input`).
_BOTH_WAYS: dict[tuple, list[tuple[list, list, bool]]] = {}
EDITS = [(0, 0), (1, 3), (2, 20), (3, 200), (4, 1), (5, 40)]


def _input_of(name: str, config: str) -> tuple:
    spec = dataset_spec(name)
    config_spec = spec.config(config)
    pinned = spec.config_sources(config_spec)
    splits = tuple((split, config_spec.split_sources(split)) for split in config_spec.split_names)
    files = tuple(sorted(p.sha256 for p in pinned.values()))
    return (name, config_spec.schema, config_spec.raw_format, config_spec.joins, files, splits)


def _by_input() -> list:
    """Every config, those that share their input with another in one worker group."""
    firsts: dict[tuple, str] = {}
    shared: dict[tuple, int] = {}
    for name, config in all_configs():
        key = _input_of(name, config)
        firsts.setdefault(key, f"{name}-{config}")
        shared[key] = shared.get(key, 0) + 1
    params = []
    for name, config in all_configs():
        key = _input_of(name, config)
        group = pytest.mark.xdist_group(f"schema-checks-{firsts[key]}")
        params.append(pytest.param(name, config, marks=[group] if shared[key] > 1 else []))
    return params


@pytest.mark.slow
@pytest.mark.parametrize(("name", "config"), _by_input())
def test_edited_real_files_find_what_pandera_finds(
    name: str, config: str, mirror: Path, monkeypatch
) -> None:
    key = _input_of(name, config)
    if key not in _BOTH_WAYS:
        model, frame, runs = released_frame(name, config, mirror)
        _BOTH_WAYS[key] = [
            both_ways(model, edited(frame, seed, edits), runs, monkeypatch) for seed, edits in EDITS
        ]
    answered = 0
    for (seed, edits), (direct, by_pandera, took) in zip(EDITS, _BOTH_WAYS[key]):
        assert direct == by_pandera, (seed, edits)
        answered += took
    assert answered >= len(EDITS) - 2  # the direct path answered (not only pandera)


SETTINGS = settings(
    max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "25")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.slow
@SETTINGS
@given(data=st.data())
def test_small_frames_find_what_pandera_finds(data, monkeypatch) -> None:
    name = data.draw(st.sampled_from(sorted(specs())))
    spec = dataset_spec(name)
    config = data.draw(st.sampled_from(spec.config_names))
    model = spec.load(spec.config(config).schema)
    columns = compiled(model).columns
    rows = data.draw(st.integers(1, 6))
    frame = pd.DataFrame(
        {
            column: (
                pd.Series(data.draw(st.lists(st.sampled_from(INTEGERS), min_size=rows,
                                             max_size=rows)), dtype="int64")
                if "int" in str(spec_column.dtype)
                else pd.Series(data.draw(st.lists(st.sampled_from(TEXTS), min_size=rows,
                                                  max_size=rows)), dtype="str")
            )
            for column, spec_column in columns.items()
        }
    )  # fmt: skip
    splits = [(data.draw(st.sampled_from(["train", "validation", "test", None])), rows)]
    direct, by_pandera, _ = both_ways(model, frame, splits, monkeypatch)
    assert direct == by_pandera


def test_a_frame_pandera_would_coerce_is_left_to_pandera(mirror: Path) -> None:
    """The plain dataset's released rows with an integer column (its first) read as text."""
    model, frame, _ = released_frame(
        HATEMOJI_CHECK, dataset_spec(HATEMOJI_CHECK).config().name, mirror
    )
    column = next(
        c for c, declared in compiled(model).columns.items() if "int" in str(declared.dtype)
    )
    as_text = frame.astype({column: "str"})
    assert failure_cases(compiled(model), as_text) is None
    assert failure_cases(compiled(model), frame) == []
