"""Building LnL Omaha positions for rule tests, with pinned action cards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import omaha
from omaha.kernel.dice import Dice
from omaha.lnl.cards import card_for_event, stack_values
from omaha.lnl.state import LnlState

GAME = omaha.load("lnl")


def position(
    placements: Mapping[str, str],
    *,
    scenario: str = "beach",
    stage: str = "fire",
    side: str = "US",
    turn: int = 2,
    ngfs: int = 0,
    dice: Dice | None = None,
    hold: bool = True,
) -> LnlState:
    """A state with exactly these units on the map, at the start of ``stage``.

    With ``hold`` the state stops at the end of each phase (and resolves no
    single-option decision by itself), so a test sees the position it made.
    """
    st = GAME.new_state(scenario, seed=0, dice=dice)
    assert isinstance(st, LnlState)
    st.place_queue = []
    st.due = {}
    for uid, hx in placements.items():
        st.put(st.unit_index(uid), st.cell_of(hx))
    st.turn = turn
    st.side = side
    st.ngfs_left = ngfs
    st._enter_stage(stage)
    if hold:
        st.hold_phases = True
        st.auto_single = False
    refresh(st)
    return st


def refresh(st: LnlState) -> None:
    """Forget cached legal actions after a test changed the state by hand."""
    st._legal = None
    st._legal_set = None


def cards(st: LnlState, *values: int) -> list[str]:
    """Stack action cards of these values on top of the deck (No event cards first)."""
    return stack_values(st.deck, st.scen, list(values))


def event_card(st: LnlState, event: str) -> str:
    card = card_for_event(st.scen, event)
    st.deck.stack([card])
    return card


def play(st: LnlState, *actions: str) -> None:
    """Apply actions written in notation."""
    for text in actions:
        st.apply(GAME.parse_action(text))


def legal(st: LnlState) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def ids(st: LnlState, units: Iterable[int]) -> list[str]:
    return [st.uid(u) for u in units]


def unit(st: LnlState, uid: str) -> int:
    return st.unit_index(uid)
