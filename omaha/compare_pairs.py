"""The player separated from the design: the same seeds with two lineups, paired.

Run ``i`` of a scenario has the same seeds whichever bots play it (:func:`omaha.compare.
run_seeds`), so the two lineups' runs pair up. For each metric the difference of run ``i``
under lineup A and under lineup B is taken over the runs where both measure it, and its
mean gets a 95% interval (1.96 standard errors of the paired differences). A metric is
**player-dependent** in a scenario where that interval excludes zero: who plays moves the
figure, so the figure says as much about the bots as about the design.

A time-to-event metric is compared by its time capped at the scenario's end (a run that
never had the event counts as the end: the restricted mean time; of two scenarios that end
at different times, as in a sweep over the end, the earlier end), or, off the clock, by
whether the event happened at all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np

from omaha.compare_data import Z95, Column
from omaha.kernel.metrics import COMMON


@attrs.frozen
class Paired:
    """The mean of the paired differences (A minus B) over ``n`` runs, with its 95% interval."""

    n: int
    mean: float
    low: float
    high: float

    @property
    def dependent(self) -> bool:
        """The interval excludes zero: the lineup moves the figure."""
        return self.low > 0 or self.high < 0


def _comparable(col: Column, metric: str, value: float, end: float | None) -> float:
    """A value as paired: a time capped at ``end`` (or, without one, whether it came)."""
    if not col.is_time(metric):
        return value
    if end is not None and col.units.get(metric) == "hours":
        return min(value, end)
    return float(math.isfinite(value))


def paired(a: Column, b: Column, metric: str) -> Paired | None:
    """Lineup A's runs against lineup B's on the same seeds, for one metric; ``None`` where
    no run pair measures it (or the scenario does not model it)."""
    if metric in a.absent or metric in b.absent:
        return None
    mine = {r.index: r for r in b.runs}
    # two scenarios that end at different times are compared by the earlier end
    end = None if a.end is None or b.end is None else min(a.end, b.end)
    diffs = []
    for run in a.runs:
        other = mine.get(run.index)
        if other is None or other.seed != run.seed:
            continue
        x, y = run.metrics.get(metric, math.nan), other.metrics.get(metric, math.nan)
        if math.isnan(x) or math.isnan(y):
            continue
        diffs.append(_comparable(a, metric, x, end) - _comparable(b, metric, y, end))
    if not diffs:
        return None
    data = np.asarray(diffs, dtype=float)
    mean = float(data.mean())
    half = Z95 * float(data.std(ddof=1)) / math.sqrt(data.size) if data.size > 1 else math.inf
    return Paired(int(data.size), mean, mean - half, mean + half)


def dependence(
    first: Sequence[Column], second: Sequence[Column], metrics: Sequence[str] | None = None
) -> dict[str, dict[str, Paired]]:
    """Per scenario label, per metric (the common ones by default), the paired difference."""
    names = list(metrics) if metrics is not None else [m.name for m in COMMON]
    others = {c.label: c for c in second}
    out: dict[str, dict[str, Paired]] = {}
    for col in first:
        other = others.get(col.label)
        if other is None:
            continue
        found = {m: p for m in names if (p := paired(col, other, m)) is not None}
        out[col.label] = found
    return out


def flags(found: dict[str, dict[str, Paired]]) -> dict[str, set[str]]:
    """The player-dependent metrics of each scenario (for the table's marks)."""
    return {label: {m for m, p in per.items() if p.dependent} for label, per in found.items()}


def report(found: dict[str, dict[str, Paired]], a: str, b: str) -> str:
    """The paired differences as text, 100 columns wide, player-dependent ones marked."""
    out = [
        f"Player dependence: the same seeds with bots {a} (A) and {b} (B); A minus B, mean",
        "and 95% interval of the paired differences; P: the interval excludes zero",
    ]
    width = max((len(label) for label in found), default=8) + 2
    for label, per in found.items():
        if not per:
            continue
        out.append("")
        for metric, p in per.items():
            mark = "P" if p.dependent else " "
            interval = f"{p.low:+.2f} to {p.high:+.2f}" if math.isfinite(p.high) else "one run"
            row = f"  {label.ljust(width)}{metric:<20}{p.n:>5}{p.mean:>+8.2f}  {interval:<18}"
            out.append((row + mark).rstrip())
            label = ""
    return "\n".join(out)
