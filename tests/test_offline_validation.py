"""``validate`` works offline once the release has been read, with no mirror set.

The pre-commit hook failed offline with a DNS error when the dataset had been built from a
mirror: nothing of the upstream files was kept. A file read from a folder mirror now leaves
a verified copy where its download would be; offline, ``validate`` reads that copy and says
so in one line. With neither a copy nor a network it exits 2, naming both ways out.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from support.synthetic import SYNTHETIC, mirror_file

from hatemoji_datasets.cli import main
from hatemoji_datasets.sources.settings import MIRROR_ENV

pytestmark = [pytest.mark.real_data, pytest.mark.usefixtures("synthetic")]


@pytest.fixture
def contribution(mirror: Path, tmp_path: Path) -> Path:
    """The first five released rows of the synthetic ``test.csv``, as contributed."""
    path = tmp_path / "rows.csv"
    path.write_bytes(b"".join(mirror_file("test", mirror).read_bytes().splitlines(True)[:6]))
    return path


def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.delenv(MIRROR_ENV, raising=False)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)


def test_validate_offline_after_one_read_from_a_mirror(
    contribution: Path, mirror: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    cache = str(tmp_path / "cache")
    args = ["validate", str(contribution), "--dataset", SYNTHETIC, "--cache-dir", cache]
    assert main([*args, "--mirror", str(mirror)]) == 0
    capsys.readouterr()
    _offline(monkeypatch)
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert out.endswith("0 error(s), 0 warning(s) in 1 file(s)\n")
    assert err == (
        "train: read from its verified copy in the cache, not fetched\n"
        "test: read from its verified copy in the cache, not fetched\n"
    )


def test_validate_offline_with_nothing_kept_exits_2_naming_both_fixes(
    contribution: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    _offline(monkeypatch)
    args = [
        "validate",
        str(contribution),
        "--dataset",
        SYNTHETIC,
        "--cache-dir",
        str(tmp_path),
    ]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "DNS lookup of" in err
    assert f"no network? Set {MIRROR_ENV} (or --mirror)" in err
    assert "or read them once (build, validate) where the network or a mirror reaches them" in err
