"""The tasks' groups: one per dataset and kind, one per stack that aggregates over its parts.

``<name>`` holds every config's multiple-choice task and ``<name>_gen`` their
generative twins, each in the order of the configs. Where configs stack into
another (:class:`~hatemoji_datasets.core.spec.Stack`: Multilingual HateCheck's
ten languages make ``all``), the parts form a group of their own,
``<name>_<stack>`` (``_gen``), which stands in the dataset's group where its
first part would, and which reports its subtasks' metrics aggregated:
lm-eval's ``aggregate_metric_list`` with ``weight_by_size: true``, so each
subtask weighs as many documents as it has. The aggregated accuracy is then the
accuracy over all the parts' documents (the whole config's); the aggregated F1
is the size-weighted mean of the parts' F1, not the F1 of their pooled
documents. The dataset's own group aggregates nothing: its configs overlap
(``all`` holds the languages again), so a mean over them would count
documents twice.
"""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.core.spec import DatasetSpec, Stack
from hatemoji_datasets.harness.generative import FILTER_NAME, GEN_SUFFIX

#: The filter a multiple-choice task's metrics are reported under.
NO_FILTER = "none"
#: Each kind's aggregated metrics (lm-eval's names) and the filter they are reported under.
AGGREGATED = {
    "": (("acc", "f1"), NO_FILTER),
    GEN_SUFFIX: (("exact_match", "f1"), FILTER_NAME),
}
#: The weighting stated in each aggregate (lm-eval's own default, written out).
WEIGHT_BY_SIZE = True


def config_task(spec: DatasetSpec, config: str, suffix: str = "") -> str:
    """``<name>_<config>``: the task of one config's evaluation split (``_gen``: its twin)."""
    return f"{spec.name}_{config}{suffix}"


def stack_group(spec: DatasetSpec, stack: Stack, suffix: str = "") -> str:
    """``<name>_<stack>`` (``suffix`` ``_gen`` for the generative twins)."""
    return f"{spec.name}_{stack.name}{suffix}"


def dataset_group(spec: DatasetSpec, suffix: str = "") -> str:
    return f"{spec.name}{suffix}"


def group_file(group: str, spec: DatasetSpec) -> str:
    return f"{spec.name}/_{group}.yaml"


def members(spec: DatasetSpec, suffix: str = "") -> list[str]:
    """The dataset group's members: each config's task, a stack's parts as the stack's group."""
    stack_of = {part: stack for stack in spec.stacks for part in stack.parts}
    found: list[str] = []
    for config in spec.configs:
        stack = stack_of.get(config.name)
        member = (
            stack_group(spec, stack, suffix) if stack else config_task(spec, config.name, suffix)
        )
        if member not in found:
            found.append(member)
    return found


def aggregate(suffix: str) -> list[dict[str, Any]]:
    """A stack group's ``aggregate_metric_list``: each metric, size-weighted."""
    metrics, filter_name = AGGREGATED[suffix]
    return [
        {
            "metric": metric,
            "aggregation": "mean",
            "weight_by_size": WEIGHT_BY_SIZE,
            "filter_list": [filter_name],
        }
        for metric in metrics
    ]


def groups(spec: DatasetSpec, version: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{group name: its YAML document}`` of one dataset, both kinds."""
    found: dict[str, dict[str, Any]] = {}
    for suffix in AGGREGATED:
        found[dataset_group(spec, suffix)] = {
            "group": dataset_group(spec, suffix),
            "task": members(spec, suffix),
            "metadata": version,
        }
        for stack in spec.stacks:
            found[stack_group(spec, stack, suffix)] = {
                "group": stack_group(spec, stack, suffix),
                "task": [config_task(spec, part, suffix) for part in stack.parts],
                "aggregate_metric_list": aggregate(suffix),
                "metadata": version,
            }
    return found
