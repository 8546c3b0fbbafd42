"""The heuristics' ranking hook (``ranked(state)``), which the search agent's paired
comparison takes its candidates from (staged choices: tests/bloody/test_search_paired_bloody.py)."""

from __future__ import annotations

from typing import Any

import pytest

import omaha
from omaha.kernel.protocol import State


def heuristic_states(name: str, scenario: str, seed: int, count: int) -> list[State[Any]]:
    """The first ``count`` searched decisions with a choice of a heuristic game."""
    game = omaha.load(name)
    bots = {side: game.bots[b](seed=seed) for side, b in game.lineup("heuristic").items()}
    state = game.new_state(scenario, seed=seed)
    out: list[State[Any]] = []
    while not state.is_terminal() and len(out) < count:
        if state.worth_search() and len(state.legal_actions()) > 1:
            out.append(state.clone())
        state.apply(bots[state.current_player()].choose(state))
    return out


@pytest.mark.parametrize(
    ("name", "scenario", "count"),
    # D-Day at Omaha Beach searches the landings first (ranked by risk, often alike)
    [("bloody", "solo", 40), ("landing_table", "omaha", 120)],
)
def test_the_ranking_is_every_legal_action_the_heuristic_choice_first(
    name: str, scenario: str, count: int
) -> None:
    states = heuristic_states(name, scenario, seed=3, count=count)
    assert len(states) == count
    game = omaha.load(name)
    reordered = 0
    for state in states:
        bot = game.bots["heuristic"](seed=1)
        ranked = [str(a) for a in bot.ranked(state)]  # type: ignore[attr-defined]
        legal = [str(a) for a in state.legal_actions()]
        assert ranked[0] == str(game.bots["heuristic"](seed=1).choose(state))
        assert sorted(ranked) == sorted(legal) and len(set(ranked)) == len(ranked)
        reordered += ranked[1:3] != [t for t in legal if t != ranked[0]][:2]
    assert reordered > 10  # the runners-up are the heuristic's, not the listing's


def _ranked_in_step(
    name: str, scenario: str, seed: int, *, choice_listed: bool, searched_only: bool
) -> tuple[int, int]:
    """Two heuristics of one seed in step: one plays, the other ranks every decision of
    the game (both sides). Asserts the ranking's first is the player's choice and the
    rest are the legal actions, each once (the whole listing with the choice in it, when
    ``choice_listed``); returns the decisions and how often the runner-up was not the
    listing's next (counted where the search looks, when ``searched_only``)."""
    game = omaha.load(name)
    state = game.new_state(scenario, seed=seed)
    player, ranker = game.bots["heuristic"](seed=seed), game.bots["heuristic"](seed=seed)
    decisions = reordered = 0
    while not state.is_terminal():
        choice = player.choose(state)
        ranked = [str(a) for a in ranker.ranked(state)]  # type: ignore[attr-defined]
        legal = [str(a) for a in state.legal_actions()]
        assert ranked[0] == str(choice)
        assert len(set(ranked)) == len(ranked)
        if choice_listed:
            assert sorted(ranked) == sorted(legal)
        else:
            assert set(ranked) - {ranked[0]} == set(legal) - {ranked[0]}
        if (state.worth_search() or not searched_only) and len(legal) > 2:
            reordered += ranked[1] != next(t for t in legal if t != ranked[0])
        state.apply(choice)
        decisions += 1
    return decisions, reordered


@pytest.mark.parametrize("seed", [1, 2])
def test_lnl_ranked_is_the_heuristic_choice_first_at_every_decision(seed: int) -> None:
    """A second heuristic of the seed ranks every decision of a beach game in step with
    the one that plays; its first is the player's choice, so ranking changes nothing the
    heuristic would choose, then or later."""
    decisions, reordered = _ranked_in_step(
        "lnl", "beach", seed, choice_listed=False, searched_only=True
    )
    assert decisions > 300
    assert reordered > 50  # the runners-up are the heuristic's, not the listing's


def test_tcs_ranked_is_the_heuristic_choice_first_at_every_decision() -> None:
    """As for LnL: a second heuristic of the seed ranks every decision of an e1-draw game
    (both sides) in step with the one that plays; its first is always the choice."""
    decisions, reordered = _ranked_in_step(
        "tcs", "e1-draw", 4, choice_listed=True, searched_only=False
    )
    assert decisions > 300
    assert reordered > 20  # the moves' runners-up are by the goal's field
