"""``hatemoji-datasets-validate-hook``: the pre-commit hook's entry point.

pre-commit runs ``ENTRY ARGS... FILES...``: the user's ``args`` (options such as
``--dataset hatemoji_build``) come before the file names, so the hook cannot put
``--`` in its entry, and a file named ``-dash.csv`` would be read as an unknown
option by ``hatemoji-datasets validate``. This entry point separates the two
itself: the leading tokens that are known ``validate`` options (with their
values) are options; the first other token, and everything after it, is a file,
even when it starts with ``-``. A ``--`` among the leading tokens also ends the
options. It then runs ``hatemoji-datasets validate OPTIONS -- FILES``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache


@cache
def validate_options() -> tuple[frozenset[str], frozenset[str]]:
    """``(options that take a value, options that take none)`` of ``validate``, from its parser."""
    from hatemoji_datasets.cli.parser import build_parser, subcommand

    values: set[str] = set()
    flags: set[str] = set()
    for action in subcommand(build_parser(), "validate")._actions:
        (flags if action.nargs == 0 else values).update(action.option_strings)
    return frozenset(values), frozenset(flags)


def split_arguments(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``(options, files)`` from pre-commit's ``ARGS... FILES...``."""
    value_options, flag_options = validate_options()
    options: list[str] = []
    position = 0
    while position < len(argv):
        token = argv[position]
        name = token.split("=", 1)[0]
        if token == "--":
            position += 1
            break
        if token in flag_options or (name in value_options and "=" in token):
            options.append(token)
            position += 1
        elif token in value_options:
            options.extend(argv[position : position + 2])
            position += 2
        else:
            break
    return options, list(argv[position:])


def main(argv: Sequence[str] | None = None) -> int:
    options, files = split_arguments(sys.argv[1:] if argv is None else argv)
    if not files and not any(option in ("-h", "--help") for option in options):
        return 0  # nothing staged that the hook's file pattern matched
    from hatemoji_datasets.cli import main as cli_main

    return cli_main(["validate", *options, "--", *files])


if __name__ == "__main__":
    sys.exit(main())
