"""Bloody Omaha Random Events (5.2, 6.4, 8.1.b): a d6 on the table of a terrain."""

from __future__ import annotations

from omaha.kernel.events import register_templates

from ..core import BloodyCore
from ..rules import EventEntry
from .landing import drift_unit
from .ratings import ENGINEERS, INITIATIVE, change_rating, change_token
from .tanks import bring_tank_ashore
from .tokens import make_gap, remove_weakest, reveal
from .units import disrupt, hit, rally

register_templates(
    {
        "bloody.text": "{text}",
        "bloody.event": "Random Event, {table} table, d6 {roll}: {title} ({target})",
    }
)


def choose_event(st: BloodyCore, us: int, german: int) -> None:
    """5.2: the Random Event of the phase hits the chosen US square or German square."""
    random_event(st, st.scen.kind[us], st.units_at(us), us, german, "5.2")


def random_event(
    st: BloodyCore, terrain: str, units: list[int], us_cell: int, g_cell: int | None, rule: str
) -> None:
    """Roll d6 on the terrain's Random Event table and resolve it at once.

    ``units`` are the US units the event may hit (the whole US square in the Random
    Event phase; the entering unit for a Random Event token), ``g_cell`` the German
    square it may hit (reading in READINGS.md).
    """
    roll = st.dice.d6()
    entry = st.scen.events[terrain][roll - 1]
    target = st.label(us_cell) + (f" / {st.label(g_cell)}" if g_cell is not None else "")
    st.note(
        "bloody.event",
        rule,
        dice=[roll],
        player="US",
        table=terrain,
        roll=roll,
        title=entry.title,
        target=target,
    )
    why = f"random event: {entry.title}"
    before = len(st.log)
    _effect(st, entry, units, us_cell, g_cell, rule, why)
    if len(st.log) == before:
        st.note("bloody.text", rule, player="US", text="no effect")


def _effect(
    st: BloodyCore,
    entry: EventEntry,
    units: list[int],
    us_cell: int,
    g_cell: int | None,
    rule: str,
    why: str,
) -> None:
    alive = [u for u in units if st.where[u] >= 0]
    eff = entry.effect
    if eff == "disrupt_all":
        for u in alive:
            hit(st, u, rule, why)
    elif eff == "disrupt_one":
        fresh = [u for u in alive if not st.disrupted[u]]
        if fresh:
            disrupt(st, st.strongest(fresh), rule, why)
    elif eff == "drift":
        for u in alive:
            if st.where[u] in st.scen.channel:
                drift_unit(st, u, 1, why)
    elif eff == "initiative_now":
        change_token(st, INITIATIVE, entry.amount, rule, why)
    elif eff == "initiative":
        change_rating(st, INITIATIVE, entry.amount, rule, why)
    elif eff == "engineers":
        change_rating(st, ENGINEERS, entry.amount, rule, why)
    elif eff == "rally":
        for u in alive:
            rally(st, u, rule, why)
    elif eff == "reveal" and g_cell is not None:
        reveal(st, g_cell, rule, why)
    elif eff == "remove_weakest" and g_cell is not None:
        remove_weakest(st, g_cell, entry.amount, rule, why)
    elif eff == "gap" and g_cell is not None:
        make_gap(st, g_cell, rule, why)
    elif eff == "tank":
        squares = st.tank_landing_squares()
        if squares:
            near = min(squares, key=lambda b: (st.board.distance(b, us_cell), st.scen.column[b]))
            bring_tank_ashore(st, near, rule, why)
