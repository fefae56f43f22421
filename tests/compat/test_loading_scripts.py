"""The Hub-style loading scripts in ``loading_scripts/``, for users of ``datasets`` < 4.

Under ``datasets`` < 4 (CI's second environment, ``datasets==3.6.0``) each
script is loaded the way a user would, with plain ``datasets.load_dataset(folder,
config, trust_remote_code=True)``, and every split's fingerprint must equal the
package's recorded one. ``datasets`` 4 and later run no scripts, so there those
tests skip; the layout checks run everywhere.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import datasets
import pytest
from packaging.version import Version

from hatemoji_datasets.building.builder import builder_class
from hatemoji_datasets.building.fingerprint import fingerprint
from hatemoji_datasets.building.recorded import read_recorded
from hatemoji_datasets.core.registry import dataset_spec, specs

SCRIPTS = Path(__file__).resolve().parents[2] / "loading_scripts"
CONFIGS = [(name, config) for name, spec in specs().items() for config in spec.config_names]
SCRIPTS_RUN = Version(datasets.__version__) < Version("4")


@pytest.mark.parametrize("name", list(specs()))
def test_every_dataset_has_a_loading_script(name: str) -> None:
    folder = SCRIPTS / name
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "pip install hatemoji-datasets" in readme
    assert "HATEMOJI_DATASETS_MIRROR" in readme
    module_spec = importlib.util.spec_from_file_location(f"script_{name}", folder / f"{name}.py")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    builders = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, datasets.DatasetBuilder)
        and value.__module__ == module.__name__
    ]
    assert len(builders) == 1
    assert issubclass(builders[0], builder_class(name))


def test_loading_scripts_do_not_drift(tmp_path: Path) -> None:
    from hatemoji_datasets.hub.loading_scripts import stale_files

    assert stale_files(SCRIPTS, write=False) == []
    assert len(stale_files(tmp_path, write=True)) == 2 * len(specs())  # a fresh render writes all
    assert stale_files(tmp_path, write=False) == []


@pytest.mark.compat
@pytest.mark.skipif(not SCRIPTS_RUN, reason=f"datasets {datasets.__version__} runs no scripts")
@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_loading_script_builds_the_recorded_data(
    name: str, config: str, mirror: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    spec = dataset_spec(name)
    cache = tmp_path_factory.mktemp("scripts")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HATEMOJI_DATASETS_MIRROR", str(mirror))
        data = datasets.load_dataset(
            str(SCRIPTS / name), config, trust_remote_code=True, cache_dir=str(cache)
        )
    recorded = read_recorded(spec)
    assert list(data) == spec.config(config).split_names
    for split, ds in data.items():
        assert str(ds.info.version) == spec.version
        assert fingerprint(ds) == recorded[spec.version, config, split].fingerprint, split
