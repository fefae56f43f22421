"""The promises of a config's joins, checked by the streaming validator over compact state.

A config that joins files of another format to its rows on a key (cases and
their annotations) promises that every key has a partner (``JOIN-UNMATCHED``)
and that the columns both formats restate agree (``JOIN-MISMATCH``), as
:mod:`hatemoji_datasets.raw.joins` checks them. The exact engine checks them
between the contributed files of each format, or else the released ones, and
keeps only the findings located in contributed files (:mod:`.joined`). So the
screen keeps of each file, batch by batch, only what those checks read
(:class:`JoinSide`: each row's key and a 16-byte digest of the columns a join
compares, never the rows), and :func:`joins_kept` decides, for each join either
side of which was contributed:

- each partner's key is among the rows' keys, where the partners were contributed;
- each row's key is among the partners' keys (not for an indicator join), where
  the rows were contributed;
- each partner's compared columns equal those of the first row with its key, where
  the partners were contributed (a mismatch is located on the partner).

The release stands for a side that was not contributed (a few thousand rows).
What the screen cannot tell this way (keys that are not integers, a missing
value in a compared column, files of one format that hold different compared
columns) is a doubt: the exact engine checks the contribution.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import numpy as np
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.arrow_values import digests, first_rows_of, numpy_of, scalar
from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, Join, RawPart
from hatemoji_datasets.validate.screen_state import released_table


class JoinSide:
    """What the join checks read of one side's rows (a file, a format's files, or the
    release): each join's keys and, for each join that compares columns, one digest of
    them per row (8 + 16 bytes a row). Fed batch by batch, as a rule between rows is."""

    def __init__(self, key_columns: Iterable[str], compared: dict[str, tuple[str, ...]]) -> None:
        #: Key column -> the keys, batch by batch.
        self.keys: dict[str, list[np.ndarray]] = {column: [] for column in key_columns}
        #: Join name -> the columns it compares that these rows hold (in its order).
        self.compared = compared
        #: Join name -> the digest of each row's compared columns, batch by batch.
        self.digests: dict[str, list[np.ndarray]] = {name: [] for name in compared}

    def add(self, batch: Any) -> bool:
        """False where the batch's keys or compared columns cannot be kept (a doubt)."""
        names = set(batch.schema.names)
        for column, kept in self.keys.items():
            if column not in names or not _integers(batch[column]):
                return False  # the key's own checks say what is wrong, or the exact engine
            kept.append(np.array(numpy_of(batch[column])))  # a copy: a view keeps the batch
        for name, columns in self.compared.items():
            if columns:
                if any(batch[column].null_count for column in columns):
                    return False  # the exact engine counts a missing value as differing
                self.digests[name].append(_row_digests(batch, columns))
        return True

    def finish(self) -> bool:
        return True  # decided with the other side of each join, by joins_kept

    def key_array(self, column: str) -> np.ndarray:
        return _whole(self.keys[column], np.zeros(0, dtype=np.int64))

    def digest_array(self, join: str) -> np.ndarray:
        return _whole(self.digests[join], np.zeros((0, 2), dtype=np.uint64))


def join_side(config: ConfigSpec, part: RawPart, header: Iterable[str]) -> JoinSide | None:
    """A fresh side for rows of ``part``'s format with the columns of ``header`` (None
    where the config joins nothing)."""
    present = set(header)
    joins = config.joins if part.join is None else (part.join,)
    compared = {
        join.name: tuple(c for c in join.agree_on if c in present)
        for join in joins
        if not join.indicator  # an indicator join only marks membership
    }
    return JoinSide(dict.fromkeys(j.key_column for j in joins), compared) if joins else None


def _stacked(sides: Sequence[JoinSide]) -> JoinSide | None:
    """The sides of one format's files, one after the other (None where they compare
    different columns: the exact engine would fill what one file lacks)."""
    first = sides[0]
    if any(side.compared != first.compared for side in sides):
        return None
    together = JoinSide(first.keys, first.compared)
    for side in sides:
        for column, kept in together.keys.items():
            kept += side.keys[column]
        for name, kept in together.digests.items():
            kept += side.digests[name]
    return together


def joins_kept(
    spec: DatasetSpec,
    config: ConfigSpec,
    files: Sequence[tuple[RawPart, JoinSide | None]],
    *,
    mirror: str | None,
    cache_dir: str | None,
) -> bool:
    """Whether every join of ``config`` keeps its promises between the contributed files
    (``(format, side)`` in the contribution's order) and, for a format none of them is
    in, the release: True where the exact engine's join checks would report nothing."""
    if not config.joins:
        return True
    grouped: dict[RawPart, list[JoinSide]] = {}
    for part, side in files:
        if side is None:
            return False
        grouped.setdefault(part, []).append(side)
    contributed = {part: _stacked(sides) for part, sides in grouped.items()}
    if any(side is None for side in contributed.values()):
        return False
    own = config.parts[0]
    try:
        for part in config.parts[1:]:
            if own not in contributed and part not in contributed:
                continue  # a join of two released formats: the release's own checks
            assert part.join is not None
            rows = contributed.get(own) or _released_side(spec, config, own, mirror, cache_dir)
            partner = contributed.get(part) or _released_side(spec, config, part, mirror, cache_dir)
            if rows is None or partner is None:
                return False
            if not _kept(part.join, rows, partner, own in contributed, part in contributed):
                return False
    except HatemojiDatasetsError:
        return False  # the release cannot be read: the exact engine says so
    return True


def _kept(
    join: Join, rows: JoinSide, partner: JoinSide, rows_given: bool, partner_given: bool
) -> bool:
    """One join's promises, where a broken one would be located in a contributed file."""
    keys, partner_keys = rows.key_array(join.key_column), partner.key_array(join.key_column)
    # Each partner's row: the first with its key (sorted lookups: no copy of both sides).
    joined, first = first_rows_of(keys, partner_keys)
    if partner_given and not joined.all():
        return False  # a partner without a row
    if join.indicator:
        return True
    if rows_given and not first_rows_of(partner_keys, keys)[0].all():
        return False  # a row without a partner
    if not partner_given:
        return True  # a mismatch would be located on a released partner: not reported
    mine, theirs = rows.compared[join.name], partner.compared[join.name]
    shared = tuple(column for column in mine if column in theirs)
    if not shared:
        return True
    if mine != shared or theirs != shared:
        return False  # digests of other columns than the exact engine compares
    ours, partners = rows.digest_array(join.name), partner.digest_array(join.name)
    return bool((ours[first] == partners).all())


@cache
def _released_side(
    spec: DatasetSpec, config: ConfigSpec, part: RawPart, mirror: str | None, cache_dir: str | None
) -> JoinSide | None:
    """The released rows of ``part``'s format as a side (None where they cannot be kept)."""
    table = released_table(spec, config, part, mirror, cache_dir)
    side = join_side(config, part, table.column_names)
    return side if side is not None and side.add(table) else None


def _integers(values: Any) -> bool:
    return pyarrow.types.is_int64(values.type) and not values.null_count


def _whole(parts: list[np.ndarray], empty: np.ndarray) -> np.ndarray:
    """A side's batches as one array (kept as one, for the next join that reads it)."""
    if len(parts) != 1:
        parts[:] = [np.concatenate(parts) if parts else empty]
    return parts[0]


def _row_digests(rows: Any, columns: tuple[str, ...]) -> np.ndarray:
    """Each row's digest of the text of ``columns`` (as the exact engine compares them),
    each value led by its length in bytes, so that no two rows' values run together
    alike."""
    pieces: list[Any] = []
    for column in columns:
        text = rows[column].cast(pyarrow.string())
        pieces += [pc.cast(pc.binary_length(text), pyarrow.string()), _COLON, text]
    return digests(pc.binary_join_element_wise(*pieces, _NOTHING))


_COLON, _NOTHING = scalar(":"), scalar("")
