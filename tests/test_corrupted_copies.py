"""The contribution gate on corrupted copies of the released files, through the CLI.

Each case changes one thing in a real upstream file (copied into a temporary
folder, never into the repository) and expects `validate` to exit 1 (or 2 when
the file cannot be read) naming the offending line, column and code, with no
traceback. Every finding carries a documented code, and no place is reported twice.
The cases are stated in each dataset's ``testing.py`` (``CORRUPTED_COPIES``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import dataset_facts, declaring, delimiter_of
from support.paths import REPO, source_url, upstream_path

from hatemoji_datasets.cli import main
from hatemoji_datasets.core.edits import CorruptedCopy, edited
from hatemoji_datasets.core.findings import CODES
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.schema.model import rules_of

#: Every dataset's corrupted copies (``CORRUPTED_COPIES`` of its ``testing.py``):
#: "dataset: case" -> (dataset, its stated copy).
CASES: dict[str, tuple[str, CorruptedCopy]] = {
    f"{name}: {case}": (name, stated)
    for name in declaring("CORRUPTED_COPIES")
    for case, stated in dataset_facts(name).CORRUPTED_COPIES.items()
}
#: The cases whose finding names a column: their text report is checked too.
IN_A_COLUMN = [case for case, (_, copy) in CASES.items() if copy.finding[1] is not None]


def documented_codes() -> set[str]:
    """The shared codes and every dataset rule's code."""
    codes = set(CODES)
    for spec in specs().values():
        for config in spec.configs:
            for schema in config.schemas:  # the config's own format and its joins'
                codes |= {info.code for info in rules_of(spec.load(schema)).values()}
    return codes


def _corrupt(mirror: Path, tmp_path: Path, case: str) -> Path:
    dataset, copy = CASES[case]
    source = copy.source
    url = source_url(dataset, source)
    original = upstream_path(mirror, url).read_bytes()
    target = tmp_path / Path(url).name
    target.write_bytes(edited(original, [copy.edit], delimiter_of(dataset, source)))
    return target


def _validate(path: Path, case: str, mirror: Path, capsys, fmt: str):
    """``validate`` of the case's copy; ``--config`` named only where the config reading
    the source is not the default one."""
    dataset, copy = CASES[case]
    spec = dataset_spec(dataset)
    config = next(c.name for c in spec.configs if copy.source in c.source_names)
    args = ["validate", str(path), "--dataset", dataset, "--mirror", str(mirror)]
    args += ["--config", config] if config != spec.default_config_name else []
    code = main([*args, "--format", fmt])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture(scope="module")
def reports(mirror: Path, tmp_path_factory: pytest.TempPathFactory):
    """Each case's JSON report, validated once."""
    found: dict[str, tuple[int, Path, dict]] = {}

    def report(case: str, capsys) -> tuple[int, Path, dict]:
        if case not in found:
            path = _corrupt(mirror, tmp_path_factory.mktemp("corrupt"), case)
            code, out, _ = _validate(path, case, mirror, capsys, "json")
            found[case] = (code, path, json.loads(out))
        return found[case]

    return report


@pytest.mark.parametrize("case", list(CASES))
def test_corrupted_copy(case: str, reports, capsys) -> None:
    copy = CASES[case][1]
    exit_code, (line, column, code), value = copy.exit_status, copy.finding, copy.names
    status, path, report = reports(case, capsys)
    assert status == exit_code == report["exit_code"], report
    assert report["format"] == 1
    named = [
        f
        for f in report["findings"]
        if (f["file"], f["line"], f["column"], f["code"]) == (str(path), line, column, code)
    ]
    assert len(named) == 1, report["findings"]
    if value is not None:
        assert (named[0]["value"], named[0]["expected"]) == value
    documented = documented_codes()
    assert all(f["code"] in documented for f in report["findings"]), report["findings"]
    assert all(f["file"] == str(path) for f in report["findings"])


@pytest.mark.parametrize("case", list(CASES))
def test_no_problem_is_reported_twice(case: str, reports, capsys) -> None:
    _, _, report = reports(case, capsys)
    places = [(f["file"], f["line"], f["column"]) for f in report["findings"]]
    assert len(places) == len(set(places)), report["findings"]


@pytest.mark.parametrize("case", IN_A_COLUMN)
def test_text_report_names_the_place(case: str, mirror: Path, tmp_path: Path, capsys) -> None:
    copy = CASES[case][1]
    exit_code, (line, column, code) = copy.exit_status, copy.finding
    path = _corrupt(mirror, tmp_path, case)
    status, out, _ = _validate(path, case, mirror, capsys, "text")
    assert status == exit_code
    assert f"error: {path}:{line}: {code} column {column!r}:" in out


def test_docs_document_every_code() -> None:
    from hatemoji_datasets.validate.codes import render

    page = (REPO / "docs" / "validation.md").read_text(encoding="utf-8")
    assert sorted(c for c in documented_codes() if f"`{c}`" not in page) == []
    assert render(page) == page  # the generated table is current
