"""A heatmap of a score report: one row per row of the declared table, one column per model."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from hatemoji_datasets.evaluate.metrics import OptionalDependencyError
from hatemoji_datasets.evaluate.render import same_split
from hatemoji_datasets.evaluate.report import ScoreReport
from hatemoji_datasets.file_io import make_folder, write_bytes


def heatmap_matrix(reports: Mapping[str, ScoreReport]) -> tuple[list[str], list[str], np.ndarray]:
    """Row labels, model names and the values (rows x models) the heatmap draws."""
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


def _nan(value: Any) -> float:
    return np.nan if value is None else float(value)


def plot_heatmap(reports: Mapping[str, ScoreReport], path: str | Path) -> np.ndarray:
    """Draw the per-row metric of every model (one column each) into a PNG at ``path``.

    Returns the plotted matrix (rows x models). Needs matplotlib (the ``plot`` extra).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise OptionalDependencyError(
            "--plot needs matplotlib: pip install 'hatemoji-datasets[plot]'"
        ) from error
    first = same_split(reports)
    labels, models, values = heatmap_matrix(reports)
    table_name, metric = first.plot
    width = 3.2 + 1.0 * len(models)
    height = 1.4 + 0.28 * len(labels)
    figure, axes = plt.subplots(figsize=(width, height), layout="constrained")
    cmap = matplotlib.colormaps["RdYlGn"].with_extremes(bad="lightgrey")
    image = axes.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=0, vmax=1, aspect="auto")
    axes.set_xticks(range(len(models)), models)
    axes.set_yticks(range(len(labels)), labels, fontsize=8)
    axes.xaxis.tick_top()
    plt.setp(axes.get_xticklabels(), rotation=30, ha="left", rotation_mode="anchor")
    for r in range(values.shape[0]):
        for c in range(values.shape[1]):
            text = "n/a" if np.isnan(values[r, c]) else f"{values[r, c]:.2f}"
            axes.text(c, r, text, ha="center", va="center", fontsize=7)
    axes.set_title(
        f"{first.dataset} ({first.config}) {first.split}\n{first.tables[table_name].title}",
        fontsize=9,
    )
    figure.colorbar(image, ax=axes, shrink=0.6)
    image_bytes = io.BytesIO()
    try:
        figure.savefig(
            image_bytes,
            format="png",
            dpi=100,
            metadata={
                "Title": f"{first.dataset} {metric}",
                "Description": "models: " + ", ".join(models),
            },
        )
    finally:
        plt.close(figure)
    make_folder(Path(path).parent)
    write_bytes(path, image_bytes.getvalue())
    return values
