"""How ``flip7-spec simulate`` prints per-round statistics: for people, and as CSV rows."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

CSV_COLUMNS = (
    "value", "scope", "policy", "rounds",
    "points_mean", "points_ci_low", "points_ci_high",
    "bust_rate", "bust_ci_low", "bust_ci_high",
    "flip7_rate", "flip7_ci_low", "flip7_ci_high",
    "cards_mean", "cards_ci_low", "cards_ci_high",
)


def percentile(distribution: dict[str, int], share: float) -> int:
    """The smallest value with at least ``share`` of the counts at or below it."""
    counts = sorted((int(k), v) for k, v in distribution.items())
    total = sum(v for _, v in counts)
    running = 0
    for value, count in counts:
        running += count
        if running >= share * total:
            return value
    return counts[-1][0] if counts else 0


def round_lines(summary: dict[str, Any], policies: Sequence[str]) -> list[str]:
    """The per-round figures with their 95% intervals, overall and (for several players) by seat."""
    lines = [
        f"{'':22}{'mean':>9}   95% interval",
        _figure_line("points per round", summary["points_per_round"], "mean", "{:.2f}"),
        _figure_line("bust rate", summary["bust_rate"], "rate", "{:.2%}"),
        _figure_line("Flip 7 rate", summary["flip7_rate"], "rate", "{:.2%}"),
        _figure_line("cards per round", summary["cards_per_round"], "mean", "{:.2f}"),
    ]
    points = summary["points_distribution"]
    if points:
        quantiles = "  ".join(f"{name} {percentile(points, share)}" for name, share in
                              (("p10", 0.1), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p90", 0.9)))
        lines.append(f"{'points distribution':22}{quantiles}")
        cards = summary["cards_distribution"]
        total = sum(cards.values())
        lines.append(f"{'cards distribution':22}" + "  ".join(f"{k}:{v / total:.1%}" for k, v in cards.items()))
    if len(summary["by_seat"]) > 1:
        lines.append("by seat               points [95%]            bust rate   Flip 7    cards   policy")
        for row in summary["by_seat"]:
            seat = row["seat"]
            points_row = row["points_per_round"]
            low, high = points_row["ci95"]
            lines.append(f"  seat {seat:<15} {points_row['mean']:6.2f} [{low:.2f}, {high:.2f}]"
                         f"{row['bust_rate']['rate']:>12.1%}{row['flip7_rate']['rate']:>9.1%}"
                         f"{row['cards_per_round']['mean']:>9.2f}   {_policy_of(policies, seat)}")
    return lines


def _figure_line(label: str, figure: dict[str, Any], key: str, form: str) -> str:
    low, high = figure["ci95"]
    return f"{label:22}{form.format(figure[key]):>9}   [{form.format(low)}, {form.format(high)}]"


def _policy_of(policies: Sequence[str], seat: int) -> str:
    return policies[0] if len(policies) == 1 else policies[seat]


def csv_rows(summary: dict[str, Any], policies: Sequence[str], value: Any = "") -> list[dict[str, Any]]:
    """One CSV row for all seats together, then one per seat."""
    rows = [_csv_row(summary, "all", ",".join(policies) if len(policies) > 1 else policies[0], summary["rounds"],
                     value)]
    if len(summary["by_seat"]) > 1:
        rows.extend(_csv_row(row, f"seat {row['seat']}", _policy_of(policies, row["seat"]), summary["rounds"], value)
                    for row in summary["by_seat"])
    return rows


def _csv_row(figures: dict[str, Any], scope: str, policy: str, rounds: int, value: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"value": value, "scope": scope, "policy": policy, "rounds": rounds}
    for prefix, key, inner in (("points", "points_per_round", "mean"), ("bust", "bust_rate", "rate"),
                               ("flip7", "flip7_rate", "rate"), ("cards", "cards_per_round", "mean")):
        name = f"{prefix}_{inner}" if prefix in ("points", "cards") else f"{prefix}_rate"
        row[name] = figures[key][inner]
        row[f"{prefix}_ci_low"], row[f"{prefix}_ci_high"] = figures[key]["ci95"]
    return row


def to_csv(rows: Iterable[dict[str, Any]]) -> str:
    """``rows`` as CSV text with a header line (``\\n`` line ends)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()
