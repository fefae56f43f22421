"""lm-evaluation-harness tasks, generated from the declarations: ``lm_eval_tasks/``.

Per dataset config, on its evaluation split, one zero-shot multiple-choice task
and its generative twin (:mod:`.generative`); per dataset, a group of each kind,
and per :class:`~hatemoji_datasets.core.spec.Stack` (configs whose rows make
another's) a group that aggregates over them (:mod:`.groups`)::

    lm_eval_tasks/README.md
    lm_eval_tasks/<name>/_<name>.yaml                group <name>: its configs' tasks
    lm_eval_tasks/<name>/_<name>_gen.yaml            group <name>_gen: their twins
    lm_eval_tasks/<name>/_<name>_<stack>[_gen].yaml  group <name>_<stack>[_gen]
    lm_eval_tasks/<name>/<name>_<config>.yaml        task <name>_<config>
    lm_eval_tasks/<name>/<name>_<config>_gen.yaml    task <name>_<config>_gen
    lm_eval_tasks/<name>/prompts.py                  each task's prompt, a function

The prompt asks whether the text is hateful; the two choices are the label's
names in ClassLabel order, so a choice's position is the label id the harness
scores (``doc_to_target: label``). A task reports ``acc`` (the generative one
``exact_match`` of the parsed reply) and the F1 of ``hateful`` (lm-eval's
``f1``). A dataset in another language words prompt, choices and the
generative prompt's added line in its ``card.yaml`` (``lm_eval: {prompt,
choices, instruction}``); ``{text}`` marks where the text goes. The task names
its prompt ``doc_to_text: !function prompts.<task>``, a plain Python function
beside the YAML (:mod:`.prompts`).

Where the rows come from, one of three:

- by default, this package (``custom_dataset:``, :mod:`.custom_dataset`): the
  task builds the data from the pinned files, so it runs with only the package
  installed, offline from a mirror, before anything is pushed;
- ``hub``: the Hub repository of the dataset's export (``card.yaml``
  ``hub_repo_id``, else the ``<org>/NAME`` placeholder the cards use, or the
  repository given), pinned to the version's tag;
- ``dataset_path``: a local export folder.

The task names are the same in all three, so ``score`` reads the logs of each.
The package-reading tasks are also written on demand where any install finds
them: :func:`installed_folder` (``lm-eval-tasks --path``).

Nothing here builds data: labels come from the declared features.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hatemoji_datasets.core.card_source import card_source, hub_repo
from hatemoji_datasets.core.columns import LABEL_COLUMN
from hatemoji_datasets.core.errors import HatemojiDatasetsError, OutputError
from hatemoji_datasets.core.generated import (
    differences,
    folder_files,
    refresh,
    repository_folder,
    write_files,
)
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec
from hatemoji_datasets.harness.generative import (
    CHOICES_MARK,
    DEFAULT_INSTRUCTION,
    GEN_SUFFIX,
    GENERATION_KWARGS,
    filter_list,
    generative_name,
    generative_prompt,
)
from hatemoji_datasets.harness.groups import config_task, group_file, groups
from hatemoji_datasets.harness.prompts import (
    F1_FUNCTION,
    HATEFUL_ID,
    PROMPTS_FILE,
    TEXT_MARK,
    f1_function,
    is_function_name,
    prompt_function,
    prompt_reference,
    prompts_module,
)
from hatemoji_datasets.harness.readme import COMMAND, README, TASKS_FOLDER, readme
from hatemoji_datasets.harness.yaml_text import Function, dump_yaml

#: The prompt of a dataset whose ``card.yaml`` words none; ``{text}`` is the text.
DEFAULT_PROMPT = "Text: {text}\nQuestion: Is this text hateful?\nAnswer:"
#: The key of ``card.yaml`` that words a dataset's prompt and choices.
CARD_KEY = "lm_eval"
#: The loader the package-reading tasks name (lm-eval's ``custom_dataset`` hook).
LOADER = "hatemoji_datasets.harness.custom_dataset.load"


class TaskError(HatemojiDatasetsError):
    """The tasks cannot be generated as asked (a declaration or ``card.yaml`` is wrong)."""


def task_name(spec: DatasetSpec, config: ConfigSpec) -> str:
    """``<name>_<config>``: the task of one config's evaluation split."""
    return config_task(spec, config.name)


def task_file(spec: DatasetSpec, task: str) -> str:
    return f"{spec.name}/{task}.yaml"


def prompts_file(spec: DatasetSpec) -> str:
    return f"{spec.name}/{PROMPTS_FILE}"


def config_of_task(spec: DatasetSpec, task: str) -> ConfigSpec | None:
    """The config whose generated task (either kind) is called ``task``, if any."""
    for config in spec.configs:
        if task in (task_name(spec, config), generative_name(task_name(spec, config))):
            return config
    return None


def owner_of_task(task: str) -> tuple[DatasetSpec, ConfigSpec] | None:
    """The dataset and config whose generated task is called ``task``, if any."""
    for spec in specs().values():
        config = config_of_task(spec, task)
        if config is not None:
            return spec, config
    return None


def task_choices(spec: DatasetSpec, config: ConfigSpec) -> list[str]:
    """The words a config's tasks offer for its labels, in ClassLabel order."""
    return _wording(spec, config)[1]


def dataset_tasks(
    spec: DatasetSpec, dataset_path: str | None = None, hub: str | None = None
) -> dict[str, str]:
    """``{path under lm_eval_tasks/: text}`` of one dataset: its groups, tasks and prompts.

    The tasks read the package (default), the Hub (``hub``: a repository, or ``""`` for the
    card's) or a local export folder (``dataset_path``).
    """
    source = card_source(spec.card_source_path)
    files: dict[str, str] = {}
    functions: list[str] = []
    hateful = None
    version = {"version": spec.version}
    for name, document in groups(spec, version).items():
        files[group_file(name, spec)] = dump_yaml(_header(spec), document)
    named = [*groups(spec, version), *(t for c in spec.configs for t, _ in _names(spec, c))]
    twice = sorted({name for name in named if named.count(name) > 1})
    if twice:
        raise TaskError(f"{spec.name}: {', '.join(twice)} would name two tasks or groups")
    for config in spec.configs:
        where = _where(spec, config, source, dataset_path, hub)
        for task, prompt in _tasks(spec, config):
            name = task.pop("task")
            files[task_file(spec, name)] = dump_yaml(_header(spec), {"task": name, **where, **task})
            functions.append(prompt)
        hateful = task_choices(spec, config)[HATEFUL_ID]
    about = [
        f"Prompts of the {spec.name} tasks: ``doc_to_text``, one function per task; and "
        f"``{F1_FUNCTION}``, their F1 aggregation.",
        " ".join(_header(spec, "").splitlines()),
    ]
    if hateful is not None:
        functions.append(f1_function(hateful))
    files[prompts_file(spec)] = prompts_module(about, functions)
    return files


def task_files(
    names: Iterable[str] | None = None,
    dataset_path: str | None = None,
    hub: str | None = None,
) -> dict[str, str]:
    """Every generated file of datasets ``names`` (all registered ones by default).

    By default the tasks load the data through this package. ``dataset_path``: a local
    export folder they read instead (only with one dataset); written as an absolute path,
    since the harness may run elsewhere. ``hub``: they read the Hub exports instead, each
    dataset's ``card.yaml`` repository for ``""``, or the repository given (one dataset).
    The folder's README lists every dataset's tasks: it is written only when no dataset is
    named, so writing one dataset's tasks leaves the others' rows alone.
    """
    chosen = [dataset_spec(name) for name in names] if names else list(specs().values())
    if dataset_path is not None and hub is not None:
        raise TaskError("--dataset-path and --hub name two places to read: give one")
    if dataset_path is not None:
        if len(chosen) != 1:
            raise TaskError("--dataset-path names one dataset's export: give exactly one NAME")
        dataset_path = os.path.abspath(dataset_path)
    if hub and len(chosen) != 1:
        raise TaskError("--hub REPO names one dataset's repository: give exactly one NAME")
    files: dict[str, str] = {}
    for spec in chosen:
        files.update(dataset_tasks(spec, dataset_path, hub))
    if not names:
        files[README] = readme(chosen)
    return files


def write_tasks(files: dict[str, str], folder: Path) -> list[Path]:
    """Write generated files under ``folder``; the paths written."""
    return write_files(files, folder)


def check_tasks(files: dict[str, str], folder: Path) -> list[str]:
    """Every way ``folder`` differs from freshly generated ``files``: missing, stale, extra.

    Files not generated count only in the folders ``files`` write (a dataset's own, when
    only some datasets' tasks are checked; everything, when the README is among them).
    """
    hint = f"generate it with `{COMMAND}`"
    if README in files:
        return differences(files, folder, what="the declarations", hint=hint, extra=True)
    problems = differences(files, folder, what="the declarations", hint=hint)
    for dataset in sorted({relative.split("/")[0] for relative in files}):
        within = {
            relative.split("/", 1)[1]: text
            for relative, text in files.items()
            if relative.startswith(f"{dataset}/")
        }
        extra = differences(within, folder / dataset, what="", hint="", extra=True)
        problems += [
            problem for problem in extra if problem.endswith("not a generated file; remove it")
        ]
    return problems


def default_folder() -> Path:
    """``lm_eval_tasks/`` of the checkout this package runs from, else of the current folder."""
    return repository_folder(TASKS_FOLDER)


def installed_folder() -> Path:
    """The package-reading tasks of this install, written where any install can write them:
    ``$XDG_CACHE_HOME`` (else ``~/.cache``) ``/hatemoji-datasets/lm_eval_tasks/<version>``.

    Each call brings the folder up to date with this package's declarations (an editable
    install changes without a new version): files that differ are rewritten, whole or not
    at all, and files not generated (a task since removed) are deleted, so the harness
    never indexes a stale task. The README is written too.
    """
    from hatemoji_datasets.version import __version__

    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser()
    folder = cache / "hatemoji-datasets" / TASKS_FOLDER / __version__
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{folder}: cannot make the task folder ({error.strerror})") from None
    files = task_files()
    refresh(
        {folder / relative: text for relative, text in files.items()}, write=True, within=folder
    )
    for path in folder_files(folder):
        if path.relative_to(folder).as_posix() not in files:
            path.unlink()
    return folder


# -- one config's tasks ------------------------------------------------------------------


def _where(
    spec: DatasetSpec,
    config: ConfigSpec,
    source: dict[str, Any],
    dataset_path: str | None,
    hub: str | None,
) -> dict[str, Any]:
    """Where a task's rows come from (see :func:`dataset_tasks`)."""
    if dataset_path is not None:  # a local export is one version already
        return {"dataset_path": dataset_path, "dataset_name": config.name}
    if hub is not None:  # the Hub's copy is pinned by the version's tag
        return {
            "dataset_path": hub or hub_repo(source, spec.name)[0],
            "dataset_name": config.name,
            "dataset_kwargs": {"revision": f"v{spec.version}"},
        }
    return {
        "custom_dataset": Function(LOADER),
        "dataset_kwargs": {"dataset": spec.name, "config": config.name},
    }


def _wording(spec: DatasetSpec, config: ConfigSpec) -> tuple[str, list[str], str]:
    """The config's prompt, choices and generative instruction, as its card words them."""
    wording = card_source(spec.card_source_path).get(CARD_KEY) or {}
    if not isinstance(wording, dict):
        wording = {}
    features = spec.load(config.features)(config, spec.version)
    names = list(features[LABEL_COLUMN].names)
    prompt = wording.get("prompt", DEFAULT_PROMPT)
    choices = wording.get("choices", names)
    where = f"{spec.card_source_path} ({CARD_KEY})"
    if not isinstance(prompt, str) or TEXT_MARK not in prompt:
        raise TaskError(f"{where}: the prompt must mark the text with {TEXT_MARK}")
    if not isinstance(choices, list) or len(choices) != len(names):
        raise TaskError(f"{where}: choices must be {len(names)} words, one per label ({names})")
    choices = [str(choice) for choice in choices]
    if "instruction" not in wording and choices != names:
        raise TaskError(
            f"{where}: the choices are worded, so word the generative prompt's instruction "
            f"too (instruction: a line with {CHOICES_MARK} where the choices go)"
        )
    instruction = wording.get("instruction", DEFAULT_INSTRUCTION)
    if not isinstance(instruction, str) or CHOICES_MARK not in instruction:
        raise TaskError(f"{where}: the instruction must mark the choices with {CHOICES_MARK}")
    if "\n" in instruction:
        raise TaskError(f"{where}: the instruction must be one line")
    return prompt, choices, instruction


def _names(spec: DatasetSpec, config: ConfigSpec) -> list[tuple[str, str]]:
    """The config's two task names: ``(name, kind suffix)``."""
    name = task_name(spec, config)
    return [(name, ""), (generative_name(name), GEN_SUFFIX)]


def _tasks(spec: DatasetSpec, config: ConfigSpec) -> list[tuple[dict[str, Any], str]]:
    """The config's multiple-choice task and its generative twin, without where their rows
    come from (see :func:`dataset_tasks`), each with the source of its prompt's function."""
    prompt, choices, instruction = _wording(spec, config)
    features = spec.load(config.features)(config, spec.version)
    text = _text_column(spec, config, features)
    name = task_name(spec, config)
    generative = generative_name(name)
    if not is_function_name(generative):
        raise TaskError(f"{spec.name}/{config.name}: task {name!r} cannot name a Python function")
    common = {"test_split": config.eval_split}
    multiple_choice = {
        "task": name,
        **common,
        "output_type": "multiple_choice",
        "doc_to_text": Function(prompt_reference(name)),
        "doc_to_choice": choices,
        "doc_to_target": LABEL_COLUMN,
        "metric_list": [
            {"metric": "acc", "aggregation": "mean", "higher_is_better": True},
            {
                "metric": "f1",
                "aggregation": Function(prompt_reference(F1_FUNCTION)),
                "higher_is_better": True,
            },
        ],
        "metadata": {"version": spec.version},
    }
    twin = {
        "task": generative,
        **common,
        "output_type": "generate_until",
        "doc_to_text": Function(prompt_reference(generative)),
        # The gold label's name is what a reply must give (lm-eval: choices[target]).
        "doc_to_choice": choices,
        "doc_to_target": LABEL_COLUMN,
        "generation_kwargs": GENERATION_KWARGS,
        "filter_list": filter_list(choices),
        "metric_list": [
            {"metric": "exact_match", "aggregation": "mean", "higher_is_better": True},
            {
                "metric": "f1",
                "aggregation": Function(prompt_reference(F1_FUNCTION)),
                "higher_is_better": True,
            },
        ],
        "metadata": {"version": spec.version},
    }
    asked = generative_prompt(prompt, instruction, choices)
    return [
        (multiple_choice, prompt_function(name, prompt, text)),
        (twin, prompt_function(generative, asked, text)),
    ]


def _text_column(spec: DatasetSpec, config: ConfigSpec, features: Any) -> str:
    """The built text column: the string field ``card.yaml`` reads from the raw text column."""
    fields = card_source(spec.card_source_path).get("fields", {}) or {}
    for name, feature in features.items():
        about = fields.get(name)
        upstream = about.get("upstream") if isinstance(about, dict) else None
        if isinstance(upstream, dict):
            upstream = upstream.get(config.name)
        if upstream == config.text_column and getattr(feature, "dtype", None) == "string":
            return name
    if config.text_column in features:
        return config.text_column
    raise TaskError(
        f"{spec.name}/{config.name}: no built text field reads upstream column "
        f"{config.text_column!r} ({spec.card_source_path}: fields)"
    )


def _header(spec: DatasetSpec, comment: str = "# ") -> str:
    return (
        f"{comment}Generated by `{COMMAND}` from the declaration of {spec.name} {spec.version}\n"
        f"{comment}and its card.yaml: edit those and generate again rather than this file.\n"
    )
