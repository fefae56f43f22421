"""``score`` on hostile predictions: one line, the README's exit status, None for undefined.

Predictions are read through the guarded open: a missing, special, binary,
empty or malformed file exits 2 in the package's words; ids must be scalars;
JSON nesting is bounded. Each test failed on 3eb3066 (``TypeError:
unhashable type``, ``RecursionError``, a hang on a FIFO, exit 1 with pandas'
or the codec's text, NaN where README.md promises None, an extras message
naming one of three missing packages after the report was printed).

Predictions score the plain dataset (support.real), keyed by its default config's id
column.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cli import one_error_line
from support.real import HATEMOJI_CHECK

from hatemoji_datasets import api, load_dataset
from hatemoji_datasets.cli import main
from hatemoji_datasets.core import file_reads
from hatemoji_datasets.core.errors import InputError
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.core.scoring import Fairness
from hatemoji_datasets.evaluate import score
from hatemoji_datasets.evaluate.metrics import OptionalDependencyError

pytest.importorskip("sklearn")
pytest.importorskip("fairlearn")

#: The dataset scored (HatemojiCheck, named: its fairness table is what a score of one
#: class leaves undefined), its default config, and the column predictions are keyed by.
NAME = HATEMOJI_CHECK
CONFIG = dataset_spec(NAME).config()
ID = CONFIG.id_column or "index"


@pytest.fixture(scope="module")
def cache(pristine_cache, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache of the module's own holding the dataset (a copy of the run's build)."""
    folder = tmp_path_factory.mktemp("scoring") / "cache"
    shutil.copytree(pristine_cache(NAME, CONFIG.name), folder, symlinks=True)
    return folder


def _rows(cache: Path, split: str = CONFIG.eval_split):
    return load_dataset(NAME, CONFIG.name, split=split, cache_dir=str(cache))


@pytest.fixture(scope="module")
def row_ids(cache: Path) -> list:
    """The ids of the evaluation split's rows, in order."""
    rows = _rows(cache)
    return list(range(len(rows))) if ID == "index" else list(rows[ID])


def _score(path: Path, cache: Path, mirror: Path, capsys, *extra: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(
        ["score", NAME, "--predictions", str(path), *extra]
        + ["--cache-dir", str(cache), "--mirror", str(mirror)]
    )
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "bad_id", [[1, 2], {"id": 1}, [[[]]]], ids=["a list", "an object", "nested lists"]
)
def test_an_id_must_be_a_scalar(
    tmp_path: Path, cache: Path, mirror: Path, row_ids: list[int], capsys, bad_id
) -> None:
    path = tmp_path / "model.jsonl"
    records = [{ID: bad_id, "prediction": 1}]
    records += [{ID: i, "prediction": 1} for i in row_ids[1:]]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    code, out, err = _score(path, cache, mirror, capsys)
    line = one_error_line(err)
    assert code == 1 and out == ""
    assert f"1 {ID} value that is not a number or a string" in line
    assert f"1 missing {ID} value: {row_ids[0]}" in line


def test_json_nesting_is_bounded(tmp_path: Path, cache: Path, mirror: Path, capsys) -> None:
    path = tmp_path / "model.jsonl"
    deep = "[" * 100_000 + "]" * 100_000
    lines = [json.dumps({ID: 1, "prediction": 1}), f'{{"{ID}": {deep}}}']
    path.write_text("\n".join(lines) + "\n", "utf-8")
    code, _, err = _score(path, cache, mirror, capsys)
    line = one_error_line(err)
    assert code == 2 and "model.jsonl:2: FILE-UNPARSEABLE" in line and "levels deep" in line


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.text(alphabet='[]{}"\\\n a', max_size=40))
def test_the_fast_json_depth_is_the_exact_scans(text: str) -> None:
    """The regex pass that lets a log line through equals the character scan that names the
    line: strings with escapes, newlines and an unclosed one, and unbalanced brackets."""
    assert file_reads.json_depth(text) == file_reads.nesting(text)[0]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.text(alphabet='[]{}"\\\n a', max_size=40), st.integers(0, 8))
def test_a_line_is_refused_exactly_when_it_nests_past_the_limit(text: str, limit: int) -> None:
    """The count of opening brackets that lets most lines through never lets a deep one."""
    try:
        file_reads._check_nesting("log.jsonl", text, comments=False, limit=limit)
    except InputError:
        refused = True
    else:
        refused = False
    assert refused == (file_reads.nesting(text)[0] > limit)


def test_a_deep_line_among_quotes_and_backslashes_is_named_in_linear_time() -> None:
    # Escaped quotes, then a string left open: every regex attempt runs to the text's end.
    hostile = '{"a": "' + '\\"' * 200_000 + '", "b": ' + "[" * 40 + '"\\' * 200_000
    assert file_reads.json_depth(hostile) == file_reads.nesting(hostile)[0] == 41
    with pytest.raises(InputError) as raised:
        file_reads.parse_json("log.jsonl", hostile, limit=16, line=7)
    assert raised.value.finding.line == 7 and "levels deep" in str(raised.value)


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (None, "FILE-NOT-FOUND"),
        (b"\x00\x01\x02\xff\xfe binary", "FILE-NOT-UTF8"),
        (b"", "FILE-EMPTY"),
        (b"\n\n  \n", "FILE-EMPTY"),
        (f'{ID},prediction\n1,1\n2,"1\n'.encode(), "FILE-UNPARSEABLE"),
    ],
    ids=["missing", "binary", "empty", "blank", "unclosed quote"],
)
def test_an_unreadable_predictions_file_exits_2(
    tmp_path: Path, cache: Path, mirror: Path, capsys, content: bytes | None, code: str
) -> None:
    path = tmp_path / "model.csv"
    if content is not None:
        path.write_bytes(content)
    status, out, err = _score(path, cache, mirror, capsys)
    line = one_error_line(err)
    assert status == 2 and out == ""
    assert f"cannot read the predictions file {path}" in line and code in line
    assert "No columns to parse" not in line and "codec" not in line


def test_a_fifo_is_refused_without_waiting(tmp_path: Path, cache: Path, mirror: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "model.csv"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "hatemoji_datasets", "score", NAME]
        + ["--predictions", str(fifo), "--cache-dir", str(cache), "--mirror", str(mirror)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "FILE-NOT-REGULAR" in one_error_line(done.stderr)


def test_format_json_errors_are_json(tmp_path: Path, cache: Path, mirror: Path, capsys) -> None:
    code, out, err = _score(tmp_path / "missing.csv", cache, mirror, capsys, "--format", "json")
    assert code == 2 and "FILE-NOT-FOUND" in one_error_line(err)
    document = json.loads(out)
    assert document["exit_code"] == 2 and document["error"]["code"] == "FILE-NOT-FOUND"
    assert "missing.csv" in document["error"]["message"]
    present = tmp_path / "x.csv"
    present.write_text(f"{ID},prediction\n1,1\n", encoding="utf-8")
    code, out, err = _score(present, cache, mirror, capsys, "--format", "json", "--split", "nope")
    document = json.loads(out)
    assert code == 1 and document["error"]["code"] == "UNKNOWN-NAME"


def _nans(value: object) -> bool:
    return isinstance(value, float) and math.isnan(value)


def test_undefined_metrics_are_none_everywhere(cache: Path, mirror: Path) -> None:
    """All non-hateful rows, all predicted non-hateful: F1 of hateful and the fairness
    ratios are undefined (0/0); README.md promises None, not NaN."""
    labels = _rows(cache)["label"]
    start = list(labels).index(0)
    end = start
    while end < len(labels) and labels[end] == 0:
        end += 1
    split = f"{CONFIG.eval_split}[{start}:{end}]"
    rows = _rows(cache, split)
    report = score(
        NAME,
        dict.fromkeys(range(end - start) if ID == "index" else rows[ID], 0),
        split=split,
        cache_dir=str(cache),
        mirror=str(mirror),
    )
    assert report.overall["f1_hateful"] is None and report.overall["accuracy"] == 1.0
    cells = [
        value for table in report.tables.values() for row in table.rows for value in row.values()
    ]
    assert not any(_nans(value) for value in [*report.overall.values(), *cells])
    for declared in CONFIG.scoring.breakdowns if CONFIG.scoring else ():
        if isinstance(declared, Fairness):  # every group's selection rate is 0
            assert report.table(declared.name).rows[0]["demographic_parity_ratio"] is None
    assert json.loads(report.to_json())["overall"]["f1_hateful"] is None


def test_missing_extras_are_all_named_before_any_work(
    tmp_path: Path, cache: Path, mirror: Path, capsys, monkeypatch
) -> None:
    for module in ("sklearn", "sklearn.metrics", "fairlearn", "fairlearn.metrics"):
        monkeypatch.setitem(sys.modules, module, None)  # import fails, as when not installed
    for module in ("matplotlib", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, module, None)

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("data was loaded before the extras were checked")

    monkeypatch.setattr(api, "load_dataset", no_work)
    path = tmp_path / "model.csv"
    path.write_text(f"{ID},prediction\n1,1\n", encoding="utf-8")
    code, out, err = _score(path, cache, mirror, capsys, "--plot", str(tmp_path / "p.png"))
    line = one_error_line(err)
    assert code == 1 and out == ""
    assert "scikit-learn, fairlearn and matplotlib are missing" in line
    assert "pip install 'hatemoji-datasets[evaluate,plot]'" in line
    monkeypatch.delitem(sys.modules, "matplotlib")
    monkeypatch.delitem(sys.modules, "matplotlib.pyplot")
    code, out, err = _score(path, cache, mirror, capsys)
    assert "scikit-learn and fairlearn are missing" in one_error_line(err)
    with pytest.raises(OptionalDependencyError, match="scikit-learn and fairlearn"):
        score(NAME, {1: 1}, cache_dir=str(cache))
