"""``lm_eval run --model dummy --log_samples`` for the tests, without the built-in tasks.

Usage: ``python tests/run_harness.py INCLUDE_PATH TASKS OUTPUT_PATH`` (``TASKS``
comma-separated). It makes the calls lm-eval 0.4's ``run`` subcommand makes
(``simple_evaluate`` with an ``EvaluationTracker``, then the aggregated results and
one per-sample log per task, under ``OUTPUT_PATH/<model>/``) but builds its
``TaskManager`` with ``include_defaults=False``: the CLI indexes the harness's
26,000 built-in task files first (about 15 s of CPU a start) and has no switch for
it. The CLI itself, as a reader runs it, is run by docs/downstream.md's test.
"""

from __future__ import annotations

import sys

from lm_eval import simple_evaluate
from lm_eval.loggers import EvaluationTracker
from lm_eval.tasks import TaskManager


def main(include_path: str, tasks: str, output_path: str) -> None:
    tracker = EvaluationTracker(output_path=output_path)
    manager = TaskManager(include_path=include_path, include_defaults=False)
    results = simple_evaluate(
        model="dummy",
        tasks=tasks.split(","),
        log_samples=True,
        evaluation_tracker=tracker,
        task_manager=manager,
    )
    samples = results.pop("samples")
    tracker.save_results_aggregated(results=results, samples=samples)
    for task in results["configs"]:
        tracker.save_results_samples(task_name=task, samples=samples[task])


if __name__ == "__main__":
    main(*sys.argv[1:])
