"""Target codes of HatemojiBuild: the glossary and a strict parser of upstream's list literal.

Upstream writes an entry's targets as a Python-style list literal such as
``['bla']`` or ``['mus', 'asi.south']``. The literal is untrusted text, so it
is read by the small grammar below rather than ``eval`` or
``ast.literal_eval``::

    literal := "[" code { ", " code } "]"
    code    := "'" name { "." name } "'"
    name    := one or more of a-z

Nothing else is accepted: no double quotes, no other spacing, no empty list.

``targets.tsv`` is the glossary of the 54 codes (``none`` and 53 targets),
one row per code: ``code``, ``meaning``, ``basis`` and ``note``. ``basis`` says
how sure the meaning is: ``documented`` (the codebook of the R1-R4 dataset
that HatemojiBuild continues, Vidgen et al. 2021, lists the code or an older
spelling of it), ``inferred`` (undocumented; read from the code's spelling,
checked against the entries that carry it) or ``uncertain`` (undocumented and
the spelling allows more than one reading; ``note`` names them).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

GLOSSARY_FILE = Path(__file__).with_name("targets.tsv")
GLOSSARY_COLUMNS = ("code", "meaning", "basis", "note")
#: The code upstream gives non-hateful entries, always alone.
NO_TARGET = "none"

Basis = Literal["documented", "inferred", "uncertain"]
BASES: tuple[Basis, ...] = ("documented", "inferred", "uncertain")

_NAME = r"[a-z]+(?:\.[a-z]+)*"
_LITERAL = re.compile(rf"\['{_NAME}'(?:, '{_NAME}')*\]")
_CODE = re.compile(rf"'({_NAME})'")


class TargetLiteralError(ValueError):
    """A target list literal does not follow the grammar."""


@dataclass(frozen=True)
class TargetCode:
    """One glossary entry."""

    code: str
    meaning: str
    basis: Basis
    note: str

    def describe(self) -> str:
        """``code (meaning)``, for listings."""
        return f"{self.code} ({self.meaning})"


def parse_target_literal(literal: str) -> tuple[str, ...]:
    """The codes of a literal like ``['mus', 'asi.south']``, in order.

    Raises TargetLiteralError for anything outside the grammar of this module.
    """
    if not is_target_literal(literal):
        raise TargetLiteralError(
            f"{literal!r} is not a bracketed list of quoted target codes like ['mus', 'asi.south']"
        )
    return tuple(_CODE.findall(literal))


def is_target_literal(literal: object) -> bool:
    return isinstance(literal, str) and _LITERAL.fullmatch(literal) is not None


@cache
def glossary() -> dict[str, TargetCode]:
    """``{code: TargetCode}`` in the glossary's order (``none`` first, then A-Z)."""
    with GLOSSARY_FILE.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        if tuple(reader.fieldnames or ()) != GLOSSARY_COLUMNS:
            raise ValueError(f"{GLOSSARY_FILE}: header must be {' <tab> '.join(GLOSSARY_COLUMNS)}")
        entries: dict[str, TargetCode] = {}
        for row in reader:
            if row["basis"] not in BASES or not row["meaning"] or row["code"] in entries:
                raise ValueError(f"{GLOSSARY_FILE}:{reader.line_num}: bad entry {row}")
            entries[row["code"]] = TargetCode(**row)
    return entries


def target_codes() -> tuple[str, ...]:
    """Every known code, in glossary order: the names of the ``targets`` ClassLabel."""
    return tuple(glossary())
