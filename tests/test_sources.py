"""Pinned sources, the mirror setting, checksum failures and a clean cache."""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.paths import upstream_path
from support.synthetic import SOURCES, SYNTHETIC

from hatemoji_datasets import ChecksumError, SourceError, load_dataset
from hatemoji_datasets.sources.settings import MIRROR_ENV, mirror_setting, resolve_url

#: The tests here build the tests' synthetic dataset (``tests/synthetic/README.md``) from
#: its two pinned files; a tampered copy is of ``test.csv``.
pytestmark = pytest.mark.usefixtures("synthetic")
URL = SOURCES["test"][0]
SHA256 = "88f5bef438e6c411f7c306266ef12c72162a2a3d130e71f4f7886713f6afb20b"
ROWS = {"train": 24, "test": 16}


def test_resolve_url_maps_host_and_path(tmp_path: Path) -> None:
    url = "https://example.org/owner/repo/abc123/data/file.csv"
    assert resolve_url(url, None) == url
    assert resolve_url(url, str(tmp_path)) == str(
        tmp_path / "example.org/owner/repo/abc123/data/file.csv"
    )
    assert resolve_url(url, "http://127.0.0.1:8000/m/") == (
        "http://127.0.0.1:8000/m/example.org/owner/repo/abc123/data/file.csv"
    )


def test_mirror_argument_beats_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MIRROR_ENV, "/from/env")
    assert mirror_setting(None) == "/from/env"
    assert mirror_setting("/from/argument") == "/from/argument"
    monkeypatch.delenv(MIRROR_ENV)
    assert mirror_setting(None) is None


def _copy_source(mirror: Path, target: Path, tamper: bool) -> Path:
    """Copy both pinned files to the mirror ``target``, ``test.csv`` with a byte changed if
    ``tamper``; return the copy of ``test.csv``."""
    for url, _ in SOURCES.values():
        copied = upstream_path(target, url)
        copied.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(upstream_path(mirror, url), copied)
    if tamper:
        data = bytearray(copied.read_bytes())
        data[200] ^= 0x01  # one byte changed
        copied.write_bytes(bytes(data))
    return copied


def _built_versions(cache: Path) -> list[Path]:
    return [p for p in cache.glob(f"{SYNTHETIC}/*/*") if p.is_dir()]


def test_tampered_source_fails_and_leaves_cache_clean(mirror: Path, tmp_path: Path) -> None:
    bad_mirror = tmp_path / "bad"
    _copy_source(mirror, bad_mirror, tamper=True)
    cache = tmp_path / "cache"
    with pytest.raises(ChecksumError) as failure:
        load_dataset(SYNTHETIC, cache_dir=str(cache), mirror=str(bad_mirror))
    message = str(failure.value)
    assert URL in message
    assert SHA256 in message and len(SHA256) == 64
    assert failure.value.actual in message and failure.value.actual != failure.value.expected
    assert _built_versions(cache) == []
    # The same cache then builds from the good mirror: nothing stale was kept.
    data = load_dataset(SYNTHETIC, cache_dir=str(cache), mirror=str(mirror))
    assert {split: ds.num_rows for split, ds in data.items()} == ROWS


def test_missing_source_names_file(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=re.escape("data.example/synthetic/v1/train.csv")):
        load_dataset(SYNTHETIC, cache_dir=str(tmp_path / "c"), mirror=str(tmp_path))


@pytest.fixture
def http_mirror(tmp_path: Path, mirror: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """Serve a copy of the synthetic dataset's sources over HTTP on loopback."""
    root = tmp_path / "served"
    _copy_source(mirror, root, tamper=getattr(request, "param", False))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None  # keep test output quiet
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_download_over_http_is_verified(http_mirror: str, tmp_path: Path) -> None:
    data = load_dataset(SYNTHETIC, split="test", cache_dir=str(tmp_path), mirror=http_mirror)
    assert data.num_rows == 16


@pytest.mark.parametrize("http_mirror", [True], indirect=True)
def test_tampered_download_is_discarded(http_mirror: str, tmp_path: Path) -> None:
    with pytest.raises(ChecksumError):
        load_dataset(SYNTHETIC, cache_dir=str(tmp_path), mirror=http_mirror)
    assert _built_versions(tmp_path) == []
    leftovers = (
        [
            p
            for p in (tmp_path / "downloads").rglob("*")
            if p.is_file() and not p.name.endswith((".lock", ".json"))
        ]
        if (tmp_path / "downloads").exists()
        else []
    )
    # The verified train.csv is kept (a verified copy); nothing of the tampered test.csv.
    assert [p.name for p in leftovers] == [
        "0780bb2f5bb6e059609f2f22c719fbe5f1eb815d6f5c3a76d375a920f324056f-train.csv"
    ]
