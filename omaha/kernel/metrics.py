"""Metrics shared across games, so the four designs can be compared side by side.

A game declares, in ``Game.metrics``, the common metrics below that its rules
can measure (using these exact names and meanings) plus any of its own. Values
are floats; fractions are in 0..1. Where a design has no such notion it simply
does not declare the metric; where a declared metric does not apply to one
scenario (no landing in LnL's Vierville counterattack) its value is NaN, which
the comparison leaves out.

``HISTORICAL`` holds the matching figure of the real battle, where one exists,
with where it comes from (see the project's HISTORY.md).
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Metric:
    """A quantity a game reports for the side-by-side comparison."""

    name: str
    unit: str
    meaning: str


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
)


@attrs.frozen
class Historical:
    value: float
    source: str


HISTORICAL: dict[str, Historical] = {
    "dd_tanks_ashore": Historical(
        5 / 32, "741st Tank Bn: 5 of 32 DD tanks reached the beach (HISTORY.md, 16thinfantry.com)"
    ),
    "dukw_guns_lost": Historical(
        11 / 13, "111th FA Bn: 11 of 13 DUKW-borne 105mm howitzers foundered (HISTORY.md)"
    ),
    "exits_opened": Historical(2, "E-1 opened about midday, D-1 about 17:00 on D-Day (HISTORY.md)"),
    "landed_off_target": Historical(
        0.75,
        "116th RCT first wave: only A/116 of four companies landed where planned (HISTORY.md); "
        "a rough share, not a count of boats",
    ),
}
