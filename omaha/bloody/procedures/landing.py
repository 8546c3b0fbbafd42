"""Bloody Omaha drift and landing (5.4, 5.5, 6.0).

Every unit still at sea rolls on the Drift table and is carried east, off the map
if the current takes it past the last square (6.2); then every unit at sea moves
one square toward the beach (6.3). Units reaching a Beach square roll once on the
Beach Disruption table (6.5).
"""

from __future__ import annotations

from omaha.kernel.events import register_templates

from .. import rules
from ..core import BloodyCore
from .ratings import ENGINEERS, INITIATIVE, change_rating
from .tanks import attach_waiting
from .units import disrupt, eliminate

register_templates(
    {
        "bloody.drift": "{unit} in {square}: drift d6 {roll} {mods} = {total}: {result}",
        "bloody.forward": "forward toward the beach: {moves}",
        "bloody.landing": "{unit} lands on {square} ({beach}): "
        "d6 {roll} {mods} = {total}: {result}",
    }
)


def drift_rolls(st: BloodyCore) -> list[int]:
    """5.4, 6.2, 6.3: roll drift for every unit at sea, then move each one forward.

    Returns the units that reached the beach, in counter order.
    """
    scen, labels, turn, card = st.scen, st.board.labels, st.turn, st.drift_mod
    # the modifier and its wording depend only on whether the unit is a battalion
    wording = {}
    for battalion in (False, True):
        parts = []
        if turn <= 4:
            parts.append("+1 turn 1-4")
        if battalion:
            parts.append("-2 battalion")
        if card:
            parts.append(f"{card:+d} card")
        wording[battalion] = (
            rules.drift_modifier(turn, battalion, card),
            ", ".join(parts) or "no modifier",
        )
    for u in st.at_sea():
        spec = scen.units[u]
        mod, mods = wording[spec.battalion]
        roll = st.dice.d6()
        east = rules.drift_squares(scen.drift, roll + mod)
        st.note(
            "bloody.drift",
            "6.2",
            dice=(roll,),
            player="US",
            unit=spec.id,
            square=labels[st.where[u]],
            roll=roll,
            mods=mods,
            total=roll + mod,
            result=f"{east} square(s) east" if east else "no drift",
        )
        if east:
            drift_unit(st, u, east, "drift (6.2)")
    arriving: list[int] = []
    moves = []
    forward, channel = scen.forward, scen.channel
    for u in st.at_sea():
        start = st.where[u]
        ahead = forward[start]
        st.set_where(u, ahead)
        moves.append(f"{scen.units[u].id} {labels[start]}->{labels[ahead]}")
        if ahead not in channel:
            arriving.append(u)
    if moves:
        st.note("bloody.forward", "6.3", player="US", moves=moves)
    return arriving


def drift_unit(st: BloodyCore, u: int, squares: int, why: str) -> None:
    """6.2, 6.2.b: move a unit at sea east; off the map it is eliminated."""
    cell = st.where[u]
    for _ in range(squares):
        nxt = st.scen.east.get(cell)
        if nxt is None:
            eliminate(st, u, "6.2.b", f"{why}: drifted off the map")
            return
        cell = nxt
    st.set_where(u, cell)


def land(st: BloodyCore, arriving: list[int]) -> None:
    """5.5, 6.5: each unit reaching the Beach rolls once on the Beach Disruption table.

    Reading (READINGS.md): units landing together count as occupying the square.
    """
    scen = st.scen
    present = {u: [scen.units[v].division for v in st.units_at(st.where[u]) if v != u]
               for u in arriving}  # fmt: skip
    for u in arriving:
        spec = scen.units[u]
        cell = st.where[u]
        mods = rules.landing_modifiers(
            st.turn,
            spec.battalion,
            st.under_fire(cell),
            rules.mixed_landing(spec.division, present[u]),
            st.landing_mod,
        )
        roll = st.dice.d6()
        row = rules.landing_result(scen.beach, roll + mods.total, mods)
        st.landed[u] = True
        st.ashore[u] = scen.column[cell]
        text = row.result if row.result != "none" else "lands in good order"
        if row.initiative:
            text += f", Initiative {row.initiative:+d}"
        if row.engineers:
            text += f", Engineers {row.engineers:+d}"
        st.note(
            "bloody.landing",
            "6.5",
            dice=[roll],
            player="US",
            unit=spec.id,
            square=st.label(cell),
            beach=scen.beach_name[cell],
            roll=roll,
            mods=mods.describe(),
            total=roll + mods.total,
            result=text,
        )
        if row.result == "eliminated":
            eliminate(st, u, "6.5", "Beach Disruption table")
        else:
            if spec.setup in scen.first_wave:
                st.first_wave_ashore += 1
            if row.result == "disrupted":
                disrupt(st, u, "6.5", "Beach Disruption table")
            attach_waiting(st, cell)
        if row.initiative:
            change_rating(st, INITIATIVE, row.initiative, "6.5, 7.4", "landing losses")
        if row.engineers:
            change_rating(st, ENGINEERS, row.engineers, "6.5, 7.4", "landing losses")
