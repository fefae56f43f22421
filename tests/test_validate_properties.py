"""Property tests: whatever bytes, rows or cells come in, `validate` answers with a
report or a clean exit-2 message, never an uncaught exception."""

from __future__ import annotations

import csv
import io
import os
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from conftest import declaring, dummy_data_dir
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import source_url, upstream_path
from support.real import HATEMOJI_CHECK

from hatemoji_datasets.core.findings import CODES
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.schema.engine import compiled
from hatemoji_datasets.schema.model import rules_of
from hatemoji_datasets.validate.contributions import Options, validate_contributions


def _columns(name: str) -> list[str]:
    spec = dataset_spec(name)
    return list(compiled(spec.load(spec.config().schema)).columns)


def _dummy_cells(name: str) -> list[str]:
    """Every distinct cell of the dummy data the dataset's default config reads: its ids,
    labels and vocabulary."""
    config = dataset_spec(name).config()
    cells: set[str] = set()
    for source in config.source_names:
        path = upstream_path(dummy_data_dir(name), source_url(name, source))
        with path.open(encoding="utf-8", newline="") as handle:
            fmt = config.raw_format
            for row in csv.reader(handle, delimiter=fmt.delimiter, quoting=fmt.quoting):
                cells.update(row)
    return sorted(cells)


#: Arbitrary rows and cells go to the plain dataset (``support.real``); rows under a whole
#: header to every dataset whose rows pair up (``PARTNER_COPIES``: the rules that look across
#: rows at most); arbitrary text to the first config of each raw format.
PLAIN_COLUMNS = _columns(HATEMOJI_CHECK)
PAIRED = declaring("PARTNER_COPIES")
_FIRSTS: dict = {}
for _name, _spec in specs().items():
    for _config in _spec.configs:
        _FIRSTS.setdefault(_config.raw_format, (_name, _config.name))
FORMATS = list(_FIRSTS.values())
DOCUMENTED_CODES = set(CODES) | {
    info.code
    for spec in specs().values()
    for config in spec.configs
    for schema in config.schemas
    for info in rules_of(spec.load(schema)).values()
}
PROPERTY_SETTINGS = settings(
    max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "40")),
    deadline=None,
    derandomize=bool(os.environ.get("CI")),  # a repeatable CI run; explore locally
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def plausible_cells(name: str) -> st.SearchStrategy[str]:
    """Cells that look like the dataset's real ones (its dummy data's ids, labels and
    vocabulary, near misses of their shapes) mixed with anything at all."""
    shapes = ["None", "1.0", "5a", "['bla']", "['none'", "🔪", ""]
    return st.one_of(
        st.integers(-3, 6000).map(str),
        st.sampled_from(shapes + _dummy_cells(name)),
        st.text(max_size=30),
    )


def _run(content: bytes, dataset: str, suffix: str, mirror: Path, **options: bool):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"contribution{suffix}"
        path.write_bytes(content)
        report = validate_contributions(
            [str(path)], dataset, options=Options(**options), mirror=str(mirror)
        )
    assert report.exit_code in (0, 1, 2)
    if report.exit_code == 2:
        assert report.unreadable and all(f.file == str(path) for f in report.unreadable)
    for finding in report.findings:
        assert finding.file == str(path) and finding.code in DOCUMENTED_CODES
        assert finding.severity in ("error", "warning")
    return report


@PROPERTY_SETTINGS
@given(content=st.binary(max_size=400))
def test_arbitrary_bytes(mirror: Path, content: bytes) -> None:
    _run(content, HATEMOJI_CHECK, ".csv", mirror)


@PROPERTY_SETTINGS
@given(
    header=st.lists(st.sampled_from(PLAIN_COLUMNS + ["extra"]), min_size=1, max_size=12),
    rows=st.lists(st.lists(plausible_cells(HATEMOJI_CHECK), min_size=0, max_size=12), max_size=8),
    full=st.booleans(),
)
def test_arbitrary_rows_and_cells(mirror: Path, header, rows, full: bool) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    _run(buffer.getvalue().encode("utf-8"), HATEMOJI_CHECK, ".csv", mirror, full=full)


@pytest.mark.slow
@pytest.mark.parametrize("name", PAIRED)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_arbitrary_rows_of_paired_entries(mirror: Path, name: str, data: st.DataObject) -> None:
    """Rows of plausible cells under the default config's whole header."""
    columns = _columns(name)
    cells = plausible_cells(name)
    width = len(columns)
    rows = data.draw(
        st.lists(st.lists(cells, min_size=width, max_size=width), min_size=1, max_size=6)
    )
    buffer = io.StringIO()
    writer = csv.writer(
        buffer, delimiter=dataset_spec(name).config().raw_format.delimiter, lineterminator="\n"
    )
    writer.writerow(columns)
    writer.writerows(rows)
    _run(buffer.getvalue().encode("utf-8"), name, ".csv", mirror)


@pytest.mark.parametrize(("name", "config"), FORMATS)
@PROPERTY_SETTINGS
@given(text=st.text(max_size=200))
def test_arbitrary_text_in_each_format(mirror: Path, name: str, config: str, text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "contribution.tsv"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        report = validate_contributions([str(path)], name, config, mirror=str(mirror))
    assert report.exit_code in (0, 1, 2)


@settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "300")), deadline=None)
@given(st.lists(st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=8)))
def test_text_rule_prefilter_misses_nothing(texts: list[str]) -> None:
    """Every text that breaks a text rule is among the few the vectorised regex selects."""
    from hatemoji_datasets.validate.release_rules import TEXT_RULES, _suspect_pattern

    suspects = pc.match_substring_regex(pa.array(texts, type=pa.string()), _suspect_pattern())
    for text, suspect in zip(texts, suspects.to_pylist()):
        if any(broken(text) for *_, broken in TEXT_RULES):
            assert suspect, repr(text)
