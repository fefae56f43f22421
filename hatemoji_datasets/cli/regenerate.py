"""``regenerate``: every generated file of the repository, written or (``--check``) compared.

One line per file, aligned: ``fresh``, ``stale``/``missing`` (``--check``),
``wrote``, or ``extra`` (in a generated folder, but nothing generates it). An
artefact that cannot run here (another Unicode version, no scikit-learn) or
that NAMEs leave out (the shared files) is one ``skipped`` line saying why.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hatemoji_datasets.cli.output import show_progress
from hatemoji_datasets.core.findings import safe

COMMAND = "hatemoji-datasets regenerate"


def add_commands(commands: Any, source_options: Callable[..., None]) -> None:
    regenerate = commands.add_parser(
        "regenerate",
        help="write every generated file (cards, Croissant, schemas, loading scripts, "
        "lm-eval tasks, tables in docs), or --check them",
    )
    regenerate.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="only these datasets' own files (default: every dataset, and the shared files)",
    )
    regenerate.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if any file is stale"
    )
    regenerate.add_argument(
        "--fingerprints",
        action="store_true",
        help="also rebuild every release from scratch and record (or check) fingerprints.tsv",
    )
    regenerate.add_argument(
        "--only",
        action="append",
        metavar="ARTEFACT",
        help="only these artefacts (comma-separated or repeated): "
        "schemas, raw_columns, loading_scripts, lm_eval_tasks, lm_eval_readme, "
        "finding_codes, readme, vocabularies, prefilter, cards, releases, baselines, fingerprints",
    )
    source_options(regenerate)
    regenerate.set_defaults(command=run_regenerate)


def run_regenerate(args: argparse.Namespace) -> int:
    from hatemoji_datasets.cli.artefacts import ARTEFACTS, Where, artefact_names, extra_files
    from hatemoji_datasets.core.errors import UnknownNameError
    from hatemoji_datasets.core.generated import refresh, repository_root
    from hatemoji_datasets.core.registry import check_registry, dataset_spec, specs

    check_registry()  # a broken folder's generated files would look like an old dataset's
    chosen = [dataset_spec(name) for name in args.names] if args.names else list(specs().values())
    only = [name for value in args.only or () for name in value.split(",") if name]
    if args.only is not None and not only:  # `--only "$EMPTY"` must not mean "everything"
        raise UnknownNameError(
            f"--only names no artefact; available: {', '.join(artefact_names())}"
        )
    unknown = [name for name in only if name not in artefact_names()]
    if unknown:
        raise UnknownNameError(
            f"unknown artefact {unknown[0]!r}; available: {', '.join(artefact_names())}"
        )
    show_progress()
    where = Where(cache_dir=args.cache_dir, mirror=args.mirror)
    root = repository_root().resolve()
    width = max(len(name) for name in artefact_names())
    status_of: dict[str, int] = {}
    stale_on_request = False  # a stale fingerprints.tsv: the advice must not skip it

    def line(status: str, artefact: str, what: Path | str) -> None:
        shown = what
        if isinstance(what, Path):
            resolved = what.resolve()
            shown = resolved.relative_to(root) if resolved.is_relative_to(root) else resolved
        print(f"{status:<8} {artefact:<{width}}  {safe(str(shown))}", flush=True)
        status_of[status] = status_of.get(status, 0) + 1

    for artefact in ARTEFACTS:
        if only and artefact.name not in only:
            continue
        if artefact.on_request and not (args.fingerprints or artefact.name in only):
            line("skipped", artefact.name, "only with --fingerprints (every release rebuilt)")
            continue
        if artefact.shared and args.names:
            line("skipped", artefact.name, "one file for every dataset: run without NAME")
            continue
        reason = artefact.unavailable()
        if reason:
            line("skipped", artefact.name, reason)
            continue
        files = artefact.files(chosen, where)
        stale = set(refresh(files, write=not args.check, within=root))
        for path in files:
            if path not in stale:
                line("fresh", artefact.name, path)
            elif not args.check:
                line("wrote", artefact.name, path)
            else:
                line("missing" if not path.exists() else "stale", artefact.name, path)
                stale_on_request = stale_on_request or artefact.on_request
        for path in extra_files(artefact, chosen, set(files)):
            line("extra", artefact.name, path)

    problems = sum(status_of.get(status, 0) for status in ("stale", "missing", "extra"))
    checked = sum(status_of.get(s, 0) for s in ("fresh", "stale", "missing", "wrote"))
    again = f"{COMMAND} {' '.join(args.names)}".rstrip()
    if stale_on_request:
        again += " --fingerprints"
    if problems:
        what = "stale, missing or not generated" if args.check else "not generated (remove them)"
        print(
            f"error: {problems:,} of {checked + status_of.get('extra', 0):,} files are {what}"
            + (f"; run `{again}`" if args.check else ""),
            file=sys.stderr,
        )
        return 1
    files = f"{checked:,} generated file" + ("" if checked == 1 else "s")
    wrote = status_of.get("wrote", 0)
    print(f"{wrote:,} of {files} rewritten" if wrote else f"checked {files}: all fresh")
    return 0
