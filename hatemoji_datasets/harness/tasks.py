"""lm-evaluation-harness tasks, generated from the declarations: ``lm_eval_tasks/``.

One zero-shot multiple-choice task per dataset config, on its evaluation split,
and one group per dataset::

    lm_eval_tasks/README.md
    lm_eval_tasks/<name>/_<name>.yaml           group <name>: its configs' tasks
    lm_eval_tasks/<name>/<name>_<config>.yaml   task <name>_<config>
    lm_eval_tasks/<name>/prompts.py             each task's prompt, a function

The prompt asks whether the text is hateful; the two choices are the label's
names in ClassLabel order, so a choice's position is the label id the harness
scores (``doc_to_target: label``). A dataset in another language words prompt
and choices in its ``card.yaml`` (``lm_eval: {prompt, choices}``); ``{text}``
marks where the text goes. The task names its prompt ``doc_to_text: !function
prompts.<task>``, a plain Python function beside the YAML (:mod:`.prompts`).

Where the rows come from, one of three:

- by default, this package (``custom_dataset:``, :mod:`.custom_dataset`): the
  task builds the data from the pinned files, so it runs with only the package
  installed, offline from a mirror, before anything is pushed;
- ``hub``: the Hub repository of the dataset's export (``card.yaml``
  ``hub_repo_id``, else the ``<org>/NAME`` placeholder the cards use, or the
  repository given), pinned to the version's tag;
- ``dataset_path``: a local export folder.

The task names are the same in all three, so ``score`` reads the logs of each.

Nothing here builds data: labels come from the declared features.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from hatemoji_datasets.core.card_source import card_source, hub_repo
from hatemoji_datasets.core.columns import LABEL_COLUMN
from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.generated import differences, repository_folder, write_files
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec
from hatemoji_datasets.harness.prompts import (
    PROMPTS_FILE,
    TEXT_MARK,
    is_function_name,
    prompt_function,
    prompt_reference,
    prompts_module,
)

#: The repository's folder of generated task files.
TASKS_FOLDER = "lm_eval_tasks"
README = "README.md"
#: The prompt of a dataset whose ``card.yaml`` words none; ``{text}`` is the text.
DEFAULT_PROMPT = "Text: {text}\nQuestion: Is this text hateful?\nAnswer:"
#: The key of ``card.yaml`` that words a dataset's prompt and choices.
CARD_KEY = "lm_eval"
COMMAND = "hatemoji-datasets lm-eval-tasks"
#: The loader the package-reading tasks name (lm-eval's ``custom_dataset`` hook).
LOADER = "hatemoji_datasets.harness.custom_dataset.load"


class TaskError(HatemojiDatasetsError):
    """The tasks cannot be generated as asked (a declaration or ``card.yaml`` is wrong)."""


def task_name(spec: DatasetSpec, config: ConfigSpec) -> str:
    """``<name>_<config>``: the task of one config's evaluation split."""
    return f"{spec.name}_{config.name}"


def group_file(spec: DatasetSpec) -> str:
    return f"{spec.name}/_{spec.name}.yaml"


def task_file(spec: DatasetSpec, config: ConfigSpec) -> str:
    return f"{spec.name}/{task_name(spec, config)}.yaml"


def prompts_file(spec: DatasetSpec) -> str:
    return f"{spec.name}/{PROMPTS_FILE}"


def config_of_task(spec: DatasetSpec, task: str) -> ConfigSpec | None:
    """The config whose generated task is called ``task``, if any."""
    return next((c for c in spec.configs if task_name(spec, c) == task), None)


def owner_of_task(task: str) -> tuple[DatasetSpec, ConfigSpec] | None:
    """The dataset and config whose generated task is called ``task``, if any."""
    for spec in specs().values():
        config = config_of_task(spec, task)
        if config is not None:
            return spec, config
    return None


def dataset_tasks(
    spec: DatasetSpec, dataset_path: str | None = None, hub: str | None = None
) -> dict[str, str]:
    """``{path under lm_eval_tasks/: YAML text}`` of one dataset: its group and tasks.

    The tasks read the package (default), the Hub (``hub``: a repository, or ``""`` for the
    card's) or a local export folder (``dataset_path``).
    """
    source = card_source(spec.card_source_path)
    wording = source.get(CARD_KEY) or {}
    files: dict[str, str] = {}
    functions: list[str] = []
    for config in spec.configs:
        task, prompt = _task(spec, config, wording)
        functions.append(prompt)
        if dataset_path is not None:  # a local export is one version already
            where: dict[str, Any] = {"dataset_path": dataset_path, "dataset_name": config.name}
        elif hub is not None:  # the Hub's copy is pinned by the version's tag
            repo = hub or hub_repo(source, spec.name)[0]
            where = {
                "dataset_path": repo,
                "dataset_name": config.name,
                "dataset_kwargs": {"revision": f"v{spec.version}"},
            }
        else:
            where = {
                "custom_dataset": _Function(LOADER),
                "dataset_kwargs": {"dataset": spec.name, "config": config.name},
            }
        task = {"task": task.pop("task"), **where, **task}
        files[task_file(spec, config)] = _dump(_header(spec), task)
    group = {
        "group": spec.name,
        "task": [task_name(spec, config) for config in spec.configs],
        "metadata": {"version": spec.version},
    }
    about = [
        f"Prompts of the {spec.name} tasks: ``doc_to_text``, one function per task.",
        " ".join(_header(spec, "").splitlines()),
    ]
    prompts = prompts_module(about, functions)
    return {group_file(spec): _dump(_header(spec), group), **files, prompts_file(spec): prompts}


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
    files[README] = _readme(chosen)
    return files


def write_tasks(files: dict[str, str], folder: Path) -> list[Path]:
    """Write generated files under ``folder``; the paths written."""
    return write_files(files, folder)


def check_tasks(files: dict[str, str], folder: Path) -> list[str]:
    """Every way ``folder`` differs from freshly generated ``files``: missing, stale, extra."""
    hint = f"generate it with `{COMMAND}`"
    return differences(files, folder, what="the declarations", hint=hint, extra=True)


def default_folder() -> Path:
    """``lm_eval_tasks/`` of the checkout this package runs from, else of the current folder."""
    return repository_folder(TASKS_FOLDER)


# -- one task -----------------------------------------------------------------------------


def _task(spec: DatasetSpec, config: ConfigSpec, wording: Any) -> tuple[dict[str, Any], str]:
    """The task without where its rows come from (see :func:`dataset_tasks`), and the
    source of its prompt's function."""
    features = spec.load(config.features)(config, spec.version)
    names = list(features[LABEL_COLUMN].names)
    prompt = wording.get("prompt", DEFAULT_PROMPT) if isinstance(wording, dict) else DEFAULT_PROMPT
    choices = wording.get("choices", names) if isinstance(wording, dict) else names
    where = f"{spec.card_source_path} ({CARD_KEY})"
    if not isinstance(prompt, str) or TEXT_MARK not in prompt:
        raise TaskError(f"{where}: the prompt must mark the text with {TEXT_MARK}")
    if not isinstance(choices, list) or len(choices) != len(names):
        raise TaskError(f"{where}: choices must be {len(names)} words, one per label ({names})")
    text = _text_column(spec, config, features)
    name = task_name(spec, config)
    if not is_function_name(name):
        raise TaskError(f"{spec.name}/{config.name}: task {name!r} cannot name a Python function")
    task = {
        "task": name,
        "test_split": config.eval_split,
        "output_type": "multiple_choice",
        "doc_to_text": _Function(prompt_reference(name)),
        "doc_to_choice": [str(choice) for choice in choices],
        "doc_to_target": LABEL_COLUMN,
        "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}],
        "metadata": {"version": spec.version},
    }
    return task, prompt_function(name, prompt, text)


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


class _Dumper(yaml.SafeDumper):
    """Prompts with line breaks as one double-quoted line (``"...\\nAnswer:"``)."""


class _Function(str):
    """A function the harness imports: written ``!function module.name``."""


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = '"' if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _string)
_Dumper.add_representer(
    _Function, lambda dumper, value: dumper.represent_scalar("!function", str(value))
)


def _dump(header: str, document: dict[str, Any]) -> str:
    return header + yaml.dump(
        document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000
    )


# -- the folder's README --------------------------------------------------------------------


def _readme(chosen: list[DatasetSpec]) -> str:
    rows = []
    for spec in chosen:
        for config in spec.configs:
            rows.append(
                f"| `{task_name(spec, config)}` | `{spec.name}` | `{config.name}` | "
                f"`{config.eval_split}` |"
            )
    names = ",".join(spec.name for spec in chosen)
    return "\n".join(
        [
            "# lm-evaluation-harness tasks",
            "",
            f"Generated by `{COMMAND}` from the dataset declarations; do not edit. Each task "
            "asks, zero-shot, whether a text is hateful, with the label's two names as the "
            "choices (in the dataset's language), and reports `acc`. Each dataset is a group "
            "of its configs' tasks.",
            "",
            "| task | dataset | config | split |",
            "|---|---|---|---|",
            *rows,
            "",
            f"Each dataset's `{PROMPTS_FILE}` holds its tasks' prompts, one Python function a "
            "task named after it (`doc_to_text: !function prompts.TASK`), which the harness "
            "loads from beside the task files; it needs nothing but Python.",
            "",
            "Each task loads its rows through this package (`custom_dataset:`, built from the "
            "pinned upstream files or `$HATEMOJI_DATASETS_MIRROR`), so a task runs with only "
            "the package installed, offline from a mirror, before anything is on the Hub. "
            "Run a group or task:",
            "",
            "```text",
            f"lm_eval --model hf --model_args pretrained=MODEL --include_path {TASKS_FOLDER} \\",
            f"    --tasks {names} --log_samples --output_path results",
            "```",
            "",
            f"To read the published Hub copies instead, generate the tasks with `{COMMAND} --hub "
            "--out TASKS` (each card's repository, pinned to the version's tag; `--hub ORG/NAME` "
            "for one dataset), and for a local export (`hatemoji-datasets export NAME --out "
            f"DIR`) with `{COMMAND} NAME --dataset-path DIR --out TASKS`; then pass "
            "`--include_path TASKS`. The task names stay the same, and `hatemoji-datasets "
            "score NAME --predictions results/*/samples_TASK_*.jsonl` scores the per-sample "
            "logs of each.",
            "",
        ]
    )
