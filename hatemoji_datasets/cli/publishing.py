"""``card``, ``export``, ``push`` and ``lm-eval-tasks``: the dataset card, the Hub repository,
the upload, and the lm-evaluation-harness tasks."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hatemoji_datasets.cli.output import show_progress
from hatemoji_datasets.core.findings import safe
from hatemoji_datasets.core.licences import OWN_USE_FLAG


def add_commands(commands: Any, source_options: Callable[..., None]) -> None:
    card = commands.add_parser(
        "card", help="render a dataset's card (README.md) and Croissant metadata, or --check them"
    )
    card.add_argument("name", help="dataset name")
    card.add_argument(
        "--out", help="folder to write (default: cards/NAME of this package's repository)"
    )
    card.add_argument(
        "--check",
        action="store_true",
        help="lint the card in --out against the built data and report files that differ",
    )
    source_options(card)
    card.set_defaults(command=run_card)

    hub = commands.add_parser(
        "export",
        help="write a dataset's Hub repository: card, Croissant, Parquet per config and split",
    )
    hub.add_argument("name", help="dataset name (its current version is exported)")
    hub.add_argument(
        "--out", required=True, help="folder to write: new, empty, or a previous export"
    )
    hub.add_argument(
        OWN_USE_FLAG,
        action="store_true",
        help="export a dataset whose licence forbids sharing adapted copies (NoDerivatives), "
        "for your own use only",
    )
    source_options(hub)
    hub.set_defaults(command=run_export)

    pushing = commands.add_parser(
        "push", help="export a dataset and upload it to a Hub dataset repository, tagged v<version>"
    )
    pushing.add_argument("name", help="dataset name (its current version is pushed)")
    pushing.add_argument("--repo-id", required=True, help="ORG/NAME on the Hugging Face Hub")
    pushing.add_argument(
        "--dry-run", action="store_true", help="print the files, commit and tag; upload nothing"
    )
    pushing.add_argument(
        "--token", help="Hub token (default: $HF_TOKEN, or the one 'hf auth login' saved)"
    )
    pushing.add_argument("--private", action="store_true", help="create the repository private")
    source_options(pushing)
    pushing.set_defaults(command=run_push)

    harness = commands.add_parser(
        "lm-eval-tasks",
        help="write lm-evaluation-harness tasks (one per config's evaluation split), or --check",
    )
    harness.add_argument("names", nargs="*", metavar="NAME", help="datasets (default: all)")
    harness.add_argument(
        "--out", help="folder to write (default: lm_eval_tasks/ of this package's repository)"
    )
    harness.add_argument(
        "--dataset-path",
        metavar="EXPORT",
        help="read this local export (hatemoji-datasets export NAME --out EXPORT) instead of "
        "the package; one NAME only",
    )
    harness.add_argument(
        "--hub",
        nargs="?",
        const="",
        metavar="REPO",
        help="read the Hub exports instead of the package: each card.yaml's repository "
        "(hub_repo_id), or REPO (one NAME only), pinned to the version's tag",
    )
    harness.add_argument(
        "--check", action="store_true", help="report files in --out that differ from a fresh run"
    )
    harness.add_argument(
        "--path",
        action="store_true",
        help="write every dataset's tasks to this install's folder in the user cache and print "
        'it, for lm_eval --include_path "$(hatemoji-datasets lm-eval-tasks --path)"',
    )
    harness.set_defaults(command=run_lm_eval_tasks)


def run_card(args: argparse.Namespace) -> int:
    from hatemoji_datasets.cards.files import (
        README,
        check_card,
        default_folder,
        lint_problems,
        rendered_files,
        write_card_files,
    )
    from hatemoji_datasets.cards.gather import build
    from hatemoji_datasets.core.file_writes import check_folder_destination
    from hatemoji_datasets.core.registry import dataset_spec

    name = dataset_spec(args.name).name  # an unknown name fails before anything is built
    folder = Path(args.out) if args.out else default_folder(name)
    if not args.check:
        check_folder_destination(folder)  # ... and so does a folder that cannot be written
    show_progress()
    built = build(name, cache_dir=args.cache_dir, mirror=args.mirror)
    if args.check:
        problems = check_card(built, folder)
    else:
        files = rendered_files(built)
        for path in write_card_files(files, folder):
            print(f"wrote: {safe(str(path))}")
        problems = lint_problems(built, files[README], folder)
    for problem in problems:
        print(f"error: {safe(problem)}", file=sys.stderr)
    if args.check and not problems:
        print(f"{safe(str(folder))}: card and Croissant metadata are up to date and pass the lint")
    return 1 if problems else 0


def run_export(args: argparse.Namespace) -> int:
    from hatemoji_datasets.hub.export import export

    show_progress()
    for path in export(
        args.name, args.out, cache_dir=args.cache_dir, mirror=args.mirror, own_use=args.own_use
    ):
        print(f"wrote: {safe(str(path))}")
    return 0


def run_push(args: argparse.Namespace) -> int:
    from hatemoji_datasets.hub.push import push

    show_progress()
    push(
        args.name,
        args.repo_id,
        token=args.token,
        dry_run=args.dry_run,
        private=args.private,
        cache_dir=args.cache_dir,
        mirror=args.mirror,
    )
    return 0


def run_lm_eval_tasks(args: argparse.Namespace) -> int:
    from hatemoji_datasets.harness.tasks import (
        TaskError,
        check_tasks,
        default_folder,
        installed_folder,
        task_files,
        write_tasks,
    )

    if args.path:
        given = [
            option
            for option, value in (
                ("NAME", args.names),
                ("--out", args.out),
                ("--dataset-path", args.dataset_path),
                ("--hub", args.hub is not None),
                ("--check", args.check),
            )
            if value
        ]
        if given:
            raise TaskError(
                f"--path prints the folder of every dataset's package-reading tasks; it takes "
                f"no {', '.join(given)}"
            )
        print(installed_folder())
        return 0
    folder = Path(args.out) if args.out else default_folder()
    files = task_files(args.names, dataset_path=args.dataset_path, hub=args.hub)
    if not args.check:
        for path in write_tasks(files, folder):
            print(f"wrote: {safe(str(path))}")
        return 0
    problems = check_tasks(files, folder)
    for problem in problems:
        print(f"error: {safe(problem)}", file=sys.stderr)
    if not problems:
        print(f"{safe(str(folder))}: lm-evaluation-harness tasks are up to date")
    return 1 if problems else 0
