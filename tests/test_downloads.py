"""HTTP downloads fail fast, name their cause, hide credentials and leave nothing behind.

A scripted server on 127.0.0.1 plays each failure; the timeout is 1 s through
``HATEMOJI_DATASETS_TIMEOUT`` so that every test ends within seconds.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import datasets
import pytest

from hatemoji_datasets import ChecksumError, SourceError
from hatemoji_datasets.core.checksums import SourceFile
from hatemoji_datasets.core.errors import redact
from hatemoji_datasets.sources import http as sources
from hatemoji_datasets.sources.fetch import fetch
from hatemoji_datasets.sources.settings import MIRROR_ENV, TIMEOUT_ENV, timeout_setting

PAYLOAD = ("case_id,text,label\n" + "".join(f"{i},row {i} 🌻,0\n" for i in range(5000))).encode()
SOURCE = SourceFile(
    name="test",
    url="https://example.org/owner/repo/0123456789abcdef0123456789abcdef01234567/data/test.csv",
    size=len(PAYLOAD),
    sha256=hashlib.sha256(PAYLOAD).hexdigest(),
    license="CC-BY-4.0",
)
#: Longest a failing download may take with a 1 s timeout (2 attempts, backoff, slack).
LIMIT = 8.0


class Server:
    """Answers every request with ``self.behaviour``; counts requests and records headers."""

    def __init__(self) -> None:
        self.behaviour = "ok"
        self.requests: list[dict[str, str]] = []
        self.release = threading.Event()  # ends stalls at teardown
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:
                server.requests.append(dict(self.headers))
                behaviour = server.behaviour
                if behaviour == "500-then-ok":
                    behaviour = "500" if len(server.requests) == 1 else "ok"
                if behaviour in ("404", "500"):
                    self.send_error(int(behaviour))
                elif behaviour == "stall-headers":
                    server.release.wait(10)
                else:
                    body = PAYLOAD if behaviour != "tampered" else PAYLOAD.replace(b"row", b"raw")
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    if behaviour == "stall-body":
                        self.wfile.write(body[:100])
                        self.wfile.flush()
                        server.release.wait(10)
                    elif behaviour == "truncated":
                        self.wfile.write(body[: len(body) // 2])
                        self.close_connection = True
                    else:
                        self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"


@pytest.fixture
def server() -> Iterator[Server]:
    scripted = Server()
    thread = threading.Thread(
        target=scripted.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield scripted
    finally:
        scripted.release.set()
        scripted.httpd.shutdown()
        scripted.httpd.server_close()


@pytest.fixture(autouse=True)
def short_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TIMEOUT_ENV, "1")
    monkeypatch.setattr(sources, "RETRY_BACKOFF", 0.2)
    monkeypatch.delenv(MIRROR_ENV, raising=False)


def manager(tmp_path: Path) -> datasets.DownloadManager:
    config = datasets.DownloadConfig(cache_dir=str(tmp_path / "downloads"))
    return datasets.DownloadManager(dataset_name="test", download_config=config)


def leftovers(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "downloads"
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def bounded(call: Callable[[], Any], limit: float = LIMIT) -> tuple[Any, BaseException | None]:
    """Run ``call`` in a thread; fail the test if it has not ended within ``limit`` s."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # handed back to the test
            outcome["error"] = error

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(limit)
    assert not worker.is_alive(), f"still running after {limit} s"
    return outcome.get("value"), outcome.get("error")


def fetch_failure(tmp_path: Path, mirror: str | None) -> tuple[SourceError, float]:
    started = time.monotonic()
    _, error = bounded(lambda: fetch({"test": SOURCE}, manager(tmp_path), mirror))
    elapsed = time.monotonic() - started
    assert isinstance(error, SourceError), error
    return error, elapsed


def test_download_is_verified_and_then_reused(server: Server, tmp_path: Path) -> None:
    paths, error = bounded(lambda: fetch({"test": SOURCE}, manager(tmp_path), server.url))
    assert error is None
    assert Path(paths["test"]).read_bytes() == PAYLOAD
    assert str(tmp_path / "downloads") in paths["test"]
    assert leftovers(tmp_path) == [Path(paths["test"])]
    # The verified file is a cache hit: no second request.
    again, _ = bounded(lambda: fetch({"test": SOURCE}, manager(tmp_path), server.url))
    assert again == paths and len(server.requests) == 1
    # A damaged cached file is fetched again.
    Path(paths["test"]).write_bytes(b"damaged")
    again, _ = bounded(lambda: fetch({"test": SOURCE}, manager(tmp_path), server.url))
    assert Path(again["test"]).read_bytes() == PAYLOAD and len(server.requests) == 2


def test_stalled_headers_time_out(server: Server, tmp_path: Path) -> None:
    server.behaviour = "stall-headers"
    error, elapsed = fetch_failure(tmp_path, server.url)
    assert "timed out after 1 s" in str(error), error
    assert len(server.requests) == 2  # one retry
    assert elapsed < LIMIT
    assert leftovers(tmp_path) == []


def test_stalled_body_times_out(server: Server, tmp_path: Path) -> None:
    server.behaviour = "stall-body"
    error, elapsed = fetch_failure(tmp_path, server.url)
    assert "timed out after 1 s" in str(error) and "body after 100 bytes" in str(error), error
    assert len(server.requests) == 2
    assert leftovers(tmp_path) == []


def test_not_found_names_the_status_without_retry(server: Server, tmp_path: Path) -> None:
    server.behaviour = "404"
    error, _ = fetch_failure(tmp_path, server.url)
    assert "404 Not Found" in str(error), error
    assert f"{server.url}/example.org/owner/repo/" in str(error)
    assert len(server.requests) == 1
    assert leftovers(tmp_path) == []


def test_server_error_names_the_status_after_a_retry(server: Server, tmp_path: Path) -> None:
    server.behaviour = "500"
    error, _ = fetch_failure(tmp_path, server.url)
    assert "500 Internal Server Error" in str(error), error
    assert len(server.requests) == 2
    assert leftovers(tmp_path) == []


def test_one_server_error_is_retried(server: Server, tmp_path: Path) -> None:
    server.behaviour = "500-then-ok"
    paths, error = bounded(lambda: fetch({"test": SOURCE}, manager(tmp_path), server.url))
    assert error is None and Path(paths["test"]).read_bytes() == PAYLOAD
    assert len(server.requests) == 2


def test_truncated_body_leaves_nothing(server: Server, tmp_path: Path) -> None:
    server.behaviour = "truncated"
    error, _ = fetch_failure(tmp_path, server.url)
    assert "truncated" in str(error) and f"of {len(PAYLOAD):,} bytes" in str(error), error
    assert leftovers(tmp_path) == []


def test_checksum_failure_leaves_nothing(server: Server, tmp_path: Path) -> None:
    server.behaviour = "tampered"
    error, _ = fetch_failure(tmp_path, server.url)
    assert isinstance(error, ChecksumError)
    assert SOURCE.sha256 in str(error)
    assert leftovers(tmp_path) == []


def test_credentials_are_sent_but_never_shown(server: Server, tmp_path: Path) -> None:
    host = server.url.split("://", 1)[1]
    mirror = f"http://reader:s3cr%40t@{host}"
    paths, error = bounded(lambda: fetch({"test": SOURCE}, manager(tmp_path), mirror))
    assert error is None and Path(paths["test"]).read_bytes() == PAYLOAD
    expected = base64.b64encode(b"reader:s3cr@t").decode()
    assert server.requests[0].get("Authorization") == f"Basic {expected}"

    server.behaviour = "404"
    failure, _ = fetch_failure(tmp_path / "other", mirror)
    message = str(failure)
    assert "404 Not Found" in message, message
    assert "s3cr" not in message and "reader" not in message
    assert f"http://***@{host}/example.org/" in message


def test_credentials_hidden_in_checksum_errors(server: Server, tmp_path: Path) -> None:
    server.behaviour = "tampered"
    host = server.url.split("://", 1)[1]
    error, _ = fetch_failure(tmp_path, f"http://reader:s3cret@{host}")
    assert isinstance(error, ChecksumError)
    assert "s3cret" not in str(error) and "s3cret" not in error.path
    assert "***@" in str(error)


def test_redact() -> None:
    assert redact("see https://u:p@h.example/x and ftp://tok@h2/y") == (
        "see https://***@h.example/x and ftp://***@h2/y"
    )
    assert redact("https://u:p@ss@h/x") == "https://***@h/x"
    assert redact("/tmp/a@b and https://h/x@y") == "/tmp/a@b and https://h/x@y"


def test_connection_refused(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    error, elapsed = fetch_failure(tmp_path, f"http://127.0.0.1:{port}")
    assert f"connection refused by 127.0.0.1:{port}" in str(error), error
    assert elapsed < 3
    assert leftovers(tmp_path) == []


def test_dns_failure_points_to_the_mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    error, _ = fetch_failure(tmp_path, None)
    message = str(error)
    assert "DNS lookup of example.org failed" in message, message
    assert "no network" in message and MIRROR_ENV in message
    assert leftovers(tmp_path) == []


def test_timeout_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert timeout_setting(None) == 1.0  # from the environment (fixture)
    assert timeout_setting(2.5) == 2.5
    monkeypatch.delenv(TIMEOUT_ENV)
    assert timeout_setting(None) == 15.0
    monkeypatch.setenv(TIMEOUT_ENV, "soon")
    with pytest.raises(SourceError, match=TIMEOUT_ENV):
        timeout_setting(None)
    with pytest.raises(SourceError, match="positive"):
        timeout_setting(0)
