"""Answering the routine decisions of a TCS game in tests (importable: conftest puts
this folder on sys.path): everyone passes, so scripted dice only meet the rolls a
test means to pin."""

from __future__ import annotations

from omaha.kernel.actions import Action
from omaha.tcs.actions import (
    AirLoadout,
    Back,
    EndAction,
    EndConversions,
    EndMissions,
    EndModes,
    EndOverdraft,
    EndSheets,
    EndSmoke,
    EndTests,
    EndTransports,
    HoldStrike,
    NoOverwatch,
    NoRelease,
)
from omaha.tcs.state import TcsState

#: decisions a passing player answers the same way every time
PASS: dict[str, Action] = {
    "action": EndAction(),
    "transports": EndTransports(),
    "air": AirLoadout(0),
    "smoke": EndSmoke(),
    "strike": HoldStrike(),
    "overdraft": EndOverdraft(),
    "convert": EndConversions(),
    "missions": EndMissions(),
    "op sheets": EndSheets(),
    "test": EndTests(),
    "overwatch": NoOverwatch(),
    "release": NoRelease(),
    "modes": EndModes(),
    "choose": Back(),
}
#: decisions whose first legal action is as good as any
FIRST = ("tide", "land", "entry")
#: the decisions of the new battle rules, passed over while a test waits for another
BATTLE = (
    "convert",
    "missions",
    "op sheets",
    "modes",
    "test",
    "overwatch",
    "release",
    "entry",
)


def answer(state: TcsState) -> None:
    assert state.wait is not None
    w = str(state.wait[0])
    if w in PASS and PASS[w] in state.legal_actions():
        state.apply(PASS[w])
    elif w in FIRST:
        state.apply(state.legal_actions()[0])
    else:  # pragma: no cover - a test scripted the wrong path
        raise AssertionError(f"unexpected decision {w}")


def settle(state: TcsState) -> None:
    """Pass over the battle's decisions and the German's action phase."""
    while state.wait is not None and (
        str(state.wait[0]) in BATTLE or (state.wait[0] == "action" and state.wait[1] == "German")
    ):
        answer(state)


def play_until(state: TcsState, kind: str, turn: str | None = None, player: str = "US") -> None:
    """Answer the routine decisions until ``kind`` is pending for ``player`` (on ``turn``)."""
    while not state.is_terminal():
        assert state.wait is not None
        if (
            state.wait[0] == kind
            and state.wait[1] == player
            and (turn is None or state.turn_label == turn)
        ):
            return
        answer(state)
    raise AssertionError(f"the game ended before {kind}")
