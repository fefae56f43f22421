"""``env``: what a bug report needs to know about this installation.

Versions come from the installed distributions' metadata, so nothing heavy is
imported: ``env`` answers as fast as ``list``, and still answers when one of
the libraries it names is broken.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from collections.abc import Callable
from importlib import metadata
from typing import Any

from hatemoji_datasets.core.findings import safe
from hatemoji_datasets.version import __version__

#: The distributions whose versions decide how the package behaves: the core
#: dependencies first, then the optional ones of the extras.
DISTRIBUTIONS = (
    "datasets",
    "huggingface-hub",
    "pyarrow",
    "pandas",
    "pandera",
    "emoji",
    "fsspec",
    "scikit-learn",
    "fairlearn",
    "matplotlib",
    "mlcroissant",
    "lm-eval",
)
NOT_INSTALLED = "not installed"


def add_commands(commands: Any, source_options: Callable[..., None]) -> None:
    env = commands.add_parser(
        "env", help="versions, cache folder and mirror setting, to paste into a bug report"
    )
    source_options(env)
    env.add_argument("--format", choices=("text", "json"), default="text")
    env.set_defaults(command=run_env)


def environment(cache_dir: str | None = None, mirror: str | None = None) -> dict[str, str]:
    """What ``env`` shows, in its order: versions, platform, cache folder and mirror."""
    from hatemoji_datasets.sources.settings import MIRROR_ENV, datasets_cache

    facts = {
        "hatemoji-datasets": __version__,
        "Python": f"{platform.python_version()} ({sys.implementation.name})",
        "platform": platform.platform(),
    }
    for name in DISTRIBUTIONS:
        try:
            facts[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            facts[name] = NOT_INSTALLED
    facts["cache folder"] = str(datasets_cache(cache_dir))
    # The setting as given, unchecked: a bug report may be about a mirror that is wrong.
    if mirror is not None:
        facts["mirror"] = f"{mirror} (--mirror)"
    else:
        value = os.environ.get(MIRROR_ENV)
        facts["mirror"] = f"{value} (${MIRROR_ENV})" if value else f"not set (${MIRROR_ENV})"
    return facts


def run_env(args: argparse.Namespace) -> int:
    facts = environment(args.cache_dir, args.mirror)
    if args.format == "json":
        print(json.dumps(facts, indent=2, ensure_ascii=False))
    else:
        width = max(map(len, facts))
        for key, value in facts.items():  # escaped: a path or setting cannot start a line
            print(f"{key:<{width}}  {safe(value)}")
    return 0
