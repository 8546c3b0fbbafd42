"""What TCS keeps to list and choose its decisions faster agrees with the same thing
worked out afresh, at every decision of seeded games: the order of the legal actions
(sorted through the kernel's notation table), the spotting memo of a position
(``action.sighting_of``: spot ranges, observers, spotted hexes), and the US heuristic's
movement fields (``bots.Fields``). The spotting memo is kept across positions and follows
each change (``Sighting.follow``): the e1-draw games have leaders ashore, whose moves change
the US seers (2.3f); the d-day games fire, smoke and move whole waves."""

from __future__ import annotations

import pytest

from omaha.kernel.actions import sort_key
from omaha.tcs import GAME
from omaha.tcs import bots as tcs_bots
from omaha.tcs.procedures import action
from omaha.tcs.procedures.action import sighting_of
from omaha.tcs.procedures.sight import Sighting
from omaha.tcs.state import TcsState


def kept_sighting_is_fresh(state: TcsState) -> int:
    """The position's spotting memo answers as a new one does, for every enemy hex (the
    memo asked first, as the rules would); returns the hexes compared."""
    compared = 0
    for side, enemy in (("US", "German"), ("German", "US")):
        kept = sighting_of(state, side)
        fresh = Sighting(state, side)
        assert kept.seers() == fresh.observer_cells()
        for b in sorted(state.cells_of(enemy)):
            assert kept.range(b) == fresh.range(b), (side, b)
            assert kept.spotted(b) == fresh.spotted(b), (side, state.label(b))
            compared += 1
    return compared


def kept_answers_are_fresh(state: TcsState) -> int:
    """The stacks that may fire kept for the position, and the overwatch answers kept for
    the trigger awaiting them, are those worked out now (1 when there was a trigger)."""
    for side in ("US", "German"):
        assert action.kept_fire_reach(state, side) == action.fire_reach(state, side)
    if state.trigger is None:
        return 0
    assert action.overwatch_answers(state) == action.fresh_overwatch_answers(state, state.trigger)
    return 1


@pytest.mark.parametrize(("scenario", "seed"), [("e1-draw", 1), ("e1-draw", 2), ("landing", 3)])
def test_kept_tables_match_fresh_in_random_games(scenario: str, seed: int) -> None:
    state = GAME.new_state(scenario, seed=seed)
    assert isinstance(state, TcsState)
    bots = {p: GAME.bots["random"](seed=seed * 11 + k) for k, p in enumerate(GAME.players)}
    compared = triggers = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert list(legal) == sorted(legal, key=sort_key)
        compared += kept_sighting_is_fresh(state)
        triggers += kept_answers_are_fresh(state)
        state.apply(bots[state.current_player() or "US"].choose(state))
    assert compared > 1000 and triggers > 10  # enemies in sight, overwatch offered


@pytest.mark.parametrize(
    ("scenario", "seed", "decisions"), [("e1-draw", 4, 5000), ("d-day", 5, 2500)]
)
def test_kept_sighting_matches_fresh_in_heuristic_games(
    scenario: str, seed: int, decisions: int
) -> None:
    state = GAME.new_state(scenario, seed=seed)
    assert isinstance(state, TcsState)
    bot = tcs_bots.HeuristicBot(seed=seed)
    compared = followed = triggers = 0
    for _ in range(decisions):
        if state.is_terminal():
            break
        kept = state.lasting.get(("sighting", "US"))
        compared += kept_sighting_is_fresh(state)
        triggers += kept_answers_are_fresh(state)
        followed += kept is not None and kept is state.lasting.get(("sighting", "US"))
        state.apply(bot.choose(state))
    assert compared > 1000 and followed > 100  # memos were followed, not only made anew
    assert triggers > 10


class CheckedFields(tcs_bots.Fields):
    """The bot's kept fields, each checked against :func:`bots.field` worked out now."""

    asked = 0

    def field(self, s: object, goals: list[int], *, vehicle: bool, side: str) -> dict[int, int]:
        got = super().field(s, goals, vehicle=vehicle, side=side)  # type: ignore[arg-type]
        assert got == tcs_bots.field(s, goals, vehicle=vehicle, side=side)  # type: ignore[arg-type]
        CheckedFields.asked += 1
        return got


@pytest.mark.parametrize("scenario", ["e1-draw"])
def test_kept_fields_match_fresh_in_heuristic_games(scenario: str) -> None:
    state = GAME.new_state(scenario, seed=2)
    bot = tcs_bots.HeuristicBot(seed=5)
    us = bot.bots["US"]
    assert isinstance(us, tcs_bots.HeuristicUS)
    us.fields = CheckedFields()
    CheckedFields.asked = 0
    while not state.is_terminal():
        state.apply(bot.choose(state))
    assert CheckedFields.asked > 50
