"""The streaming validator: a contribution checked batch by batch, in bounded memory.

A contributed file is read in record batches (:meth:`~hatemoji_datasets.raw.reader.RawScan.batches`)
and each batch is run through its model's compiled plan
(:mod:`hatemoji_datasets.schema.plan`): the column checks, the dataset's rules
(its ``rules.py``), and the release rules (a released row must be unchanged, a
new text must not repeat a released one, new text must be clean). What spans
batches is compact state (:mod:`.screen_state`,
:mod:`~hatemoji_datasets.raw.unique_values`): each unique column's values,
the rules between rows, and the release's keys, cells and canonical texts (a
few thousand rows). Memory is a few read blocks plus that state, whatever the
file's size, and pandera is not imported.

The screen says only what it can say exactly: that a file is clean, or that its
only faults are repeated values of a unique column, or only those of the release
rules (a second read then names each one as the exact engine does, batch by batch,
into a :class:`~hatemoji_datasets.validate.spool.FindingSpool`: any number of
findings in bounded memory). Any other fault, or any doubt
(a value its parse reads differently, a row over several lines, a rule it has no
implementation of), sends the file to the exact engine, which names every finding;
so findings are exactly what they were, and the plan may be stricter than the schema
but never laxer (tests prove it).

A config that joins files of several formats (cases and their annotations) has each
file screened in its own format, as the exact engine checks it (by its name, else its
header: :func:`~hatemoji_datasets.validate.formats.part_of`), keeping each row's key and
a digest of the columns its joins compare; the joins' promises are then decided over
the contribution's files and the release (:mod:`.screen_joins`).
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

import numpy as np
import pyarrow

from hatemoji_datasets.core.arrow_values import int64s
from hatemoji_datasets.core.errors import HatemojiDatasetsError, InputError
from hatemoji_datasets.core.findings import (
    Finding,
    Severity,
    cell_order,
    finding_order,
    preview,
)
from hatemoji_datasets.core.numbers import size
from hatemoji_datasets.core.progress import step
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, RawPart
from hatemoji_datasets.raw.plan_checks import (
    BatchCheck,
    across_states,
    added,
    chunks,
    finished,
    header_fits,
    screenable,
)
from hatemoji_datasets.raw.reader import ConversionError, RawScan, scan_raw
from hatemoji_datasets.raw.unique_values import UniqueValues
from hatemoji_datasets.schema.plan import (
    ModelPlan,
    ScreenContext,
    dataset_rules,
)
from hatemoji_datasets.schema.plan_cache import model_plan
from hatemoji_datasets.schema.raw_columns import layout_of
from hatemoji_datasets.validate.formats import named_source, part_of, source_of, split_of
from hatemoji_datasets.validate.screen_joins import JoinSide, join_side, joins_kept
from hatemoji_datasets.validate.screen_state import Release, released_context
from hatemoji_datasets.validate.spool import FindingSpool


@dataclass
class Screened:
    """What the screen found in a file: nothing (clean), or findings it can name exactly
    (repeats of a unique value, or the release rules', when nothing else is wrong)."""

    #: Every finding, on disk (None: the file is clean).
    spool: FindingSpool | None = None
    #: The file's keys, where its key column is unique (to compare files with each other).
    keys: UniqueValues | None = None
    #: The format the file is written in.
    part: RawPart | None = None
    #: What the config's joins read of its rows (None where the config joins nothing).
    joined: JoinSide | None = None

    @property
    def findings(self) -> list[Finding]:
        """Every finding, read back from the spool."""
        return [] if self.spool is None else list(self.spool)


def screen_contribution(
    paths: Sequence[str],
    spec: DatasetSpec,
    config: ConfigSpec,
    *,
    mirror: str | None,
    cache_dir: str | None,
    changes: Severity = "error",
) -> Screened | None:
    """What a contribution holds, where the screen can tell: every file clean (no key held
    by two files of a format, and every join's promises kept), or the only faults of a
    one-file contribution; None where the exact engine must check it. ``changes`` is
    the severity of a changed released row."""
    found = []
    for path in paths:
        with step(f"checking {path} ({size(os.path.getsize(path))})"):
            screened = screen_file(
                path, spec, config, mirror=mirror, cache_dir=cache_dir, changes=changes
            )
        if screened is None:
            return None
        if screened.spool is not None and len(paths) > 1:
            screened.spool.close()
            return None
        found.append(screened)
    if len(paths) > 1 and not (len(set(paths)) == len(paths) and clean_together(found)):
        return None
    joins = [(screened.part, screened.joined) for screened in found]
    if not joins_kept(spec, config, joins, mirror=mirror, cache_dir=cache_dir):
        if found[0].spool is not None:
            found[0].spool.close()
        return None
    return found[0] if len(paths) == 1 else Screened()


def screen_file(
    path: str,
    spec: DatasetSpec,
    config: ConfigSpec,
    part: RawPart | None = None,
    *,
    mirror: str | None,
    cache_dir: str | None,
    changes: Severity = "error",
) -> Screened | None:
    """What ``path`` holds, where the screen can tell; None where the exact engine must.

    ``part`` is the format to read it in; by default the one it is written in, as the
    exact engine finds it (by its name, else its header). ``changes`` is the severity
    of a changed released row."""
    # What needs no header is ruled out before the scan starts counting the file's lines.
    formats = (part,) if part is not None else config.parts
    if not any(screenable(spec, config, p) for p in formats):
        return None
    source = named_source(path, spec)
    if source is not None and not any(source in p.sources for p in formats):
        return None  # named like another upstream file: the exact path says so
    widest = max(len(layout_of(spec, p.schema).columns) for p in formats)
    try:
        scan = scan_raw(path, config.raw_format, max_columns=widest)
    except InputError:
        return None
    # Its format, as the exact engine finds it (by its name, else its header), gives the
    # columns read as integers.
    part = part or part_of(path, list(scan.header), spec, config)
    integers = layout_of(spec, part.schema).integers
    scan = replace(scan, integers=tuple(c for c in integers if c in scan.header))
    if not screenable(spec, config, part) or (source is not None and source not in part.sources):
        return None  # its format's plan falls short, or it is named like another format's file
    plan = model_plan(spec, part.schema)
    text = config.text_column if plan.column(config.text_column) else part.key_column
    if not header_fits(scan.header, plan) or not {part.key_column, text} <= set(scan.header):
        return None
    try:
        release = released_context(spec, config, part, text, mirror, cache_dir)
    except HatemojiDatasetsError:
        # The release could not be read (no network, a damaged cache): the exact engine
        # reads the file first, so a malformed file still exits 2 before any download,
        # and otherwise it meets the same error and says it.
        return None
    # A join's files are not of one split: the rows they join with are.
    split = split_of(path, spec, config) if part.join is None else None
    context = ScreenContext(source_of(path, spec, part), release.table, split)
    # As the raw reader does: first as if no value spans lines, which is exact when
    # every physical line became one row; otherwise again, allowing them.
    for newlines in (False, True) if config.raw_format.quoted else (False,):
        joined = join_side(config, part, scan.header)
        verdict = _screen(scan, plan, spec, release, context, newlines, joined)
        if verdict is _AGAIN:
            continue
        if verdict is None:
            return None
        unique, release_faults = verdict
        clean = all(seen.clean for seen in unique.values())
        if clean and not release_faults:
            return Screened(keys=unique.get(part.key_column), part=part, joined=joined)
        if newlines or (release_faults and not (clean and _alone(spec, config))):
            # A row's line is not its position, a repeated key may also be a release fault
            # (the exact engine reports one finding a cell), or a file of a config that
            # stacks others may be hinted to one of them (by all its ids): the exact
            # engine says.
            return None
        spool = FindingSpool()
        try:
            if release_faults:
                named = _release_faults(scan, release, changes, spool)
            else:
                named = _repeats(scan, plan, unique, spool)
        except BaseException:  # an error, or Ctrl-C: the spool goes at once
            spool.close()
            raise
        if not named:
            spool.close()
            return None
        return Screened(spool=spool, part=part, joined=joined)
    return None


def clean_together(files: list[Screened]) -> bool:
    """Whether clean files stay clean together: no key is held by two files of a format."""
    formats: dict[RawPart | None, list[Screened]] = {}
    for found in files:
        formats.setdefault(found.part, []).append(found)
    for same in formats.values():
        if len(same) > 1 and any(found.keys is None for found in same):
            return False  # keys that are not unique: only the exact engine compares them
        if any(
            same[i].keys.overlaps(same[j].keys)
            for i in range(len(same))
            for j in range(i + 1, len(same))
        ):
            return False
    return True


def _release_faults(
    scan: RawScan, release: Release, changes: Severity, spool: FindingSpool
) -> bool:
    """The findings of a file whose only faults are the release rules', as the exact
    engine words them (its own rules run over each batch), in line order (a second read),
    into ``spool``; False if they find nothing after all (a doubt: the exact engine says)."""
    from hatemoji_datasets.validate.release_rules import (
        ContributedRows,
        changed_rows,
        member,
        repeated_texts,
        text_rules,
    )

    released = release.table.to_pandas()
    offset = 0
    for batch in scan.batches(newlines_in_values=False):
        frame = batch.to_pandas()
        rows = ContributedRows(
            scan.path,
            frame,
            release.key,
            release.text,
            released,
            lambda position, offset=offset: offset + position + 2,  # the header is line 1
            member(frame[release.key], released[release.key]),
        )
        found = [*changed_rows(rows, changes), *repeated_texts(rows), *text_rules(rows)]
        if any(f.code == "ID-RELEASED" for f in found):
            return False  # the next free id it names is the whole file's: the exact engine
        spool.extend(_in_report_order(found))  # batches come in line order
        offset += batch.num_rows
    return len(spool) > 0


def _alone(spec: DatasetSpec, config: ConfigSpec) -> bool:
    """Whether ``config`` stacks no others (Multilingual HateCheck's ``all`` does)."""
    return not any(stack.whole == config.name for stack in spec.stacks)


def _in_report_order(found: list[Finding]) -> list[Finding]:
    """``found`` sorted by :func:`~hatemoji_datasets.core.findings.finding_order`, its last
    part (a value split into numbers, the costly one) looked at only where one cell has
    two findings of a code (which the release rules never make)."""
    found.sort(key=cell_order)
    if any(cell_order(a) == cell_order(b) for a, b in pairwise(found)):
        found.sort(key=finding_order)
    return found


def _repeats(
    scan: RawScan, plan: ModelPlan, unique: dict[str, UniqueValues], found: FindingSpool
) -> bool:
    """The findings of a file whose only fault is repeated unique values, as the schema
    engine words them: every row of a repeated value, in line order (a second read), into
    ``found``; False where the schema engine words them otherwise."""
    if any(plan.column(name).report_duplicates != "all" for name in unique):
        return False
    code, message = "VALUE-DUPLICATE", "repeats a value that must be unique"
    names = list(unique)
    offset = 0
    for batch in scan.batches(newlines_in_values=False):
        masks = [unique[name].repeated(batch[name]) for name in names]
        positions = np.concatenate([np.flatnonzero(mask) for mask in masks])
        columns = np.concatenate([np.full(int(m.sum()), i) for i, m in enumerate(masks)])
        order = np.lexsort((columns, positions))  # line order, then the column's
        chosen_positions, chosen_columns = positions[order], columns[order]
        values: list[Any] = [None] * len(chosen_positions)
        for index, name in enumerate(names):
            at = np.flatnonzero(chosen_columns == index)
            taken = batch[name].take(int64s(chosen_positions[at]))
            for slot, value in zip(at.tolist(), taken.to_pylist(), strict=True):
                values[slot] = value
        found.extend(
            # The header is line 1, and one line holds one row.
            Finding(scan.path, offset + position + 2, names[column], code, message, preview(value))
            for position, column, value in zip(
                chosen_positions.tolist(), chosen_columns.tolist(), values, strict=True
            )
        )
        offset += batch.num_rows
    return True


#: ``_screen``'s answer when the file must be read again, allowing newlines in values.
_AGAIN = object()


def _screen(
    scan: RawScan,
    plan: ModelPlan,
    spec: DatasetSpec,
    release: Release,
    context: ScreenContext,
    newlines: bool,
    joined: JoinSide | None,
) -> tuple[dict[str, UniqueValues], bool] | None | object:
    """The unique columns' values, and whether a release rule fails, when every other
    check holds (None: something else is wrong or in doubt; ``_AGAIN``: read it again,
    allowing newlines in values); ``joined`` is fed every batch, as the rules between
    rows are.

    The batches are checked on two threads while the next ones are read and parsed:
    the checks run inside pyarrow, which releases the GIL. The state across batches
    (unique values, rules between rows) is kept here, in order. At most a few batches
    wait.
    """
    release_faults = threading.Event()  # named later, if nothing else is wrong

    def release_kept(batch: pyarrow.RecordBatch) -> bool:
        if not release.keeps(batch):
            release_faults.set()
        return True

    check = BatchCheck(plan, dataset_rules(spec), context, scan.header, also=release_kept)
    unique = {c.name: UniqueValues() for c in check.columns if c.unique}
    across = [*across_states(check), *([joined] if joined is not None else [])]
    rows = 0
    try:
        with ThreadPoolExecutor(max_workers=CHECKERS) as pool:
            waiting: deque[Future[bool]] = deque()
            for batch in chunks(scan.batches(newlines_in_values=newlines)):
                rows += batch.num_rows
                for name, seen in unique.items():
                    seen.add(batch[name])  # a repeat is named later, if nothing else is wrong
                if any(seen.missing for seen in unique.values()) or not added(batch, across):
                    return None
                waiting.append(pool.submit(check, batch))
                while waiting and (len(waiting) > 2 * CHECKERS or waiting[0].done()):
                    if not waiting.popleft().result():
                        return None
            if not all(checked.result() for checked in waiting):
                return None
            if not finished(across):
                return None
        lines = scan.lines()
    except (InputError, ConversionError):
        return _AGAIN if not newlines else None
    if not newlines and rows != lines - 1:
        return _AGAIN
    return unique, release_faults.is_set()


#: Threads checking batches.
CHECKERS = 2
