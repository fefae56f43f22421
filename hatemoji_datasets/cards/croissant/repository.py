"""The files of a dataset repository on the Hub, as the export writes them and the card names them.

One place for the names, so the card's ``configs`` and SQL examples, the
Croissant file and the export always agree::

    README.md                                     the card
    croissant.json                                Croissant metadata
    .gitattributes                                the Hub's LFS lines
    labels.parquet                                every ClassLabel name of every config
    data/<config>/<split>-00000-of-00001.parquet  one file per config and split
"""

from __future__ import annotations

README = "README.md"
CROISSANT = "croissant.json"
GITATTRIBUTES = ".gitattributes"
DATA = "data"
#: The label table at the repository's top: every ClassLabel name of every config.
LABELS = "labels.parquet"


def parquet_name(config: str, split: str) -> str:
    """Where a split lies in the repository (one file per config and split)."""
    return f"{DATA}/{config}/{split}-00000-of-00001.parquet"


def data_files(config: str, split: str) -> str:
    """The card's ``data_files`` pattern of a split (what ``datasets`` globs for it)."""
    return f"{DATA}/{config}/{split}-*.parquet"
