"""Pinned upstream files: each dataset package's ``checksums.tsv``.

Every upstream file a dataset reads is listed there: its name, its URL pinned at
a commit, its size, sha256 and licence. Standard library only.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from hatemoji_datasets.core.errors import SourceError

CHECKSUM_COLUMNS = ("name", "url", "size", "sha256", "license")


@dataclass(frozen=True)
class SourceFile:
    """One pinned upstream file."""

    name: str
    url: str
    size: int
    sha256: str
    license: str


def read_checksums(path: Path) -> dict[str, SourceFile]:
    """Read a dataset's ``checksums.tsv`` into ``{name: SourceFile}``."""
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        if tuple(reader.fieldnames or ()) != CHECKSUM_COLUMNS:
            expected = " <tab> ".join(CHECKSUM_COLUMNS)
            raise SourceError(f"{path}: header must be {expected}")
        files = {}
        for row in reader:
            files[row["name"]] = SourceFile(
                name=row["name"],
                url=row["url"],
                size=int(row["size"]),
                sha256=row["sha256"].lower(),
                license=row["license"],
            )
    return files
