"""Metrics shared across games, so the four designs can be compared side by side.

A game declares, in ``Game.metrics``, the common metrics below that its rules
can measure (using these exact names and meanings) plus any of its own. Values
are floats; fractions are in 0..1. Where a design has no such notion it simply
does not declare the metric; where a declared metric does not apply to one
scenario (no landing in LnL's Vierville counterattack) its value is NaN, which
the comparison leaves out (``Game.not_modelled`` names them, with why). A
time-to-event metric (``kind = TIME``) is :data:`NEVER` in a game where the event did
not happen by the end, and is reported over all runs (the share that had it by each
hour, and the median time).

``HISTORICAL`` holds the matching figure of the real battle, where one exists,
with where it comes from: data in ``history.toml`` beside this module, every
figure with its source (the project's fact sheet ``omaha/HISTORY.md``, shipped with the
package, or a public source).
"""

from __future__ import annotations

import math
from pathlib import Path

import attrs

from omaha.kernel.data import load_toml

#: A metric's kinds: a measured quantity, or the time of an event (a time-to-event
#: metric: when it happened, :data:`NEVER` when it had not by the end of the game).
VALUE, TIME = "value", "time"
#: The value of a time-to-event metric whose event did not happen by the game's end: the
#: run is censored there (the comparison reports it over all runs, never a mean of the rest).
NEVER = math.inf


@attrs.frozen
class Metric:
    """A quantity a game reports for the side-by-side comparison (``kind``: ``value``, or
    ``time`` for the time of an event, :data:`NEVER` in a game where it did not happen)."""

    name: str
    unit: str
    meaning: str
    kind: str = attrs.field(default=VALUE, validator=attrs.validators.in_((VALUE, TIME)))


def ratio(part: float, whole: float) -> float:
    """``part / whole``; NaN when ``whole`` is 0: a share of nothing was not measured, and
    the comparison leaves it out (a 0 there would be compared as a measurement)."""
    return part / whole if whole else math.nan


def clamp(value: float, low: float = 0.0, high: float = 1.0) -> float:
    """``value`` held inside ``low..high``, NaN kept (``min(1.0, nan)`` would be 1.0)."""
    return value if math.isnan(value) else min(high, max(low, value))


US_WIN = Metric("us_win", "0/1", "1 if the game ended in any level of US victory")
FIRST_WAVE_ASHORE = Metric(
    "first_wave_ashore",
    "fraction",
    "share of the first assault wave's strength (steps, or units where a design has no steps) "
    "that reached the beach alive",
)
LANDED_OFF_TARGET = Metric(
    "landed_off_target",
    "fraction",
    "share of landed units (or boats) that came ashore away from their planned sector/square",
)
US_LOSSES = Metric(
    "us_losses", "fraction", "share of the US strength committed that was lost by the end"
)
GERMAN_LOSSES = Metric(
    "german_losses", "fraction", "share of the German strength on the map that was lost"
)
DD_TANKS_ASHORE = Metric(
    "dd_tanks_ashore", "fraction", "share of the DD tanks launched that reached the beach"
)
DUKW_GUNS_LOST = Metric(
    "dukw_guns_lost", "fraction", "share of the guns loaded in DUKWs that were lost at sea"
)
EXITS_OPENED = Metric("exits_opened", "exits", "beach exits (draws) opened or cleared by the end")
OBJECTIVES_HELD = Metric(
    "objectives_held", "fraction", "share of the scenario's objectives the US holds at the end"
)
TURNS_PLAYED = Metric("turns_played", "turns", "game turns begun")
FIRST_EXIT_HOURS = Metric(
    "first_exit_hours",
    "hours",
    "hours after H-hour (06:30) when the first beach exit (draw) opened, by the game's clock; "
    "never (inf) when none had by the end",
    TIME,
)

COMMON: tuple[Metric, ...] = (
    US_WIN,
    FIRST_WAVE_ASHORE,
    LANDED_OFF_TARGET,
    US_LOSSES,
    GERMAN_LOSSES,
    DD_TANKS_ASHORE,
    DUKW_GUNS_LOST,
    EXITS_OPENED,
    OBJECTIVES_HELD,
    TURNS_PLAYED,
    FIRST_EXIT_HOURS,
)


#: H-hour, 06:30 on 6 June, in minutes after midnight: the zero of every clock in hours.
H_HOUR_MINUTES = 6 * 60 + 30
#: Nightfall in hours after H-hour: the time of the figures history gives for the whole
#: day (HISTORY.md: "by nightfall"). Reconstructed as 21:30 (no source gives the hour), so
#: a scenario that plays the day to its last daylight turn is at the day's end (TCS's
#: d-day ends at 21:40, D-Day at Omaha Beach's day at 22:30).
NIGHTFALL = 15.0


@attrs.frozen
class Historical:
    """The figure of the real battle for one metric, with where it comes from.

    ``low`` and ``high`` give the range where sources differ (both ``value`` otherwise);
    ``by`` is when it stood so, in hours after H-hour (:data:`NIGHTFALL` for the day's
    figures); ``None`` for a time-to-event metric, whose value is itself a time.
    """

    value: float
    source: str
    what: str = ""
    low: float | None = None
    high: float | None = None
    by: float | None = None


HISTORY_FILE = Path(__file__).with_name("history.toml")


def _by(text: str) -> float:
    """``"12:00"`` (6 June) or ``"nightfall"`` -> hours after H-hour."""
    if text == "nightfall":
        return NIGHTFALL
    hh, _, mm = text.partition(":")
    if not (hh.isdigit() and mm.isdigit() and int(hh) < 24 and int(mm) < 60):
        raise ValueError(f"{text!r} is not a time like '12:00' or 'nightfall'")
    return (int(hh) * 60 + int(mm) - H_HOUR_MINUTES) / 60


def load_timeline(path: Path = HISTORY_FILE) -> dict[str, tuple[Historical, ...]]:
    """The historical figures by metric name, each metric's in time order, from
    ``history.toml`` (each with its source and the time it stood so)."""
    root = load_toml(path).only({"figure"})
    known = {m.name: m for m in COMMON}
    out: dict[str, list[Historical]] = {}
    for node in root.req("figure").as_list():
        node.only({"metric", "by", "value", "low", "high", "what", "source"})
        name = node.req("metric").as_choice(known)
        when = node.get("by")
        timed = known[name].kind == TIME
        if (when is None) != timed:
            what = "a time-to-event figure has no 'by'" if timed else "give 'by' (a time)"
            raise node.error(f"{name}: {what}")
        try:
            by = _by(when.as_str()) if when is not None else None
        except ValueError as exc:
            raise node.req("by").error(str(exc)) from None
        if any(f.by == by for f in out.get(name, [])):
            raise node.req("metric").error(f"{name!r} has a figure at that time already")
        low, high = (node.get(k) for k in ("low", "high"))
        figure = Historical(
            value=node.req("value").as_number(),
            source=str(node.source()),
            what=node.req("what").as_str(),
            low=low.as_number() if low else None,
            high=high.as_number() if high else None,
            by=by,
        )
        if (figure.low is None) != (figure.high is None) or not (
            figure.low is None or figure.low <= figure.value <= (figure.high or 0.0)
        ):
            raise node.error("low and high go together and enclose the value")
        out.setdefault(name, []).append(figure)
    return {k: tuple(sorted(v, key=lambda f: f.by or 0.0)) for k, v in out.items()}


def load_history(path: Path = HISTORY_FILE) -> dict[str, Historical]:
    """The day's figure of every metric history gives (the last of its time line)."""
    return {name: figures[-1] for name, figures in load_timeline(path).items()}


def history_at(metric: str, hours: float | None) -> Historical | None:
    """History's figure for ``metric`` as it stood at ``hours`` after H-hour: the latest
    figure at or before then (``None`` before the first, or without a time). A
    time-to-event metric's figure is its time, whatever the hour."""
    figures = TIMELINE.get(metric, ())
    if figures and figures[0].by is None:
        return figures[0]
    if hours is None:
        return None
    before = [f for f in figures if f.by is not None and f.by <= hours + 1e-9]
    return before[-1] if before else None


#: The historical record as a time line: per common metric, its figures in time order.
TIMELINE: dict[str, tuple[Historical, ...]] = load_timeline()
#: The day's figure of each common metric that history gives.
HISTORICAL: dict[str, Historical] = {k: v[-1] for k, v in TIMELINE.items()}
