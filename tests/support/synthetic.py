"""The tests' synthetic dataset (``tests/synthetic/README.md``): its name, where it is, and
what it holds, stated by hand from its files."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest

from hatemoji_datasets.core.registry import EXTRA_ENV

#: The folder of the synthetic dataset folder, as ``HATEMOJI_DATASETS_EXTRA`` names it.
FOLDER = Path(__file__).resolve().parents[1] / "synthetic"
#: Its upstream files, laid out as the mirror (``HOST/PATH``).
MIRROR = FOLDER / "mirror"
#: Its name (what ``list`` shows while it is registered).
SYNTHETIC = "synthetic"
#: The environment that registers it.
REGISTERED = {EXTRA_ENV: str(FOLDER)}

#: Its one config and version, the split models are scored on, and its raw columns.
CONFIG, VERSION, SPLIT = "default", "1.0.0", "test"
KEY, TEXT, CATEGORY, LABEL = "sentence_id", "sentence", "topic", "complaint"
#: Its pinned files: source -> (upstream URL, size in bytes).
SOURCES = {
    "train": ("https://data.example/synthetic/v1/train.csv", 1107),
    "test": ("https://data.example/synthetic/v1/test.csv", 693),
}
#: Rows per split, and per label (non-hateful, hateful) of each split.
SPLITS = {"train": 24, "test": 16}
LABELS = {"train": (15, 9), "test": (10, 6)}
#: The categorical column: its raw and built name, and its values in ClassLabel order.
TOPICS = ("fruit", "weather", "garden")


@contextmanager
def registered() -> Iterator[None]:
    """The synthetic dataset registered for a block: for a fixture that lives longer than the
    tests' ``synthetic`` fixture (which registers it for one test)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(EXTRA_ENV, str(FOLDER))
        yield


def mirror_file(source: str, mirror: Path = MIRROR) -> Path:
    """Where ``mirror`` keeps the synthetic source ``source`` (links resolved, as
    ``support.paths.upstream_path``)."""
    return (mirror / SOURCES[source][0].split("://", 1)[1]).resolve()


def released_lines(mirror: Path = MIRROR, source: str = SPLIT) -> list[str]:
    """The header and rows of a released file, as lines (the last one empty)."""
    return mirror_file(source, mirror).read_text("utf-8").split("\n")


#: The key of the first new row a test makes (``new_row``), above the ids released (1-40).
NEW_KEY = 90_001


def new_row(released: Mapping[str, str], number: int = 0) -> dict[str, str]:
    """A released row made new: key ``NEW_KEY + number`` and its text with " again" added
    (which keeps its exclamation mark, if any); the other cells as released."""
    return {**released, KEY: str(NEW_KEY + number), TEXT: released[TEXT] + " again"}


#: A fault ``validate`` rejects (exit status 1) naming the value found and the one expected:
#: line 3 of ``test.csv`` (id 26, "The strawberries were mouldy!") is no complaint. Its
#: ``(line, column, code)`` and ``(value, expected)``.
FAULT_ROW = (
    b"26,The strawberries were mouldy!,fruit,1\n",
    b"26,The strawberries were mouldy!,fruit,0\n",
)
FAULT_PLACE = (3, LABEL, "SY-COMPLAINT")
FAULT_NAMED = ("0", "1")


def head_with_fault(mirror: Path = MIRROR, rows: int = 5) -> bytes:
    """The header and first ``rows`` rows (at least two) of ``test.csv`` with the fault put in
    (a re-submission of released rows, one of them broken, at :data:`FAULT_PLACE`)."""
    lines = mirror_file(SPLIT, mirror).read_bytes().splitlines(keepends=True)
    head = b"".join(lines[: max(rows + 1, FAULT_PLACE[0])])
    assert FAULT_ROW[0] in head
    return head.replace(*FAULT_ROW)
