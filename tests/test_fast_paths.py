"""What each command imports: the fast paths stay fast because heavy libraries stay out.

Checked in fresh processes (``sys.modules`` after the command), not by timing.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from support.cli import imported_after
from support.real import HATEMOJI_CHECK
from support.synthetic import KEY, SYNTHETIC, TEXT, mirror_file

from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.schema import plan_cache

#: The commands here run on the tests' synthetic dataset, each in a fresh process (which
#: inherits its registration from the ``synthetic`` fixture).
NAME = SYNTHETIC


@pytest.fixture(scope="module")
def plans_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("xdg-cache")


@pytest.fixture(autouse=True)
def _plans_compiled(
    plans_folder: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each process started here finds every dataset's plans compiled, as after a first run
    (which compiles them), the synthetic dataset's included where the test registers it."""
    if "synthetic" in request.fixturenames:
        request.getfixturevalue("synthetic")
    monkeypatch.setenv("XDG_CACHE_HOME", str(plans_folder))
    plan_cache.dataset_plans.cache_clear()
    for spec in specs().values():
        plan_cache.dataset_plans(spec)
    plan_cache.dataset_plans.cache_clear()


@pytest.mark.parametrize("command", [["list"], ["sources"]])
def test_listing_imports_no_heavy_library(command: list[str]) -> None:
    found = imported_after(
        f"    from hatemoji_datasets.cli import main; assert main({command!r}) == 0"
    )
    assert not any(found.values()), found


def test_info_of_a_built_dataset_imports_neither_datasets_nor_pandera(
    synthetic: str, mirror: Path, tmp_path: Path
) -> None:
    cache = str(tmp_path / "cache")
    args = ["info", NAME, "--cache-dir", cache, "--mirror", str(mirror)]
    first = imported_after(f"    from hatemoji_datasets.cli import main; main({args!r})")
    assert first["datasets"]  # the first info builds and stores the summary
    again = imported_after(f"    from hatemoji_datasets.cli import main; main({args!r})")
    assert not again["datasets"] and not again["pandera"], again


def test_a_warm_load_imports_neither_pandera_nor_emoji(mirror: Path, tmp_path: Path) -> None:
    """On HatemojiCheck, named: its build lists each text's emoji, so a cold load imports
    ``emoji`` and a warm one must not."""
    cache = str(tmp_path / "cache")
    load = (
        "    from hatemoji_datasets import load_dataset; "
        f"load_dataset({HATEMOJI_CHECK!r}, cache_dir={cache!r}, mirror={str(mirror)!r})"
    )
    cold = imported_after(load)
    assert cold["datasets"] and not cold["pandera"], cold  # recorded files: no schema pass
    assert cold["emoji"], cold
    warm = imported_after(load)
    assert not warm["pandera"] and not warm["emoji"], warm
    # datasets' streaming patch of a builder's modules would import scipy.io (SciPy is
    # installed here, for scikit-learn): ours are marked as not streaming.
    assert not cold["scipy"] and not warm["scipy"], (cold, warm)


#: A config that joins files of several formats (HateCheck's cases and its annotations,
#: named: the synthetic dataset joins nothing): a build that validates it runs each
#: format's compiled plan and the joins' checks, without pandera (the plan's agreement
#: with the exact engine is tests/test_screen.py's).
JOINED = ("hatecheck", "default")


@pytest.mark.parametrize("cached", [False, True])
def test_a_build_of_joined_formats_imports_no_pandera(
    mirror: Path, tmp_path: Path, cached: bool
) -> None:
    cache = str(tmp_path / "cache")
    name, config = JOINED
    build = (
        "    from hatemoji_datasets import load_dataset; "
        f"load_dataset({name!r}, {config!r}, cache_dir={cache!r}, mirror={str(mirror)!r}"
    )
    if cached:
        assert not imported_after(build + ")")["pandera"]
    assert not imported_after(build + ", validate=True)")["pandera"]


def test_validate_on_csv_imports_no_datasets(
    synthetic: str, mirror: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first run compiles the dataset's plans from its pandera models and caches them;
    from then on the plans run without pandera."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    original = mirror_file("test", mirror)
    (tmp_path / "cases.csv").write_text("\n".join(original.read_text("utf-8").split("\n")[:3]))
    args = ["validate", "cases.csv", "--dataset", NAME, "--mirror", str(mirror)]
    code = f"    from hatemoji_datasets.cli import main; assert main({args!r}) == 0"
    cold = imported_after(code, cwd=tmp_path)
    assert cold["pandera"], cold  # compiling the plans reads the pandera models
    assert len(list((tmp_path / "cache" / "hatemoji-datasets" / "plans").glob("*.json"))) == 1
    warm = imported_after(code, cwd=tmp_path)
    assert not warm["datasets"], warm
    assert not warm["pandera"]  # the cached plan runs without it (and rules.py)
    assert not warm["pandas"]  # pyarrow imports it to convert Python values: none are


def test_screening_new_rows_imports_no_pandas(synthetic: str, mirror: Path, tmp_path: Path):
    """New rows (new ids, new texts) go through every rule and the text prefilter."""
    with mirror_file("test", mirror).open(encoding="utf-8", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    assert len(rows) == 16
    column = {name: i for i, name in enumerate(header)}
    for number, row in enumerate(rows):
        row[column[KEY]] = str(900_000 + number)
        row[column[TEXT]] += " again"
    with (tmp_path / "new_cases.csv").open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows([header, *rows])
    args = ["validate", "new_cases.csv", "--dataset", NAME, "--mirror", str(mirror)]
    found = imported_after(
        f"    from hatemoji_datasets.cli import main; assert main({args!r}) == 0", cwd=tmp_path
    )
    assert not found["pandas"] and not found["pandera"], found


def test_build_prints_where_the_data_was_written(
    synthetic: str, mirror: Path, tmp_path: Path, capsys
) -> None:
    from hatemoji_datasets.cli import main

    cache = tmp_path / "cache"
    assert main(["build", NAME, "--cache-dir", str(cache), "--mirror", str(mirror)]) == 0
    out = capsys.readouterr().out
    assert f"cache: {cache / 'synthetic' / 'default' / '1.0.0'}" in out
    assert out.startswith("built: synthetic (default)")
    assert main(["build", NAME, "--cache-dir", str(cache), "--mirror", str(mirror)]) == 0
    assert capsys.readouterr().out.startswith("read from the cache: synthetic (default)")
