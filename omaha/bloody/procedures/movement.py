"""Bloody Omaha moving into a square (5.3.a, 8.1, 8.2): revealing and resolving tokens."""

from __future__ import annotations

from omaha.kernel.events import register_templates

from .. import rules
from ..components.tokens import EVENT, SNIPER, STUG
from ..core import LOST, BloodyCore, tank_name
from .events import random_event
from .ratings import INITIATIVE, change_token
from .tokens import remove_token, reveal
from .units import disrupt, hit, relocate

register_templates(
    {
        "bloody.move": "{unit} moves {start} -> {end}",
        "bloody.blocked": "{unit} finds numerical tokens in {square} and stays in {start}",
        "bloody.mines": "{unit} crosses the minefield in {square}: d6 {roll}: {result}",
        "bloody.tank.lost": "{tank} with {unit} is knocked out ({why})",
    }
)

#: 8.2: the order in which the non-numerical tokens of a square are resolved.
_ORDER = {SNIPER: 0, STUG: 1, EVENT: 2}


def move_into(st: BloodyCore, u: int, to: int) -> None:
    """5.3.a, 8.1, 8.2: move into an adjacent square, revealing and resolving tokens.

    Readings (READINGS.md, "Moving into German squares"): a unit that reveals
    numerical tokens stays where it was, disrupted (8.1.a); non-numerical tokens are
    resolved first and leave the map, Mines stay (8.2).
    """
    spec = st.scen.units[u]
    start = st.where[u]
    reveal(st, to, "8.1", f"{spec.id} moves in")
    faces = {f for f, _ in st.tokens.get(to, ()) if f in _ORDER}
    for face in sorted(faces, key=lambda f: _ORDER[f]):
        while st.where[u] >= 0:
            k = next((k for k, (f, _) in enumerate(st.tokens.get(to, ())) if f == face), None)
            if k is None:
                break
            _resolve(st, u, to, k, face)
    if st.where[u] < 0:
        return
    if st.numerical(to):
        st.note(
            "bloody.blocked",
            "8.1.a",
            player="US",
            unit=spec.id,
            square=st.label(to),
            start=st.label(start),
        )
        disrupt(st, u, "8.1.a", f"numerical tokens in {st.label(to)}")
        return
    st.note("bloody.move", "5.3.a", player="US", unit=spec.id, start=st.label(start),
            end=st.label(to))  # fmt: skip
    relocate(st, u, to)
    if st.mines_present(to):
        _cross_mines(st, u, to)


def _resolve(st: BloodyCore, u: int, to: int, k: int, face: str) -> None:
    """8.1.b, 8.1.d, 8.1.e: one Sniper, StuG or Random Event token met by a moving unit."""
    if face == SNIPER:
        change_token(st, INITIATIVE, -1, "8.1.d", "a sniper")
        remove_token(st, to, k, "8.1.d", "the Sniper has fired")
    elif face == STUG:
        own = st.tanks_of(u)
        if own:
            st.set_tank(own[0], LOST, -1)
            st.note(
                "bloody.tank.lost",
                "8.1.e",
                player="US",
                tank=tank_name(own[0]),
                unit=st.uid(u),
                why="a StuG",
            )
        else:
            disrupt(st, u, "8.1.e", "a StuG")
        remove_token(st, to, k, "8.1.e", "the StuG has fired")
    else:
        remove_token(st, to, k, "8.1.b", "the Random Event is resolved")
        random_event(st, st.scen.kind[to], [u], to, to, "8.1.b")


def _cross_mines(st: BloodyCore, u: int, to: int) -> None:
    """8.1.c: Mines disrupt a unit entering on 1-3 (eliminate it if already disrupted)."""
    roll = st.dice.d6()
    bad = roll <= rules.MINES_HIT_MAX
    was = st.disrupted[u]
    st.note(
        "bloody.mines",
        "8.1.c",
        dice=[roll],
        player="US",
        unit=st.uid(u),
        square=st.label(to),
        roll=roll,
        result=("eliminated" if was else "disrupted") if bad else "no loss",
    )
    if bad:
        hit(st, u, "8.1.c", "Mines")
