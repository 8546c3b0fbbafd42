"""Bloody Omaha: why an action is not legal now, in a player's words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from omaha.kernel.actions import Action

from . import effects as fx
from . import rules
from .actions import Attack, Engineers, Move, MoveTank, PlayCard, PlayCardAt, Rally, Release
from .effects import BOX, DEAD

if TYPE_CHECKING:
    from .state import BloodyState

ACTIVATE = "activation"


def explain(st: BloodyState, action: Action) -> str | None:
    """A player's explanation of why an action is not legal now, where we can say more."""
    scen = st.scen
    if st.result is not None:
        return None
    unit = getattr(action, "unit", None)
    if isinstance(action, Move | Rally | Release) and unit not in scen.unit_index:
        return f"there is no unit {unit!r}"
    if (
        isinstance(action, Move | Rally | Attack | Engineers | MoveTank | Release)
        and st.step != ACTIVATE
    ):
        return f"'{action}' is an Activation phase action (now: {st.phase})"
    if (
        isinstance(action, Move | Rally | Attack | Engineers | MoveTank | Release)
        and st.init_token < 1
    ):
        return "no Initiative left this turn (5.3)"
    if isinstance(action, Move):
        u = scen.unit_index[action.unit]
        w = st.where[u]
        if w == DEAD:
            return f"{action.unit} has been eliminated"
        if w == BOX:
            return f"{action.unit} is in the Reinforcements box: release it first (5.3.f)"
        if w in scen.channel:
            return f"{action.unit} is still at sea and cannot act until it lands (3.2.a)"
        if not st.board.has(action.square):
            return f"{action.square!r} is not a square of the map"
        to = st.board.cell(action.square)
        if to not in scen.land_neighbours[w]:
            return (
                f"{action.square} is not next to {st.board.labels[w]} (orthogonal moves only, 8.1)"
            )
        if fx.known_numerical(st, to):
            return f"{action.square} holds revealed German tokens: attack them (8.1.a, 8.4)"
    if isinstance(action, Release) and st.turn < rules.FIRST_RELEASE_TURN:
        return f"reinforcements may be released from turn {rules.FIRST_RELEASE_TURN} (5.3.f)"
    if isinstance(action, Engineers) and action.assets > st.eng_token:
        return f"only {st.eng_token} Engineer asset(s) left this turn (8.5)"
    if (
        isinstance(action, Attack)
        and st.board.has(action.target)
        and not fx.known_numerical(st, st.board.cell(action.target))
    ):
        return f"{action.target} shows no revealed numerical token to attack (5.3.b)"
    if isinstance(action, PlayCard | PlayCardAt) and action.card not in st.hand:
        return f"{action.card} is not in your hand"
    if (
        isinstance(action, Rally)
        and unit in scen.unit_index
        and not st.disrupted[scen.unit_index[action.unit]]
    ):
        return f"{action.unit} is not disrupted"
    return None
