"""The tasks' prompts as Python: ``lm_eval_tasks/<name>/prompts.py``, one function per task.

A task names its prompt ``doc_to_text: !function prompts.<task>``. The harness
finds ``prompts.py`` beside the task's YAML file before it tries an import, so
the function needs neither this package nor anything else installed: the same
file serves the tasks that read the package, the Hub or a local export.

A Jinja template (``"Text: {{text}}\\n..."``) would do the same, but lm-eval
0.4 compiles the template anew for every document (about 0.7 ms each, most of
what evaluating a task took with the ``dummy`` model). The function returns what
that template rendered: the card's wording with ``str()`` of the document's text
in place of each ``{text}`` (Jinja's ``{{text}}`` writes ``str(value)`` too,
``None`` as ``"None"``).

The module is written ``ruff format`` clean: each literal as ``repr`` writes it, one
line per function when it fits, else the parenthesised form ruff gives it.
"""

from __future__ import annotations

import keyword
import textwrap
import unicodedata
from collections.abc import Sequence

from hatemoji_datasets.core.features import LABEL_NAMES

#: The file beside a dataset's task YAML files.
PROMPTS_FILE = "prompts.py"
#: Where a card's wording places the text.
TEXT_MARK = "{text}"
#: The function both kinds of task aggregate ``f1`` with (:func:`f1_function`).
F1_FUNCTION = "hateful_f1"
#: The hateful label's id: the position of its choice.
HATEFUL_ID = LABEL_NAMES.index("hateful")
#: ruff's line length (``pyproject.toml``).
LINE_LENGTH = 100


def prompt_reference(task: str) -> str:
    """What a task's ``doc_to_text`` names: ``prompts.<task>``, resolved beside the YAML."""
    return f"{PROMPTS_FILE.removesuffix('.py')}.{task}"


def is_function_name(task: str) -> bool:
    """Whether ``task`` can name the task's function (a Python identifier, not a keyword)."""
    return task.isidentifier() and not keyword.iskeyword(task)


def prompt_function(task: str, prompt: str, column: str) -> str:
    """The source of ``def <task>(doc)``: ``prompt`` with ``str(doc[column])`` for ``{text}``."""
    head = f"def {task}(doc: dict) -> str:\n"
    one_line = f"    return {' + '.join(_pieces(prompt, column))}\n"
    if _width(one_line.rstrip("\n")) <= LINE_LENGTH:
        return head + one_line
    # One piece a line of the prompt, so each stays within the line length.
    pieces = _pieces(prompt, column, by_line=True)
    body = "".join(
        f"        {'+ ' if index else ''}{piece}\n" for index, piece in enumerate(pieces)
    )
    return f"{head}    return (\n{body}    )\n"


def f1_function(hateful: str) -> str:
    """The source of ``hateful_f1``, both kinds of task's ``f1`` aggregation: lm-eval's own
    (scikit-learn's binary F1 of label 1) of whether gold and answer are the hateful label:
    its id in a multiple-choice task (the choice's position), its name ``hateful`` in a
    generative one, where an unparsed reply is not.

    A function of the task rather than lm-eval's ``aggregation: f1``, which lm-eval
    bootstraps for a standard error (``--bootstrap_iters``, 100,000 F1s by default: about
    half an hour for one task of 4,000 documents here), where ``acc`` has a closed form.
    """
    return (
        f"def {F1_FUNCTION}(items: list) -> float:\n"
        '    """lm-eval\'s f1 aggregation of the hateful class: gold and answer each 1 when\n'
        f"    they are the hateful label, its id {HATEFUL_ID} (multiple choice) or its name "
        '(generative)."""\n'
        "    from lm_eval.api.metrics import f1_score\n\n"
        f"    hateful = ({HATEFUL_ID}, {literal(hateful)})\n"
        "    pairs = [(int(gold in hateful), int(answer in hateful)) for gold, answer in items]\n"
        "    return f1_score(pairs)\n"
    )


def _pieces(prompt: str, column: str, *, by_line: bool = False) -> list[str]:
    """The prompt's literals and ``str(doc[column])`` in their place; ``by_line``: each
    literal cut after each line break."""
    pieces: list[str] = []
    for index, words in enumerate(prompt.split(TEXT_MARK)):
        if index:
            pieces.append(f"str(doc[{literal(column)}])")
        lines = words.splitlines(keepends=True) if by_line else [words]
        pieces += [literal(line) for line in lines if line]
    return pieces


def prompts_module(paragraphs: Sequence[str], functions: Sequence[str]) -> str:
    """The text of ``prompts.py``: a docstring of ``paragraphs``, then the functions."""
    wrapped = [
        textwrap.fill(text, LINE_LENGTH - 12, break_long_words=False, break_on_hyphens=False)
        for text in paragraphs
    ]
    body = "\n\n".join(wrapped)
    docstring = f'"""{body}"""\n' if "\n" not in body else f'"""{body}\n"""\n'
    return docstring + "".join(f"\n\n{function}" for function in functions)


def literal(text: str) -> str:
    """``text`` as a Python literal: each character as ``repr`` writes it, in the quotes
    ``ruff format`` keeps (double, unless the text holds more double quotes than single)."""
    quote = "'" if text.count('"') > text.count("'") else '"'
    body = "".join(
        "\\" + char if char == quote else char if char in "'\"" else repr(char)[1:-1]
        for char in text
    )
    return quote + body + quote


def _width(line: str) -> int:
    """The line's width as ruff counts it: wide and full-width characters count two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)
