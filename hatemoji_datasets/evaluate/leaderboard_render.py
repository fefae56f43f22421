"""A leaderboard as markdown, LaTeX (booktabs) and a self-contained HTML page.

Each shows one row per model (and setting) and, per column, each metric's mean over
the runs, ``± standard deviation`` where there are several, and the number of runs
where a column has cells of more than one; below the table, what each column was
scored against: dataset, config, split, version, fingerprint and rows. A leaderboard
holds scores and no text of any dataset, so the page needs no content warning.
"""

from __future__ import annotations

import html as html_escaping
from typing import Any

from hatemoji_datasets.core.findings import markdown_text
from hatemoji_datasets.evaluate.latex import escape as latex_text

# The report (evaluate.leaderboard_report) calls these functions; this module imports
# nothing of it, so the report's types are named here only as ``Any``.
LeaderboardReport = BoardColumn = BoardCell = Any

#: Each metric as a table heads it.
METRIC_NAMES = {"accuracy": "accuracy", "f1_hateful": "F1 hateful", "f1_macro": "macro F1"}
#: Decimals of every score, as in the score report.
DECIMALS = 3
RUNS = "runs"


def _value(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.{DECIMALS}f}"


def cell_text(cell: BoardCell | None, metric: str, plus_minus: str = "±") -> str:
    """``0.830 ± 0.021`` (several runs), ``0.830`` (one), ``""`` (no run)."""
    if cell is None:
        return ""
    std = cell.std[metric]
    mean = _value(cell.mean[metric])
    return mean if std is None else f"{mean} {plus_minus} {std:.{DECIMALS}f}"


def _with_runs(report: LeaderboardReport, column: BoardColumn) -> bool:
    return any(r.cells[column.heading].runs > 1 for r in report.rows if column.heading in r.cells)


def _parts(report: LeaderboardReport, column: BoardColumn) -> list[str]:
    """The sub-columns of one column: its metrics, then ``runs`` where runs were grouped."""
    return [*report.metrics, *([RUNS] if _with_runs(report, column) else [])]


def _text(report: LeaderboardReport, column: BoardColumn, row, part: str, pm: str = "±") -> str:
    cell = row.cells.get(column.heading)
    if part == RUNS:
        return "" if cell is None else f"{cell.runs:,}"
    return cell_text(cell, part, pm)


def _keys(report: LeaderboardReport) -> list[str]:
    return ["model", *report.settings]


def _key_values(report: LeaderboardReport, row) -> list[str]:
    return [row.model, *(dict(row.setting).get(s, "") for s in report.settings)]


def _provenance(report: LeaderboardReport) -> list[str]:
    lines = [
        f"{c.heading}: {c.dataset}/{c.config} split {c.split} ({c.n:,} rows), version "
        f"{c.version}, fingerprint {c.fingerprint}"
        for c in report.columns
    ]
    source = f"the lockfile {report.lock}" if report.lock else "the references given (no lockfile)"
    return [*lines, f"Versions from {source}; hatemoji-datasets {report.package_version}."]


def _caption(report: LeaderboardReport) -> str:
    grouped = any(cell.runs > 1 for row in report.rows for cell in row.cells.values())
    spread = "; mean ± sample standard deviation over seeds" if grouped else ""
    return f"{len(report.runs):,} run(s){spread}"


def markdown(report: LeaderboardReport) -> str:
    header, align = list(_keys(report)), ["---"] * len(_keys(report))
    for column in report.columns:
        for part in _parts(report, column):
            header.append(f"{column.heading} {METRIC_NAMES.get(part, part)}")
            align.append("---:")
    lines = [f"## {report.title}", "", f"{_caption(report)}.", ""]
    lines.append("| " + " | ".join(markdown_text(h) for h in header) + " |")
    lines.append("| " + " | ".join(align) + " |")
    for row in report.rows:
        cells = _key_values(report, row)
        for column in report.columns:
            cells += [_text(report, column, row, part) for part in _parts(report, column)]
        lines.append("| " + " | ".join(markdown_text(c) for c in cells) + " |")
    lines += ["", *(f"- {line}" for line in _provenance(report)), ""]
    return "\n".join(lines)


def latex(report: LeaderboardReport) -> str:
    """A booktabs ``table``: one header row of columns (``\\cmidrule`` under each), one of
    metrics; needs ``\\usepackage{booktabs}``."""
    keys = _keys(report)
    parts = [(column, _parts(report, column)) for column in report.columns]
    spec = "l" * len(keys) + "".join("r" * len(p) for _, p in parts)
    top, rules, at = ["" for _ in keys], [], len(keys) + 1
    for column, sub in parts:
        top.append(rf"\multicolumn{{{len(sub)}}}{{c}}{{{latex_text(column.heading)}}}")
        rules.append(rf"\cmidrule(lr){{{at}-{at + len(sub) - 1}}}")
        at += len(sub)
    second = [latex_text(k) for k in keys] + [
        latex_text(METRIC_NAMES.get(part, part)) for _, sub in parts for part in sub
    ]
    lines = [
        r"\begin{table}",
        r"\centering",
        rf"\caption{{{latex_text(report.title)}: {latex_text(_caption(report))}}}",
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(top) + r" \\",
        " ".join(rules),
        " & ".join(second) + r" \\",
        r"\midrule",
    ]
    for row in report.rows:
        cells = [latex_text(v) for v in _key_values(report, row)]
        for column, sub in parts:
            for part in sub:
                text = _text(report, column, row, part, pm=r"$\pm$")
                cells.append(text)
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    lines += [f"% {line}" for line in _provenance(report)]
    return "\n".join(lines) + "\n"


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1b1b1b; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
caption { text-align: left; margin-bottom: .5rem; color: #444; }
th, td { padding: .3rem .6rem; border-bottom: 1px solid #ddd; white-space: nowrap; }
thead th { border-bottom: 2px solid #888; }
td.num { text-align: right; }
th[scope=row] { text-align: left; font-weight: normal; }
dl { font-size: .9rem; } dt { font-weight: bold; margin-top: .4rem; }
dd { margin-left: 1rem; overflow-wrap: anywhere; }
"""


def html(report: LeaderboardReport) -> str:
    """One page that opens offline: inline style, no script, no link to anywhere else."""

    def esc(text: object) -> str:
        return html_escaping.escape(str(text), quote=True)

    keys = _keys(report)
    parts = [(column, _parts(report, column)) for column in report.columns]
    head_top = "".join(f'<th scope="col" rowspan="2">{esc(k)}</th>' for k in keys)
    head_top += "".join(
        f'<th scope="colgroup" colspan="{len(sub)}">{esc(c.heading)}</th>' for c, sub in parts
    )
    head_second = "".join(
        f'<th scope="col">{esc(METRIC_NAMES.get(p, p))}</th>' for _, sub in parts for p in sub
    )
    body = []
    for row in report.rows:
        values = _key_values(report, row)
        cells = f'<th scope="row">{esc(values[0])}</th>' + "".join(
            f"<td>{esc(v)}</td>" for v in values[1:]
        )
        cells += "".join(
            f'<td class="num">{esc(_text(report, c, row, p))}</td>' for c, sub in parts for p in sub
        )
        body.append(f"<tr>{cells}</tr>")
    provenance = "".join(
        f"<dt>{esc(c.heading)}</dt><dd>{esc(c.dataset)}/{esc(c.config)}, split {esc(c.split)} "
        f"({c.n:,} rows), version {esc(c.version)}, fingerprint <code>{esc(c.fingerprint)}"
        "</code></dd>"
        for c in report.columns
    )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{esc(report.title)}</title>",
            f"<style>{_STYLE}</style>",
            "</head>",
            "<body>",
            f"<h1>{esc(report.title)}</h1>",
            "<p>Scores only: this page holds no text of any dataset.</p>",
            '<div class="scroll"><table>',
            f"<caption>{esc(_caption(report))}</caption>",
            f"<thead><tr>{head_top}</tr><tr>{head_second}</tr></thead>",
            "<tbody>",
            *body,
            "</tbody></table></div>",
            "<h2>What each column was scored against</h2>",
            f"<dl>{provenance}</dl>",
            f"<p>{esc(_provenance(report)[-1])}</p>",
            "</body>",
            "</html>",
            "",
        ]
    )
