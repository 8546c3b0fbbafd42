"""Building LnL Omaha positions for rule tests, with pinned action cards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from omaha import testing
from omaha.lnl import GAME
from omaha.lnl.components.deck import card_for_event, stack_values
from omaha.lnl.core import Phase
from omaha.lnl.state import LnlState

#: The beach scenario with the counter values the rule tests' worked examples were
#: written with (before the calibration of issue 13; see the file's comment).
EXAMPLES = str(Path(__file__).parent / "data" / "beach_before_calibration.toml")


def position(
    placements: Mapping[str, str],
    *,
    scenario: str = EXAMPLES,
    phase: Phase | str = Phase.FIRE,
    side: str = "US",
    turn: int = 2,
    ngfs: int = 0,
    dice: Iterable[int] | None = None,
    hold: bool = True,
) -> LnlState:
    """A state with exactly these units on the map, at the start of ``phase``.

    With ``hold`` the state stops at the end of each phase (and resolves no
    single-option decision by itself), so a test sees the position it made.
    ``dice`` pins every roll and card pick from the start (set-up included).
    """
    st = testing.start(GAME, scenario, seed=0, dice=dice)
    assert isinstance(st, LnlState)
    with st.edit():
        st.place_queue = []
        st.due = {}
        for uid, hx in placements.items():
            st.put(st.unit_index(uid), st.cell_of(hx))
        st.turn = turn
        st.side = side
        st.ngfs_left = ngfs
        st.enter_phase(Phase(phase))
        if hold:
            st.hold_phases = True
            st.auto_single = False
    return st


def cards(st: LnlState, *values: int) -> list[str]:
    """Stack action cards of these values on top of the deck (No event cards first)."""
    return stack_values(st.deck, st.scen, list(values))


def event_card(st: LnlState, event: str) -> str:
    card = card_for_event(st.scen, event)
    st.deck.stack([card])
    return card


def play(st: LnlState, *actions: str) -> None:
    """Apply actions written in notation."""
    testing.play(st, *actions)


def legal(st: LnlState) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def ids(st: LnlState, units: Iterable[int]) -> list[str]:
    return [st.uid(u) for u in units]


def unit(st: LnlState, uid: str) -> int:
    return st.unit_index(uid)
