"""The command line, ``hatemoji-datasets``: one module per group of commands.

- :mod:`~hatemoji_datasets.cli.parser`: the argument parser, assembled from the groups;
- :mod:`~hatemoji_datasets.cli.data`: ``list``, ``sources``, ``info``, ``build``;
- :mod:`~hatemoji_datasets.cli.diffing`: ``diff``;
- :mod:`~hatemoji_datasets.cli.validation`: ``validate``, ``export-schemas``;
- :mod:`~hatemoji_datasets.cli.scoring`: ``score``;
- :mod:`~hatemoji_datasets.cli.publishing`: ``card``, ``export``, ``push``;
- :mod:`~hatemoji_datasets.cli.pinning`: ``lock``, ``verify``, ``fingerprints``;
- :mod:`~hatemoji_datasets.cli.hook`: the pre-commit hook's entry point;
- :mod:`~hatemoji_datasets.cli.output`: tables and numbers for people.

Every command imports what it needs inside its function, so ``--help``, ``list``
and ``sources`` start without ``datasets`` or pandera.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from hatemoji_datasets.cli.output import configure_logging
from hatemoji_datasets.cli.parser import build_parser
from hatemoji_datasets.errors import HatemojiDatasetsError
from hatemoji_datasets.findings import safe


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hatemoji-datasets ARGS``; the process exit status."""
    args = build_parser().parse_args(argv)
    configure_logging(args.verbose)
    try:
        return args.command(args)
    except HatemojiDatasetsError as error:
        print(f"error: {safe(str(error))}", file=sys.stderr)
        return error.exit_code
    except BrokenPipeError:  # the reader went away (| head): nothing left to say
        sys.stderr.close()
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


__all__ = ["main"]
