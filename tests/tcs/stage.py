"""Staged battle positions for the TCS Omaha tests (importable: conftest puts this
folder on sys.path).

``data/battle.toml`` starts at 1040 6 June with no landing, two pill boxes and a
rocket pit at the west end and one US bystander far inland; a test puts the units
it needs where it wants them (``state.edit()``), pins the dice and plays the rule.
The routine decisions (routine.py) pass, so the German never acts unless a test
makes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from routine import answer, play_until

from omaha import testing
from omaha.tcs import GAME
from omaha.tcs.actions import UseSetup
from omaha.tcs.core import LOST, Status
from omaha.tcs.state import TcsState

BATTLE = Path(__file__).parent / "data" / "battle.toml"
RELEASE = Path(__file__).parent / "data" / "battle-release.toml"
PILLBOXES = ("PB-01", "PB-02")
PIT = "RP-01"


def staged(
    pieces: Mapping[str, str],
    *,
    fire: Iterable[str] = (),
    steps: Mapping[str, int] | None = None,
    turn: str = "1040 6 June",
    kind: str = "modes",
    player: str = "US",
    scenario: Path = BATTLE,
) -> TcsState:
    """The battle fixture at ``kind`` for ``player`` on ``turn`` (the US Mode
    Determination decision of 1040 unless told), with ``pieces`` (unit -> hex) put
    on the map at full strength (or ``steps``), in move mode unless named in
    ``fire``; the pill boxes and the rocket pit are taken off unless placed."""
    state = testing.start(GAME, scenario, seed=1)
    assert isinstance(state, TcsState)
    state.apply(UseSetup("test"))
    play_until(state, kind, turn, player)
    place(state, pieces, fire=fire, steps=steps, clear=(*PILLBOXES, PIT))
    return state


def place(
    state: TcsState,
    pieces: Mapping[str, str],
    *,
    fire: Iterable[str] = (),
    steps: Mapping[str, int] | None = None,
    clear: Iterable[str] = (),
) -> None:
    """Put units on the map (OK status, full strength unless ``steps``)."""
    firing = set(fire)
    with state.edit():
        for uid in clear:
            if uid not in pieces:
                state.where[state.unit_index(uid)] = LOST
        for uid, label in pieces.items():
            i = state.unit_index(uid)
            state.where[i] = state.cell(label)
            state.steps[i] = (steps or {}).get(uid, state.unit(i).steps)
            state.status[i] = Status.OK
            state.fire_mode[i] = uid in firing or state.unit(i).type.move == "none"
            state.dug_in[i] = False


def to_act(state: TcsState, player: str = "US") -> None:
    """Answer the routine decisions until ``player``'s Action Phase menu."""
    play_until(state, "action", None, player)


def hexes(state: TcsState, *uids: str) -> list[str]:
    out = []
    for uid in uids:
        w = state.where[state.unit_index(uid)]
        out.append(state.label(w) if w >= 0 else "off")
    return out


__all__ = ["BATTLE", "RELEASE", "answer", "hexes", "place", "staged", "to_act"]
