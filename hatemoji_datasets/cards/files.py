"""Rendering, writing and checking a dataset's card folder (``README.md``, ``croissant.json``).

Every writer of card files (``hatemoji-datasets card``, the Hub export) goes
through :func:`write_card_files`; ``card --check`` through :func:`check_card`.
"""

from __future__ import annotations

import json
from pathlib import Path

from hatemoji_datasets.cards.body import card_text
from hatemoji_datasets.cards.croissant.repository import CROISSANT, README
from hatemoji_datasets.cards.croissant.upstream import croissant_metadata
from hatemoji_datasets.cards.gather import Built
from hatemoji_datasets.cards.lint import lint_text
from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.file_reads import read_text
from hatemoji_datasets.core.file_writes import make_folder
from hatemoji_datasets.core.generated import differences, repository_folder, write_files

#: The folder of the repository's committed cards, ``cards/<name>/``.
CARDS_FOLDER = "cards"


def rendered_files(built: Built) -> dict[str, str]:
    """``{file name: text}`` of a dataset's card folder."""
    metadata = croissant_metadata(built)
    return {
        README: card_text(built),
        CROISSANT: json.dumps(metadata, ensure_ascii=False, indent=2) + "\n",
    }


def write_card_files(files: dict[str, str], folder: Path) -> list[Path]:
    """Write rendered files into ``folder`` (created if needed), each whole or not at all."""
    make_folder(folder)
    return write_files(files, folder)


def lint_problems(built: Built, card: str, folder: Path) -> list[str]:
    """The offline lint's problems of ``card`` (a README's text), each naming the file."""
    return [f"{folder / README}: {problem}" for problem in lint_text(card, built.expected())]


def check_card(built: Built, folder: Path) -> list[str]:
    """Every way the card folder differs from a fresh render, and every lint problem."""
    files = rendered_files(built)
    problems = differences(
        files,
        folder,
        what="the card rendered from the data",
        hint=f"render it again with `hatemoji-datasets card {built.spec.name}`",
    )
    try:
        current = read_text(folder / README)
    except InputError:
        return problems  # named above
    return problems + lint_problems(built, current, folder)


def default_folder(name: str) -> Path:
    """Where the repository keeps dataset ``name``'s card: ``cards/<name>/`` of the checkout
    this package runs from, else of the current folder."""
    return repository_folder(CARDS_FOLDER) / name
