"""lm-evaluation-harness tasks, generated from the declarations: ``lm_eval_tasks/``.

One zero-shot multiple-choice task per dataset config, on its evaluation split,
and one group per dataset::

    lm_eval_tasks/README.md
    lm_eval_tasks/<name>/_<name>.yaml           group <name>: its configs' tasks
    lm_eval_tasks/<name>/<name>_<config>.yaml   task <name>_<config>

The prompt asks whether the text is hateful; the two choices are the label's
names in ClassLabel order, so a choice's position is the label id the harness
scores (``doc_to_target: label``). A dataset in another language words prompt
and choices in its ``card.yaml`` (``lm_eval: {prompt, choices}``); ``{text}``
marks where the text goes. ``dataset_path`` is the Hub repository of the
dataset's export (``card.yaml`` ``hub_repo_id``, else the ``<org>/NAME``
placeholder the cards use), pinned to the version's tag; given a local export
folder (``dataset_path``), the tasks read it instead.

Nothing here builds data: labels come from the declared features.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from hatemoji_datasets.core.card_source import card_source, hub_repo
from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.generated import differences, repository_folder, write_files
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.core.spec import LABEL_COLUMN, ConfigSpec, DatasetSpec

#: The repository's folder of generated task files.
TASKS_FOLDER = "lm_eval_tasks"
README = "README.md"
#: The prompt of a dataset whose ``card.yaml`` words none; ``{text}`` is the text.
DEFAULT_PROMPT = "Text: {text}\nQuestion: Is this text hateful?\nAnswer:"
#: The key of ``card.yaml`` that words a dataset's prompt and choices.
CARD_KEY = "lm_eval"
COMMAND = "hatemoji-datasets lm-eval-tasks"


class TaskError(HatemojiDatasetsError):
    """The tasks cannot be generated as asked (a declaration or ``card.yaml`` is wrong)."""


def task_name(spec: DatasetSpec, config: ConfigSpec) -> str:
    """``<name>_<config>``: the task of one config's evaluation split."""
    return f"{spec.name}_{config.name}"


def group_file(spec: DatasetSpec) -> str:
    return f"{spec.name}/_{spec.name}.yaml"


def task_file(spec: DatasetSpec, config: ConfigSpec) -> str:
    return f"{spec.name}/{task_name(spec, config)}.yaml"


def config_of_task(spec: DatasetSpec, task: str) -> ConfigSpec | None:
    """The config whose generated task is called ``task``, if any."""
    return next((c for c in spec.configs if task_name(spec, c) == task), None)


def dataset_tasks(spec: DatasetSpec, dataset_path: str | None = None) -> dict[str, str]:
    """``{path under lm_eval_tasks/: YAML text}`` of one dataset: its group and tasks."""
    source = card_source(spec.card_source_path)
    wording = source.get(CARD_KEY) or {}
    repo, _ = hub_repo(source, spec.name)
    files: dict[str, str] = {}
    for config in spec.configs:
        files[task_file(spec, config)] = _dump(
            _header(spec), _task(spec, config, wording, dataset_path or repo, dataset_path is None)
        )
    group = {
        "group": spec.name,
        "task": [task_name(spec, config) for config in spec.configs],
        "metadata": {"version": spec.version},
    }
    return {group_file(spec): _dump(_header(spec), group), **files}


def task_files(
    names: Iterable[str] | None = None, dataset_path: str | None = None
) -> dict[str, str]:
    """Every generated file of datasets ``names`` (all registered ones by default).

    ``dataset_path``: a local export folder the tasks read instead of the Hub (only with
    one dataset); written as an absolute path, since the harness may run elsewhere.
    """
    chosen = [dataset_spec(name) for name in names] if names else list(specs().values())
    if dataset_path is not None:
        if len(chosen) != 1:
            raise TaskError("--dataset-path names one dataset's export: give exactly one NAME")
        dataset_path = os.path.abspath(dataset_path)
    files: dict[str, str] = {}
    for spec in chosen:
        files.update(dataset_tasks(spec, dataset_path))
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


def _task(
    spec: DatasetSpec, config: ConfigSpec, wording: Any, path: str, on_hub: bool
) -> dict[str, Any]:
    features = spec.load(config.features)(config, spec.version)
    names = list(features[LABEL_COLUMN].names)
    prompt = wording.get("prompt", DEFAULT_PROMPT) if isinstance(wording, dict) else DEFAULT_PROMPT
    choices = wording.get("choices", names) if isinstance(wording, dict) else names
    where = f"{spec.card_source_path} ({CARD_KEY})"
    if "{text}" not in prompt:
        raise TaskError(f"{where}: the prompt must mark the text with {{text}}")
    if not isinstance(choices, list) or len(choices) != len(names):
        raise TaskError(f"{where}: choices must be {len(names)} words, one per label ({names})")
    text = _text_column(spec, config, features)
    task: dict[str, Any] = {
        "task": task_name(spec, config),
        "dataset_path": path,
        "dataset_name": config.name,
    }
    if on_hub:  # a local export is one version already; the Hub's is pinned by its tag
        task["dataset_kwargs"] = {"revision": f"v{spec.version}"}
    task |= {
        "test_split": config.eval_split,
        "output_type": "multiple_choice",
        "doc_to_text": prompt.replace("{text}", "{{" + text + "}}"),
        "doc_to_choice": [str(choice) for choice in choices],
        "doc_to_target": LABEL_COLUMN,
        "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}],
        "metadata": {"version": spec.version},
    }
    return task


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


def _header(spec: DatasetSpec) -> str:
    return (
        f"# Generated by `{COMMAND}` from the declaration of {spec.name} {spec.version}\n"
        f"# and its card.yaml: edit those and generate again rather than this file.\n"
    )


class _Dumper(yaml.SafeDumper):
    """Prompts with line breaks as one double-quoted line (``"...\\nAnswer:"``)."""


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = '"' if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _string)


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
            "Run a group or task (here against the Hub exports, `dataset_path`):",
            "",
            "```text",
            f"lm_eval --model hf --model_args pretrained=MODEL --include_path {TASKS_FOLDER} \\",
            f"    --tasks {names} --log_samples --output_path results",
            "```",
            "",
            "To read a local export instead (`hatemoji-datasets export NAME --out DIR`), "
            f"generate the tasks for it: `{COMMAND} NAME --dataset-path DIR --out TASKS`, "
            "then pass `--include_path TASKS`. Score the per-sample logs with "
            "`hatemoji-datasets score NAME --predictions results/*/samples_TASK_*.jsonl`.",
            "",
        ]
    )
