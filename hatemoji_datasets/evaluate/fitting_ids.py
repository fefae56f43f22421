"""Which config a set of prediction ids belongs to, when they do not fit the scored one.

Predictions for Multilingual HateCheck's German cases scored on its default ``all``, or
HateCheck's scored as HatemojiCheck, are not a model's faults: they are the wrong
command. :func:`fitting_reference` names the config whose evaluation split has exactly
(or, failing that, the fewest ids holding) the predictions' ids: a part of the scored
config's stack (``all``'s rows are its parts' rows in order, each part as many as its
recorded build holds), else another config already built in the cache. Nothing is built
or fetched for a hint, and configs whose rows have no id (any row numbers fit) are not
looked at.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from numbers import Integral
from typing import Any

from hatemoji_datasets.building import recorded, summary
from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.registry import format_reference, specs
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec


def fitting_reference(
    spec: DatasetSpec,
    config: ConfigSpec,
    version: str,
    ids: Sequence[Any],
    predicted: set[Any],
    cache_dir: str | None,
) -> tuple[DatasetSpec, ConfigSpec] | None:
    """The config (not the scored one) whose evaluation ids the ``predicted`` ids fit:
    ``ids`` are the scored split's, in order."""
    scored = set(ids)
    if not predicted or predicted == scored:
        return None
    # Ids the scored split holds, some missing: only a smaller config fits them better.
    most = len(scored) - 1 if predicted <= scored else None
    best: tuple[int, DatasetSpec, ConfigSpec] | None = None
    for other, part, part_ids in _candidates(spec, config, version, ids, cache_dir):
        if most is not None and len(part_ids) > most:
            continue
        if predicted <= part_ids and (best is None or len(part_ids) < best[0]):
            best = (len(part_ids), other, part)
            if len(part_ids) == len(predicted):
                break
    return None if best is None else best[1:]


def _candidates(
    spec: DatasetSpec, config: ConfigSpec, version: str, ids: Sequence[Any], cache_dir: str | None
) -> Iterator[tuple[DatasetSpec, ConfigSpec, set[Any]]]:
    for stack in spec.stacks:
        if stack.whole != config.name:
            continue
        counts = [_recorded_rows(spec, spec.config(part), version) for part in stack.parts]
        if None in counts or sum(counts) != len(ids):  # type: ignore[arg-type]
            continue  # not the recorded build (a test's stand-in): its parts are unknown
        start = 0
        for part, count in zip(stack.parts, counts, strict=True):
            yield spec, spec.config(part), set(ids[start : start + count])  # type: ignore[operator]
            start += count  # type: ignore[operator]
    for other in specs().values():
        for candidate in other.configs:
            if (other.name, candidate.name) == (spec.name, config.name):
                continue
            found = _built_ids(other, candidate, cache_dir)
            if found is not None:
                yield other, candidate, found


def _recorded_rows(spec: DatasetSpec, config: ConfigSpec, version: str) -> int | None:
    records = recorded.expected_for(spec, config, version) or {}
    record = records.get(config.eval_split)
    return None if record is None else record.rows


def _built_ids(spec: DatasetSpec, config: ConfigSpec, cache_dir: str | None) -> set[Any] | None:
    """The evaluation split's ids of a config built in the cache (None: not built, no ids)."""
    if not config.id_column or not summary.is_built(spec, config, spec.version, cache_dir):
        return None
    from hatemoji_datasets.building.prepare import load_verified

    try:
        _, data = load_verified(spec, config, spec.version, cache_dir=cache_dir)
    except (HatemojiDatasetsError, OSError):
        return None  # a damaged build is no hint's business
    split = data[config.eval_split].select_columns([config.id_column])
    # As scoring compares ids: integers as Python ints, text ids as they are.
    return {int(v) if isinstance(v, Integral) else v for v in split[config.id_column]}


def fitting_hint(
    spec: DatasetSpec,
    config: ConfigSpec,
    fitting: tuple[DatasetSpec, ConfigSpec],
    path: str | None,
) -> str:
    """``; the ids are those of ...: score them ...``, the words a predictions error ends
    with: the command line for a file at ``path``, the argument for predictions in memory."""
    other, part = fitting
    shown = format_reference(other.name, None if part is other.config(None) else part.name)
    if other is spec:
        run = f"--config {part.name}" if path else f"config={part.name!r}"
    else:
        run = f"`hatemoji-datasets score {shown} --predictions {path}`" if path else repr(shown)
    return f"; the {config.id_column} values are those of {shown}: score them with {run}"
