"""The same words for the same thing in every game (DESIGN.md, "Vocabulary"): the place in
the sequence of play is ``current_phase``, a ``Phase`` StrEnum of the game's core module,
whose text is the protocol's ``phase``; a pending decision's kind is a StrEnum or text; and
where a unit is lives in ``where``."""

from __future__ import annotations

from enum import StrEnum

import pytest

import omaha

GAMES = ["lnl", "tcs", "bloody", "landing_table"]


def _scenario(name: str) -> str:
    """A scenario whose first few hundred decisions leave the set-up (TCS's landing and
    d-day place hundreds of units first)."""
    return "e1-draw" if name == "tcs" else omaha.load(name).scenarios()[0]


@pytest.mark.parametrize("name", GAMES)
def test_the_sequence_of_play_is_a_phase_strenum_of_the_core(name: str) -> None:
    game = omaha.load(name)
    state = game.new_state(_scenario(name), seed=3)
    bots = {p: game.bots["random"](seed=i) for i, p in enumerate(game.players)}
    seen: set[StrEnum] = set()
    for _ in range(3000):
        if state.is_terminal() or len(seen) >= 3:
            break
        phase = state.current_phase
        assert isinstance(phase, StrEnum) and type(phase).__name__ == "Phase"
        assert type(phase).__module__ == f"omaha.{name}.core"
        seen.add(phase)
        state.apply(bots[state.current_player()].choose(state))
    assert len(seen) >= 3, f"{name}: a random game's first decisions stay in {seen}"


@pytest.mark.parametrize("name", GAMES)
def test_the_phase_is_named_from_the_current_phase(name: str) -> None:
    game = omaha.load(name)
    state = game.new_state(_scenario(name), seed=5)
    bots = {p: game.bots["random"](seed=i) for i, p in enumerate(game.players)}
    names: dict[StrEnum, set[str]] = {}
    for _ in range(1000):
        if state.is_terminal():
            break
        names.setdefault(state.current_phase, set()).add(state.phase)
        state.apply(bots[state.current_player()].choose(state))
    # one Phase may be told apart by the side (LnL's "US Fire"), but one name never
    # stands for two phases
    owners: dict[str, StrEnum] = {}
    for phase, texts in names.items():
        for text in texts:
            assert owners.setdefault(text, phase) == phase, (text, phase)


@pytest.mark.parametrize("name", GAMES)
def test_where_a_unit_is_is_where(name: str) -> None:
    game = omaha.load(name)
    state = game.new_state(game.scenarios()[0], seed=1)
    where = getattr(state, "where", None)
    if where is None:  # D-Day at Omaha Beach keeps it on each US unit
        assert all(isinstance(u.where, int) for u in state.us.values())
    else:
        assert len(where) > 0
    assert not hasattr(state, "loc") and not hasattr(state, "stage")
