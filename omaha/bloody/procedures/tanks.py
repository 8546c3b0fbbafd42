"""Bloody Omaha Tank tokens (8.3): coming ashore, following a unit, the 5.3.e move."""

from __future__ import annotations

from omaha.kernel.events import register_templates

from ..core import ASIDE, BloodyCore, tank_name

register_templates(
    {
        "bloody.tank.ashore": "{tank} comes ashore at {square}, with {unit} ({why})",
        "bloody.tank.pass": "{tank} stays in {square}{note}",
        "bloody.tank.attach": "{tank} in {square} joins {unit}",
        "bloody.tank.move": "{tank} moves from {start} to {unit} in {end}",
    }
)


def pass_tank(st: BloodyCore, t: int, cell: int, exclude: int) -> None:
    """A tank its unit cannot take along stays in its square with the strongest other
    unit there, or waits there for the next unit (8.3; reading in READINGS.md)."""
    others = [v for v in st.units_at(cell) if v != exclude]
    st.set_tank(t, cell, st.strongest(others) if others else -1)
    note = f" with {st.uid(st.tanks[t][1])}" if others else ", waiting for a unit"
    st.note(
        "bloody.tank.pass",
        "8.3",
        player="US",
        tank=tank_name(t),
        square=st.label(cell),
        note=note,
    )


def leave_tanks(st: BloodyCore, u: int, cell: int) -> None:
    """The tanks of a unit that leaves the map stay behind in its square (8.3)."""
    for t in st.tanks_of(u):
        pass_tank(st, t, cell, exclude=u)


def follow(st: BloodyCore, u: int, old: int, to: int) -> None:
    """A unit moved from ``old`` to ``to``: its tanks follow where a tank may go (8.3)."""
    for t in st.tanks_of(u):
        if st.tank_may_step(old, to):
            st.set_tank(t, to, u)
        else:
            pass_tank(st, t, old, exclude=u)


def attach_waiting(st: BloodyCore, cell: int) -> None:
    """Tanks waiting without a unit in ``cell`` join the strongest unit there (8.3)."""
    for t, (w, unit) in enumerate(st.tanks):
        if w == cell and unit < 0:
            here = st.units_at(cell)
            if here:
                st.set_tank(t, w, st.strongest(here))
                st.note(
                    "bloody.tank.attach",
                    "8.3",
                    player="US",
                    tank=tank_name(t),
                    square=st.label(cell),
                    unit=st.uid(st.tanks[t][1]),
                )


def bring_tank_ashore(st: BloodyCore, cell: int, rule: str, why: str) -> bool:
    """Place a set-aside Tank token on a gapped Beach square with a unit (8.3)."""
    aside = [t for t, (w, _) in enumerate(st.tanks) if w == ASIDE]
    here = st.units_at(cell)
    if not aside or not here or not st.gap.get(cell, False):
        return False
    t = aside[0]
    with_tanks = {unit for w, unit in st.tanks if w >= 0}
    free = [v for v in here if v not in with_tanks] or here
    u = st.strongest(free)
    st.set_tank(t, cell, u)
    st.note(
        "bloody.tank.ashore",
        rule,
        player="US",
        tank=tank_name(t),
        square=st.label(cell),
        unit=st.uid(u),
        why=why,
    )
    return True


def move_tank(st: BloodyCore, t: int, unit: str) -> None:
    """5.3.e, 8.3: a Tank token moves along cleared squares to another unit."""
    u = st.scen.unit_index[unit]
    start = st.tanks[t][0]
    st.set_tank(t, st.where[u], u)
    st.note(
        "bloody.tank.move",
        "5.3.e, 8.3",
        player="US",
        tank=tank_name(t),
        start=st.label(start),
        unit=unit,
        end=st.label(st.where[u]),
    )
