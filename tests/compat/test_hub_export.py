"""The Hub export under datasets 3.6 (CI's second environment).

The package exports each dataset into a temporary folder with this
``datasets``; a child process that never imports the package loads every config
with plain ``datasets.load_dataset(folder, config)``. Features must be exactly
the package's (ClassLabel names, ``Sequence`` of ClassLabel for HatemojiBuild's
``targets``) and every split's fingerprint the recorded one. Under datasets >= 4
``tests/test_hub.py`` runs the same checks (and loads its export under 3.6
when that environment is there), so these skip.
"""

from __future__ import annotations

import datasets
import pytest
from packaging.version import Version
from support.paths import all_configs

from hatemoji_datasets import load_dataset
from hatemoji_datasets.building.fingerprint import fingerprint_table
from hatemoji_datasets.building.recorded import read_recorded
from hatemoji_datasets.core.registry import dataset_spec

pytestmark = [
    pytest.mark.compat,
    pytest.mark.skipif(
        Version(datasets.__version__) >= Version("4"),
        reason=f"datasets {datasets.__version__}: tests/test_hub.py covers the export",
    ),
]


@pytest.mark.parametrize(("name", "config"), all_configs())
def test_plain_datasets36_loads_the_export(
    name: str, config: str, exported, plain_load, session_cache, mirror
) -> None:
    spec = dataset_spec(name)
    loaded = plain_load(exported(name), config)
    assert loaded.datasets_version == datasets.__version__
    package = load_dataset(name, config, cache_dir=str(session_cache), mirror=str(mirror))
    recorded = read_recorded(spec)
    assert list(loaded.features) == list(package) == spec.config(config).split_names
    for split, ds in package.items():
        assert loaded.features[split] == ds.features.to_dict(), split
        features = datasets.Features.from_dict(loaded.features[split])
        assert features == ds.features
        got = fingerprint_table(loaded.tables[split], features)
        assert got == recorded[spec.version, config, split].fingerprint, split
