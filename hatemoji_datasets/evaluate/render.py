"""Score reports of one or several models side by side: markdown, JSON and CSV.

Every function takes ``{model name: Report}``; all reports must score the same
dataset split. Data columns (``n``, gold ``label``) are shown once, metric
columns once per model.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.findings import markdown_text
from hatemoji_datasets.evaluate.paired import CORRECTION, METHOD, PairedTest, PairedTests
from hatemoji_datasets.evaluate.report import ACCURACY, ScoreReport, Table, plain


def same_split(reports: Mapping[str, ScoreReport]) -> ScoreReport:
    if not reports:
        raise HatemojiDatasetsError("no reports to render")
    first = next(iter(reports.values()))
    for name, report in reports.items():
        if (report.dataset, report.config, report.split) != (
            first.dataset,
            first.config,
            first.split,
        ):
            raise HatemojiDatasetsError(
                f"model {name!r} was scored on {report.dataset}/{report.config}/{report.split}, "
                f"not {first.dataset}/{first.config}/{first.split}"
            )
    return first


def _format(value: Any) -> str:
    value = plain(value)
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"  # counts grouped, as beside them ("36,582 rows")
    return str(value)


def _metric_columns(table: Table, models: list[str]) -> list[tuple[str, str, str]]:
    """(header, model, metric) for each metric column."""
    if len(models) == 1:
        return [(metric, models[0], metric) for metric in table.metrics]
    if len(table.metrics) == 1:
        return [(model, model, table.metrics[0]) for model in models]
    return [(f"{metric} ({model})", model, metric) for metric in table.metrics for model in models]


@dataclass(frozen=True)
class Cell:
    """One cell of a rendered table: its text, and what it shows (the model, or None for
    a key or a fact of the data; the metric or column name; the value as JSON has it)."""

    text: str
    model: str | None = None
    metric: str | None = None
    value: Any = None


@dataclass(frozen=True)
class Grid:
    """A table as every format shows it: headers, rows of cells, and which columns are
    text (left-aligned): the first ``numeric_from`` and any header in ``text``."""

    name: str
    title: str
    header: list[str]
    rows: list[list[Cell]]
    numeric_from: int
    text: tuple[str, ...] = ()


def interval_text(interval: Any) -> str:
    return "n/a" if interval is None else f"[{interval[0]:.3f}, {interval[1]:.3f}]"


def p_text(test: PairedTest | None) -> str:
    if test is None:
        return "n/a"
    shown = "<0.001" if test.p_holm < 0.001 else f"{test.p_holm:.3f}"
    return shown + (" *" if test.significant else "")


def _interval_header(header: str, metric_only: bool) -> str:
    """The header of the interval column beside a metric column's ``header``."""
    if metric_only:
        return "95% CI"
    if header.startswith(ACCURACY + " ("):
        return "95% CI" + header[len(ACCURACY) :]
    return f"{header} 95% CI"


def overall_grid(
    reports: Mapping[str, ScoreReport], *, stats: bool = False, paired: PairedTests | None = None
) -> Grid:
    """The overall metrics, one row per metric and one column per model."""
    first = same_split(reports)
    models = list(reports)
    metrics = [m for m in first.overall if m != "n"]
    for report in reports.values():
        metrics += [m for m in report.overall if m not in metrics and m != "n"]
    rows = []
    for metric in metrics:
        rows.append([Cell(metric)])
        for model, report in reports.items():
            value = plain(report.overall.get(metric))
            rows[-1].append(Cell(_format(value), model, metric, value))
        if stats and metric == ACCURACY:
            rows.append([Cell("accuracy 95% CI")])
            for model, report in reports.items():
                interval = report.overall_interval()
                rows[-1].append(Cell(interval_text(interval), model, "accuracy_interval", interval))
    if paired is not None:
        rows.append([Cell(f"McNemar p vs {paired.baseline}")])
        for model in models:
            test = paired.overall.get(model)
            value = None if test is None else test.p_holm
            rows[-1].append(Cell("–" if test is None else p_text(test), model, "p_holm", value))
    return Grid("overall", "Overall", ["metric", *models], rows, numeric_from=1)


def table_grid(
    reports: Mapping[str, ScoreReport],
    name: str,
    *,
    stats: bool = False,
    paired: PairedTests | None = None,
) -> Grid:
    """One table of the paper's layout: keys, facts of the data, then each metric per model
    (with ``stats``: each accuracy's 95% interval beside it, and the McNemar p-value of each
    model against the baseline)."""
    first = same_split(reports)
    table = first.tables[name]
    models = list(reports)
    columns = _metric_columns(table, models)
    intervals = stats and table.has_cells
    tests = [] if paired is None or not table.has_cells else list(paired.cells)
    header = [*table.keys, *table.info]
    for heading, _, metric in columns:
        header.append(heading)
        if intervals and metric == ACCURACY:
            header.append(_interval_header(heading, len(models) == 1))
    header += [f"p vs {paired.baseline} ({model})" for model in tests] if paired else []
    rows = []
    for i, row in enumerate(table.rows):
        cells = [Cell(str(row[k]), None, k, plain(row[k])) for k in table.keys]
        cells += [Cell(_format(row[k]), None, k, plain(row[k])) for k in table.info]
        for _, model, metric in columns:
            # .get: a metric one model has and another not (unparsed replies) is n/a there.
            value = plain(reports[model].tables[name].rows[i].get(metric))
            cells.append(Cell(_format(value), model, metric, value))
            if intervals and metric == ACCURACY:
                interval = reports[model].interval(name, i)
                cells.append(Cell(interval_text(interval), model, "accuracy_interval", interval))
        for model in tests:
            test = paired.cell(model, name, i) if paired else None
            value = None if test is None else test.p_holm
            cells.append(Cell(p_text(test), model, "p_holm", value))
        rows.append(cells)
    # the gold-label key column is text
    return Grid(name, table.title, header, rows, numeric_from=len(table.keys), text=("label",))


def matrix_grid(report: ScoreReport) -> Grid:
    """The declared matrix of one model's report."""
    declared = report.matrix
    assert declared is not None
    matrix = report.accuracy_matrix()
    rows = [
        [Cell(declared.row_label.format(position=i + 1, name=index))]
        + [Cell(_format(v), None, str(column), plain(v)) for column, v in values.items()]
        for i, (index, values) in enumerate(matrix.iterrows())
    ]
    what = declared.metric.replace("_", " ").capitalize()
    title = f"{what} matrix ({declared.rows} x {declared.columns})"
    return Grid("matrix", title, [declared.rows, *map(str, matrix.columns)], rows, numeric_from=1)


FAILING_HEADER = ["cell", "model", "id", "text", "gold", "prediction", "score"]
CONTENT_WARNING = (
    "Content warning: failing cases quote the dataset's texts, which are hateful or "
    "offensive by design."
)


#: The fields of a failing case, as :meth:`ScoreReport.failing` gives them.
CASE_KEYS = FAILING_HEADER[2:]


def _case_text(key: str, value: Any) -> str:
    """A failing case's field: its score as a float of the report, anything else as it is
    (an id is never grouped by thousands)."""
    return _format(value) if key == "score" else str(value)


def failing_grid(reports: Mapping[str, ScoreReport], name: str) -> Grid | None:
    """Up to ``examples`` wrong predictions per cell of a table and model, in id order."""
    first = same_split(reports)
    table = first.tables[name]
    if not first.examples or not table.members:
        return None
    rows = []
    for i, row in enumerate(table.rows):
        for model, report in reports.items():
            for case in report.failing(name, i):
                rows.append(
                    [Cell(table.row_name(row)), Cell(model)]
                    + [Cell(_case_text(key, case[key]), model, key, case[key]) for key in CASE_KEYS]
                )
    title = f"Failing cases: {table.title} (up to {first.examples} per cell and model, id order)"
    return Grid(name, title, FAILING_HEADER, rows, numeric_from=len(FAILING_HEADER))


def markdown_grid(grid: Grid) -> list[str]:
    rows = [[cell.text for cell in row] for row in grid.rows]
    return _markdown_table(grid.header, rows, grid.numeric_from, grid.text)


def _markdown_table(
    header: list[str], rows: list[list[str]], numeric_from: int, text: tuple[str, ...] = ()
) -> list[str]:
    align = ["---" if i < numeric_from or h in text else "---:" for i, h in enumerate(header)]
    lines = ["| " + " | ".join(map(markdown_text, header)) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(markdown_text(str(cell)) for cell in row) + " |" for row in rows]
    return lines


def provenance(report: ScoreReport) -> str:
    """The data scored, named exactly: fingerprint, lockfile, package version."""
    line = f"Data fingerprint `{report.fingerprint}`; hatemoji-datasets {report.package_version}."
    if report.lock is not None:
        line += (
            f" Scored against lockfile `{report.lock.path}` ({report.lock.reference}): every "
            "split's fingerprint checked."
        )
    return line


def render_markdown(
    reports: Mapping[str, ScoreReport], *, stats: bool = False, paired: PairedTests | None = None
) -> str:
    first = same_split(reports)
    models = list(reports)
    lines = [
        f"## {first.dataset} ({first.config}), split {first.split}, version {first.version}",
        "",
        f"{first.n:,} rows scored by `{first.id_column}`.",
        provenance(first),
        "",
    ]
    lines += markdown_grid(overall_grid(reports, stats=stats, paired=paired))
    for name in first.tables:
        lines += ["", f"### {first.tables[name].title}", ""]
        lines += markdown_grid(table_grid(reports, name, stats=stats, paired=paired))
        declared = first.matrix
        if declared is not None and name == declared.table and len(models) == 1:
            grid = matrix_grid(first)
            lines += ["", f"{grid.title}:", "", *markdown_grid(grid)]
        failing = failing_grid(reports, name)
        if failing is not None and failing.rows:
            lines += ["", f"#### {failing.title}", "", CONTENT_WARNING, "", *markdown_grid(failing)]
    if first.notes:
        lines += ["", *(f"- {note}" for note in first.notes)]
    lines += statistics_notes(stats, paired)
    return "\n".join(lines) + "\n"


def statistics_notes(stats: bool, paired: PairedTests | None) -> list[str]:
    """How the intervals and tests were computed, as a markdown list (empty without)."""
    notes = []
    if stats:
        notes.append("Intervals: 95% Wilson score intervals of each accuracy.")
    if paired is not None:
        notes.append(f"Tests: {METHOD} ({paired.baseline}); {CORRECTION}.")
    return ["", *(f"- {note}" for note in notes)] if notes else []


def render_json(
    reports: Mapping[str, ScoreReport], *, stats: bool = False, paired: PairedTests | None = None
) -> str:
    first = same_split(reports)
    document: dict[str, Any] = {
        "dataset": first.dataset,
        "config": first.config,
        "split": first.split,
        "version": first.version,
        "fingerprint": first.fingerprint,
        "package_version": first.package_version,
        "models": {name: report.to_dict(stats=stats) for name, report in reports.items()},
    }
    if first.lock is not None:
        document["lock"] = first.lock.to_dict()
    if paired is not None:
        document["paired"] = paired.to_dict()
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def render_csv(
    reports: Mapping[str, ScoreReport], *, stats: bool = False, paired: PairedTests | None = None
) -> str:
    """Long format: ``table, row, metric`` then one column per model. ``stats`` adds rows
    ``accuracy_low`` and ``accuracy_high`` (and with ``paired`` the McNemar counts and
    p-values); a report with ``examples`` adds ``wrong`` and ``failing_K_FIELD`` rows."""
    first = same_split(reports)
    models = list(reports)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["table", "row", "metric", *models])
    for metric in first.overall:
        writer.writerow(
            ["overall", "", metric, *(_csv(r.overall.get(metric)) for r in reports.values())]
        )
    if stats:
        _csv_statistics(writer, "overall", "", [r.overall_interval() for r in reports.values()])
    if paired is not None:
        _csv_tests(writer, "overall", "", [paired.overall.get(m) for m in models])
    for name, table in first.tables.items():
        for i, row in enumerate(table.rows):
            where = [name, table.row_name(row)]
            for column in (*table.info, *table.metrics):
                values = [reports[m].tables[name].rows[i].get(column) for m in models]
                writer.writerow([*where, column, *map(_csv, values)])
            if stats and table.has_cells:
                _csv_statistics(writer, *where, [r.interval(name, i) for r in reports.values()])
            if paired is not None and table.has_cells:
                _csv_tests(writer, *where, [paired.cell(m, name, i) for m in models])
            if first.examples and table.members:
                writer.writerow([*where, "wrong", *(r.wrong(name, i) for r in reports.values())])
                _csv_failing(writer, where, [r.failing(name, i) for r in reports.values()])
    return out.getvalue()


def _csv_statistics(writer: Any, table: str, row: str, intervals: list[Any]) -> None:
    for side, label in ((0, "accuracy_low"), (1, "accuracy_high")):
        values = [None if interval is None else interval[side] for interval in intervals]
        writer.writerow([table, row, label, *map(_csv, values)])


def _csv_tests(writer: Any, table: str, row: str, tests: list[PairedTest | None]) -> None:
    for field in ("b", "c", "p", "p_holm"):
        values = [None if test is None else getattr(test, field) for test in tests]
        writer.writerow([table, row, f"mcnemar_{field}", *map(_csv, values)])


def _csv_failing(writer: Any, where: list[str], failing: list[list[dict[str, Any]]]) -> None:
    for k in range(max((len(cases) for cases in failing), default=0)):
        for field in CASE_KEYS:
            values = [cases[k][field] if k < len(cases) else None for cases in failing]
            writer.writerow([*where, f"failing_{k + 1}_{field}", *map(_csv, values)])


def _csv(value: Any) -> str:
    value = plain(value)
    return "" if value is None else str(value)


RENDERERS = {"markdown": render_markdown, "json": render_json, "csv": render_csv}
