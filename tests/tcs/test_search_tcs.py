"""What the search agent reads of TCS Omaha: evaluate (the scenario's victory points
and levels, reconstructed) on staged positions, and which decisions it searches."""

from __future__ import annotations

import pytest
from stage import RELEASE, place, staged

from omaha.tcs import GAME, view
from omaha.tcs.core import LOST


def test_the_level_the_points_would_earn_now_and_their_place() -> None:
    """The d-day conditions of the fixture (levels 35, 10, 0 and below): 33 points are
    a US marginal victory (1/2 up the US levels: 0.75 of the level term) and lie 43 of
    the 45 points from 10 below the lowest threshold (0) to the highest (35)."""
    state = staged({"E/2/16.1": "A12.05"}, scenario=RELEASE)
    start = state.evaluate("US")
    village = state.scenario.beach.villages["St-Laurent"]
    place(state, {"E/2/16.1": state.label(village[0])})
    with state.edit():
        state.exits = {"E-1": "1140 6 June", "E-3": "1240 6 June"}
        state.stats["steps_lost_infantry"] = 85
        for i in state.scenario.german.formation("2./916").units:
            state.where[i] = LOST
    us = GAME.evaluate(state, "US")
    assert us == pytest.approx(view.EVAL_LEVEL * 0.75 + view.EVAL_POINTS * 43 / 45)
    assert state.evaluate("German") == pytest.approx(1.0 - us)
    assert us > start
    with state.edit():
        state.stats["steps_lost_infantry"] = 85 + 40  # one point more lost
    assert state.evaluate("US") == pytest.approx(us - view.EVAL_POINTS / 45)


def test_moves_and_fire_are_searched_set_up_placements_are_not() -> None:
    state = GAME.new_state("e1-draw", seed=5)
    bot = GAME.bots["heuristic"](seed=3)
    searched: dict[str, bool] = {}
    while not state.is_terminal():
        pending = state.pending
        assert pending is not None
        searched.setdefault(pending.kind, state.worth_search())
        state.apply(bot.choose(state))
    assert searched["pillbox"] is False and searched["test"] is False
    assert searched["move"] and searched["fire"] and searched["action"]
