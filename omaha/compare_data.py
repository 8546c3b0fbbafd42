"""The comparison's data and statistics: one run, the runs of one scenario (a column),
and the figures made of them (mean and interval, shares with Wilson's interval).

Re-exported by :mod:`omaha.compare`; the table (:mod:`omaha.compare_table`) builds on it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import attrs
import numpy as np

from omaha.compare_events import Events
from omaha.kernel.metrics import TIME, Historical

#: 95% two-sided normal quantile, for the mean's interval and Wilson's.
Z95 = 1.959963984540054


@attrs.frozen
class Run:
    """One finished game: its index and seeds, outcome level, winner and metrics."""

    index: int
    seed: int
    bot_seeds: tuple[int, ...]
    level: str
    winner: str | None
    metrics: dict[str, float]
    actions: int
    #: CPU seconds the run took (for the progress bar's estimate; not part of the result)
    seconds: float = attrs.field(default=0.0, eq=False, repr=False)


@attrs.frozen
class Column:
    """All runs of one game and scenario."""

    game: str
    title: str
    scenario: str
    bots: dict[str, str]
    runs: tuple[Run, ...]
    units: dict[str, str] = attrs.field(factory=dict)
    root: int = 0
    #: metric -> kind (``value`` or ``time``; see :class:`omaha.kernel.metrics.Metric`)
    kinds: dict[str, str] = attrs.field(factory=dict)
    #: when the scenario ends, in hours after H-hour (``Game.end_hours``); None: off that clock
    end: float | None = None
    #: the metrics the scenario does not model, with why (``Game.not_modelled``)
    absent: dict[str, str] = attrs.field(factory=dict)

    @property
    def label(self) -> str:
        return f"{self.game}/{self.scenario}"

    def values(self, metric: str) -> list[float]:
        """The metric over the runs; NaN (not applicable to this scenario) is left out, and
        so is every run of a metric the scenario does not model. A time-to-event metric
        keeps its ``inf`` (not by the end): see :mod:`omaha.compare_events`."""
        if metric in self.absent:
            return []
        return [
            r.metrics[metric]
            for r in self.runs
            if metric in r.metrics and not math.isnan(r.metrics[metric])
        ]

    def is_time(self, metric: str) -> bool:
        return self.kinds.get(metric) == TIME

    def events(self, metric: str) -> Events:
        """A time-to-event metric over all its runs (the end known for hours)."""
        end = self.end if self.units.get(metric) == "hours" else None
        return Events.of(self.values(metric), end)

    def levels(self) -> list[tuple[str, int]]:
        counts = Counter(r.level for r in self.runs)
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


# --------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------
@attrs.frozen
class Summary:
    """A metric over the runs: mean with its 95% interval, and the 10-90% band."""

    n: int
    mean: float
    low: float
    high: float
    p10: float
    p90: float


def summarize(
    values: Sequence[float], bounds: tuple[float, float] = (-math.inf, math.inf)
) -> Summary | None:
    """Mean, its 95% interval clipped to ``bounds`` (the metric's range), and the band."""
    if not values:
        return None
    data = np.asarray(values, dtype=float)
    n = int(data.size)
    mean = float(data.mean())
    half = Z95 * float(data.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    p10, p90 = (float(v) for v in np.percentile(data, [10, 90]))
    low, high = max(bounds[0], mean - half), min(bounds[1], mean + half)
    return Summary(n, mean, low, high, p10, p90)


#: Units whose values are shares: their range is 0..1.
SHARE_UNITS = ("fraction", "0/1")


def bounds(unit: str, values: Sequence[float]) -> tuple[float, float]:
    """A metric's range: 0..1 for a share; a count or a time is never below 0 (unless
    the design reports negative values, such as victory points)."""
    if unit in SHARE_UNITS:
        return 0.0, 1.0
    return (0.0 if min(values, default=0.0) >= 0 else -math.inf), math.inf


@attrs.frozen
class Share:
    """How many of ``n`` runs had something: a percentage with a Wilson 95% interval."""

    k: int
    n: int

    @property
    def percent(self) -> float:
        return 100.0 * self.k / self.n

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson's score interval, in percent."""
        low, high = wilson(self.k, self.n)
        return 100.0 * low, 100.0 * high

    def __str__(self) -> str:
        low, high = self.interval
        return f"{self.percent:.0f}% ({low:.0f}-{high:.0f}%)"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for ``k`` successes in ``n`` trials, as fractions."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def share_of(values: Sequence[float]) -> Share | None:
    """A 0/1 metric as a share (values other than 0 and 1 count as not 1)."""
    if not values:
        return None
    return Share(sum(1 for v in values if v == 1.0), len(values))


@attrs.frozen
class VersusHistory:
    """A design's mean against the historical figure."""

    difference: float
    inside_band: bool


def versus(summary: Summary, history: Historical) -> VersusHistory:
    inside = summary.p10 <= history.value <= summary.p90
    return VersusHistory(summary.mean - history.value, inside)


def is_rate(column: Column, metric: str) -> bool:
    return column.units.get(metric) == "0/1"
