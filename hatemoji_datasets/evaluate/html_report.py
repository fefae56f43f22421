"""A score report as one self-contained HTML page: for a reviewer, or as a CI artefact.

Nothing is fetched when the page opens: the style is inline, the heatmap is an
inline SVG (:func:`~hatemoji_datasets.evaluate.plot.heatmap_svg`), and there is
no script. The page names the data scored (dataset, config, split, version,
fingerprint, lockfile) and the package version; holds every table of the
report, one column per model, each accuracy with its 95% Wilson interval (and,
with several models, the McNemar tests against the baseline); and the failing
cases of each table behind a content warning the reader opens. Every figure's
cell says what it shows (``data-model``, ``data-metric``, its row's ``data-row``
in its table's ``data-table``), so a test can hold the page to the JSON report.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from hatemoji_datasets.evaluate.paired import CORRECTION, METHOD, PairedTests
from hatemoji_datasets.evaluate.plot import heatmap_svg
from hatemoji_datasets.evaluate.render import (
    CONTENT_WARNING,
    Cell,
    Grid,
    failing_grid,
    matrix_grid,
    overall_grid,
    same_split,
    table_grid,
)
from hatemoji_datasets.evaluate.report import ScoreReport

#: Readable at 1280 px and on a phone: wide tables scroll inside their box, never the page.
STYLE = """
:root { color-scheme: light; --line: #d0d4da; --muted: #555; --mark: #fff3bf; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: #1a1a1a; background: #fff; }
main { max-width: 1240px; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.45rem; margin: 0.5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 2rem 0 0.5rem; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr);
           gap: 0.2rem 1rem; margin: 0 0 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
.warning { border-left: 4px solid #c92a2a; background: #fff5f5; padding: 0.5rem 0.75rem; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.25rem 0 0.75rem; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: 0.25rem 0.6rem; vertical-align: top; }
thead th { position: sticky; top: 0; background: #f4f5f7; text-align: left; }
tbody th { text-align: left; font-weight: 600; white-space: nowrap; }
td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.significant { background: var(--mark); font-weight: 600; }
td.text { min-width: 16rem; max-width: 40rem; overflow-wrap: anywhere; }
figure { margin: 0; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; }
details { margin: 0.5rem 0 1rem; }
summary { cursor: pointer; font-weight: 600; }
ul.notes { color: var(--muted); }
@media (max-width: 640px) {
  body { font-size: 14px; }
  main { padding: 0.5rem; }
  th, td { padding: 0.2rem 0.35rem; }
  td.text { min-width: 12rem; }
}
"""


def _cell(cell: Cell, kind: str, row_header: bool) -> str:
    attributes = ""
    if cell.model is not None:
        attributes += f' data-model="{escape(cell.model)}"'
    if cell.metric is not None:
        attributes += f' data-metric="{escape(cell.metric)}"'
    if row_header:
        return f'<th scope="row"{attributes}>{escape(cell.text)}</th>'
    if cell.text.endswith(" *"):
        kind += " significant"
    return f'<td class="{kind}"{attributes}>{escape(cell.text)}</td>'


def html_table(grid: Grid, kind: str = "table") -> str:
    """A grid as a table with column headers and its first cell a row header."""
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in grid.header)
    kinds = [
        "text" if h == "text" else "key" if j < grid.numeric_from or h in grid.text else "number"
        for j, h in enumerate(grid.header)
    ]
    body = []
    for i, row in enumerate(grid.rows):
        cells = "".join(
            _cell(cell, kinds[j], j == 0 and kind != "failing") for j, cell in enumerate(row)
        )
        body.append(f'<tr data-row="{i}">{cells}</tr>')
    return (
        f'<div class="scroll"><table data-{kind}="{escape(grid.name)}">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def _facts(first: ScoreReport, models: list[str]) -> str:
    facts = [
        ("dataset", first.dataset),
        ("config", first.config),
        ("split", first.split),
        ("version", first.version),
        ("fingerprint", first.fingerprint),
        ("rows scored", f"{first.n:,} (by {first.id_column})"),
        ("models", ", ".join(models)),
        ("package", f"hatemoji-datasets {first.package_version}"),
    ]
    if first.lock is not None:
        locked = f"{first.lock.path} ({first.lock.reference}), fingerprints checked"
        facts.append(("lockfile", locked))
    items = "".join(
        f'<dt>{escape(k)}</dt><dd data-fact="{escape(k)}"><code>{escape(v)}</code></dd>'
        if k in ("fingerprint", "lockfile")
        else f'<dt>{escape(k)}</dt><dd data-fact="{escape(k)}">{escape(v)}</dd>'
        for k, v in facts
    )
    return f'<dl class="facts">{items}</dl>'


def render_html(reports: Mapping[str, ScoreReport], *, paired: PairedTests | None = None) -> str:
    """The page: provenance, the overall table, the heatmap, every table with its failing
    cases, and how the intervals and tests were computed."""
    first = same_split(reports)
    models = list(reports)
    title = f"{first.dataset} ({first.config}), split {first.split}, version {first.version}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Score report: {escape(title)}</title>",
        f"<style>{STYLE}</style></head><body><main>",
        f"<h1>Score report: {escape(title)}</h1>",
        _facts(first, models),
        f'<p class="warning">{escape(CONTENT_WARNING)} They are hidden below each table until '
        "you open them.</p>",
        '<section><h2 id="overall">Overall</h2>',
        html_table(overall_grid(reports, stats=True, paired=paired)),
        "</section>",
        '<section><h2 id="heatmap">Heatmap</h2>',
        f'<figure aria-label="heatmap">{heatmap_svg(reports)}</figure></section>',
    ]
    for name, table in first.tables.items():
        parts += [f'<section><h2 id="{escape(name)}">{escape(table.title)}</h2>']
        parts.append(html_table(table_grid(reports, name, stats=True, paired=paired)))
        if first.matrix is not None and name == first.matrix.table and len(models) == 1:
            grid = matrix_grid(first)
            parts += [f"<p>{escape(grid.title)}</p>", html_table(grid, "matrix")]
        failing = failing_grid(reports, name)
        if failing is not None:
            parts.append(
                "<details><summary>Content warning: hateful or offensive text. Show "
                f"{len(failing.rows):,} failing cases (up to {first.examples} per cell and "
                "model, in id order)</summary>"
                f"{html_table(failing, 'failing')}</details>"
            )
        parts.append("</section>")
    notes = [*first.notes, "Intervals: 95% Wilson score intervals of each accuracy."]
    if paired is not None:
        notes.append(f"Tests: {METHOD} ({paired.baseline}); {CORRECTION}.")
    parts += [
        '<section><h2 id="notes">Notes</h2><ul class="notes">',
        *(f"<li>{escape(note)}</li>" for note in notes),
        "</ul></section></main></body></html>",
    ]
    return "\n".join(parts) + "\n"
