"""The runs of a leaderboard: files, folders and globs, each run named by a file-name pattern.

A run is one predictions file (CSV or JSON Lines, as ``score`` reads them) or one
lm-evaluation-harness sample log, for one dataset config. :func:`find_runs` expands
what was given (a file, a folder, searched recursively for ``.csv`` and ``.jsonl``
files, or a glob) and names each run by a :class:`NamePattern` over its file name
(for a sample log, the name of the model folder the harness wrote it into):
``{model}_{size}_rs{seed}.csv`` names the model, a setting (``size``) and the seed.
Without a pattern, a run is named after its file's stem (or a log's model folder).

Every problem is a :class:`PredictionError` (exit status 1) naming the file: a glob or
folder that holds no run (an empty group), a pattern that matches none of a group's
files, a file it does not match, and two runs that claim the same model, setting and
seed of one dataset config.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from hatemoji_datasets.core.errors import PredictionError
from hatemoji_datasets.core.registry import dataset_spec, parse_reference
from hatemoji_datasets.evaluate.harness_log import is_sample_log, model_of, task_of
from hatemoji_datasets.harness.tasks import owner_of_task

#: The files a folder's runs are read from.
RUN_SUFFIXES = (".csv", ".jsonl")
#: The pattern fields with a meaning of their own; any other field is a setting.
MODEL, SEED = "model", "seed"
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([^{}]+))?\}")
_GLOB = re.compile(r"[*?\[]")

#: Where runs come from: ``{NAME[/CONFIG][:VERSION]: paths}`` (a path, folder or glob, or a
#: list of them), or paths alone (or under the key None) when every run is a sample log,
#: whose task names the config.
Paths = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]
RunSources = Mapping[str | None, Paths] | Paths


class NamePattern:
    """A file-name pattern: ``{field}`` matches any text (earlier fields as much as they
    can, so ``{model}_{size}`` splits at the last ``_``), ``{field:REGEX}`` what REGEX
    matches; the rest is literal. ``{model}`` is required; ``{seed}`` is the field runs are
    averaged over; any other field is a setting that, with the model, names a row."""

    def __init__(self, text: str) -> None:
        self.text = text
        parts, fields, at = [], [], 0
        for found in _FIELD.finditer(text):
            parts.append(re.escape(text[at : found.start()]))
            name, expression = found.group(1), found.group(2) or ".+"
            if name in fields:
                raise PredictionError(f"pattern {text!r} names the field {{{name}}} twice")
            try:
                re.compile(expression)
            except re.error as error:
                raise PredictionError(
                    f"pattern {text!r}: {{{name}:{expression}}} is not a regular expression "
                    f"({error})"
                ) from None
            parts.append(f"(?P<{name}>{expression})")
            fields.append(name)
            at = found.end()
        parts.append(re.escape(text[at:]))
        if MODEL not in fields:
            raise PredictionError(f"pattern {text!r} has no {{{MODEL}}} field")
        self.fields = tuple(fields)
        self.settings = tuple(f for f in fields if f not in (MODEL, SEED))
        self._regex = re.compile("".join(parts))

    def match(self, name: str) -> dict[str, str] | None:
        found = self._regex.fullmatch(name)
        return found.groupdict() if found else None


@dataclass(frozen=True)
class RunFile:
    """One run: its file, the dataset config it was made on, and what it claims to be."""

    path: Path
    #: ``NAME/CONFIG`` with ``:VERSION`` where one was given.
    reference: str
    model: str
    #: ``(field, value)`` of each setting, in the pattern's order.
    setting: tuple[tuple[str, str], ...] = ()
    seed: str | None = None

    @property
    def is_log(self) -> bool:
        return is_sample_log(self.path)

    def describe(self) -> str:
        parts = [f"model {self.model}", *(f"{k} {v}" for k, v in self.setting)]
        if self.seed is not None:
            parts.append(f"seed {self.seed}")
        return ", ".join(parts)


def _expand(given: str | os.PathLike[str]) -> list[Path]:
    """The run files ``given`` names: itself, a folder's ``.csv``/``.jsonl`` files (searched
    recursively), or a glob's matches, in a stable order."""
    text = os.fspath(given)
    if _GLOB.search(text) and not Path(text).exists():
        found = [Path(p) for p in sorted(glob.glob(text, recursive=True)) if Path(p).is_file()]
        if not found:
            raise PredictionError(f"{text}: an empty group: the glob matches no file")
        return found
    path = Path(text)
    if path.is_dir():
        found = sorted(p for p in path.rglob("*") if p.suffix.lower() in RUN_SUFFIXES)
        found = [p for p in found if p.is_file()]
        if not found:
            suffixes = " or ".join(RUN_SUFFIXES)
            raise PredictionError(f"{text}: an empty group: the folder holds no {suffixes} file")
        return found
    return [path]  # a missing or unreadable file is named when it is read (exit 2)


def _sources(runs: RunSources) -> list[tuple[str | None, list[str | os.PathLike[str]]]]:
    """``(reference or None, [path, ...])`` per group of runs given."""
    if isinstance(runs, str | os.PathLike):
        return [(None, [runs])]
    if isinstance(runs, Mapping):
        return [
            (reference, [given] if isinstance(given, str | os.PathLike) else list(given))
            for reference, given in runs.items()
        ]
    return [(None, list(runs))]


def _log_reference(path: Path, given: str | None) -> str:
    """The config a sample log was made on (its task names it); it must be ``given``'s."""
    task = task_of(path)
    owner = owner_of_task(task) if task and is_sample_log(path) else None
    if owner is None:
        if given is not None:
            return given
        raise PredictionError(
            f"{path}: not an lm-evaluation-harness log of one of the package's tasks; "
            "name the dataset config its runs were made on (NAME[/CONFIG]=PATH)"
        )
    spec, config = owner
    logged = f"{spec.name}/{config.name}"
    if given is not None:
        name, named_config, version = parse_reference(given)
        named = f"{name}/{named_config or dataset_spec(name).default_config_name}"
        if named != logged:
            raise PredictionError(f"{path}: an lm-evaluation-harness log of {logged}, not {named}")
        return logged + (f":{version}" if version else "")
    return logged


def _name_of(path: Path) -> str:
    """What a pattern reads: the file's name, or for a sample log its model folder's."""
    return model_of(path) if is_sample_log(path) else path.name


def find_runs(runs: RunSources, pattern: str | None = None) -> list[RunFile]:
    """Every run ``runs`` names, named by ``pattern`` (:class:`NamePattern`), checked that no
    two claim the same model, setting and seed of one dataset config."""
    compiled = NamePattern(pattern) if pattern is not None else None
    found: list[RunFile] = []
    for reference, paths in _sources(runs):
        for given in paths:
            files = _expand(given)
            named = [(path, _name_of(path)) for path in files]
            if compiled is not None:
                matched = [compiled.match(name) for _, name in named]
                if not any(matched):
                    raise PredictionError(
                        f"{os.fspath(given)}: the pattern {compiled.text!r} matches none of its "
                        f"{len(files):,} file(s) (first: {named[0][1]})"
                    )
                for (path, name), fields in zip(named, matched, strict=True):
                    if fields is None:
                        raise PredictionError(
                            f"{path}: its name {name!r} does not match the pattern "
                            f"{compiled.text!r}"
                        )
            for index, (path, name) in enumerate(named):
                where = _log_reference(path, reference) if _is_log(path) else reference
                if where is None:
                    raise PredictionError(
                        f"{path}: name the dataset config its predictions were made on "
                        "(NAME[/CONFIG]=PATH)"
                    )
                if compiled is None:
                    stem = name if _is_log(path) else Path(name).stem
                    found.append(RunFile(path, where, stem))
                    continue
                fields = matched[index] or {}
                setting = tuple((field, fields[field]) for field in compiled.settings)
                found.append(RunFile(path, where, fields[MODEL], setting, fields.get(SEED)))
    _refuse_repeated(found)
    return found


def _is_log(path: Path) -> bool:
    return path.suffix.lower() == ".jsonl" and is_sample_log(path)


def _refuse_repeated(found: Iterable[RunFile]) -> None:
    claimed: dict[tuple, RunFile] = {}
    for run in found:
        key = (_config_of(run.reference), run.model, run.setting, run.seed)
        if key in claimed:
            other = claimed[key]
            if other.path.resolve() == run.path.resolve():
                raise PredictionError(f"{run.path}: given twice")
            raise PredictionError(
                f"{run.path}: it and {other.path} both claim {run.describe()} on {key[0]}; "
                f"give each run a name of its own (a {{{SEED}}} field?)"
            )
        claimed[key] = run


def _config_of(reference: str) -> str:
    name, config, version = parse_reference(reference)
    config = config or dataset_spec(name).default_config_name
    return f"{name}/{config}" + (f":{version}" if version else "")
