"""The argument parser of ``hatemoji-datasets``, assembled from each group's commands.

Each command module adds its sub-commands (``add_commands``) and names the
function that runs each; option help is plain text, as ``--help`` shows it.
"""

from __future__ import annotations

import argparse
from typing import Any

from hatemoji_datasets.cli import (
    data,
    diffing,
    environment,
    leaderboard,
    pinning,
    publishing,
    regenerate,
    scoring,
    validation,
)
from hatemoji_datasets.core.suggest import did_you_mean
from hatemoji_datasets.version import __version__

DESCRIPTION = (
    "Versioned, validated hate-speech datasets: list, build, describe, diff, validate, "
    "score, rank, card, export and pin them."
)
VERBOSE_HELP = "show progress messages and progress bars (bars also show on a terminal)"
MIRROR_HELP = "folder or URL laid out as HOST/PATH (or $HATEMOJI_DATASETS_MIRROR)"


def source_options(parser: argparse.ArgumentParser, cache_help: str = "datasets cache folder"):
    """``--cache-dir`` and ``--mirror``: where data is cached, and where sources come from."""
    parser.add_argument("--cache-dir", help=cache_help)
    parser.add_argument("--mirror", help=MIRROR_HELP)


class UsageError(Exception):
    """A command line argparse cannot parse; ``parser`` is the (sub-)parser that refused it."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser


class CommandLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are raised, not printed: ``main`` reports them,
    escaped, and as JSON too when ``--format json`` was asked for."""

    def error(self, message: str):  # type: ignore[override]  # argparse's hook for usage errors
        raise UsageError(self, message)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """argparse's check of a choice (a command, ``--format``), with a close match named."""
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as error:
            hint = did_you_mean(str(value), map(str, action.choices or ()))
            if not hint:
                raise
            raise argparse.ArgumentError(action, f"{error.message}{hint}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(prog="hatemoji-datasets", description=DESCRIPTION)
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help=VERBOSE_HELP,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    # Not required: a bare command prints this help (main), as people expect of a tool.
    commands = parser.add_subparsers(metavar="COMMAND")
    groups = (data, diffing, validation, scoring, leaderboard, publishing, pinning, regenerate)
    for group in (*groups, environment):
        group.add_commands(commands, source_options)
    for sub in commands.choices.values():  # -v after the command name works too
        sub.add_argument(
            "-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help=VERBOSE_HELP
        )
    return parser


def subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of sub-command ``name`` (for tools that reuse its options, like the hook)."""
    for action in parser._actions:  # argparse keeps sub-parsers only here
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]
    raise KeyError(name)
