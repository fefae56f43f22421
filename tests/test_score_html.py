"""``score --html``: the self-contained page, rendered by a real browser (Debian's chromium,
headless; ``.ci/run`` installs it, and without it these tests skip, saying so).

The browser loads the page from a file with the network cut off; the test finds no
console message, reads the rendered DOM (``--dump-dom``) and holds every figure in it
to the JSON report of the same run, and keeps screenshots at 1280 px and at a phone's
width under the test's tmp path. No DevTools protocol: chromium's command line only.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from support.cli import run_cli
from test_score_report import CELLS, CONFIG, NAME, SCORING, _models, _opts

pytest.importorskip("sklearn")
pytest.importorskip("matplotlib")

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
NEEDS_BROWSER = pytest.mark.skipif(
    BROWSER is None,
    reason="no chromium on PATH (Debian: apt-get install -y chromium; .ci/run installs it)",
)
EXAMPLES = 2


def _chromium(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Headless chromium on ``page`` with no network, a new profile and the console on
    standard error."""
    assert BROWSER is not None
    profile.mkdir(exist_ok=True)
    command = [
        BROWSER,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--proxy-server=127.0.0.1:9",  # nothing may be fetched: any request fails
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        *args,
        page.as_uri(),
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def _console(stderr: str) -> list[str]:
    """The page's console messages and uncaught errors chromium logged."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


class _Figures(HTMLParser):
    """Every table cell of the page with where it stands, and the SVG's text."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[dict[str, Any]] = []
        self.svg_text: list[str] = []
        self.facts: dict[str, str] = {}
        self._table: dict[str, str] = {}
        self._row: int | None = None
        self._cell: dict[str, Any] | None = None
        self._in_svg_text = False
        self._fact: str | None = None
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found))
        if tag == "table":
            self._table = {k: v or "" for k, v in found.items() if k.startswith("data-")}
        elif tag == "tr" and "data-row" in found:
            self._row = int(found["data-row"] or 0)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = {"table": dict(self._table), "row": self._row, "text": "", **found}
        elif tag == "text":
            self._in_svg_text = True
            self.svg_text.append("")
        elif tag == "dd" and "data-fact" in found:
            self._fact = found["data-fact"]
            self.facts[self._fact or ""] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self._cell["text"] = self._cell["text"].strip()
            self.cells.append(self._cell)
            self._cell = None
        elif tag == "tbody":
            self._row = None
        elif tag == "text":
            self._in_svg_text = False
        elif tag == "dd":
            self._fact = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell["text"] += data
        if self._in_svg_text:
            self.svg_text[-1] += data
        if self._fact is not None:
            self.facts[self._fact] += data


def _shown(value: Any, metric: str) -> str:
    """A JSON value as the page must show it."""
    if value is None:
        return "n/a"
    if metric == "accuracy_interval":
        return f"[{value[0]:.3f}, {value[1]:.3f}]"
    if isinstance(value, bool | str):
        return str(value)
    if isinstance(value, int):
        return str(value) if metric == "id" else f"{value:,}"
    return f"{value:.3f}"


def _p_shown(test: dict) -> str:
    p = test["p_holm"]
    return ("<0.001" if p < 0.001 else f"{p:.3f}") + (" *" if test["significant"] else "")


def _expected(cell: dict[str, Any], document: dict) -> str | None:
    """What the JSON report says a cell of the page shows (None: a label, not a figure)."""
    metric, model = cell.get("data-metric"), cell.get("data-model")
    table = cell["table"]
    models, paired = document["models"], document.get("paired")
    if "data-failing" in table:
        name, shown = table["data-failing"], cell
        return _failing_value(document, name, shown)
    name = table.get("data-table")
    if name == "overall":
        if metric is None:
            return None
        if metric == "p_holm":
            tests = paired["models"]
            return _p_shown(tests[model]["overall"]) if model in tests else "–"
        if metric == "accuracy_interval":
            return _shown(models[model]["overall_interval"]["accuracy"], metric)
        return _shown(models[model]["overall"].get(metric), metric)  # absent: n/a
    first = next(iter(models.values()))
    row = first["tables"][name]["rows"][cell["row"]]
    if model is None:  # a key or a fact of the data, once for every model
        return str(row[metric]) if isinstance(row[metric], str) else _shown(row[metric], metric)
    if metric == "p_holm":
        return _p_shown(paired["models"][model]["tables"][name][cell["row"]])
    return _shown(models[model]["tables"][name]["rows"][cell["row"]][metric], metric)


def _failing_value(document: dict, name: str, cell: dict[str, Any]) -> str | None:
    metric, model = cell.get("data-metric"), cell.get("data-model")
    if metric is None:
        return None
    cases = []
    first = next(iter(document["models"].values()))
    for i in range(len(first["tables"][name]["rows"])):
        for label, report in document["models"].items():
            cases += [(label, case) for case in report["tables"][name]["rows"][i]["failing"]]
    label, case = cases[cell["row"]]
    assert label == model
    return _shown(case[metric], metric) if metric == "score" else str(case[metric])


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


@NEEDS_BROWSER
def test_the_page_renders_offline_with_the_json_reports_figures(where, tmp_path: Path) -> None:
    paths = _models(where, tmp_path)
    page = tmp_path / "report.html"
    files = [str(paths["random"]), str(paths["flipped"])]
    result = run_cli("score", NAME, "--config", CONFIG, "--predictions", *files, "--stats",
                     "--examples", str(EXAMPLES), "--html", str(page), "--format", "json",
                     *_opts(where))  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    html = page.read_text(encoding="utf-8")

    # Self-contained: nothing to fetch, no script at all.
    assert not re.search(r"<script|<link|<iframe|<img|@import|url\((?!#)", html, re.I)
    assert not re.search(r"\s(?:src|href)\s*=\s*[\"'](?!#)", html, re.I)

    shown = _chromium(page, tmp_path / "profile", "--dump-dom", "--window-size=1280,2000")
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert _console(shown.stderr) == []
    dom = _Figures()
    dom.feed(shown.stdout)

    # Provenance, as the JSON report names it.
    for fact in ("dataset", "config", "split", "version", "fingerprint"):
        assert dom.facts[fact].strip() == document[fact], fact
    assert dom.facts["package"].strip() == f"hatemoji-datasets {document['package_version']}"

    # Every cell of every table is the JSON's figure (or a label), and each was checked.
    checked = 0
    for cell in dom.cells:
        expected = _expected(cell, document)
        if expected is None:
            assert cell.get("scope") == "row" or "data-failing" in cell["table"], cell
            continue
        assert cell["text"] == expected, cell
        checked += 1
    tables = document["models"]["random"]["tables"]
    rows = sum(len(t["rows"]) for t in tables.values())
    assert checked > 4 * rows  # keys, n, two accuracies, intervals, tests
    # each cell's n and interval, one column per model, the McNemar test of the second
    header = " ".join(c["text"] for c in dom.cells if c["table"].get("data-table") == CELLS)
    assert "[" in header
    assert (
        sum(1 for c in dom.cells if c.get("data-metric") == "accuracy_interval")
        == 2 * len(tables[CELLS]["rows"])
        + 2
        * sum(
            len(t["rows"])
            for n, t in tables.items()
            if n != CELLS and "accuracy_interval" in t["rows"][0]
        )
        + 2
    )
    # the failing cases, behind a content warning the reader opens
    failing = [c for c in dom.cells if "data-failing" in c["table"]]
    assert failing and "<details><summary>Content warning" in html
    assert html.count("<details>") == sum(1 for t in tables.values() if "failing" in t["rows"][0])

    # The heatmap's values are the JSON's, in its rows x models order.
    table, metric = SCORING.plot
    values = [
        document["models"][model]["tables"][table]["rows"][i][metric]
        for i in range(len(tables[table]["rows"]))
        for model in document["models"]
    ]
    drawn = [t for t in dom.svg_text if re.fullmatch(r"\d\.\d\d|n/a", t)]
    assert drawn == ["n/a" if v is None else f"{v:.2f}" for v in values]


@NEEDS_BROWSER
@pytest.mark.parametrize(("width", "height"), [(1280, 2400), (390, 1600)])
def test_the_page_is_readable_wide_and_narrow(where, tmp_path: Path, width, height) -> None:
    """A screenshot is kept; the page itself never scrolls sideways (wide tables scroll in
    their own box), measured by a copy of the page that reports its widths."""
    paths = _models(where, tmp_path)
    page = tmp_path / "report.html"
    result = run_cli("score", NAME, "--config", CONFIG, "--predictions", str(paths["random"]),
                     "--examples", "1", "--html", str(page), "--format", "json",
                     *_opts(where))  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    screenshot = tmp_path / f"report-{width}.png"
    taken = _chromium(
        page, tmp_path / "profile", f"--screenshot={screenshot}", f"--window-size={width},{height}"
    )
    assert taken.returncode == 0 and _console(taken.stderr) == [], taken.stderr[-2000:]
    assert _png_size(screenshot) == (width, height)
    probe = tmp_path / "probe.html"
    script = (
        "<script>addEventListener('load', () => { const e = document.documentElement;"
        " document.body.dataset.widths = e.scrollWidth + ' ' + innerWidth; });</script>"
    )
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", script + "</body>"))
    measured = _chromium(
        probe, tmp_path / "profile", "--dump-dom", f"--window-size={width},{height}"
    )
    found = re.search(r'data-widths="(\d+) (\d+)"', measured.stdout)
    assert found, measured.stdout[:500]
    scroll, inner = map(int, found.groups())
    assert scroll <= inner, f"the page is {scroll} px wide in a {inner} px window"
    assert _console(measured.stderr) == []
    # the failing cases stay folded until the reader opens them
    html = page.read_text(encoding="utf-8")
    assert "<details>" in html and "<details open" not in html
    # a single model's page carries the declared matrix, its cells the table's figures
    dom = _Figures()
    dom.feed(measured.stdout)
    matrix = SCORING.matrix
    rows = document["models"]["random"]["tables"][matrix.table]["rows"]
    values = {(row[matrix.rows], row[matrix.columns]): row[matrix.metric] for row in rows}
    order = list(dict.fromkeys(row[matrix.rows] for row in rows))
    cells = [c for c in dom.cells if "data-matrix" in c["table"] and c.get("data-metric")]
    assert len(cells) == len(order) * len({row[matrix.columns] for row in rows})
    for cell in cells:
        value = values.get((order[cell["row"]], cell["data-metric"]))
        assert cell["text"] == _shown(value, matrix.metric), cell
