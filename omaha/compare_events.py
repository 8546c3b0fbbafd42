"""Time-to-event metrics over all runs: the share that had the event by each hour, and
the median time.

A time-to-event metric (``Metric.kind == TIME``, such as ``first_exit_hours``) is the
time the event happened, or ``NEVER`` (inf) in a run where it had not by the game's end:
such a run is censored at the end, and a mean over the runs that had the event would
describe a hidden subset. So the comparison reports, over all ``n`` runs:

- the share of runs that had it by each hour up to the scenario's end (a curve, each
  point with its Wilson 95% interval), and by the end;
- the median time: the earliest time by which at least half the runs had it (the usual
  median of a time-to-event distribution), or ``None`` ("> end") when fewer than half
  the runs had it by the end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from omaha.kernel.metrics import H_HOUR_MINUTES


@attrs.frozen
class Events:
    """The times of one event over ``n`` runs (finite: when it happened; inf: not by the end)."""

    n: int
    times: tuple[float, ...]  #: the finite times, sorted
    end: float | None = None  #: the scenario's end, in the metric's unit, where known

    @classmethod
    def of(cls, values: Sequence[float], end: float | None = None) -> Events:
        """From every run's value (NaN, a run where it is not modelled, is left out)."""
        kept = [v for v in values if not math.isnan(v)]
        return cls(len(kept), tuple(sorted(v for v in kept if math.isfinite(v))), end)

    @property
    def had(self) -> int:
        """Runs in which the event happened by the end."""
        return len(self.times)

    def by(self, when: float) -> int:
        """Runs in which it had happened by ``when``."""
        return sum(1 for t in self.times if t <= when)

    @property
    def median(self) -> float | None:
        """The earliest time by which at least half the runs had it; ``None`` when fewer
        than half ever did (the median is past the end)."""
        need = math.ceil(self.n / 2)
        if self.n == 0 or self.had < need:
            return None
        return self.times[need - 1]

    def curve(self, step: float = 1.0) -> list[tuple[float, int]]:
        """(time, runs that had it by then) at every ``step`` from 0 up to the end, and at
        the end itself (up to the last time when the end is not known)."""
        last = self.end if self.end is not None else (self.times[-1] if self.times else 0.0)
        points = [i * step for i in range(math.floor(last / step + 1e-9) + 1)]
        if not points or points[-1] < last - 1e-9:
            points.append(last)
        return [(t, self.by(t)) for t in points]


def clock(hours: float) -> str:
    """Hours after H-hour (06:30, 6 June) as a time of day: 5.5 -> ``"12:00"``; a later day
    is prefixed (``"D+1 08:00"``)."""
    minutes = round(H_HOUR_MINUTES + hours * 60)
    day, minutes = divmod(minutes, 24 * 60)
    text = f"{minutes // 60:02d}:{minutes % 60:02d}"
    return text if day == 0 else f"D+{day} {text}"
