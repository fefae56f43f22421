"""Two exports into one ``--out`` at once never lose or damage the export.

Before, each run took the other's staging folder for a killed run's and cleared it, or
cleared the files the other had just moved in: on a loaded machine, 2 runs in 5 ended with
both failing (the previous export lost its ``.gitattributes``) or with ``--out`` gone. Now
the second run waits for the first, and both succeed one after the other.

Two worker processes export the same dataset into one folder together, round after round,
released at once by a barrier; between rounds the test checks that the folder holds one
whole export: its files, each Parquet file's SHA-256 as ``croissant.json`` records it, and
no staging folder.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
from pathlib import Path

import pytest
from support.synthetic import SYNTHETIC

from hatemoji_datasets.hub.export import STAGING_PREFIX

pytestmark = [pytest.mark.real_data, pytest.mark.usefixtures("synthetic")]

ROUNDS = 20
WORKERS = 2


def _export_rounds(barrier, name: str, out: str, cache: str, mirror: str, results) -> None:
    from hatemoji_datasets.core.errors import HatemojiDatasetsError
    from hatemoji_datasets.hub.export import export

    for _ in range(ROUNDS):
        barrier.wait()  # every worker starts its export at once
        try:
            export(name, out, cache_dir=cache, mirror=mirror)
            results.put("ok")
        except HatemojiDatasetsError as error:  # a clean refusal would be allowed
            results.put(f"error: {error}")
        except Exception as error:  # anything else is a failure of the test
            results.put(f"crash: {type(error).__name__}: {error}")
        barrier.wait()  # the round is over: the test looks at the folder


def _whole_export(out: Path) -> dict[str, str]:
    """The export's files with their SHA-256; raises if croissant.json disagrees."""
    files = {
        path.relative_to(out).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in out.rglob("*")
        if path.is_file()
    }
    croissant = json.loads((out / "croissant.json").read_text(encoding="utf-8"))
    recorded = {
        entry["contentUrl"]: entry["sha256"]
        for entry in croissant["distribution"]
        if entry.get("contentUrl", "").endswith(".parquet")
    }
    assert recorded and all(files[url] == digest for url, digest in recorded.items())
    return files


def test_concurrent_exports_into_one_folder_hold(
    mirror: Path, session_cache: Path, tmp_path: Path
) -> None:
    from hatemoji_datasets.hub.export import export

    out = tmp_path / "out"
    export(
        SYNTHETIC, out, cache_dir=str(session_cache), mirror=str(mirror)
    )  # built, and a baseline
    expected = _whole_export(out)
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(WORKERS + 1)
    results = context.Queue()
    args = (barrier, SYNTHETIC, str(out), str(session_cache), str(mirror), results)
    workers = [context.Process(target=_export_rounds, args=args) for _ in range(WORKERS)]
    for worker in workers:
        worker.start()
    try:
        for round_number in range(ROUNDS):
            barrier.wait(timeout=300)  # start the round
            barrier.wait(timeout=300)  # wait for its end
            outcomes = [results.get(timeout=60) for _ in range(WORKERS)]
            assert all(o == "ok" or o.startswith("error: ") for o in outcomes), outcomes
            assert "ok" in outcomes, (round_number, outcomes)
            assert _whole_export(out) == expected, round_number
            assert not [p for p in out.iterdir() if p.name.startswith(STAGING_PREFIX)]
    finally:
        barrier.abort()
        for worker in workers:
            worker.join(timeout=60)
            if worker.is_alive():
                worker.kill()
