"""``lm_eval run --model dummy --log_samples`` for the tests, without the built-in tasks.

Usage: ``python tests/run_harness.py INCLUDE_PATH TASKS OUTPUT_PATH [MODEL]``
(``TASKS`` comma-separated). It makes the calls lm-eval 0.4's ``run`` subcommand makes
(``simple_evaluate`` with an ``EvaluationTracker``, then the aggregated results and
one per-sample log per task, under ``OUTPUT_PATH/<model>/``) but builds its
``TaskManager`` with ``include_defaults=False``: the CLI indexes the harness's
26,000 built-in task files first (about 15 s of CPU a start) and has no switch for
it. The CLI itself, as a reader runs it, is run by docs/downstream.md's test and the
wheel's (tests/test_lm_eval_wheel.py). No stderr is bootstrapped (``bootstrap_iters=0``).

``MODEL`` is ``dummy`` (lm-eval's: random log-likelihoods, and ``lol`` to every
prompt) or ``replies``, defined here: a chat model without log-likelihoods
that answers each prompt with one of :data:`REPLIES`, picked by the prompt's CRC-32,
and renders chats with a template of its own, run with ``apply_chat_template``, as
a chat API is. Neither needs weights or the network.
"""

from __future__ import annotations

import sys
import zlib

from lm_eval import simple_evaluate
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model
from lm_eval.loggers import EvaluationTracker
from lm_eval.tasks import TaskManager

#: What the ``replies`` model answers: a label alone, in other cases, with extra words,
#: both labels (either first), neither, nothing, and a near miss.
REPLIES = (
    "hateful",
    "Non-Hateful.",
    "The text is HATEFUL, not non-hateful",
    "non-hateful, though some read it as hateful",
    "I cannot tell.",
    "",
    "NON-HATEFUL",
    "hate",
    "혐오",
    "혐오 아님",
)
#: The ``replies`` model's chat template: each message between its role's tags.
CHAT_OPEN, CHAT_ASSISTANT = "<{role}>", "<assistant>"


class Replies(LM):
    """A chat model of fixed replies (see the module's docstring)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__()

    @classmethod
    def create_from_arg_string(cls, arg_string: str, additional_config: dict | None = None):
        return cls()

    def generate_until(self, requests, disable_tqdm: bool = False) -> list[str]:
        return [
            REPLIES[zlib.crc32(request.arguments[0].encode("utf-8")) % len(REPLIES)]
            for request in requests
        ]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("a chat API gives no log-likelihoods")

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("a chat API gives no log-likelihoods")

    @property
    def tokenizer_name(self) -> str:
        return "replies"

    def chat_template(self, chat_template: bool | str = False) -> str:
        return "replies"

    def apply_chat_template(self, chat_history: list[dict[str, str]], add_generation_prompt=True):
        text = "".join(
            f"{CHAT_OPEN.format(role=message['role'])}{message['content']}"
            for message in chat_history
        )
        return text + (CHAT_ASSISTANT if add_generation_prompt else "")


def main(include_path: str, tasks: str, output_path: str, model: str = "dummy") -> None:
    if model == "replies":  # registered only when asked: a registered model hides lm-eval's
        register_model("replies")(Replies)
    tracker = EvaluationTracker(output_path=output_path)
    manager = TaskManager(include_path=include_path, include_defaults=False)
    results = simple_evaluate(
        model=model,
        tasks=tasks.split(","),
        log_samples=True,
        evaluation_tracker=tracker,
        task_manager=manager,
        apply_chat_template=model == "replies",
        bootstrap_iters=0,
    )
    samples = results.pop("samples")
    tracker.save_results_aggregated(results=results, samples=samples)
    for task in results["configs"]:
        tracker.save_results_samples(task_name=task, samples=samples[task])


if __name__ == "__main__":
    main(*sys.argv[1:])
