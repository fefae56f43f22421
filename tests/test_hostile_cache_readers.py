"""Every reader of a cached build says what ``build`` says when the cache is damaged.

``verify``, ``fingerprints``, ``diff``, ``score`` and ``export`` each read the cached
Arrow file through the one damage check (the manifest of digests, then the
recorded row counts and fingerprints): whatever the damage, one line naming the
dataset, the file and the ``--force`` command, exit 1, no traceback. In
0.3.0, ``verify`` skipped the check and recomputed the fingerprints from the
damaged file: a flipped bit in a text column ended in a ``UnicodeDecodeError``
traceback, other damage in a bare fingerprint mismatch. The cache holds the tests'
synthetic dataset (``tests/synthetic/README.md``).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pytest
from support.synthetic import SYNTHETIC, registered

from hatemoji_datasets import load_dataset
from hatemoji_datasets.building import manifest
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.columns import TEXT_COLUMN

pytestmark = pytest.mark.usefixtures("synthetic")

NAME = SYNTHETIC
FOLDER = ("synthetic", "default", "1.0.0")
FORCE = "hatemoji-datasets build synthetic/default:1.0.0 --force"


@pytest.fixture(scope="module")
def pristine(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A cache holding the dataset, and a lockfile of it (both left untouched)."""
    root = tmp_path_factory.mktemp("pristine")
    cache = root / "cache"
    lock = root / "hatemoji.lock"
    common = ["--cache-dir", str(cache), "--mirror", str(mirror)]
    with registered():  # made before the test's own registration
        load_dataset(NAME, cache_dir=str(cache), mirror=str(mirror))
        assert main(["lock", NAME, "-o", str(lock), *common]) == 0
    return cache, lock


def _buffer_offset(arrow: Path, column: str, index: int) -> tuple[int, int]:
    """Where one of ``column``'s buffers lies in the file: (offset, size)."""
    with pa.memory_map(str(arrow)) as source:
        base = source.read_buffer(1).address
        source.seek(0)
        table = pa.ipc.open_stream(source).read_all()
        buffer = table.column(column).chunk(0).buffers()[index]
        return buffer.address - base, buffer.size


def _flip(arrow: Path, offset: int, bit: int) -> None:
    data = bytearray(arrow.read_bytes())
    data[offset] ^= bit
    arrow.write_bytes(bytes(data))


def _text_bit(arrow: Path) -> None:
    """The high bit of an ASCII letter of a text: no longer UTF-8."""
    offset, size = _buffer_offset(arrow, TEXT_COLUMN, 2)
    data = arrow.read_bytes()
    letter = next(i for i in range(offset, offset + size) if data[i : i + 1].isalpha())
    _flip(arrow, letter, 0x80)


def _int_bit(arrow: Path) -> None:
    """A low bit of the first value of the first integer column."""
    with pa.memory_map(str(arrow)) as source:
        schema = pa.ipc.open_stream(source).schema
    column = next(field.name for field in schema if pa.types.is_integer(field.type))
    offset, _ = _buffer_offset(arrow, column, 1)
    _flip(arrow, offset, 0x01)


def _truncate(arrow: Path) -> None:
    arrow.write_bytes(arrow.read_bytes()[: arrow.stat().st_size // 2])


def _delete(arrow: Path) -> None:
    arrow.unlink()


def _append(arrow: Path) -> None:
    with open(arrow, "ab") as handle:
        handle.write(b"\x00" * 64)


DAMAGE: dict[str, Callable[[Path], None]] = {
    "bit flip in a text column": _text_bit,
    "bit flip in an int column": _int_bit,
    "truncation": _truncate,
    "deletion": _delete,
    "appended bytes": _append,
}


def _damaged_copy(pristine: tuple[Path, Path], tmp_path: Path, damage: str) -> tuple[Path, Path]:
    cache = tmp_path / "cache"
    shutil.copytree(pristine[0], cache)
    arrow = next(cache.joinpath(*FOLDER).glob("*.arrow"))
    DAMAGE[damage](arrow)
    return cache, arrow


def _readers(cache: Path, lock: Path, work: Path) -> dict[str, list[str]]:
    predictions = work / "model.csv"
    predictions.write_text("sentence_id,prediction\n25,1\n", encoding="utf-8")
    return {
        "verify": ["verify", str(lock)],
        "fingerprints": ["fingerprints", NAME],
        "diff": ["diff", "synthetic:1.0.0", "synthetic:1.0.0"],
        "score": ["score", NAME, "--predictions", str(predictions)],
        "export": ["export", NAME, "--out", str(work / "export")],
    }


READERS = ("verify", "fingerprints", "diff", "score", "export")


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("damage", list(DAMAGE))
def test_every_reader_names_the_damage(
    pristine: tuple[Path, Path], tmp_path: Path, mirror: Path, capsys, damage: str, reader: str
) -> None:
    cache, arrow = _damaged_copy(pristine, tmp_path, damage)
    argv = _readers(cache, pristine[1], tmp_path)[reader]
    capsys.readouterr()
    code = main([*argv, "--cache-dir", str(cache), "--mirror", str(mirror)])
    out, err = capsys.readouterr()
    said = out + err
    assert code == 1, said
    assert "Traceback" not in said and "UnicodeDecodeError" not in said
    assert "is damaged" in said and arrow.name in said and FORCE in said, said
    assert str(cache.joinpath(*FOLDER)) in said
    lines = [line for line in said.splitlines() if "is damaged" in line]
    assert len(lines) == 1, said
    assert not (tmp_path / "export").exists()  # nothing half-written


@pytest.mark.parametrize("damage", ["bit flip in a text column", "bit flip in an int column"])
def test_verify_without_a_manifest(
    pristine: tuple[Path, Path], tmp_path: Path, mirror: Path, capsys, damage: str
) -> None:
    """A build from before manifests is checked against the recorded fingerprints: the
    damage is still named, never a traceback."""
    cache, _ = _damaged_copy(pristine, tmp_path, damage)
    (cache.joinpath(*FOLDER) / manifest.MANIFEST_FILE).unlink()
    capsys.readouterr()
    code = main(["verify", str(pristine[1]), "--cache-dir", str(cache), "--mirror", str(mirror)])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err
    assert "is damaged" in out and FORCE in out, out + err
