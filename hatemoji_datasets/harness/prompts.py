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

#: The file beside a dataset's task YAML files.
PROMPTS_FILE = "prompts.py"
#: Where a card's wording places the text.
TEXT_MARK = "{text}"
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
    pieces: list[str] = []
    for index, literal in enumerate(prompt.split(TEXT_MARK)):
        if index:
            pieces.append(f"str(doc[{_literal(column)}])")
        if literal:
            pieces.append(_literal(literal))
    head = f"def {task}(doc: dict) -> str:\n"
    one_line = f"    return {' + '.join(pieces)}\n"
    if _width(one_line.rstrip("\n")) <= LINE_LENGTH:
        return head + one_line
    body = "".join(
        f"        {'+ ' if index else ''}{piece}\n" for index, piece in enumerate(pieces)
    )
    return f"{head}    return (\n{body}    )\n"


def prompts_module(paragraphs: Sequence[str], functions: Sequence[str]) -> str:
    """The text of ``prompts.py``: a docstring of ``paragraphs``, then the functions."""
    wrapped = [
        textwrap.fill(text, LINE_LENGTH - 12, break_long_words=False, break_on_hyphens=False)
        for text in paragraphs
    ]
    body = "\n\n".join(wrapped)
    docstring = f'"""{body}"""\n' if "\n" not in body else f'"""{body}\n"""\n'
    return docstring + "".join(f"\n\n{function}" for function in functions)


def _literal(text: str) -> str:
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
