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
#: Rows hashed per Arrow batch: bounded memory, same digest for any chunking.
_BATCH_ROWS = 4096


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
    for batch in table.to_batches(max_chunksize=_BATCH_ROWS):
        values = [column.to_pylist() for column in batch.columns]
        # One line per row (a tuple encodes as the list it is); hashing a batch's lines
        # at once is hashing them one by one.
        rows = list(zip(*values, strict=True))
        if rows:
            digest.update(("\n".join(map(_ENCODER.encode, rows)) + "\n").encode())
    return PREFIX + digest.hexdigest()


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
