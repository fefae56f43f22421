"""The streaming validator's plan against the exact engine (pandera), on real rows.

The screen may only say "clean" where the exact engine finds nothing; where it
cannot tell, the exact engine runs. So, for every config of one format whose model
is screened (configs that join formats: ``test_screen_joins.py``): the released
file and new rows made from it are proven clean, and a file with random edits
(cells from the golden corpus's pool, repeated rows, rows of another file) that
the screen calls clean has no finding when the exact engine alone checks it, and
one it does not call clean has a finding
(agreement both ways). The golden findings (``test_validate_golden.py``), recorded
before the screen existed, pass with it in the path. A fresh process that validates a clean file
never imports pandera.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
from pathlib import Path

import pyarrow
import pytest
from conftest import dataset_facts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cli import imported_after
from support.paths import REPO, upstream_path
from test_validate_golden import POOL

from hatemoji_datasets import load_dataset
from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.raw import files as raw_files
from hatemoji_datasets.raw import plan_checks
from hatemoji_datasets.raw.files import (
    SplitFiles,
    check_files,
    read_by_layout,
    read_files,
    splits_keep_plan,
)
from hatemoji_datasets.raw.plan_checks import plan_covers, screenable, tables_keep_plan
from hatemoji_datasets.raw.unique_values import BITMAP_LIMIT, UniqueValues
from hatemoji_datasets.schema import engine
from hatemoji_datasets.schema.plan_cache import model_plan
from hatemoji_datasets.sources.fetch import fetch_released
from hatemoji_datasets.validate import contributions, spool
from hatemoji_datasets.validate.contributions import validate_contributions
from hatemoji_datasets.validate.formats import upstream_name
from hatemoji_datasets.validate.report import render
from hatemoji_datasets.validate.screen import screen_file

#: Configs of one format whose model is screened: a file of new rows is a whole
#: contribution (configs that join formats: tests/test_screen_joins.py).
SCREENED = [
    (spec, config, part)
    for spec in specs().values()
    for config in spec.configs
    for part in config.parts
    if len(config.parts) == 1 and screenable(spec, config, part)
]
#: The first screened config of each set of files and their model (HatemojiBuild's
#: eight configs all read the same three files with one model: one check stands for all).
OF_EACH_FILE_SET = list(
    {
        (spec.name, part.schema, part.sources): (spec, config, part)
        for spec, config, part in reversed(SCREENED)
    }.values()
)
IDS = [f"{spec.name}/{config.name}" for spec, config, _ in OF_EACH_FILE_SET]
#: The first screened config of each model (the edits are costly: one per model).
FIRST = list(
    {
        (spec.name, part.schema): (spec, config, part) for spec, config, part in reversed(SCREENED)
    }.values()
)
FIRST_IDS = [f"{spec.name}/{config.name}" for spec, config, _ in FIRST]
#: Those whose rows must sit in their split's file (the config names the split a
#: contributed file's name says).
SPLIT_NAMED = [(spec, config, part) for spec, config, part in FIRST if config.split_of_file]
#: Every format of the configs whose builds run the plans alone (every format's plan
#: stands for its model: joined formats too).
PLANNED = [
    (spec, config, part)
    for spec in specs().values()
    for config in spec.configs
    if all(plan_covers(spec, part) for part in config.parts)
    for part in config.parts
]
#: The first planned config of each format's model.
PLANNED_FIRST = list(
    {
        (spec.name, part.schema): (spec, config, part) for spec, config, part in reversed(PLANNED)
    }.values()
)
PLANNED_IDS = [
    f"{spec.name}/{config.name}/{part.join.name if part.join else 'rows'}"
    for spec, config, part in PLANNED_FIRST
]
#: The first screened config of each dataset.
FIRST_OF_EACH = list(
    {spec.name: (spec, config, part) for spec, config, part in reversed(SCREENED)}.values()
)
#: The first planned config of each dataset.
PLANNED_OF_EACH = list(
    {spec.name: (spec, config, part) for spec, config, part in reversed(PLANNED)}.values()
)


def test_some_config_is_screened() -> None:
    assert SCREENED, "no model's plan stands for it: validate would never stream"


def _source_rows(spec, config, source: str, mirror: Path) -> tuple[list[str], list[list[str]]]:
    """The header and rows of one pinned source file."""
    text = upstream_path(mirror, spec.source_files()[source].url).read_text(encoding="utf-8")
    fmt = config.raw_format
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=fmt.delimiter, quoting=fmt.quoting)
    first, *own = list(reader)
    return first, own


def _released_rows(spec, config, part, mirror: Path) -> tuple[list[str], list[list[str]]]:
    rows: list[list[str]] = []
    header: list[str] = []
    for source in dict.fromkeys(s for split in config.split_names for s in part.sources):
        first, own = _source_rows(spec, config, source, mirror)
        if header and first != header:
            continue  # a file of another layout (optional columns): the first layout only
        header, rows = first, rows + own
    return header, rows


def _write(path: Path, header: list[str], rows: list[list[str]], fmt) -> str:
    with path.open("w", encoding="utf-8", newline="") as handle:
        quotes = {"quotechar": None} if fmt.quoting == csv.QUOTE_NONE else {}
        writer = csv.writer(
            handle, delimiter=fmt.delimiter, quoting=fmt.quoting, lineterminator="\n", **quotes
        )
        writer.writerow(header)
        writer.writerows(rows)
    return str(path)


def _pairs(rows, among: list[int], key: int, partner: int) -> list[tuple[int, int]]:
    """The pairs of two distinct rows of ``among`` (positions) one of which names the
    other's key in its ``partner`` column, in order (the new rows name each other)."""
    at_key = {row[key]: i for i, row in enumerate(rows)}
    chosen = set(among)
    return sorted(
        {
            (min(i, j), max(i, j))
            for i in among
            if (j := at_key.get(rows[i][partner])) in chosen and j != i
        }
    )


def _new_rows(spec, header, rows, key: str, text: str, count: int, seed: int) -> list[list[str]]:
    """``count`` released rows, each text made new by a number (no character the text
    rules look at) and, where the key is not the text, under a new key: a key that ends
    in a number gets a larger one.

    Where the dataset's rows come in pairs (``PARTNER_COPIES`` of its facts: which of
    the partner's columns each of a row's columns copies, one of them its key), whole
    pairs are taken, and each row's copies are its partner's new values."""
    k, t = header.index(key), header.index(text)
    numbered = [re.fullmatch(r"(.*?)([0-9]+)", row[k]) for row in rows]
    top = max((int(m.group(2)) for m in numbered if m), default=0)
    # Rows whose text is clean as it is (a few released texts have edge spaces).
    clean = [i for i, row in enumerate(rows) if row[t] == row[t].strip()]
    copies = {
        header.index(mine): header.index(theirs)
        for mine, theirs in getattr(dataset_facts(spec.name), "PARTNER_COPIES", {}).items()
    }
    if copies:
        (partner,) = [mine for mine, theirs in copies.items() if theirs == k]
        taken = random.Random(seed).sample(_pairs(rows, clean, k, partner), count // 2)
        picked = [i for pair in taken for i in pair]
    else:
        picked = random.Random(seed).sample(clean, count)
    new = []
    for n, at in enumerate(picked):
        row = list(rows[at])
        row[t] = f"{row[t]} {n + 1}"
        if k != t:
            row[k] = f"{numbered[at].group(1)}{top + 1 + n}"
        new.append(row)
    if copies:  # a pair's two rows sit side by side
        for first in range(0, len(new), 2):
            one, other = new[first], new[first + 1]
            for mine, theirs in copies.items():
                one[mine], other[mine] = other[theirs], one[theirs]
    return new


def proven_clean(path: str, spec, config, part) -> bool:
    found = screen_file(path, spec, config, part, mirror=None, cache_dir=None)
    return found is not None and not found.findings


def _exact_findings(path: str | list[str], spec, config, monkeypatch) -> list:
    paths = [path] if isinstance(path, str) else path
    with monkeypatch.context() as patch:
        patch.setattr(contributions, "_screened", lambda *args: False)
        return validate_contributions(paths, spec.name, config.name).findings


@pytest.mark.parametrize(("spec", "config", "part"), OF_EACH_FILE_SET, ids=IDS)
def test_the_released_file_and_new_rows_are_proven_clean(
    spec, config, part, mirror: Path, tmp_path: Path, monkeypatch
) -> None:
    header, rows = _released_rows(spec, config, part, mirror)
    fmt = config.raw_format
    released = _write(tmp_path / "released.csv", header, rows, fmt)
    new = _new_rows(spec, header, rows, part.key_column, config.text_column, 300, seed=1)
    added = _write(tmp_path / "added.csv", header, rows + new, fmt)
    for path in (released, added):
        assert _exact_findings(path, spec, config, monkeypatch) == []
        assert proven_clean(path, spec, config, part)


def _edits(width: int):
    """Cell edits: a value of the pool, or the same column's value in another row (valid
    alone, but maybe not with the rest of the row); or a row repeated."""
    value = st.one_of(st.sampled_from(POOL), st.integers(0, 39))
    cell = st.tuples(st.integers(0, 39), st.integers(0, width - 1), value)
    repeat = st.tuples(st.just("repeat"), st.integers(0, 39))
    return st.lists(st.one_of(cell, cell, cell, repeat), min_size=0, max_size=3)


def _real_row_examples(count: int) -> settings:
    """Hypothesis settings of the properties on real rows: ``count`` examples, the same
    ones every run, with no deadline (the exact engine's first call compiles a lot)."""
    return settings(
        max_examples=count,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )


def _edited(rows: list[list[str]], edits) -> list[list[str]]:
    """``rows`` with the edits of :func:`_edits` applied (a cell edit's number names the
    row whose cell of that column it copies)."""
    edited = [list(row) for row in rows]
    for edit in edits:
        if edit[0] == "repeat":
            edited.append(list(edited[edit[1]]))
            continue
        row, column, value = edit
        edited[row][column] = edited[value][column] if isinstance(value, int) else value
    return edited


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "config", "part"), FIRST, ids=FIRST_IDS)
def test_a_file_the_screen_calls_clean_has_no_finding(
    spec, config, part, mirror: Path, tmp_path_factory, monkeypatch
) -> None:
    header, rows = _released_rows(spec, config, part, mirror)
    key, fmt = part.key_column, config.raw_format
    base = _new_rows(spec, header, rows, key, config.text_column, 40, seed=2)
    # Half the cases start from released rows (the release rules' side).
    released_base = random.Random(3).sample(rows, 40)
    folder = tmp_path_factory.mktemp("screen")
    calls = {"clean": 0, "not clean": 0}

    @_real_row_examples(50)
    @given(edits=_edits(len(header)), from_release=st.booleans())
    def check(edits, from_release: bool) -> None:
        edited = _edited(released_base if from_release else base, edits)
        path = _write(folder / "case.csv", header, edited, fmt)
        screened = screen_file(path, spec, config, part, mirror=None, cache_dir=None)
        clean = screened is not None and not screened.findings
        calls["clean" if clean else "not clean"] += 1
        found = _exact_findings(path, spec, config, monkeypatch)
        # Agreement both ways: clean exactly where the exact engine finds nothing, and
        # whatever findings the screen names are the exact engine's.
        assert clean == (found == []), (edits, found[:3])
        if screened is not None:
            assert screened.findings == found, edits

    check()
    assert calls["not clean"] > 0 and calls["clean"] > 0, calls  # both sides are tried


def _with_file(files: SplitFiles, part, source: str, raw) -> SplitFiles:
    """A split's files with ``raw`` in place of the file of ``source`` (``part``'s format)."""
    if part.join is not None:
        return SplitFiles(files.sources, {**files.joined, part.join.name: raw})
    return SplitFiles([(s, raw if s == source else r) for s, r in files.sources], files.joined)


@pytest.mark.parametrize(("spec", "config", "part"), PLANNED_FIRST, ids=PLANNED_IDS)
def test_a_build_s_plan_passes_exactly_the_files_the_exact_engine_passes(
    spec, config, part, mirror: Path, tmp_path_factory, monkeypatch
) -> None:
    """A build that re-validates its pinned files runs the same plans over them (the
    files stand for their own release), and the joins' checks; its "no finding" must be
    the exact engine's."""
    # Every pinned file whole (rules between rows may look at any row of any of them),
    # the first one of the format edited in its first rows.
    pinned = read_files(spec, config, fetch_released(spec, config, str(mirror), None))
    split = next(iter(pinned))
    source = dict(part.join.splits)[split] if part.join else pinned[split].sources[0][0]
    header, base = _source_rows(spec, config, source, mirror)
    folder = tmp_path_factory.mktemp("build-plan")
    calls = {"kept": 0, "not kept": 0}

    @_real_row_examples(15)
    @given(edits=_edits(len(header)))
    def check(edits) -> None:
        path = _write(folder / "pinned.csv", header, _edited(base, edits), config.raw_format)
        try:
            raw = read_by_layout(spec, part.schema, path, config.raw_format)
        except InputError:
            return  # a file the reader refuses never reaches either check
        files = {**pinned, split: _with_file(pinned[split], part, source, raw)}
        kept = splits_keep_plan(spec, config, files)
        calls["kept" if kept else "not kept"] += 1
        with monkeypatch.context() as patch:
            patch.setattr(raw_files, "splits_keep_plan", lambda *args: False)
            found = check_files(spec, config, files)
        assert kept == (found == []), (edits, found[:3])

    check()
    assert calls["not kept"] > 0 and calls["kept"] > 0, calls  # both sides are tried
    assert check_files(spec, config, pinned) == []


@pytest.mark.parametrize(("spec", "config", "part"), OF_EACH_FILE_SET, ids=IDS)
def test_every_screened_config_s_pinned_files_keep_the_plan_together(
    spec, config, part, mirror: Path
) -> None:
    """The pinned files pass as one table; a key of one file repeated in another (or in
    its own file, for a config of one file) does not."""
    files = read_files(spec, config, fetch_released(spec, config, str(mirror), None))
    tables = [(split, source, raw.table) for split, f in files.items() for source, raw in f.sources]
    assert tables_keep_plan(spec, config, tables)
    (_, _, first), *rest = tables
    last_split, last_source, last = rest[-1] if rest else tables[0]
    repeated = pyarrow.concat_tables([last, first.slice(0, 1)])
    assert not tables_keep_plan(spec, config, [*tables[:-1], (last_split, last_source, repeated)])


@pytest.mark.parametrize(
    ("spec", "config", "part"), PLANNED_OF_EACH, ids=[spec.name for spec, _, _ in PLANNED_OF_EACH]
)
def test_a_build_that_validates_clean_pinned_files_runs_only_the_plan(
    spec, config, part, mirror: Path, tmp_path: Path, monkeypatch
) -> None:
    def exact_engine(*args, **kwargs):
        raise AssertionError("the exact engine ran on files the plan passes")

    monkeypatch.setattr(engine, "check_frame", exact_engine)
    monkeypatch.setattr(engine, "column_findings", exact_engine)
    built = load_dataset(
        spec.name, config.name, validate=True, cache_dir=str(tmp_path), mirror=str(mirror)
    )
    assert sum(split.num_rows for split in built.values()) > 0


@pytest.mark.parametrize(
    ("spec", "config", "part"),
    SPLIT_NAMED,
    ids=[f"{spec.name}/{config.name}" for spec, config, _ in SPLIT_NAMED],
)
def test_a_file_named_like_a_split_s_file_is_checked_as_that_split(
    spec, config, part, mirror: Path, tmp_path: Path, monkeypatch
) -> None:
    """A split's released rows are clean in a file named like their own split's file and
    not in one named like another's, to the screen as to the exact engine."""
    sources = list(dict.fromkeys(s for split in config.split_names for s in part.sources))
    header, rows = _source_rows(spec, config, sources[0], mirror)
    for named_as, clean in ((sources[0], True), (sources[1], False)):
        folder = tmp_path / named_as
        folder.mkdir()
        path = _write(folder / upstream_name(spec, named_as), header, rows, config.raw_format)
        assert (_exact_findings(path, spec, config, monkeypatch) == []) is clean, named_as
        assert proven_clean(path, spec, config, part) is clean, named_as


@pytest.mark.parametrize(("spec", "config", "part"), FIRST, ids=FIRST_IDS)
def test_repeated_rows_are_named_as_the_exact_engine_names_them(
    spec, config, part, mirror: Path, tmp_path: Path, monkeypatch
) -> None:
    header, rows = _released_rows(spec, config, part, mirror)
    new = _new_rows(spec, header, rows, part.key_column, config.text_column, 30, seed=4)
    # One released and one new row, each repeated: every copy is a finding.
    repeated = [*new, rows[5], rows[5], new[3], rows[5]]
    path = _write(tmp_path / "repeats.csv", header, repeated, config.raw_format)
    found = _exact_findings(path, spec, config, monkeypatch)
    assert {f.code for f in found} == {"VALUE-DUPLICATE"} and len(found) >= 5
    screened = screen_file(path, spec, config, part, mirror=None, cache_dir=None)
    assert screened is not None and screened.findings == found
    # Memory holds the first of a code; the spool every one, and every count stays exact.
    monkeypatch.setattr(spool, "KEPT_IN_MEMORY", 2)
    report = validate_contributions([path], spec.name, config.name)
    assert report.findings == found[:2] and list(report.every_finding()) == found
    assert report.exit_code == 1 and report.counts() == (len(found), 0)
    as_json = json.loads(render(report, "json"))
    assert as_json["errors"] == len(found) and len(as_json["findings"]) == len(found)
    assert "omitted" not in as_json
    text = render(report, "text", max_findings=1)
    assert f"... and {len(found) - 1:,} more VALUE-DUPLICATE" in text
    assert text.splitlines()[-1].startswith(f"{len(found):,} error(s)")


@pytest.mark.parametrize(("spec", "config", "part"), FIRST, ids=FIRST_IDS)
def test_files_are_screened_together(
    spec, config, part, mirror: Path, tmp_path: Path, monkeypatch
) -> None:
    header, rows = _released_rows(spec, config, part, mirror)
    new = _new_rows(spec, header, rows, part.key_column, config.text_column, 40, seed=5)
    first = _write(tmp_path / "first.csv", header, new[:20], config.raw_format)
    second = _write(tmp_path / "second.csv", header, new[20:], config.raw_format)
    calls: list[str] = []
    real = contributions._screened

    def spy(report, *args):
        handled = real(report, *args)
        calls.append("screened" if handled else "exact")
        return handled

    monkeypatch.setattr(contributions, "_screened", spy)
    assert validate_contributions([first, second], spec.name, config.name).findings == []
    # A row in both files: the exact engine names the repeated key.
    both = _write(tmp_path / "both.csv", header, [*new[20:], new[0]], config.raw_format)
    report = validate_contributions([first, both], spec.name, config.name)
    assert calls == ["screened", "exact"]
    assert report.findings == _exact_findings([first, both], spec, config, monkeypatch)
    assert any(f.code == "KEY-REPEATED-ACROSS-FILES" for f in report.findings)


def test_repeats_are_seen_across_batches() -> None:
    for first, second, repeats in (
        ([1, 2, 3], [4, 3], [3]),  # small integers: the byte map
        ([BITMAP_LIMIT + 5, -2], [7, -2], [-2]),  # beyond it: kept as values
        ([5, BITMAP_LIMIT + 5], [BITMAP_LIMIT + 5, 6], [BITMAP_LIMIT + 5]),
    ):
        seen = UniqueValues()
        assert seen.add(pyarrow.array(first, pyarrow.int64())) and seen.clean
        assert not seen.add(pyarrow.array(second, pyarrow.int64())), (first, second)
        assert not seen.clean
        both = pyarrow.array(first + second, pyarrow.int64())
        assert [v for v, r in zip(first + second, seen.repeated(both)) if r] == repeats * 2
    seen = UniqueValues()
    assert seen.add(pyarrow.array(["a-1", "a-2"])) and not seen.add(pyarrow.array(["a-2"]))
    small, large, words = UniqueValues(), UniqueValues(), UniqueValues()
    small.add(pyarrow.array([1, 2, BITMAP_LIMIT + 1], pyarrow.int64()))
    large.add(pyarrow.array([3, BITMAP_LIMIT + 1], pyarrow.int64()))
    words.add(pyarrow.array(["a-3"]))
    assert small.overlaps(large) and large.overlaps(small) and not small.overlaps(words)
    other = UniqueValues()
    other.add(pyarrow.array([9, 2], pyarrow.int64()))
    assert other.overlaps(small) and not other.overlaps(large)
    assert not UniqueValues().add(pyarrow.array([3, 3], pyarrow.int64()))
    assert UniqueValues().add(pyarrow.array([], pyarrow.int64()))


@pytest.mark.parametrize(
    ("spec", "config", "part"), FIRST_OF_EACH, ids=[spec.name for spec, _, _ in FIRST_OF_EACH]
)
def test_validating_a_clean_file_imports_neither_pandera_nor_pandas(
    spec, config, part, mirror: Path, tmp_path: Path
) -> None:
    header, rows = _released_rows(spec, config, part, mirror)
    path = _write(tmp_path / "released.csv", header, rows, config.raw_format)
    found = imported_after(
        "from hatemoji_datasets.validate.contributions import validate_contributions\n"
        f"report = validate_contributions([{path!r}], {spec.name!r}, {config.name!r})\n"
        "assert report.exit_code == 0, report.findings[:3]\n",
        cwd=REPO,
    )
    assert not found["pandera"] and not found["pandas"], found


@pytest.mark.parametrize(("spec", "config", "part"), FIRST[:1], ids=FIRST_IDS[:1])
def test_a_release_it_cannot_read_leaves_the_file_to_the_exact_engine(
    spec, config, part, tmp_path: Path, isolated_env, capsys
) -> None:
    from hatemoji_datasets.cli import main

    empty = tmp_path / "empty-mirror"
    empty.mkdir()
    sep = config.raw_format.delimiter
    header = sep.join(column.name for column in model_plan(spec, part.schema).columns)
    wide = tmp_path / "wide.csv"  # its one row has far more fields than the header
    wide.write_text(header + "\n" + sep.join(["1"] * 50) + "\n", encoding="utf-8")
    where = ["--dataset", spec.name, "--config", config.name, "--mirror", str(empty)]
    assert screen_file(str(wide), spec, config, part, mirror=str(empty), cache_dir=None) is None
    # A malformed file exits 2, naming the file, before anything is downloaded.
    assert main(["validate", str(wide), *where, "--cache-dir", str(tmp_path / "c")]) == 2
    said = capsys.readouterr()
    assert "wide.csv" in said.out + said.err and "download" not in said.out + said.err


@settings(deadline=None, max_examples=300)
@given(
    st.lists(st.text(st.sampled_from("a\u00e9\u20ac\U0001f600"), max_size=4), max_size=4),
    st.none() | st.integers(0, 6),
    st.none() | st.integers(0, 6),
)
def test_a_length_check_counts_characters(texts, low, high) -> None:
    """The byte lengths stand in for the characters only where they decide the same."""
    check = {"check": "str_length", "min": low, "max": high}
    expected = all(
        (low is None or len(text) >= low) and (high is None or len(text) <= high) for text in texts
    )
    assert plan_checks._check_keeps(pyarrow.array(texts, pyarrow.string()), check) is expected
