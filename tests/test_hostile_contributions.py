"""Every rule of a config holds for every row, whatever the file; no finding hides another.

Each case failed on 0.3.0: a file of a config's rows named like the file another config
reads passed; the same id in two files of one contribution passed; a row whose text
differs between its own file and the joined file lost its ``JOIN-MISMATCH`` behind the
edge-space warning. Each case runs on the first config the declarations show it for (the
rules below); a dataset's own rules are tested in its own test module.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from support.cli import validate_json
from support.paths import source_lines, source_url, upstream_name, upstream_path, write_lines
from support.real import NEW_KEY

from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.core.spec import ConfigSpec, Join


def _named_like_another_configs() -> tuple[str, ConfigSpec, str]:
    """The first config reading its rows from one file whose dataset has another config
    reading, in the same format (raw model), a file it does not read: the dataset, the
    config and that file's source."""
    return next(
        (name, config, source)
        for name, spec in specs().items()
        for config in spec.configs
        if len(config.row_sources) == 1
        for other in spec.configs
        if other.schema == config.schema
        for source in other.row_sources
        if source not in config.source_names
    )


def _stacking() -> tuple[str, str, list[str]]:
    """The first config stacking several files in a split: its dataset, the first of those
    files' source, and the config with every config reading that file alone."""
    return next(
        (
            name,
            sources[0],
            [config.name, *(c.name for c in spec.configs if c.row_sources == sources[:1])],
        )
        for name, spec in specs().items()
        for config in spec.configs
        for sources in map(config.split_sources, config.split_names)
        if len(sources) > 1
    )


def _joining() -> tuple[str, ConfigSpec, Join]:
    """The first config joining files of another format whose rows restate its text: the
    dataset, the config and the join."""
    return next(
        (name, config, join)
        for name, spec in specs().items()
        for config in spec.configs
        for join in config.joins
        if join.indicator is None and config.text_column in join.agree_on
    )


def test_a_file_named_like_another_configs(mirror: Path, tmp_path: Path, capsys) -> None:
    name, config, other = _named_like_another_configs()
    (own,) = config.row_sources
    lines = source_lines(mirror, name, own)
    path = write_lines(tmp_path, upstream_name(name, other), lines)
    code, findings = validate_json(capsys, mirror, name, path, "--config", config.name)
    assert code == 1 and [f["code"] for f in findings] == ["NAME-OTHER-SOURCE"]
    assert f"source {other}" in findings[0]["message"]
    assert f"it reads {own}" in findings[0]["message"]


def test_an_id_in_two_files(mirror: Path, tmp_path: Path, capsys) -> None:
    name, source, configs = _stacking()
    lines = source_lines(mirror, name, source)
    whole = write_lines(tmp_path, upstream_name(name, source), lines)
    again = write_lines(tmp_path, f"more-{source}.csv", [lines[0], lines[5]])
    for config in configs:
        code, findings = validate_json(capsys, mirror, name, whole, again, "--config", config)
        assert code == 1
        assert [(Path(f["file"]).name, f["line"], f["code"]) for f in findings] == [
            (f"more-{source}.csv", 2, "KEY-REPEATED-ACROSS-FILES")
        ]
        assert f"{whole}:6" in findings[0]["message"]
    # a joined config: a case in two files of its own rows
    name, config, _ = _joining()
    cases = source_lines(mirror, name, config.row_sources[0])
    first = write_lines(tmp_path, "cases-1.csv", cases[:20])
    second = write_lines(tmp_path, "cases-2.csv", [cases[0], *cases[15:30]])
    code, findings = validate_json(capsys, mirror, name, first, second, "--config", config.name)
    repeated = [(Path(f["file"]).name, f["line"]) for f in findings if f["code"].startswith("KEY")]
    assert code == 1 and repeated == [("cases-2.csv", n) for n in range(2, 7)]


def _rows(mirror: Path, dataset: str, source: str) -> tuple[list[str], list[dict[str, str]]]:
    """The header and the rows of a pinned file."""
    text = upstream_path(mirror, source_url(dataset, source)).read_text(encoding="utf-8")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    return list(reader.fieldnames or ()), list(reader)


def _new_pair(
    mirror: Path, folder: Path, own_text: str, partner_text: str
) -> tuple[str, ConfigSpec, tuple[str, str]]:
    """The first row of the joined config's file and its partner in the joined file, made
    a new pair (a key no released row has), each file with its own text: the dataset, the
    config, and the two files."""
    name, config, join = _joining()
    split = config.split_names[0]
    header, rows = _rows(mirror, name, config.split_sources(split)[0])
    partner_header, partners = _rows(mirror, name, join.source_of(split))
    row = rows[0]
    partner = next(p for p in partners if p[join.key_column] == row[config.key_column])
    paths = []
    for file, columns, cells, text in (
        ("rows.csv", header, row, own_text),
        ("partners.csv", partner_header, partner, partner_text),
    ):
        out = io.StringIO()
        writer = csv.DictWriter(out, columns, lineterminator="\n")
        writer.writeheader()
        key = config.key_column if cells is row else join.key_column
        writer.writerow({**cells, key: str(NEW_KEY), config.text_column: text})
        (folder / file).write_text(out.getvalue(), encoding="utf-8")
        paths.append(str(folder / file))
    return name, config, (paths[0], paths[1])


@pytest.mark.parametrize("space", ["", " "], ids=["no edge space", "an edge space"])
def test_a_join_mismatch_is_never_hidden_by_a_warning(
    mirror: Path, tmp_path: Path, capsys, space: str
) -> None:
    """Upstream's texts may end in a space: the warning is shown, and so is the mismatch."""
    name, config, paths = _new_pair(
        mirror, tmp_path, f"Rain on mondays.{space}", f"Rain on tuesdays.{space}"
    )
    code, findings = validate_json(capsys, mirror, name, *paths, "--config", config.name)
    codes = sorted((Path(f["file"]).name, f["code"]) for f in findings)
    expected = [("partners.csv", "JOIN-MISMATCH")]
    if space:
        expected += [("partners.csv", "TEXT-EDGE-SPACE"), ("rows.csv", "TEXT-EDGE-SPACE")]
    assert code == 1 and codes == sorted(expected)
