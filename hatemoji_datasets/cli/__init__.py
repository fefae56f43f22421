"""The command line, ``hatemoji-datasets``: one module per group of commands.

- :mod:`~hatemoji_datasets.cli.parser`: the argument parser, assembled from the groups;
- :mod:`~hatemoji_datasets.cli.data`: ``list``, ``sources``, ``info``, ``build``;
- :mod:`~hatemoji_datasets.cli.diffing`: ``diff``;
- :mod:`~hatemoji_datasets.cli.validation`: ``validate``, ``export-schemas``;
- :mod:`~hatemoji_datasets.cli.scoring`: ``score``;
- :mod:`~hatemoji_datasets.cli.leaderboard`: ``leaderboard``;
- :mod:`~hatemoji_datasets.cli.publishing`: ``card``, ``export``, ``push``;
- :mod:`~hatemoji_datasets.cli.pinning`: ``lock``, ``verify``, ``fingerprints``;
- :mod:`~hatemoji_datasets.cli.regenerate`: ``regenerate`` (every generated file), over
  :mod:`~hatemoji_datasets.cli.artefacts` (what is generated, and how);
- :mod:`~hatemoji_datasets.cli.environment`: ``env`` (versions and settings for bug reports);
- :mod:`~hatemoji_datasets.cli.hook`: the pre-commit hook's entry point;
- :mod:`~hatemoji_datasets.cli.output`: tables and numbers for people.

Every command imports what it needs inside its function, so ``--help``, ``list``
and ``sources`` start without ``datasets`` or pandera.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from hatemoji_datasets.cli.output import configure_logging
from hatemoji_datasets.cli.parser import UsageError, build_parser
from hatemoji_datasets.core import progress
from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.findings import safe


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hatemoji-datasets ARGS``; the process exit status.

    An error is one ``error: ...`` line on standard error (escaped, every Hub
    token masked); with ``--format json`` standard output also gets one JSON
    document holding it (``{"error": {"code": ..., "message": ...}, ...}``).
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(arguments)
    except UsageError as error:
        return report_usage_error(arguments, error)
    if getattr(args, "command", None) is None:  # no command: say what there is
        parser.print_help()
        return 0
    configure_logging(args.verbose)
    # Progress on standard error where a person watches; never beside a JSON document.
    progress.configure(quiet=getattr(args, "format", None) == "json", verbose=args.verbose)
    try:
        return args.command(args)
    except HatemojiDatasetsError as error:
        return report_error(args, error.code, str(error), error.exit_code)
    except BrokenPipeError:  # the reader went away (| head): it read what it wanted
        return closed_pipe()
    except KeyboardInterrupt:
        return report_error(args, "INTERRUPTED", "interrupted", 130)


def closed_pipe() -> int:
    """Exit 0 once the reader of standard output has gone: ``COMMAND | head -1`` succeeds.

    Python would flush standard output again at exit and fail on the closed pipe, so it
    is pointed at ``/dev/null`` first (as the ``signal`` module's documentation advises).
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 0


def report_error(args: argparse.Namespace, code: str, message: str, status: int) -> int:
    """Print an error for people (standard error) and, with ``--format json``, for programs."""
    from hatemoji_datasets.hub.tokens import mask_tokens

    message = safe(mask_tokens(message, [getattr(args, "token", None)]))
    if getattr(args, "format", None) == "json":
        document = {"format": 1, "exit_code": status, "error": {"code": code, "message": message}}
        shape = getattr(args, "json_error", None)
        document = shape(args, document) if shape else document
        print(json.dumps(document, indent=2, ensure_ascii=False))
    print("interrupted" if status == 130 else f"error: {message}", file=sys.stderr)
    return status


def report_usage_error(arguments: list[str], error: UsageError) -> int:
    """A command line that cannot be parsed: argparse's usage and one escaped error line, exit 2;
    with ``--format json`` among the options, one JSON document on standard output as well."""
    message = safe(str(error))
    if _asks_for_json(arguments):
        shape = error.parser.get_default("json_error")  # the sub-command's report, if it has one
        args = argparse.Namespace(files=[], format="json", json_error=shape)
        return report_error(args, "USAGE", message, 2)
    sys.stderr.write(error.parser.format_usage())  # names options only, no user value
    print(f"{error.parser.prog}: error: {message}", file=sys.stderr)
    return 2


def _asks_for_json(arguments: list[str]) -> bool:
    """Whether the options (before any ``--``) ask for ``--format json``, abbreviated or not."""
    options = arguments[: arguments.index("--")] if "--" in arguments else arguments
    for position, token in enumerate(options):
        name, _, value = token.partition("=")
        if len(name) > 3 and "--format".startswith(name):
            value = value or (options[position + 1] if position + 1 < len(options) else "")
            if value == "json":
                return True
    return False


__all__ = ["main"]
