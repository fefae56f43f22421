"""The pair-safe split: upstream's splits, changed only as far as keeping pairs together needs.

Upstream assigned entries, not pairs, to train/validation/test, so a third of
the pairs have one member in one split and the other in another. The pair-safe
configs move entries so that both members of every pair share a split, while
keeping, as far as whole pairs allow, what upstream's splits promise: their
sizes, each round's share of each split, and the hateful/non-hateful balance
of each split. Everything is integer arithmetic over entries taken in
``entry_id`` order: no random numbers, so no library version can change it.

1. **Pairs already together stay.**
2. **Straddling pairs join one of their two splits**, in the order of their
   original's ``entry_id``: the one that leaves both splits' sizes (per round)
   closest to upstream's; on a tie, the original's split (the perturbation
   follows its original).
3. **Label balance.** A mixed pair (one member hateful, one not) adds one
   hateful entry wherever it goes, so it cannot change a split's balance; the
   75 same-label pairs (both members hateful, or both not) can. While it brings
   the hateful counts closer to upstream's, a same-label pair is exchanged with
   a mixed pair of the same round going the other way (sizes stay). The
   exchange made is the one that lowers most the squared differences from
   upstream's hateful counts, summed over each round's splits and over each
   split of all rounds (these weighted by the number of rounds, as each holds
   that many rounds' worth of entries); the pairs exchanged are those that move
   fewest entries away from their upstream split, then the lowest ``entry_id``.

A round's pair-safe config is this assignment's rows of that round, so no
entry is in one split in ``pair_safe`` and another in ``r5_pair_safe``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import pyarrow as pa
import pyarrow.compute as pc

from hatemoji_datasets.core.spec import ConfigSpec

from .spec import PERTURBATIONS, SPLITS

_ORIGINAL = PERTURBATIONS.index("original")


class Entry(NamedTuple):
    """What the assignment reads of an entry (a tuple: a build makes thousands)."""

    entry_id: int
    matched_id: int
    round: int
    hateful: bool
    original: bool
    upstream_split: str


class _Pair:
    """An original and its perturbation; compared and hashed by identity (each pair is
    made once, and the balancing step looks pairs up in dicts thousands of times)."""

    __slots__ = ("original", "perturbation", "members", "hateful", "round")

    def __init__(self, original: Entry, perturbation: Entry) -> None:
        self.original, self.perturbation = original, perturbation
        self.members = (original, perturbation)
        #: Hateful members: 0, 1 (a mixed pair) or 2.
        self.hateful = original.hateful + perturbation.hateful
        self.round = original.round

    def moved_if_in(self, split: str) -> int:
        return (self.original.upstream_split != split) + (self.perturbation.upstream_split != split)


def pair_safe_splits(entries: Iterable[Entry], splits: Sequence[str]) -> dict[int, str]:
    """``{entry_id: split}``: every pair in one split, as close to upstream's as pairs allow.

    ``entries`` must hold both members of every pair (the validated dataset does).
    """
    by_id = {entry.entry_id: entry for entry in entries}
    pairs = sorted(
        (
            _Pair(entry, by_id[entry.matched_id])
            for entry in by_id.values()
            if entry.original and entry.matched_id in by_id
        ),
        key=lambda pair: pair.original.entry_id,
    )
    if 2 * len(pairs) != len(by_id):
        raise ValueError("every entry must have its partner, one original and one perturbation")
    home = _join_straddling_pairs(pairs)
    _balance_labels(pairs, home, splits)
    return {member.entry_id: home[pair] for pair in pairs for member in pair.members}


def _join_straddling_pairs(pairs: list[_Pair]) -> dict[_Pair, str]:
    """Steps 1 and 2: each pair's split, sizes per round kept as close to upstream's as can be."""
    home: dict[_Pair, str] = {}
    # Entries of (round, split) minus upstream's, counting undecided pairs where upstream has them.
    excess: Counter[tuple[int, str]] = Counter()
    for pair in pairs:
        kept, follower = pair.original.upstream_split, pair.perturbation.upstream_split
        if kept == follower:
            home[pair] = kept
            continue
        here, there = (pair.round, kept), (pair.round, follower)
        # Joining the original's split adds an entry there and takes one from the other.
        to_original = (excess[here] + 1) ** 2 + (excess[there] - 1) ** 2
        to_perturbation = (excess[here] - 1) ** 2 + (excess[there] + 1) ** 2
        if to_perturbation < to_original:
            here, there, kept = there, here, follower
        excess[here] += 1
        excess[there] -= 1
        home[pair] = kept
    return home


def _balance_labels(pairs: list[_Pair], home: dict[_Pair, str], splits: Sequence[str]) -> None:
    """Step 3: exchange same-label pairs with mixed ones while the balance improves."""
    rounds = sorted({pair.round for pair in pairs})
    upstream: Counter[tuple[int, str]] = Counter()
    hateful: Counter[tuple[int, str]] = Counter()
    for pair in pairs:
        for member in pair.members:
            upstream[member.round, member.upstream_split] += member.hateful
        hateful[pair.round, home[pair]] += pair.hateful
    weight = len(rounds)
    keys = _keys(rounds, splits)

    def cost() -> int:
        off = {key: hateful[key] - upstream[key] for key in keys}
        per_round = sum(difference * difference for difference in off.values())
        per_split = sum(sum(off[r, s] for r in rounds) ** 2 for s in splits)
        return per_round + weight * per_split

    # The pairs of each (round, split, hateful members), kept up to date as pairs are
    # exchanged (rebuilding them for every exchange made this step most of a pair-safe
    # build). Their order does not matter: a choice among them ends on a unique entry_id.
    buckets: dict[tuple[int, str, int], dict[_Pair, None]] = {}
    for pair in pairs:
        buckets.setdefault((pair.round, home[pair], pair.hateful), {})[pair] = None

    while True:
        current, best = cost(), None
        for round_ in rounds:
            for into in splits:
                for out_of in splits:
                    if into == out_of:
                        continue
                    for same in (0, 2):  # both members non-hateful, or both hateful
                        change = same - 1  # into gains `same` hateful, loses a mixed pair's 1
                        hateful[round_, into] += change
                        hateful[round_, out_of] -= change
                        found = cost()
                        hateful[round_, into] -= change
                        hateful[round_, out_of] += change
                        if found < current and (best is None or found < best[0]):
                            incoming = buckets.get((round_, out_of, same))
                            outgoing = buckets.get((round_, into, 1))
                            if incoming and outgoing:
                                best = (found, round_, into, out_of, incoming, outgoing)
        if best is None:
            return
        _, round_, into, out_of, incoming, outgoing = best
        coming = min(incoming, key=lambda p: (_added_moves(p, home, into), p.original.entry_id))
        going = min(outgoing, key=lambda p: (_added_moves(p, home, out_of), p.original.entry_id))
        for pair, split in ((coming, into), (going, out_of)):
            del buckets[pair.round, home[pair], pair.hateful][pair]
            buckets.setdefault((pair.round, split, pair.hateful), {})[pair] = None
            home[pair] = split
        change = coming.hateful - going.hateful
        hateful[round_, into] += change
        hateful[round_, out_of] -= change


def _keys(rounds: list[int], splits: Sequence[str]) -> list[tuple[int, str]]:
    return [(round_, split) for round_ in rounds for split in splits]


def _added_moves(pair: _Pair, home: Mapping[_Pair, str], split: str) -> int:
    return pair.moved_if_in(split) - pair.moved_if_in(home[pair])


# -- the config's resplit ------------------------------------------------------------------


def resplit(tables: dict[str, pa.Table], config: ConfigSpec, version: str) -> dict[str, pa.Table]:
    """The built rows of every upstream split, regrouped pair-safe; the config's rounds kept.

    Rows of each split are in ``entry_id`` order, as upstream's files are.
    """
    every = pa.concat_tables(tables.values())
    entries = map(
        Entry._make,
        zip(
            every["entry_id"].to_pylist(),
            every["matched_id"].to_pylist(),
            every["round"].to_pylist(),
            pc.equal(every["label"], 1).to_pylist(),
            pc.equal(every["perturbation"], _ORIGINAL).to_pylist(),
            pc.take(pa.array(SPLITS), every["upstream_split"]).to_pylist(),
            strict=True,
        ),
    )
    assigned = pair_safe_splits(entries, SPLITS)
    kept = every.filter(pc.is_in(every["round"], value_set=pa.array(config.param("rounds"))))
    split_of = pa.array([assigned[entry_id] for entry_id in kept["entry_id"].to_pylist()])
    return {split: kept.filter(pc.equal(split_of, split)).sort_by("entry_id") for split in tables}
