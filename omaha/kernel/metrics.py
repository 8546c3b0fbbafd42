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


@attrs.frozen
class Historical:
    """The figure of the real battle for one metric, with where it comes from.

    ``low`` and ``high`` give the range where sources differ (both ``value`` otherwise).
    """

    value: float
    source: str
    what: str = ""
    low: float | None = None
    high: float | None = None


HISTORY_FILE = Path(__file__).with_name("history.toml")


def load_history(path: Path = HISTORY_FILE) -> dict[str, Historical]:
    """The historical figures by metric name, from ``history.toml`` (each with its source)."""
    root = load_toml(path).only({"figure"})
    known = {m.name: m for m in COMMON}
    out: dict[str, Historical] = {}
    for node in root.req("figure").as_list():
        node.only({"metric", "value", "low", "high", "what", "source"})
        name = node.req("metric").as_choice(known)
        if name in out:
            raise node.req("metric").error(f"{name!r} has a figure already")
        low, high = (node.get(k) for k in ("low", "high"))
        figure = Historical(
            value=node.req("value").as_number(),
            source=str(node.source()),
            what=node.req("what").as_str(),
            low=low.as_number() if low else None,
            high=high.as_number() if high else None,
        )
        if (figure.low is None) != (figure.high is None) or not (
            figure.low is None or figure.low <= figure.value <= (figure.high or 0.0)
        ):
            raise node.error("low and high go together and enclose the value")
        out[name] = figure
    return out


#: The historical record, one figure per common metric that history gives.
HISTORICAL: dict[str, Historical] = load_history()
