"""Bloody Omaha: drift and landing (5.4, 5.5, 6.0).

Every unit still at sea rolls on the Drift table and is carried east, off the map
if the current takes it past the last square (6.2); then every unit at sea moves
one square toward the beach (6.3). Units reaching a Beach square roll once on the
Beach Disruption table (6.5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omaha.kernel.events import register_templates

from . import effects as fx
from . import rules

if TYPE_CHECKING:
    from .state import BloodyState

register_templates(
    {
        "bloody.drift": "{unit} in {square}: drift d6 {roll} {mods} = {total}: {result}",
        "bloody.forward": "forward toward the beach: {moves}",
        "bloody.landing": "{unit} lands on {square} ({beach}): "
        "d6 {roll} {mods} = {total}: {result}",
    }
)


def drift_rolls(st: BloodyState) -> None:
    """5.4, 6.2, 6.3: roll drift for every unit at sea, then move each one forward."""
    st._phase = "Drift"
    for u in st.at_sea():
        spec = st.scen.units[u]
        mod = rules.drift_modifier(st.turn, spec.battalion, st.drift_mod)
        roll = st.dice.d6()
        east = rules.drift_squares(st.scen.drift, roll + mod)
        parts = []
        if st.turn <= 4:
            parts.append("+1 turn 1-4")
        if spec.battalion:
            parts.append("-2 battalion")
        if st.drift_mod:
            parts.append(f"{st.drift_mod:+d} card")
        st.note(
            "bloody.drift",
            "6.2",
            dice=[roll],
            player="US",
            unit=spec.id,
            square=st.board.labels[st.where[u]],
            roll=roll,
            mods=", ".join(parts) or "no modifier",
            total=roll + mod,
            result=f"{east} square(s) east" if east else "no drift",
        )
        if east:
            drift_unit(st, u, east, "drift (6.2)")
    arriving: list[int] = []
    moves = []
    for u in st.at_sea():
        start = st.where[u]
        ahead = st.scen.forward[start]
        st.where[u] = ahead
        moves.append(f"{st.scen.units[u].id} {st.board.labels[start]}->{st.board.labels[ahead]}")
        if ahead not in st.scen.channel:
            arriving.append(u)
    if moves:
        st.note("bloody.forward", "6.3", player="US", moves=moves)
    landing(st, arriving)


def drift_unit(st: BloodyState, u: int, squares: int, why: str) -> None:
    """6.2, 6.2.b: move a unit at sea east; off the map it is eliminated."""
    cell = st.where[u]
    for _ in range(squares):
        nxt = st.scen.east.get(cell)
        if nxt is None:
            fx.eliminate(st, u, "6.2.b", f"{why}: drifted off the map")
            return
        cell = nxt
    st.where[u] = cell


def landing(st: BloodyState, arriving: list[int]) -> None:
    """5.5, 6.5: each unit reaching the Beach rolls once on the Beach Disruption table."""
    st._phase = "Landing"
    scen = st.scen
    present = {u: [scen.units[v].division for v in fx.units_at(st, st.where[u]) if v != u]
               for u in arriving}  # fmt: skip
    for u in arriving:
        spec = scen.units[u]
        cell = st.where[u]
        mods = rules.landing_modifiers(
            st.turn,
            spec.battalion,
            fx.under_fire(st, cell),
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
            square=st.board.labels[cell],
            beach=scen.beach_name[cell],
            roll=roll,
            mods=mods.describe(),
            total=roll + mods.total,
            result=text,
        )
        if row.result == "eliminated":
            fx.eliminate(st, u, "6.5", "Beach Disruption table")
        else:
            if spec.setup in scen.first_wave:
                st.first_wave_ashore += 1
            if row.result == "disrupted":
                fx.disrupt(st, u, "6.5", "Beach Disruption table")
            fx.attach_waiting(st, cell)
        if row.initiative:
            fx.change_rating(st, "Initiative", row.initiative, "6.5, 7.4", "landing losses")
        if row.engineers:
            fx.change_rating(st, "Engineers", row.engineers, "6.5, 7.4", "landing losses")
    st._end_turn()
