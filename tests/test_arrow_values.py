"""Arrow values made and read without pandas agree with pyarrow's own conversions."""

from __future__ import annotations

import hashlib

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support.cli import imported_after

from hatemoji_datasets.core.arrow_values import (
    array_of,
    booleans,
    digests,
    distinct_pairs,
    first_rows,
    int64s,
    numpy_of,
    optional_ids,
    scalar,
    strings,
)

INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
#: The first conversion by pyarrow imports pandas: no deadline.
RELAXED = settings(deadline=None)


@RELAXED
@given(st.lists(INT64))
def test_int64s_are_pyarrows(values: list[int]) -> None:
    made = int64s(values)
    assert made.type == pa.int64()
    assert made.equals(pa.array(values, pa.int64()))
    assert made.equals(int64s(np.array(values, dtype=np.int64)))


@RELAXED
@given(st.lists(st.booleans()))
def test_booleans_are_pyarrows(values: list[bool]) -> None:
    made = booleans(values)
    made.validate(full=True)
    assert made.equals(pa.array(values, pa.bool_()))
    assert made.equals(booleans(np.array(values, dtype=bool)))


@RELAXED
@given(st.lists(st.text()))
def test_strings_are_pyarrows(values: list[str]) -> None:
    made = strings(values)
    made.validate(full=True)
    assert made.equals(pa.array(values, pa.string()))
    assert made.to_pylist() == values


@RELAXED
@given(st.one_of(st.booleans(), INT64, st.floats(allow_nan=False), st.text()))
def test_a_scalar_is_the_one_a_compute_function_would_make(value) -> None:
    made, theirs = scalar(value), pa.scalar(value)
    assert made.type == theirs.type
    assert made.as_py() == theirs.as_py()
    assert type(made.as_py()) is type(value)


def test_a_scalar_keeps_bools_and_integers_apart() -> None:
    assert scalar(1).type == pa.int64() and scalar(True).type == pa.bool_()
    assert scalar(1.0).type == pa.float64()
    with pytest.raises(TypeError):
        scalar(None)


@RELAXED
@given(st.lists(INT64, min_size=1), st.data())
def test_numpy_of_int64_reads_slices_and_chunks(values: list[int], data) -> None:
    array = pa.array(values, pa.int64())
    start = data.draw(st.integers(0, len(values)))
    part = array.slice(start)
    assert numpy_of(part).dtype == np.int64
    assert numpy_of(part).tolist() == values[start:]
    chunked = pa.chunked_array([array, part], pa.int64())
    assert numpy_of(chunked).tolist() == values + values[start:]


@RELAXED
@given(st.lists(st.booleans(), min_size=1), st.data())
def test_numpy_of_booleans_reads_slices(values: list[bool], data) -> None:
    array = pa.array(values, pa.bool_())
    start = data.draw(st.integers(0, len(values)))
    length = data.draw(st.integers(0, len(values) - start))
    found = numpy_of(array.slice(start, length))
    assert found.dtype == bool
    assert found.tolist() == values[start : start + length]
    found[:] = True  # a copy: writable


def test_numpy_of_refuses_missing_values_and_other_types() -> None:
    with pytest.raises(ValueError, match="missing"):
        numpy_of(pa.array([True, None]))
    with pytest.raises(TypeError):
        numpy_of(pa.array(["a"]))
    assert numpy_of(pa.array([], pa.int64())).tolist() == []


def test_array_of_makes_what_pyarrow_makes_or_refuses() -> None:
    assert array_of(["a", "b"], pa.string()).equals(pa.array(["a", "b"], pa.string()))
    assert array_of([1, 2], pa.int64()).equals(pa.array([1, 2], pa.int64()))
    for values, kind in ((["1"], pa.int64()), ([1], pa.string()), ([True], pa.int64())):
        with pytest.raises(pa.ArrowInvalid):
            array_of(values, kind)


KEY = st.one_of(st.none(), st.sampled_from("abc"))
KEYS = st.lists(KEY, max_size=12)


@RELAXED
@given(st.lists(st.tuples(KEY, KEY), max_size=12))
def test_distinct_pairs_are_group_bys_groups(pairs) -> None:
    table = pa.table(
        {"a": pa.array([a for a, _ in pairs], pa.string()), "b": pa.array([b for _, b in pairs])}
    )
    groups = table.group_by(["a", "b"]).aggregate([])
    expected = set(zip(groups["a"].to_pylist(), groups["b"].to_pylist(), strict=True))
    found = distinct_pairs(table["a"], table["b"])
    assert len(found) == len(set(found)) and set(found) == expected == set(pairs)


@RELAXED
@given(KEYS)
def test_first_rows_are_each_keys_first(keys) -> None:
    array = pa.array(keys, pa.string())
    expected = sorted({key: keys.index(key) for key in keys}.values())
    assert sorted(first_rows(array).tolist()) == expected


ID_TEXT = st.one_of(
    st.just(""),
    st.integers(min_value=0, max_value=10**20).map(str),
    st.integers(min_value=0, max_value=10**20).map(lambda n: f"{n}.0"),
    st.text(alphabet="0123456789.-e ", max_size=6),
)


@RELAXED
@given(st.lists(ID_TEXT, max_size=8))
@example(["", str(2**53 + 1)])  # the schema reads it through a float: 2**53
def test_optional_ids_read_what_the_schema_reads_or_decline(values: list[str]) -> None:
    """Where the plan's reading answers, it is the schema's; it declines exactly where a
    value is neither empty nor a positive number of up to 15 digits (``.0`` allowed)."""
    import re

    from hatemoji_datasets.schema.rules import optional_ids_as_pandas_reads

    read = optional_ids(pa.array(values, pa.string()))
    plain = [v[:-2] if v.endswith(".0") else v for v in values]
    declines = any(v and not re.fullmatch(r"[1-9][0-9]{0,14}", v) for v in plain)
    assert (read is None) == declines
    if read is not None:
        expected = optional_ids_as_pandas_reads(pa.array(values, pa.string()))
        assert read.to_pylist() == expected.to_pylist()


@RELAXED
@given(st.lists(st.text(), max_size=5), st.integers(0, 2))
def test_digests_are_each_texts_blake2b(texts: list[str], offset: int) -> None:
    array = strings(["x"] * offset + texts).slice(offset)  # a slice reads its own texts
    found = digests(array)
    assert found.shape == (len(texts), 2) and found.dtype == np.uint64
    expected = [hashlib.blake2b(t.encode("utf-8"), digest_size=16).digest() for t in texts]
    assert [row.tobytes() for row in found] == expected
    with pytest.raises(ValueError):
        digests(pa.array(["a", None]))


def test_making_and_reading_values_imports_no_pandas() -> None:
    found = imported_after(
        "import pyarrow.compute as pc\n"
        "from hatemoji_datasets.core.arrow_values import *\n"
        "n = int64s([1, 2]); b = booleans([True, False]); s = strings(['a', 'b'])\n"
        "numpy_of(n); numpy_of(b); numpy_of(pc.equal(s, scalar('a')))\n"
        "pc.greater(n, scalar(1)); pc.is_in(s, value_set=array_of(['a'], s.type))\n"
        "distinct_pairs(s, s); first_rows(n); digests(s)\n"
        "optional_ids(strings(['12', '3.0', '']))\n"
    )
    assert not found["pandas"], found
