"""A dataset rule written once: its code and message, and one function over pyarrow arrays.

A dataset's ``rules.py`` declares each of its rules once, as a :class:`Rule`:
what it reports (code, message, the column it speaks of, the columns it reads)
and ``check(rows)``, a vectorised function over the :class:`Rows` it is given,
True where a row keeps the rule. ``expected(rows)``, ``detail(rows)`` and
``allowed(rows)`` say, per row, what the column should hold, what the message adds
and which values the column allows in that row.

The same function runs everywhere: the pandera model in ``schema.py`` wraps it
as a check (:func:`hatemoji_datasets.schema.model.rule`, which hands it the
frame's columns as Arrow arrays), and the streaming validator runs it on each
record batch. A rule that compares rows with each other (``across``) is given
every row of a file at once, with the released rows beside them.

The columns a rule reads are as the schema leaves them: int64 where a column
was read as integers, text otherwise (a column of integers holding one value
that is not is text throughout). The helpers below read values as the pandas
operations the rules were first written with did, so a rule says the same
whatever the column's type: :func:`text` (``astype(str)``), :func:`same`
(``==``), :func:`numbers` (``pandas.to_numeric``) and :func:`optional_ids`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import booleans, numpy_of, scalar, strings
from hatemoji_datasets.core.arrow_values import optional_ids as plain_optional_ids

#: ``check(rows)``: per row, whether it keeps the rule (a missing answer breaks it).
Check = Callable[["Rows"], Any]


@dataclass(frozen=True)
class Rule:
    """One dataset rule, written once (see the module's docstring)."""

    code: str
    message: str
    check: Check
    #: The column a failing row is reported under (its value is shown).
    column: str | None = None
    #: The other columns it reads. A finding on one of them never hides the rule's
    #: (findings are independent); one on its own cell does.
    reads: tuple[str, ...] = ()
    #: ``expected(rows)``: per row, the value the rule wanted in ``column``.
    expected: Check | None = None
    #: ``detail(rows)``: per row, what the message adds after a semicolon (null: nothing).
    detail: Check | None = None
    #: ``allowed(rows)``: per row, the values ``column`` allows there where they are fewer
    #: than its column check's (a language's own groups; null: the column's). A finding on
    #: that cell, this rule's or the column check's, names them and suggests a close one.
    allowed: Check | None = None
    #: Whether it compares rows with each other (and with the released rows).
    across: bool = False
    #: Whether it reads ``column`` alone (a check of that column in the pandera model).
    of_column: bool = False
    #: Columns it only compares for equality (between rows, or with released rows): the
    #: state a streamed file keeps for a rule between rows holds a digest of each, not the text.
    compared: tuple[str, ...] = ()

    @property
    def inputs(self) -> tuple[str, ...]:
        """The columns it reads, its ``column`` first."""
        return tuple(dict.fromkeys((*((self.column,) if self.column else ()), *self.reads)))


@dataclass(eq=False)
class Rows:
    """What a rule reads: a table's or record batch's columns, where each row came from,
    and the released rows of the same format (None where the rows hold them already)."""

    columns: dict[str, pyarrow.Array]
    num_rows: int
    #: Per row, the pinned source it was read from (null where unknown); None: unknown.
    sources: pyarrow.Array | None = None
    #: Per row, the split whose file it was read from (null where unknown); None: unknown.
    splits: pyarrow.Array | None = None
    released: Any = None
    #: What several rules compute alike, worked out once (:meth:`once`).
    memo: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> pyarrow.Array:
        return self.columns[name]

    def once(self, key: str, compute: Callable[[], Any]) -> Any:
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]

    def with_released(self, names: tuple[str, ...]) -> dict[str, pyarrow.Array]:
        """These columns of the rows, then of the released rows (a released row is looked
        up after every row here). A column typed one way here and another there is text in
        both, as the stacked frame of the exact engine makes it."""
        if self.released is None:
            return {name: self[name] for name in names}
        joined = {}
        for name in names:
            mine, theirs = self[name], _array(self.released[name])
            if mine.type != theirs.type:
                mine, theirs = text(mine), text(theirs)
            joined[name] = pyarrow.concat_arrays([mine, theirs])
        return joined


def rows_of(
    batch: Any, source: str | None = None, split: str | None = None, released: Any = None
) -> Rows:
    """A record batch or table of one file as :class:`Rows` (its source and split, if known)."""
    n = batch.num_rows
    columns = {name: _array(batch[name]) for name in batch.schema.names}
    return Rows(columns, n, _repeated(source, n), _repeated(split, n), released)


def _repeated(value: str | None, n: int) -> pyarrow.Array | None:
    return None if value is None else pyarrow.repeat(scalar(value), n)


def _array(values: Any) -> pyarrow.Array:
    return values.combine_chunks() if isinstance(values, pyarrow.ChunkedArray) else values


# -- values as the rules read them ---------------------------------------------------------


def text(values: pyarrow.Array) -> pyarrow.Array:
    """Each value as text (an integer as its digits): ``Series.astype(str)``."""
    if pyarrow.types.is_string(values.type):
        return values
    return values.cast(pyarrow.string())


def _is_text(kind: pyarrow.DataType) -> bool:
    return pyarrow.types.is_string(kind) or pyarrow.types.is_large_string(kind)


def same(left: Any, right: Any) -> pyarrow.Array:
    """``left == right`` per row, as pandas compares: text never equals a number, and a
    missing value equals nothing."""
    if isinstance(right, str):
        right = scalar(right)
    if _is_text(left.type) != _is_text(right.type):
        n = len(left) if not isinstance(left, pyarrow.Scalar) else len(right)
        return booleans(np.zeros(n, dtype=bool))
    return pc.fill_null(pc.equal(left, right), scalar(False))


def numbers(values: pyarrow.Array) -> pyarrow.Array:
    """Each value as a number, null where it is none: ``pandas.to_numeric(errors="coerce")``
    (integers as they are; text is read by pandas itself, the rare case of a column of
    integers holding one value that is not)."""
    if pyarrow.types.is_integer(values.type):
        return values
    import pandas as pd

    read = pd.to_numeric(pd.Series(values.to_pylist(), dtype=object), errors="coerce")
    return pyarrow.array(read, from_pandas=True)


def optional_ids(values: pyarrow.Array) -> pyarrow.Array:
    """Optional ids (``12``, ``12.0`` or empty) as int64, null where empty or not an id:
    :func:`hatemoji_datasets.core.arrow_values.optional_ids`, and where it declines (a value
    of another form, or longer than 15 digits) :func:`optional_ids_as_pandas_reads`."""
    values = text(values)
    plain = plain_optional_ids(values)
    return plain if plain is not None else optional_ids_as_pandas_reads(values)


def optional_ids_as_pandas_reads(values: pyarrow.Array) -> pyarrow.Array:
    """Optional ids read through floats, as ``pandas.to_numeric`` reads them: an integer
    beyond 2**53 is the float nearest it, and a number that is not whole is no id."""
    import pandas as pd

    series = pd.Series(text(values).to_pylist(), dtype=object)
    read = pd.to_numeric(series.where(series != ""), errors="coerce")
    return pyarrow.array(read.where(read == read.round()).astype("Int64"), pyarrow.int64())


def pandas_integers(values: pyarrow.Array) -> pyarrow.Array:
    """Integers as they are, or text made integers as pandas' ``astype("Int64")`` makes it
    (the templates a reference names, read from a column the schema left as text)."""
    if pyarrow.types.is_integer(values.type):
        return values
    import pandas as pd

    integers = pd.Series(values.to_numpy(zero_copy_only=False)).astype("Int64")
    return pyarrow.array(integers, pyarrow.int64())


def reference_agrees(expected: pyarrow.Array, given: pyarrow.Array) -> pyarrow.Array:
    """True where no template is expected, or the given reference equals it."""
    agrees = pc.fill_null(pc.equal(optional_ids(given), expected), scalar(False))
    return pc.or_(pc.is_null(expected), agrees)


def text_digests(values: pyarrow.Array) -> pyarrow.Array:
    """Each text as the hex of its 128-bit BLAKE2b digest: equal exactly where the texts are
    (a collision is out of reach), in 32 bytes a text. Missing values stay as they are."""
    if values.null_count:
        return values
    return strings(
        blake2b(value.encode("utf-8"), digest_size=16).hexdigest()
        for value in text(values).to_pylist()
    )


def first_positions(keys: pyarrow.Array, wanted: pyarrow.Array) -> pyarrow.Array:
    """For each wanted key, the position of the first row holding it (null: none does)."""
    if keys.type != wanted.type:
        keys, wanted = text(keys), text(wanted)
    return pc.index_in(wanted, value_set=keys)


def taken(values: pyarrow.Array, positions: pyarrow.Array) -> pyarrow.Array:
    """``values`` at each position (null where the position is)."""
    return values.take(positions)


def everywhere(rows: Rows) -> pyarrow.Array:
    """Every row keeps it (a rule with nothing to compare)."""
    return booleans(np.ones(rows.num_rows, dtype=bool))


def codes_of(values: pyarrow.Array) -> np.ndarray:
    """Each value's code (equal values, equal codes; a missing value is a value too)."""
    encoded = pc.dictionary_encode(values)
    missing = scalar(len(encoded.dictionary))
    return numpy_of(pc.fill_null(encoded.indices.cast(pyarrow.int64()), missing))
