"""pyarrow values made and read without pandas.

pyarrow imports pandas (a few tenths of a second) the first time it converts a
value from Python or numpy, to ask whether it is a pandas object:
``pyarrow.array`` and ``pyarrow.scalar`` (of a list or a numpy array alike), a
compute function given a Python scalar, ``Array.to_numpy``, ``Table.group_by``.
The streaming validator's hot path makes and reads its values here instead,
straight from and into buffers, so a contribution is screened without pandas
(``tests/test_fast_paths.py`` keeps it so; ``tests/test_arrow_values.py``
proves these agree with pyarrow's own conversions).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from hashlib import blake2b
from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

#: Offsets of a ``string`` array are int32: larger data needs ``large_string``.
_STRING_BYTES = (1 << 31) - 1
#: A missing string, as a scalar.
_NO_STRING = pyarrow.nulls(1, pyarrow.string())[0]


def int64s(values: Iterable[int] | np.ndarray) -> pyarrow.Array:
    """An int64 array of the values (no missing values)."""
    numbers = np.ascontiguousarray(np.asarray(values, dtype=np.int64))
    return pyarrow.Array.from_buffers(
        pyarrow.int64(), len(numbers), [None, pyarrow.py_buffer(numbers)]
    )


def booleans(values: Iterable[bool] | np.ndarray) -> pyarrow.Array:
    """A boolean array of the values (no missing values)."""
    flags = np.asarray(values, dtype=bool)
    bits = np.packbits(flags, bitorder="little")
    return pyarrow.Array.from_buffers(pyarrow.bool_(), len(flags), [None, pyarrow.py_buffer(bits)])


def strings(values: Iterable[str]) -> pyarrow.Array:
    """A string array of the texts (``large_string`` beyond 2 GiB; no missing values)."""
    encoded = [text.encode("utf-8") for text in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(text) for text in encoded], out=offsets[1:])
    large = offsets[-1] > _STRING_BYTES
    kind = pyarrow.large_string() if large else pyarrow.string()
    buffers = [offsets if large else offsets.astype(np.int32), b"".join(encoded)]
    return pyarrow.Array.from_buffers(
        kind, len(encoded), [None, *(pyarrow.py_buffer(b) for b in buffers)]
    )


def array_of(values: Sequence[Any], kind: pyarrow.DataType) -> pyarrow.Array:
    """``pyarrow.array(values, kind)`` for strings and int64: ArrowInvalid where the values
    are not all of that kind."""
    if pyarrow.types.is_string(kind) and all(isinstance(v, str) for v in values):
        return strings(values)
    if pyarrow.types.is_int64(kind) and all(type(v) is int for v in values):
        return int64s(values)
    raise pyarrow.ArrowInvalid(f"cannot make a {kind} array of {list(values)[:5]!r}")


@lru_cache(maxsize=1024, typed=True)
def scalar(value: bool | int | float | str) -> pyarrow.Scalar:
    """``value`` as the Arrow scalar a compute function would make of it (bool, int64,
    double or string)."""
    if isinstance(value, bool):
        return booleans([value])[0]
    if isinstance(value, int):
        return int64s([value])[0]
    if isinstance(value, float):
        data = np.asarray([value], dtype=np.float64)
        return pyarrow.Array.from_buffers(pyarrow.float64(), 1, [None, pyarrow.py_buffer(data)])[0]
    if isinstance(value, str):
        return strings([value])[0]
    raise TypeError(f"no Arrow scalar of {value!r}")


def numpy_of(values: pyarrow.Array | pyarrow.ChunkedArray) -> np.ndarray:
    """An int64 or boolean array as numpy (read-only where it is not a copy); ValueError
    where a value is missing."""
    if isinstance(values, pyarrow.ChunkedArray):
        values = values.combine_chunks()
    if values.null_count:
        raise ValueError("numpy_of: the array has missing values")
    if len(values) == 0:
        return np.zeros(0, dtype=bool if pyarrow.types.is_boolean(values.type) else np.int64)
    if pyarrow.types.is_boolean(values.type):
        bits = np.frombuffer(values.buffers()[1], dtype=np.uint8)
        start = values.offset
        return np.unpackbits(bits, count=start + len(values), bitorder="little")[start:].view(bool)
    if pyarrow.types.is_int64(values.type):
        numbers = np.frombuffer(values.buffers()[1], dtype=np.int64)
        return numbers[values.offset : values.offset + len(values)]
    raise TypeError(f"numpy_of: {values.type} arrays are not supported")


def text_bytes(values: pyarrow.Array) -> tuple[np.ndarray, np.ndarray]:
    """A string (or binary) array's UTF-8 bytes and where each value starts: ``(offsets,
    data)``, ``data[offsets[i]:offsets[i + 1]]`` being value ``i`` (slices honoured). For
    searches over the bytes of a whole column: a byte position maps back to its row by
    ``np.searchsorted(offsets, position, side="right") - 1``."""
    wide = pyarrow.types.is_large_string(values.type) or pyarrow.types.is_large_binary(values.type)
    _, offsets_buffer, data_buffer = values.buffers()
    offsets = np.frombuffer(offsets_buffer, dtype=np.int64 if wide else np.int32)
    offsets = offsets[values.offset : values.offset + len(values) + 1]
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else None
    return offsets, data if data is not None else np.zeros(0, dtype=np.uint8)


def distinct_pairs(first: Any, second: Any) -> list[tuple[Any, Any]]:
    """The distinct ``(first, second)`` pairs of two columns, in no set order (a missing
    value is ``None``): ``Table.group_by`` without pandas."""
    firsts, seconds = _codes(first), _codes(second)
    width = len(seconds.dictionary) + 1
    pairs = np.unique(firsts.codes * width + seconds.codes).tolist()
    return [(firsts.values[pair // width], seconds.values[pair % width]) for pair in pairs]


def first_rows(keys: Any) -> np.ndarray:
    """The position of each distinct key's first row (a missing key is one key)."""
    return np.unique(_codes(keys).codes, return_index=True)[1]


def first_rows_of(ids: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each wanted id: whether ``ids`` holds it, and the position of its first row
    there (0 where it does not)."""
    known, first = np.unique(ids, return_index=True)
    if not len(known):
        return np.zeros(len(wanted), dtype=bool), np.zeros(len(wanted), dtype=np.int64)
    at = np.minimum(np.searchsorted(known, wanted), len(known) - 1)
    return known[at] == wanted, first[at]


def optional_ids(values: Any) -> pyarrow.Array | None:
    """Optional ids (``12``, ``12.0`` or empty) as int64, null where empty: the plans'
    reading of :func:`hatemoji_datasets.schema.model.optional_ids`. None where a value is
    neither, or longer than 15 digits: the exact engine reads a column with an empty value
    through floats, which hold every integer only up to 2**53 (16 digits), so only it can
    say what a longer one names."""
    digits = pc.replace_substring_regex(values, r"\.0$", "")
    number = pc.match_substring_regex(digits, r"^[1-9][0-9]{0,14}$")
    readable = pc.or_(number, pc.equal(values, scalar("")))
    if readable.null_count or not pc.all(readable, min_count=0).as_py():
        return None
    return pc.cast(pc.if_else(number, digits, _NO_STRING), pyarrow.int64())


def digests(texts: pyarrow.Array | pyarrow.ChunkedArray) -> np.ndarray:
    """Each text's 128-bit BLAKE2b digest, as two uint64 per row (no missing values).

    Rules between rows compare texts by them, so that their state keeps 16 bytes a
    text, never the text; a collision is out of reach."""
    if texts.null_count:
        raise ValueError("digests: the array has missing values")
    joined = b"".join(
        blake2b(text.encode("utf-8"), digest_size=16).digest() for text in texts.to_pylist()
    )
    return np.frombuffer(joined, dtype=np.uint64).reshape(-1, 2)


def concatenated(parts: list[np.ndarray]) -> np.ndarray:
    """The batches' arrays as one, the parts let go (the state is held once)."""
    whole = np.concatenate(parts)
    parts.clear()
    return whole


@dataclass(frozen=True)
class _Coded:
    dictionary: pyarrow.Array
    #: Each value's index in the dictionary; a missing value's is one past its end.
    codes: np.ndarray

    @property
    def values(self) -> list[Any]:
        return [*self.dictionary.to_pylist(), None]


def _codes(values: Any) -> _Coded:
    if isinstance(values, pyarrow.ChunkedArray):
        values = values.combine_chunks()
    encoded = pc.dictionary_encode(values)
    missing = len(encoded.dictionary)
    indices = pc.fill_null(encoded.indices.cast(pyarrow.int64()), scalar(missing))
    return _Coded(encoded.dictionary, numpy_of(indices))
