"""HatemojiCheck, named, for the tests of a mechanism that have not moved to the synthetic
dataset yet or that need what it lacks (a recorded golden case, an lm-eval task, a
leaderboard layout): its one pinned file, its rows made new and a fault put in by hand.

Named, not picked by a rule: what these tests expect was written for this file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from hatemoji_datasets.core.registry import dataset_spec
from support.paths import source_lines, upstream_path

HATEMOJI_CHECK = "hatemoji_check"


def plain_file(mirror: Path) -> Path:
    """The mirror's copy of the one file HatemojiCheck's default config reads."""
    spec = dataset_spec(HATEMOJI_CHECK)
    (pin,) = spec.config_sources(spec.config()).values()
    return upstream_path(mirror, pin.url)


#: The key of the first new row a test makes (``new_row``), above the ids released.
NEW_KEY = 90_001


def new_row(released: Mapping[str, str], number: int = 0) -> dict[str, str]:
    """A released row made new: ``case_id`` ``NEW_KEY + number`` and its text with " again"
    added; the other cells as released."""
    return {**released, "text": released["text"] + " again", "case_id": str(NEW_KEY + number)}


def enumerated(name: str) -> tuple[str, list[str]]:
    """The string column of the default config's raw model that allows the most values (the
    first of those tied), and the values it allows, as the model declares them."""
    spec = dataset_spec(name)
    columns = spec.load(spec.config().schema).to_schema().columns
    allowed = {
        column: list(check.statistics["allowed_values"])
        for column, definition in columns.items()
        for check in definition.checks
        if check.name == "isin"
        and all(isinstance(value, str) for value in check.statistics["allowed_values"])
    }
    column = max(allowed, key=lambda each: len(allowed[each]))  # the first of those tied
    return column, allowed[column]


#: A fault ``validate`` rejects (exit status 1) naming the value found and the one expected
#: (its testing.py's "unknown label"): ``(source, line, field index, value)``, the place of
#: the finding and the values it names.
FAULT = ("test", 7, 7, "2")
FAULT_PLACE = (7, "label_gold", "VALUE-NOT-ALLOWED")
FAULT_NAMED = ("2", "one of 0, 1")


def head_with_fault(mirror: Path, rows: int = 5) -> tuple[bytes, tuple[int, str, str]]:
    """The header and at least ``rows`` first rows of the pinned file with :data:`FAULT` put
    in (a re-submission of released rows, one of them broken), and the finding's place."""
    source, line, index, value = FAULT
    lines = source_lines(mirror, HATEMOJI_CHECK, source)[: max(rows + 1, line)]
    fields = lines[line - 1].rstrip(b"\n").split(b",")
    fields[index] = value.encode()
    lines[line - 1] = b",".join(fields) + b"\n"
    return b"".join(lines), FAULT_PLACE
