"""A heatmap of a score report: by default one row per row of the declared table and one
column per model; for a config that declares ``heatmap="matrix"``, its matrix, one panel per
model. Every title names the metric drawn; every value label is readable on its cell."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hatemoji_datasets.core.file_writes import write_bytes
from hatemoji_datasets.evaluate.metrics import OptionalDependencyError
from hatemoji_datasets.evaluate.render import same_split
from hatemoji_datasets.evaluate.report import ScoreReport

#: How a metric is named in a plot's title.
METRIC_NAMES: dict[str, str] = {
    "accuracy": "accuracy",
    "f1_hateful": "F1 of the hateful class",
    "f1_macro": "macro F1",
    "recall": "recall of the gold class",
    "false_positive_rate": "false positive rate",
    "false_negative_rate": "false negative rate",
    "both_correct": "share of pairs with both members right",
    "group_precision": "precision of the group against non-hateful rows",
    "group_recall": "recall of the group's hateful rows",
    "group_f1": "F1 of the group against non-hateful rows",
}
#: The colour of cells without a value (``n/a``).
NO_VALUE = "lightgrey"


def heatmap_matrix(reports: Mapping[str, ScoreReport]) -> tuple[list[str], list[str], np.ndarray]:
    """Row labels, model names and the values (rows x models) the row heatmap draws."""
    first = same_split(reports)
    table_name, metric = first.plot
    table = first.tables[table_name]
    labels = [table.row_name(row) for row in table.rows]
    values = np.array(
        [
            [_nan(reports[m].tables[table_name].rows[i][metric]) for m in reports]
            for i in range(len(table.rows))
        ],
        dtype=float,
    ).reshape(len(labels), len(reports))
    return labels, list(reports), values


def matrix_panels(
    reports: Mapping[str, ScoreReport],
) -> tuple[list[str], list[str], list[str], np.ndarray]:
    """Row labels, column labels, model names and the values (models x rows x columns) of the
    declared matrix, NaN where a cell has no rows."""
    first = same_split(reports)
    if first.matrix is None:
        raise KeyError(f"{first.dataset}/{first.config} declares no matrix")
    frames = [report.accuracy_matrix() for report in reports.values()]
    rows, columns = list(frames[0].index), list(frames[0].columns)
    values = np.stack([frame.loc[rows, columns].to_numpy(dtype=float) for frame in frames])
    labels = [first.matrix.row_label.format(position=i + 1, name=r) for i, r in enumerate(rows)]
    return labels, [str(c) for c in columns], list(reports), values


def _nan(value: Any) -> float:
    return np.nan if value is None else float(value)


def metric_name(metric: str) -> str:
    return METRIC_NAMES.get(metric, metric.replace("_", " "))


def plot_title(report: ScoreReport) -> str:
    """The plot's title: what was scored, the table, and the metric (unless the table's
    title already names it)."""
    table_name, metric = report.plot
    title, name = report.tables[table_name].title, metric_name(metric)
    if name.lower() not in title.lower():
        title = f"{title}: {name}"
    return f"{report.dataset} ({report.config}) {report.split}\n{title}"


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def text_colour(rgba: Sequence[float]) -> str:
    """``white`` or ``black``, whichever contrasts more with a cell of colour ``rgba`` (the
    WCAG relative-luminance contrast)."""
    red, green, blue = (_linear(float(c)) for c in rgba[:3])
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    on_white, on_black = 1.05 / (luminance + 0.05), (luminance + 0.05) / 0.05
    return "white" if on_white > on_black else "black"


def plot_heatmap(reports: Mapping[str, ScoreReport], path: str | Path) -> np.ndarray:
    """Draw the report's heatmap into ``path``, a PNG, SVG or PDF by its suffix; return the
    values drawn.

    Rows x models, or, for a matrix heatmap, models x rows x columns. Needs
    matplotlib (the ``plot`` extra).
    """
    kind = Path(path).suffix.lower().lstrip(".")
    image, values = _draw(reports, kind if kind in ("svg", "pdf") else "png")
    write_bytes(path, image)  # its folder must exist: never made
    return values


def heatmap_svg(reports: Mapping[str, ScoreReport]) -> str:
    """The heatmap as an SVG element to put inline in a page: text stays text (the values
    can be read, searched and checked), and no XML prologue."""
    image, _ = _draw(reports, "svg")
    text = image.decode("utf-8")
    return text[text.index("<svg") :]


def _draw(reports: Mapping[str, ScoreReport], kind: str) -> tuple[bytes, np.ndarray]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise OptionalDependencyError(
            "--plot needs matplotlib: pip install 'hatemoji-datasets[plot]'"
        ) from error
    first = same_split(reports)
    cmap = matplotlib.colormaps["RdYlGn"].with_extremes(bad=NO_VALUE)
    if first.heatmap == "matrix" and first.matrix is not None:
        labels, columns, models, values = matrix_panels(reports)
        panels = [(model, values[i]) for i, model in enumerate(models)]
        body = (0.9 + 0.42 * len(columns)) * len(models)
    else:
        labels, models, table = heatmap_matrix(reports)
        columns, values = models, table
        panels = [("", table)]
        body = 1.0 + 1.0 * len(models)
    # Room for the row labels (8 pt: about 0.06 inch a character) beside the cells.
    width = 2.2 + 0.06 * max((len(label) for label in labels), default=0) + body
    height = 1.6 + 0.28 * len(labels)
    # SVG text as text (not glyph outlines); no date in PDF and SVG, so a figure is
    # the same bytes each time it is drawn.
    style = {"svg.fonttype": "none", "svg.hashsalt": "hatemoji-datasets"}
    with matplotlib.rc_context(style):
        figure, axes_row = plt.subplots(
            1, len(panels), figsize=(width, height), layout="constrained", squeeze=False
        )
        try:
            _panels(axes_row[0], panels, labels, columns, cmap)
            figure.suptitle(plot_title(first), fontsize=9)
            figure.colorbar(
                axes_row[0][0].images[0],
                ax=list(axes_row[0]),
                shrink=0.6,
                label=metric_name(first.plot[1]),
            )
            image_bytes = io.BytesIO()
            figure.savefig(
                image_bytes, format=kind, dpi=100, metadata=_metadata(first, models, kind)
            )
        finally:
            plt.close(figure)
    return image_bytes.getvalue(), values


def _panels(
    axes_row: Any, panels: list[Any], labels: list[str], columns: list[str], cmap: Any
) -> None:
    import matplotlib.pyplot as plt

    for position, (axes, (panel, grid)) in enumerate(zip(axes_row, panels, strict=True)):
        axes.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=0, vmax=1, aspect="auto")
        axes.set_xticks(range(len(columns)), columns)
        axes.set_yticks(range(len(labels)), labels if position == 0 else [], fontsize=8)
        axes.xaxis.tick_top()
        plt.setp(axes.get_xticklabels(), rotation=30, ha="left", rotation_mode="anchor")
        if panel:
            axes.set_xlabel(panel, fontsize=9)
        for r in range(grid.shape[0]):
            for c in range(grid.shape[1]):
                value = grid[r, c]
                text = "n/a" if np.isnan(value) else f"{value:.2f}"
                colour = text_colour(cmap(np.nan if np.isnan(value) else value))
                axes.text(c, r, text, ha="center", va="center", fontsize=7, color=colour)


def _metadata(first: ScoreReport, models: list[str], kind: str) -> dict[str, Any]:
    title = f"{first.dataset} {first.plot[1]}"
    description = "models: " + ", ".join(models)
    if kind == "png":
        return {"Title": title, "Description": description}
    if kind == "pdf":
        return {"Title": title, "Subject": description, "CreationDate": None}
    return {"Title": title, "Description": description, "Date": None}
