"""Content fingerprints of built splits.

A fingerprint is a sha256 over a built split's features and rows and nothing
else: no path, timestamp, cache folder, fingerprint of ``datasets``' own or
``datasets`` version enters it. Features are first rewritten to a form that
every ``datasets`` release shares (:func:`hatemoji_datasets.core.features.canonical_features`),
and values are read back through Arrow as plain Python objects, so ``string``
and ``large_string`` columns, or chunked and contiguous tables, give the same
digest.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hatemoji_datasets.building.cache_files import split_table
from hatemoji_datasets.core.features import canonical_features

if TYPE_CHECKING:
    import datasets
    import pyarrow as pa

#: Bumped if the digest's definition ever changes; it is hashed first.
SCHEME = "hatemoji-datasets fingerprint v1"
PREFIX = "sha256:"
#: Rows hashed per batch: bounded memory, same digest for any chunking.
_BATCH_ROWS = 65536


def fingerprint(dataset: datasets.Dataset) -> str:
    """The content digest of a built split, ``"sha256:<64 hex>"``."""
    return fingerprint_table(split_table(dataset), dataset.features)


def split_fingerprints(data: Mapping[str, datasets.Dataset]) -> dict[str, tuple[int, str]]:
    """``{split: (rows, fingerprint)}`` of a built ``DatasetDict``, from its Arrow data."""
    return {split: (dataset.num_rows, fingerprint(dataset)) for split, dataset in data.items()}


def fingerprint_table(table: pa.Table, features: datasets.Features) -> str:
    """The digest of ``table`` (rows in order) under ``features`` (columns in order)."""
    digest = hashlib.sha256()
    digest.update(SCHEME.encode() + b"\n")
    shape = canonical_features(features)
    digest.update(_dumps(shape).encode() + b"\n")
    columns = list(features)
    table = table.select(columns)
    for start in range(0, table.num_rows, _BATCH_ROWS):
        # One batch per slice: datasets writes batches of 1,000 rows, and each batch
        # costs the same few dozen kernel calls.
        for batch in table.slice(start, _BATCH_ROWS).combine_chunks().to_batches():
            digest.update(_row_lines(batch))
    return PREFIX + digest.hexdigest()


def _row_lines(batch: pa.RecordBatch) -> memoryview:
    """What is hashed of ``batch``: one line per row, the JSON of its values read back as
    Python objects (a tuple encodes as the list it is), each line ending in a newline.
    Written by Arrow kernels: each column's values as the encoder writes them (strings,
    integers, booleans and lists of them; any other type value by value through the
    encoder), joined into lines without a Python object per value (about 3x faster than
    one encoder call per row). A JSON list is its items' JSON joined by ``,`` in brackets,
    so the bytes are the same: a test compares both on generated tables, and every build
    is compared with the fingerprints recorded before."""
    import pyarrow.compute as pc

    row = pc.binary_join_element_wise(*map(_json_of, batch.columns), _text(","))
    lines = pc.binary_join_element_wise(_text("["), row, _text("]\n"), _text(""))
    _, offsets, data = lines.buffers()
    ends = memoryview(offsets).cast("q")  # large_string: 64-bit offsets
    return memoryview(data)[ends[lines.offset] : ends[lines.offset + len(lines)]]


#: What ``json`` escapes in a string when it keeps non-ASCII characters: the backslash
#: first, the quote, and every control character (five by name, the rest as ``\u00XX``).
_ESCAPES = (
    ("\\", "\\\\"),
    ('"', '\\"'),
    ("\n", "\\n"),
    ("\r", "\\r"),
    ("\t", "\\t"),
    ("\b", "\\b"),
    ("\f", "\\f"),
)
_OTHER_CONTROLS = [chr(c) for c in range(0x20) if chr(c) not in "\n\r\t\b\f"]


def _json_of(column: pa.Array) -> pa.Array:
    """Each value of ``column`` as ``_ENCODER`` writes it: a large_string array, no nulls."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind, null = column.type, _text("null")
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        text = column.cast(pa.large_string())
        escaping = _needs_escapes(text)
        if escaping is not None:  # escape only the few values that need it
            some = text.filter(escaping)
            for plain, escaped in _ESCAPES:
                some = pc.replace_substring(some, plain, escaped)
            for control in _OTHER_CONTROLS:
                some = pc.replace_substring(some, control, f"\\u{ord(control):04x}")
            text = pc.replace_with_mask(text, escaping, some)
        return pc.binary_join_element_wise(_text('"'), text, _text('"'), _text("")).fill_null(null)
    if pa.types.is_integer(kind):
        return column.cast(pa.large_string()).fill_null(null)
    if pa.types.is_boolean(kind):
        return pc.if_else(column, _text("true"), _text("false")).fill_null(null)
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        lengths = pc.list_value_length(column).fill_null(0)
        offsets = pa.concat_arrays([pa.array([0], lengths.type), pc.cumulative_sum(lengths)])
        lists = type(column).from_arrays(offsets, _json_of(column.flatten()))
        joined = pc.binary_join(lists, _text(","))
        joined = pc.binary_join_element_wise(_text("["), joined, _text("]"), _text(""))
        return pc.if_else(pc.is_null(column), null, joined)
    return pa.array([_ENCODER.encode(value) for value in column.to_pylist()], pa.large_string())


def _needs_escapes(text: pa.Array) -> pa.Array | None:
    """Which values of a large_string array hold a character ``json`` escapes (None if
    none does). Those are ASCII bytes, which in UTF-8 are never part of another
    character, so the bytes are searched, not the characters."""
    import numpy as np
    import pyarrow as pa

    from hatemoji_datasets.core.arrow_values import text_bytes

    ends, data = text_bytes(text)
    body = data[ends[0] : ends[-1]]
    found = np.flatnonzero((body < 0x20) | (body == ord('"')) | (body == ord("\\")))
    if not len(found):
        return None
    rows = np.unique(np.searchsorted(ends, found + ends[0], side="right") - 1)
    mask = np.zeros(len(text), dtype=bool)
    mask[rows] = True
    return pa.array(mask)


def _text(value: str) -> pa.Scalar:
    import pyarrow as pa

    return pa.scalar(value, pa.large_string())


def _dumps(value: Any) -> str:
    return _ENCODER.encode(value)


def _json_default(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return {"bytes": bytes(value).hex()}
    if hasattr(value, "isoformat"):
        return {"time": value.isoformat()}
    if hasattr(value, "tolist"):
        return value.tolist()
    return {"repr": repr(value)}


#: One encoder for every row (``json.dumps`` with options builds a new one per call).
_ENCODER = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=_json_default
)
