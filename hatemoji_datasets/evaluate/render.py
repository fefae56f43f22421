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
from typing import Any

from hatemoji_datasets.core.errors import HatemojiDatasetsError
from hatemoji_datasets.core.findings import markdown_text
from hatemoji_datasets.evaluate.report import ScoreReport, Table, plain


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


def _markdown_table(
    header: list[str], rows: list[list[str]], numeric_from: int, text: tuple[str, ...] = ()
) -> list[str]:
    align = ["---" if i < numeric_from or h in text else "---:" for i, h in enumerate(header)]
    lines = ["| " + " | ".join(map(markdown_text, header)) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(markdown_text(str(cell)) for cell in row) + " |" for row in rows]
    return lines


def render_markdown(reports: Mapping[str, ScoreReport]) -> str:
    first = same_split(reports)
    models = list(reports)
    lines = [
        f"## {first.dataset} ({first.config}), split {first.split}, version {first.version}",
        "",
        f"{first.n:,} rows scored by `{first.id_column}`.",
        "",
    ]
    metrics = [m for m in first.overall if m != "n"]
    for report in reports.values():
        metrics += [m for m in report.overall if m not in metrics and m != "n"]
    lines += _markdown_table(
        ["metric", *models],
        [[m, *(_format(r.overall.get(m)) for r in reports.values())] for m in metrics],
        numeric_from=1,
    )
    for name, table in first.tables.items():
        columns = _metric_columns(table, models)
        header = [*table.keys, *table.info, *(c[0] for c in columns)]
        rows = []
        for i, row in enumerate(table.rows):
            cells = [str(row[k]) for k in table.keys] + [_format(row[k]) for k in table.info]
            # .get: a metric one model has and another not (unparsed replies) is n/a there.
            cells += [
                _format(reports[model].tables[name].rows[i].get(m)) for _, model, m in columns
            ]
            rows.append(cells)
        lines += ["", f"### {table.title}", ""]
        lines += _markdown_table(
            header, rows, numeric_from=len(table.keys), text=("label",)
        )  # the gold-label key column
        declared = first.matrix
        if declared is not None and name == declared.table and len(models) == 1:
            what = declared.metric.replace("_", " ").capitalize()
            lines += ["", f"{what} matrix ({declared.rows} x {declared.columns}):", ""]
            matrix = first.accuracy_matrix()
            lines += _markdown_table(
                [declared.rows, *matrix.columns],
                [
                    [declared.row_label.format(position=i + 1, name=index)]
                    + [_format(v) for v in values]
                    for i, (index, values) in enumerate(matrix.iterrows())
                ],
                numeric_from=1,
            )
    if first.notes:
        lines += ["", *(f"- {note}" for note in first.notes)]
    return "\n".join(lines) + "\n"


def render_json(reports: Mapping[str, ScoreReport]) -> str:
    first = same_split(reports)
    document = {
        "dataset": first.dataset,
        "config": first.config,
        "split": first.split,
        "version": first.version,
        "models": {name: report.to_dict() for name, report in reports.items()},
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def render_csv(reports: Mapping[str, ScoreReport]) -> str:
    """Long format: ``table, row, metric`` then one column per model."""
    first = same_split(reports)
    models = list(reports)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["table", "row", "metric", *models])
    for metric in first.overall:
        writer.writerow(
            ["overall", "", metric, *(_csv(r.overall.get(metric)) for r in reports.values())]
        )
    for name, table in first.tables.items():
        for i, row in enumerate(table.rows):
            for column in (*table.info, *table.metrics):
                values = [reports[m].tables[name].rows[i].get(column) for m in models]
                writer.writerow([name, table.row_name(row), column, *map(_csv, values)])
    return out.getvalue()


def _csv(value: Any) -> str:
    value = plain(value)
    return "" if value is None else str(value)


RENDERERS = {"markdown": render_markdown, "json": render_json, "csv": render_csv}
