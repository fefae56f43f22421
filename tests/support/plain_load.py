"""What a child process loads of an export with plain ``datasets``, without this package."""

from __future__ import annotations

from dataclasses import dataclass

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
