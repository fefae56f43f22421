"""The generative variant of a task: a prompt asking for a label's name, and how a reply is read.

A chat model served behind an API gives no log-likelihoods, so it cannot run a
``multiple_choice`` task. Its ``generate_until`` twin (``<task>_gen``) asks for
one of the two label names in words and reads the reply with lm-eval's own
filters, which :func:`filter_list` writes into the task:

1. ``regex``: the first label name in the reply, case-insensitively (the
   longer name first where one holds the other: ``non-hateful`` before
   ``hateful``, ``혐오 아님`` before ``혐오``), else ``unparsed``;
2. ``lowercase``, then ``map`` back to the name as the task spells it
   (anything else is ``unparsed``);
3. ``take_first``: one reply per document.

lm-eval scores an ``unparsed`` reply as wrong (``exact_match`` against the
gold label's name). :func:`parse_reply` is the same rule in Python, so
``score`` reads a generative log as the harness scored it.

The prompt is the card's wording with one line before its last (``Answer:``):
the instruction, ``Reply with exactly one of: non-hateful, hateful.`` by
default; a card worded in another language words it too (``lm_eval:
instruction``), with ``{choices}`` where the names go.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

#: A generative task's name is its multiple-choice twin's with this suffix.
GEN_SUFFIX = "_gen"
#: What the filter gives for a reply that names neither label.
UNPARSED = "unparsed"
#: The name of the tasks' filter pipeline: the metric keys are ``exact_match,label``.
FILTER_NAME = "label"
#: Where the instruction places the label names, joined by ", ".
CHOICES_MARK = "{choices}"
#: The instruction of a card that words none (its choices are the English label names).
DEFAULT_INSTRUCTION = "Reply with exactly one of: {choices}."
#: How a task asks for a reply: greedy, a few tokens, up to a blank line.
GENERATION_KWARGS = {"until": ["\n\n"], "max_gen_toks": 32, "do_sample": False, "temperature": 0.0}


def generative_name(task: str) -> str:
    return task + GEN_SUFFIX


def generative_prompt(prompt: str, instruction: str, choices: Sequence[str]) -> str:
    """``prompt`` with ``instruction`` (its ``{choices}`` filled) as a line before its last."""
    line = instruction.replace(CHOICES_MARK, ", ".join(choices))
    head, newline, last = prompt.rpartition("\n")
    return f"{head}\n{line}\n{last}" if newline else f"{prompt}\n{line}"


def reply_pattern(choices: Sequence[str]) -> str:
    """The ``regex`` filter's pattern: any label name, longest first, case-insensitive."""
    names = sorted(choices, key=len, reverse=True)
    return "(?i)(" + "|".join(re.escape(name) for name in names) + ")"


def filter_list(choices: Sequence[str]) -> list[dict[str, Any]]:
    """The task's ``filter_list``: lm-eval's regex, lowercase, map and take_first filters."""
    return [
        {
            "name": FILTER_NAME,
            "filter": [
                {
                    "function": "regex",
                    "regex_pattern": reply_pattern(choices),
                    "fallback": UNPARSED,
                },
                {"function": "lowercase"},
                {
                    "function": "map",
                    "mapping_dict": {name.lower(): name for name in choices},
                    "default_value": UNPARSED,
                },
                {"function": "take_first"},
            ],
        }
    ]


def parse_reply(reply: Any, choices: Sequence[str]) -> str:
    """What the task's filters make of ``reply``: a label name as ``choices`` spell it, or
    ``unparsed``. (lm-eval's regex filter reads a reply that is not text as empty.)"""
    found = re.search(reply_pattern(choices), reply if isinstance(reply, str) else "")
    if found is None:
        return UNPARSED
    lowered = {name.lower(): name for name in choices}
    return lowered.get(found.group(1).strip().lower(), UNPARSED)
