"""The streaming validator on contributions of joined formats, against the exact engine.

A config may join files of other formats to its rows on a key (the rows'
annotations, or a subset of the rows that only marks membership). The screen
checks each contributed file in its own format and decides the joins' promises
over the contributed files and, for a format none of them is in, the release
(``validate.screen_joins``). For every such config and every way to contribute
to it (the files of one format alone, whose partners then come from the release,
or files of every format together), a contribution made of real rows (released
ones, or new ones whose partners restate them) with random edits (cells, repeated
rows, dropped rows) is screened clean exactly where the exact engine finds nothing,
both sides reached, and whatever the screen names is the exact engine's. The
configs are found from the declarations (a config with joins whose formats are all
screened); nothing here names a dataset.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.cli import imported_after
from support.paths import REPO
from test_screen import _edited, _edits, _exact_findings, _real_row_examples, _released_rows, _write

from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.raw.plan_checks import screenable
from hatemoji_datasets.validate.formats import part_of, upstream_name
from hatemoji_datasets.validate.screen import screen_contribution

#: Configs that join files of several formats, every one of them screened.
JOINED = [
    (spec, config)
    for spec in specs().values()
    for config in spec.configs
    if len(config.parts) > 1 and all(screenable(spec, config, p) for p in config.parts)
]
JOINED_IDS = [f"{spec.name}/{config.name}" for spec, config in JOINED]
#: Each way to contribute to them: the files of one format alone, or of every format.
WAYS = [
    (spec, config, parts)
    for spec, config in JOINED
    for parts in [*((part,) for part in config.parts), config.parts]
]
WAY_IDS = [
    f"{spec.name}/{config.name}/{'+'.join(p.join.name if p.join else 'rows' for p in parts)}"
    for spec, config, parts in WAYS
]
#: Rows per contributed file in the properties (the edits name rows 0 to 39).
ROWS = 40


def test_some_joined_config_is_screened() -> None:
    assert JOINED, "no config with joins is screened: joined contributions never stream"
    assert any(part.join.indicator for _, c in JOINED for part in c.parts[1:]), "no indicator"


def _contribution(spec, config, parts, mirror: Path, count: int, seed: int, new: bool) -> dict:
    """``{part: (header, rows)}``: ``count`` rows of each format of ``parts``, for one set
    of the config's rows that every format holds (by the join's key): the released ones,
    or, with ``new``, each made new (new keys, above every released one, and a number
    after its text, edge spaces trimmed), its partners restating it (each column both
    formats hold is the new row's)."""
    released = {part: _released_rows(spec, config, part, mirror) for part in config.parts}
    own = config.parts[0]
    header, rows = released[own]
    partners = {
        part: {row[h.index(part.join.key_column)]: row for row in r}
        for part, (h, r) in released.items()
        if part.join is not None
    }
    keys = {own.key_column, *(part.join.key_column for part in partners)}
    usable = [
        at
        for at, row in enumerate(rows)
        if all(row[header.index(p.join.key_column)] in found for p, found in partners.items())
    ]
    picked = random.Random(seed).sample(usable, count)
    # The keys are integers (the screen keeps them so).
    top = max(int(row[h.index(p.key_column)]) for p, (h, r) in released.items() for row in r)
    text = header.index(config.text_column)
    made = {}
    for part in parts:
        columns, _ = released[part]
        out = []
        for n, at in enumerate(picked):
            mine = list(rows[at])
            row = (
                mine
                if part.join is None
                else list(partners[part][mine[header.index(part.join.key_column)]])
            )
            if new:
                for key in keys:
                    mine[header.index(key)] = str(top + 1 + n)
                mine[text] = f"{mine[text].strip()} {n + 1}"
                for column in columns:
                    if column in header:
                        row[columns.index(column)] = mine[header.index(column)]
            out.append(row)
        made[part] = (columns, out)
    return made


def _write_all(folder: Path, spec, config, made: dict) -> list[str]:
    """Each format's file, named generically where its header tells its format, else like
    its upstream file (as a contributor names the file of a format that shares a header)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, (part, (header, rows)) in enumerate(made.items()):
        name = f"file{number}.csv"
        if part_of(name, header, spec, config) != part:
            name = upstream_name(spec, part.sources[0])
        paths.append(_write(folder / name, header, rows, config.raw_format))
    return paths


def _screened(paths: list[str], spec, config):
    return screen_contribution(paths, spec, config, mirror=None, cache_dir=None)


def _file_edits(config, part, header: list[str]):
    """One file's edits, or none (half the time: files of several formats are then clean
    together often enough): cells and repeated rows (:func:`_edits`), a column its joins
    compare copied from another row (a restatement that disagrees, and only that, where
    the rows are new), then a row dropped (a key without its partner)."""
    joins = config.joins if part.join is None else (part.join,)
    compared = sorted({header.index(c) for j in joins for c in j.agree_on if c in header})
    row = st.integers(0, ROWS - 1)
    restated = st.lists(st.tuples(row, st.sampled_from(compared), row), max_size=1)
    edits = st.tuples(
        _edits(len(header)), restated if compared else st.just([]), st.lists(row, max_size=1)
    )
    return st.one_of(st.just(([], [], [])), edits)


@pytest.mark.parametrize(("spec", "config", "parts"), WAYS, ids=WAY_IDS)
def test_a_joined_contribution_the_screen_calls_clean_has_no_finding(
    spec, config, parts, mirror: Path, tmp_path_factory, monkeypatch
) -> None:
    made = {new: _contribution(spec, config, parts, mirror, ROWS, 2, new) for new in (False, True)}
    files = [_file_edits(config, part, header) for part, (header, _) in made[False].items()]
    calls = Counter()

    @_real_row_examples(40)
    @given(edits=st.tuples(*files), new=st.booleans())
    def check(edits, new: bool) -> None:
        edited = {}
        for (part, (header, rows)), (cells, restated, dropped) in zip(
            made[new].items(), edits, strict=True
        ):
            rows = _edited(rows, cells + restated)
            edited[part] = (header, [row for at, row in enumerate(rows) if at not in dropped])
        paths = _write_all(tmp_path_factory.mktemp("joined"), spec, config, edited)
        screened = _screened(paths, spec, config)
        clean = screened is not None and not screened.findings
        calls["clean" if clean else "not clean"] += 1
        found = _exact_findings(paths, spec, config, monkeypatch)
        # Agreement both ways: clean exactly where the exact engine finds nothing, and
        # whatever findings the screen names are the exact engine's.
        assert clean == (found == []), (new, edits, found[:3])
        if screened is not None:
            assert screened.findings == found, edits

    check()
    assert calls["not clean"] > 0 and calls["clean"] > 0, calls  # both sides are tried


@pytest.mark.parametrize(("spec", "config"), JOINED, ids=JOINED_IDS)
def test_released_files_and_new_rows_of_every_format_are_proven_clean(
    spec, config, mirror: Path, tmp_path: Path, monkeypatch
) -> None:
    """Each format's whole released file alone, and all of them together; new rows of
    every format together (the rows in two files), but not the rows alone."""
    released = {part: _released_rows(spec, config, part, mirror) for part in config.parts}
    contributions = [{part: rows} for part, rows in released.items()] + [released]
    new = _contribution(spec, config, config.parts, mirror, 300, 1, True)
    own = config.parts[0]
    header, rows = new[own]
    for number, made in enumerate([*contributions, new]):
        paths = _write_all(tmp_path / str(number), spec, config, made)
        assert _exact_findings(paths, spec, config, monkeypatch) == [], number
        assert _screened(paths, spec, config) is not None, number
    (tmp_path / "split").mkdir()  # the rows in two files
    halves = [
        _write(tmp_path / "split" / f"half{h}.csv", header, rows[h::2], config.raw_format)
        for h in (0, 1)
    ]
    others = _write_all(
        tmp_path / "others", spec, config, {p: r for p, r in new.items() if p != own}
    )
    assert _screened([*halves, *others], spec, config) is not None
    # A row in both halves: the exact engine names the key held twice.
    again = _write(
        tmp_path / "split" / "again.csv", header, [*rows[1::2], rows[0]], config.raw_format
    )
    assert _screened([halves[0], again, *others], spec, config) is None
    alone = _write_all(tmp_path / "alone", spec, config, {own: new[own]})
    assert _screened(alone, spec, config) is None  # rows without partners
    assert {f.code for f in _exact_findings(alone, spec, config, monkeypatch)} == {"JOIN-UNMATCHED"}


@pytest.mark.parametrize(
    ("spec", "config", "parts"),
    [way for way in WAYS if len(way[2]) == 1],
    ids=[i for i, way in zip(WAY_IDS, WAYS, strict=True) if len(way[2]) == 1],
)
def test_repeated_rows_of_a_joined_format_are_named_as_the_exact_engine_names_them(
    spec, config, parts, mirror: Path, tmp_path: Path, monkeypatch
) -> None:
    ((part, (header, rows)),) = _contribution(spec, config, parts, mirror, 30, 4, False).items()
    made = {part: (header, [*rows, rows[5], rows[5], rows[7]])}
    paths = _write_all(tmp_path, spec, config, made)
    found = _exact_findings(paths, spec, config, monkeypatch)
    assert {f.code for f in found} == {"VALUE-DUPLICATE"} and len(found) == 5
    screened = _screened(paths, spec, config)
    assert screened is not None and screened.findings == found


@pytest.mark.parametrize(
    ("spec", "config"),
    list({spec.name: (spec, config) for spec, config in reversed(JOINED)}.values()),
    ids=lambda value: getattr(value, "name", ""),
)
def test_validating_a_clean_joined_contribution_imports_neither_pandera_nor_pandas(
    spec, config, mirror: Path, tmp_path: Path
) -> None:
    """New rows of every format together, and the released rows alone (their partners
    then released)."""
    made = _contribution(spec, config, config.parts, mirror, 100, 3, True)
    own = config.parts[0]
    contributions = [
        _write_all(tmp_path / "new", spec, config, made),
        _write_all(
            tmp_path / "released", spec, config, {own: _released_rows(spec, config, own, mirror)}
        ),
    ]
    found = imported_after(
        "from hatemoji_datasets.validate.contributions import validate_contributions\n"
        f"for paths in {contributions!r}:\n"
        f"    report = validate_contributions(paths, {spec.name!r}, {config.name!r})\n"
        "    assert report.exit_code == 0, report.findings[:3]\n",
        cwd=REPO,
    )
    assert not found["pandera"] and not found["pandas"], found
