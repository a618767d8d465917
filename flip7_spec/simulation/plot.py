"""Pictures of a simulation (matplotlib, the optional ``plot`` extra): the distribution of points and cards
per round, or the points per round against a policy's parameter (a ``--sweep``)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flip7_spec.errors import Flip7Error
from flip7_spec.outputs import Output


class PlotError(Flip7Error):
    """A plot that cannot be drawn: matplotlib missing, or a file that cannot be written."""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise PlotError("--plot needs matplotlib, which is not installed: pip install 'flip7-spec[plot]'"
                        ) from None
    matplotlib.use("Agg")  # files only: never a window
    import matplotlib.pyplot as plt

    return plt


def require_matplotlib(path: Path | None = None) -> None:
    """Raise :class:`PlotError` now (before a long run) if matplotlib is missing, or has no writer for the
    picture format ``path``'s extension names."""
    plt = _pyplot()
    if path is None:
        return
    figure = plt.figure()
    try:
        formats = figure.canvas.get_supported_filetypes()
    finally:
        plt.close(figure)
    if path.suffix.lower().lstrip(".") not in formats:
        raise PlotError(f"{path}: --plot writes {', '.join('.' + f for f in sorted(formats))} files; "
                        f"{path.suffix or 'no extension'} is none of them")


def plot_distribution(summary: dict[str, Any], output: Output, title: str) -> None:
    """Bars of the share of player-rounds by points and by cards, the mean and its 95% interval marked."""
    plt = _pyplot()
    figure, (points_axes, cards_axes) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [3, 1]})
    for axes, key, figure_key, label in ((points_axes, "points_distribution", "points_per_round", "points"),
                                         (cards_axes, "cards_distribution", "cards_per_round", "cards")):
        counts = {int(k): v for k, v in summary[key].items()}
        total = sum(counts.values()) or 1
        axes.bar(list(counts), [100 * v / total for v in counts.values()], width=0.9, color="#4878a8")
        mean, (low, high) = summary[figure_key]["mean"], summary[figure_key]["ci95"]
        axes.axvline(mean, color="#c44e52", linewidth=1.5, label=f"mean {mean:g} [{low:g}, {high:g}]")
        axes.set_xlabel(f"{label} per round")
        axes.set_ylabel("% of player-rounds")
        axes.legend(loc="upper right", fontsize="small")
    figure.suptitle(title)
    _save(figure, plt, output)


def plot_sweep(rows: Sequence[dict[str, Any]], parameter: str, output: Output, title: str) -> None:
    """Mean points per round (with 95% intervals) and bust rate against the swept parameter."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(8, 4.5))
    values = [row["value"] for row in rows]
    means = [row["points_per_round"]["mean"] for row in rows]
    errors = [[m - row["points_per_round"]["ci95"][0] for m, row in zip(means, rows, strict=True)],
              [row["points_per_round"]["ci95"][1] - m for m, row in zip(means, rows, strict=True)]]
    axes.errorbar(values, means, yerr=errors, marker="o", capsize=3, color="#4878a8", label="points per round")
    axes.set_xlabel(parameter)
    axes.set_ylabel("points per round (95% interval)")
    busts = axes.twinx()
    busts.plot(values, [100 * row["bust_rate"]["rate"] for row in rows], color="#c44e52", marker=".",
               linestyle="--", label="bust rate")
    busts.set_ylabel("bust rate (%)")
    best = max(rows, key=lambda row: row["points_per_round"]["mean"])
    axes.set_title(f"{title}\nbest mean: {best['points_per_round']['mean']:g} points at {parameter} {best['value']}",
                   fontsize="medium")
    lines = axes.get_legend_handles_labels()
    more = busts.get_legend_handles_labels()
    axes.legend(lines[0] + more[0], lines[1] + more[1], loc="lower center", fontsize="small")
    _save(figure, plt, output)


def _save(figure: Any, plt: Any, output: Output) -> None:
    """Draw the picture in the format of the output's extension and write it whole (see :mod:`.outputs`)."""
    figure.tight_layout()
    picture = io.BytesIO()
    try:
        figure.savefig(picture, format=output.path.suffix.lower().lstrip("."), dpi=110)
    except ValueError as error:  # an extension matplotlib has no writer for
        raise PlotError(f"{output.path}: {error}") from None
    finally:
        plt.close(figure)
    output.write_bytes(picture.getvalue())
    output.commit()
