"""What each command imports: the fast paths stay fast because heavy libraries stay out.

Checked in fresh processes (``sys.modules`` after the command), not by timing.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from support.cli import imported_after
from support.paths import upstream_path
from support.real import HATEMOJI_CHECK

from hatemoji_datasets.core.registry import dataset_spec, specs

#: The commands here run on the plain dataset (support.real), each in a fresh process.
NAME = HATEMOJI_CHECK
CONFIG = dataset_spec(NAME).config()


@pytest.mark.parametrize("command", [["list"], ["sources"]])
def test_listing_imports_no_heavy_library(command: list[str]) -> None:
    found = imported_after(
        f"    from hatemoji_datasets.cli import main; assert main({command!r}) == 0"
    )
    assert not any(found.values()), found


def test_info_of_a_built_dataset_imports_neither_datasets_nor_pandera(
    mirror: Path, tmp_path: Path
) -> None:
    cache = str(tmp_path / "cache")
    args = ["info", NAME, "--cache-dir", cache, "--mirror", str(mirror)]
    first = imported_after(f"    from hatemoji_datasets.cli import main; main({args!r})")
    assert first["datasets"]  # the first info builds and stores the summary
    again = imported_after(f"    from hatemoji_datasets.cli import main; main({args!r})")
    assert not again["datasets"] and not again["pandera"], again


def test_a_warm_load_imports_neither_pandera_nor_emoji(mirror: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    load = (
        "    from hatemoji_datasets import load_dataset; "
        f"load_dataset({NAME!r}, cache_dir={cache!r}, mirror={str(mirror)!r})"
    )
    cold = imported_after(load)
    assert cold["datasets"] and not cold["pandera"], cold  # recorded files: no schema pass
    warm = imported_after(load)
    assert not warm["pandera"] and not warm["emoji"], warm
    # datasets' streaming patch of a builder's modules would import scipy.io (SciPy is
    # installed here, for scikit-learn): ours are marked as not streaming.
    assert not cold["scipy"] and not warm["scipy"], (cold, warm)


#: A config that joins files of several formats: a build that validates it runs each
#: format's compiled plan and the joins' checks, without pandera (the plan's agreement
#: with the exact engine is tests/test_screen.py's).
JOINED = next(
    (spec.name, config.name)
    for spec in specs().values()
    for config in spec.configs
    if len(config.parts) > 1
)


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


def _upstream(mirror: Path) -> Path:
    """The mirror's copy of the file the default config reads."""
    (pin,) = dataset_spec(NAME).config_sources(CONFIG).values()
    return upstream_path(mirror, pin.url)


def test_validate_on_csv_imports_no_datasets(mirror: Path, tmp_path: Path) -> None:
    original = _upstream(mirror)
    (tmp_path / "cases.csv").write_text("\n".join(original.read_text("utf-8").split("\n")[:3]))
    args = ["validate", "cases.csv", "--dataset", NAME, "--mirror", str(mirror)]
    found = imported_after(
        f"    from hatemoji_datasets.cli import main; assert main({args!r}) == 0", cwd=tmp_path
    )
    assert not found["datasets"], found
    assert not found["pandera"]  # the compiled plan runs without it (plan.json, rules.py)
    assert not found["pandas"]  # pyarrow imports it to convert Python values: none are


def test_screening_new_rows_imports_no_pandas(mirror: Path, tmp_path: Path) -> None:
    """New rows (new ids, new texts) go through every rule and the text prefilter."""
    with _upstream(mirror).open(encoding="utf-8", newline="") as handle:
        header, *rows = list(csv.reader(handle))[:40]
    column = {name: i for i, name in enumerate(header)}
    for number, row in enumerate(rows):
        if CONFIG.id_column:
            row[column[CONFIG.id_column]] = str(900_000 + number)
        row[column[CONFIG.text_column]] += " again"
    with (tmp_path / "new_cases.csv").open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows([header, *rows])
    args = ["validate", "new_cases.csv", "--dataset", NAME, "--mirror", str(mirror)]
    found = imported_after(
        f"    from hatemoji_datasets.cli import main; assert main({args!r}) == 0", cwd=tmp_path
    )
    assert not found["pandas"] and not found["pandera"], found


def test_build_prints_where_the_data_was_written(mirror: Path, tmp_path: Path, capsys) -> None:
    from hatemoji_datasets.cli import main

    cache = tmp_path / "cache"
    assert main(["build", NAME, "--cache-dir", str(cache), "--mirror", str(mirror)]) == 0
    out = capsys.readouterr().out
    version = dataset_spec(NAME).version
    assert f"cache: {cache / NAME / CONFIG.name / version}" in out
    assert out.startswith(f"built: {NAME} ({CONFIG.name})")
    assert main(["build", NAME, "--cache-dir", str(cache), "--mirror", str(mirror)]) == 0
    assert capsys.readouterr().out.startswith(f"read from the cache: {NAME} ({CONFIG.name})")
