"""Generated files and blocks: written from the code, checked for drift, the same way everywhere.

Two kinds:

- **folders of files** (cards, lm-eval tasks, loading scripts): :func:`write_files`
  writes them through the guarded write, :func:`differences` names every file
  that is missing, stale or (optionally) not generated at all;
- **blocks in a page** (the finding-code table, the release table): the text
  between two markers, replaced by :func:`replace_block`; :func:`block_command`
  is the command line of such a generator (``PAGE [--check]``).

Where the repository keeps a generated folder, :func:`repository_folder` finds
it from the package's own checkout, so a command run from elsewhere still
reads and writes the committed files.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.file_reads import read_text
from hatemoji_datasets.core.file_writes import make_folder, write_text

#: The checkout this package runs from, when it runs from one (``core/`` is two below it).
REPOSITORY = Path(__file__).resolve().parents[2]


def repository_root() -> Path:
    """The checkout this package runs from, else the current folder."""
    return REPOSITORY if (REPOSITORY / "pyproject.toml").is_file() else Path()


def repository_folder(name: str) -> Path:
    """``name`` (``cards``, ``lm_eval_tasks``) of the package's checkout, else of the cwd."""
    if (REPOSITORY / name).is_dir() and (REPOSITORY / "pyproject.toml").is_file():
        return REPOSITORY / name
    return Path(name)


def write_files(files: Mapping[str, str], folder: Path) -> list[Path]:
    """Write ``{relative path: text}`` under ``folder``, each file whole or not at all."""
    written = []
    for relative, text in files.items():
        path = folder / relative
        make_folder(path.parent, within=folder)
        write_text(path, text)
        written.append(path)
    return written


def refresh(files: Mapping[Path, str], *, write: bool, within: Path | None = None) -> list[Path]:
    """The files whose text differs from ``files`` (missing or unreadable ones too), in
    ``files``' order; with ``write`` each of them is rewritten, whole or not at all (its
    folder made if missing when it lies in ``within``, the folder written; without
    ``within`` a missing folder is an error).
    """
    stale = []
    for path, text in files.items():
        try:
            if read_text(path) == text:
                continue
        except InputError:
            pass  # missing or unreadable: it differs
        stale.append(path)
        if write:
            if within is not None:
                make_folder(path.parent, within=within)
            write_text(path, text)
    return stale


def differences(
    files: Mapping[str, str],
    folder: Path,
    *,
    what: str,
    hint: str,
    extra: bool = False,
) -> list[str]:
    """One line per file of ``folder`` that is missing or differs from ``files`` (``what``
    it differs from, and ``hint``, how to fix it); with ``extra``, files not generated too
    (:func:`folder_files`)."""
    problems = []
    for relative, text in files.items():
        path = folder / relative
        try:
            current = read_text(path)
        except InputError as error:
            why = "missing" if error.code == "FILE-NOT-FOUND" else error.finding.message
            problems.append(f"{path}: {why}; {hint}")
            continue
        if current != text:
            problems.append(f"{path}: differs from {what}; {hint}")
    if extra and folder.is_dir():
        for path in folder_files(folder):
            if path.relative_to(folder).as_posix() not in files:
                problems.append(f"{path}: not a generated file; remove it")
    return problems


def folder_files(folder: Path) -> list[Path]:
    """Every file under ``folder``, sorted, but Python's bytecode caches: running a generated
    module (the harness runs a task's ``prompts.py``) writes ``__pycache__/`` beside it."""
    return [
        path
        for path in sorted(folder.rglob("*"))
        if path.is_file() and "__pycache__" not in path.relative_to(folder).parts
    ]


def replace_block(page: str, start: str, end: str, body: str) -> str:
    """``page`` with the text between the ``start`` and ``end`` markers replaced by ``body``."""
    head, found_start, rest = page.partition(start)
    _, found_end, tail = rest.partition(end)
    if not found_start or not found_end:
        raise ValueError(f"the page has no {start!r} ... {end!r} block")
    return f"{head}{start}\n{body}\n{end}{tail}"


def block_command(
    argv: Sequence[str] | None,
    *,
    description: str,
    start: str,
    end: str,
    body: Callable[[argparse.Namespace], str],
    fresh: str,
    options: Callable[[argparse.ArgumentParser], None] | None = None,
) -> int:
    """``PAGE [--check]``: rewrite the page's generated block, or exit 1 when it is stale.

    ``body(args)`` computes the block; ``fresh`` says, for people, what a current
    block shows; ``options`` adds a generator's own arguments.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("page", type=Path, help="the markdown page holding the block")
    parser.add_argument("--check", action="store_true", help="only report a stale block")
    if options:
        options(parser)
    args = parser.parse_args(argv)
    try:
        current = read_text(args.page)
        updated = replace_block(current, start, end, body(args))
    except (InputError, ValueError) as error:
        print(f"error: {args.page}: {error}", file=sys.stderr)
        return 2
    if current == updated:
        print(f"{args.page}: {fresh}")
        return 0
    if args.check:
        print(f"{args.page}: the generated block is stale; run without --check", file=sys.stderr)
        return 1
    write_text(args.page, updated)
    print(f"wrote: {args.page}")
    return 0
