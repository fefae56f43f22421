"""Which of a config's raw file formats, pinned sources and splits a contributed file is.

A config may read files of several formats (its rows, and files joined to them,
such as annotations) and several files of one format (one per language). A
contributed file named like one of the config's upstream files is that file;
any other is in the format whose columns its header matches best, and stands
for a source only when the format has just one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from hatemoji_datasets.core.registry import format_reference, specs
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, RawPart
from hatemoji_datasets.schema.raw_columns import layout_of

if TYPE_CHECKING:
    import pandas as pd


def upstream_name(spec: DatasetSpec, source: str) -> str:
    """The file name of a pinned source's URL (``%20`` decoded)."""
    return unquote(PurePosixPath(urlsplit(spec.source_files()[source].url).path).name)


def named_source(path: str, spec: DatasetSpec) -> str | None:
    """The pinned source (of any config) whose upstream file has this file's name."""
    name = Path(path).name
    return next((s for s in spec.source_files() if upstream_name(spec, s) == name), None)


def part_of(path: str, header: list[str], spec: DatasetSpec, config: ConfigSpec) -> RawPart:
    """The format a contributed file is written in (ties: the config's own rows)."""
    parts = config.parts
    if len(parts) == 1:
        return parts[0]
    name = Path(path).name
    for part in parts:
        if any(upstream_name(spec, source) == name for source in part.sources):
            return part
    columns = set(header)

    def fit(part: RawPart) -> tuple[bool, int]:
        # The schema's columns, from its generated layout: no pandera needed to tell.
        expected = set(layout_of(spec, part.schema).columns)
        return expected == columns, len(expected & columns)

    return max(parts, key=fit)  # max keeps the first of equals


def source_of(path: str, spec: DatasetSpec, part: RawPart) -> str | None:
    """The pinned source a contributed file stands for: its format's only one, or the one
    whose upstream file has its name (None when neither tells)."""
    if len(part.sources) == 1:
        return part.sources[0]
    name = Path(path).name
    return next((s for s in part.sources if upstream_name(spec, s) == name), None)


def split_of(path: str, spec: DatasetSpec, config: ConfigSpec) -> str | None:
    """The split a contributed file's name says its rows are in, for a config that says
    (its ``split_of_file``); None where each row's own column says."""
    return spec.load(config.split_of_file)(path) if config.split_of_file else None


def other_datasets_of(header: list[str], spec: DatasetSpec) -> list[str]:
    """The datasets other than ``spec`` one of whose declared formats has exactly the columns
    of ``header``, each as ``NAME`` (or ``NAME/CONFIG`` when only another config reads it).

    For a hint on a file validated against the wrong dataset: the registry's declarations
    say which dataset it is, none named here.
    """
    columns = set(header)
    found = []
    for other in specs().values():
        if other.name == spec.name:
            continue
        default = other.config(None)
        for config in sorted(other.configs, key=lambda c: c is not default):
            if any(set(layout_of(other, part.schema).columns) == columns for part in config.parts):
                found.append(
                    format_reference(other.name, None if config is default else config.name)
                )
                break
    return found


#: The column a predictions file holds its labels in (``score``'s input), and the most
#: columns such a file has (an id, the prediction, a score, maybe a text or two).
PREDICTION_COLUMN = "prediction"
PREDICTIONS_WIDTH = 6


def format_hints(path: str, header: list[str], spec: DatasetSpec, config: ConfigSpec) -> list[str]:
    """For a file whose header the config's format refuses: what it looks like, and what to
    run instead (another dataset's file, this dataset as built, or a predictions file)."""
    hints = [
        f"{path} has the columns of {other}, not of {spec.name}: did you mean --dataset {other}?"
        for other in other_datasets_of(header, spec)
    ]
    raw_columns = layout_of(spec, config.schema).columns
    built = spec.load(config.features)(config, spec.version)  # the names `info` shows
    if set(header) <= set(built) and not set(header) <= set(raw_columns):
        hints.append(
            f"{path} has the built dataset's column names (as `info` shows them): a "
            "contribution is written as the upstream file is, with its columns "
            f"({', '.join(raw_columns)}) and its values"
        )
    if PREDICTION_COLUMN in header and len(header) <= PREDICTIONS_WIDTH:
        hints.append(
            f"{path} looks like a predictions file (a {PREDICTION_COLUMN!r} column): "
            f"score it with `hatemoji-datasets score {spec.name} --predictions {path}`"
        )
    return hints


def _prefix(key: object) -> str:
    """An id without its number: ``german-`` of ``german-12`` (empty for a plain number)."""
    return str(key).rstrip("0123456789")


def next_free_id(key: object, keys: Iterable[object]) -> str | None:
    """The id after the highest of ``keys`` that is written like ``key`` (its prefix, then a
    number): ``german-3646`` for ``german-12`` when ``german-3645`` is the highest; None
    where ``key`` ends in no number."""
    prefix = _prefix(key)
    if prefix == str(key):
        return None
    numbers = [str(k)[len(prefix) :] for k in keys if _prefix(k) == prefix]
    return f"{prefix}{max(int(n) for n in numbers if n) + 1}"


def part_hints(
    path: str, keys: list[object], spec: DatasetSpec, config: ConfigSpec, released: pd.DataFrame
) -> list[str]:
    """For a file checked against a config that stacks others (Multilingual HateCheck's
    ``all``) whose ids (``keys``) are mostly one part's, by their prefix (``german-``) as
    the ``released`` rows have it: validate it with that part's config, where an id of
    another part is one finding of the part's rules. A file named like an upstream file
    is that file's part already and gets none."""
    from hatemoji_datasets.schema.model import row_sources

    sources = row_sources(released)
    parts = [stack.parts for stack in spec.stacks if stack.whole == config.name]
    if not parts or sources is None or named_source(path, spec) is not None or not keys:
        return []
    prefixes: dict[str, set[str]] = {}
    for key, source in zip(released[config.key_column], sources, strict=True):
        prefixes.setdefault(source, set()).add(_prefix(key))
    part_of_prefix = {}
    for part in parts[0]:
        found = {p for s in spec.config(part).source_names for p in prefixes.get(s, ())}
        if len(found) == 1 and "" not in found:  # a part whose every id says it is its
            part_of_prefix[found.pop()] = part
    counted = Counter(part_of_prefix.get(_prefix(key)) for key in keys)
    part, rows = max(counted.items(), key=lambda item: item[1])
    if part is None or rows * 2 <= len(keys):
        return []
    return [
        f"{path}: {rows:,} of its {len(keys):,} rows have ids of {spec.name}/{part}: "
        f"validate it with --config {part}"
    ]
