"""What a child process loads of an export with plain ``datasets``, without this package."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from hatemoji_datasets.sources.settings import MIRROR_ENV
from support.paths import run_folder, run_lock

#: Run in a child process: load every config of an export with plain
#: ``datasets.load_dataset`` and save, per config and split, the features (``to_dict``) and
#: the rows (an Arrow IPC file). The child never imports this package (checked), so nothing
#: of it can help the load.
PLAIN_LOAD = """
import json, sys
from pathlib import Path
import datasets
import pyarrow as pa
folder, cache, out = sys.argv[1:4]
for config in datasets.get_dataset_config_names(folder):
    data = datasets.load_dataset(folder, config, cache_dir=cache)
    found = {}
    Path(out, config).mkdir()
    for split, ds in data.items():
        table = ds.with_format("arrow")[:]
        with pa.OSFile(str(Path(out, config, split + ".arrow")), "wb") as sink:
            with pa.ipc.new_file(sink, table.schema) as writer:
                writer.write_table(table)
        found[split] = ds.features.to_dict()
    assert not any(m.startswith("hatemoji_datasets") for m in sys.modules), "package imported"
    Path(out, config, "features.json").write_text(
        json.dumps({"version": datasets.__version__, "splits": found})
    )
"""


@dataclass
class PlainLoad:
    """What plain ``datasets`` loaded: its version, and per split features and rows."""

    datasets_version: str
    features: dict[str, dict]
    tables: dict[str, object]


def load_plainly(
    folder: Path, config: str, python: str, factory: pytest.TempPathFactory
) -> PlainLoad:
    """What a child running ``python`` loads of config ``config`` of the export ``folder``:
    one child per export and interpreter loads every config, once for the whole run."""
    import pyarrow as pa

    key = hashlib.sha256(f"{folder}\0{python}".encode()).hexdigest()[:16]
    out = run_folder(factory) / "plain" / key
    with run_lock(factory, f"plain-{key}"):
        if not (out / "done").is_file():
            shutil.rmtree(out, ignore_errors=True)
            (out / "rows").mkdir(parents=True)
            env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", MIRROR_ENV)}
            env["HF_HUB_OFFLINE"] = "1"
            done = subprocess.run(
                [python, "-c", PLAIN_LOAD, str(folder), str(out / "cache"), str(out / "rows")],
                cwd=out,
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
            )
            assert done.returncode == 0, done.stderr[-3000:]
            (out / "done").write_text("")
    rows = out / "rows" / config
    saved = json.loads((rows / "features.json").read_text())
    tables = {
        split: pa.ipc.open_file(str(rows / f"{split}.arrow")).read_all()
        for split in saved["splits"]
    }
    return PlainLoad(saved["version"], saved["splits"], tables)
