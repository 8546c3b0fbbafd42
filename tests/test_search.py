"""The kernel's search agent (omaha.kernel.search) in every game: registered where the
heuristic plays, the heuristic at budget 0, a function of its seed and of what its side
saw, and whole games at a tiny budget."""

from __future__ import annotations

import json
from typing import Any

import pytest
from toygame import GAME as TOY

import omaha
from omaha.kernel.protocol import Bot, State
from omaha.kernel.search import SearchBot

#: One scenario per game, short enough for the fast tests.
SCENARIOS = [("bloody", "solo"), ("landing_table", "omaha"), ("lnl", "beach"), ("tcs", "e1-draw")]


def bots_for(game: Any, lineup: dict[str, str], seed: int, **search: Any) -> dict[str, Bot]:
    """Each side's bot, seeded as ``omaha compare`` seeds them (sides sorted)."""
    out: dict[str, Bot] = {}
    for i, (side, name) in enumerate(sorted(lineup.items())):
        if name == "search":
            out[side] = SearchBot(game, seed + i, **search)
        else:
            out[side] = game.bots[name](seed=seed + i)
    return out


def play(game: Any, scenario: str, bots: dict[str, Bot], seed: int) -> State[Any]:
    state = game.new_state(scenario, seed=seed)
    while not state.is_terminal():
        player = state.current_player()
        state.apply(bots[player].choose(state))
    return state


def searched_decision(game: Any, scenario: str, seed: int, skip: int = 3) -> State[Any]:
    """A state of a heuristic game at its ``skip``-th decision worth a search."""
    lineup = game.lineup("heuristic")
    bots = bots_for(game, lineup, seed)
    state = game.new_state(scenario, seed=seed)
    seen = 0
    while not state.is_terminal():
        if state.worth_search() and len(state.legal_actions()) > 2:
            if seen == skip:
                return state
            seen += 1
        state.apply(bots[state.current_player()].choose(state))
    raise AssertionError(f"no searched decision in {game.name} {scenario}")


@pytest.mark.parametrize("name", ["bloody", "landing_table", "lnl", "tcs"])
def test_search_plays_the_sides_the_heuristic_plays(name: str) -> None:
    game = omaha.load(name)
    assert "search" in game.bots
    sides = game.bot_sides("search")
    assert sides == game.bot_sides("heuristic")
    lineup = game.lineup("search")
    faced = game.lineup("heuristic")
    for side in game.players:
        assert lineup[side] == ("search" if side in sides else faced[side])
    assert isinstance(game.bots["search"](seed=3), SearchBot)


def test_lnl_search_plays_both_sides_as_the_heuristic_does() -> None:
    """The LnL heuristic plays the German too, so the search does; the solitaire German
    still faces the US heuristic."""
    game = omaha.load("lnl")
    assert game.lineup("search") == {"US": "search", "German": "search"}
    assert game.lineup("solitaire") == {"US": "heuristic", "German": "solitaire"}


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS)
def test_budget_zero_plays_the_heuristics_game(name: str, scenario: str) -> None:
    game = omaha.load(name)
    heuristic = play(game, scenario, bots_for(game, game.lineup("heuristic"), 11), seed=4)
    searched = play(game, scenario, bots_for(game, game.lineup("search"), 11, iterations=0), seed=4)
    assert [str(a) for a in searched.actions] == [str(a) for a in heuristic.actions]
    assert searched.outcome() == heuristic.outcome()


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS)
def test_a_choice_is_a_function_of_the_seed(name: str, scenario: str) -> None:
    game = omaha.load(name)
    state = searched_decision(game, scenario, seed=2)
    first = SearchBot(game, 5, iterations=12)
    choice = first.choose(state)
    assert choice in state.legal_actions()
    assert first.stats.searched == 1 and first.stats.iterations == 12
    again = SearchBot(game, 5, iterations=12).choose(state.clone())
    assert str(again) == str(choice)


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS)
def test_it_never_reads_what_its_side_cannot_see(name: str, scenario: str) -> None:
    """Two resamples of a state (hidden parts drawn afresh, new dice) are worlds the
    player cannot tell apart from it: the agent chooses the same in all three."""
    game = omaha.load(name)
    state = searched_decision(game, scenario, seed=6)
    player = state.current_player()
    assert player is not None
    one, two = state.resample(player, 101), state.resample(player, 202)
    assert one.to_json() != two.to_json()  # other dice, at least
    chosen = {str(SearchBot(game, 9, iterations=10).choose(s)) for s in (state, one, two)}
    assert len(chosen) == 1


def test_a_seconds_budget_searches_at_least_once() -> None:
    game = omaha.load("bloody")
    state = searched_decision(game, "solo", seed=1)
    bot = SearchBot(game, 1, seconds=0.02)
    assert bot.choose(state) in state.legal_actions()
    assert bot.stats.iterations >= 1


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="iterations"):
        SearchBot(omaha.load("bloody"), 1, iterations=-1)


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS)
def test_a_whole_game_at_a_tiny_budget(name: str, scenario: str) -> None:
    game = omaha.load(name)
    bots = bots_for(game, game.lineup("search"), 3, iterations=2, depth=6)
    state = play(game, scenario, bots, seed=8)
    assert state.is_terminal() and state.outcome() is not None
    agents = [b for b in bots.values() if isinstance(b, SearchBot)]
    assert agents
    for bot in agents:
        assert 0 < bot.stats.searched < bot.stats.decisions  # some steps are not searched
        assert bot.stats.iterations == 2 * bot.stats.searched
    for player in game.players:
        assert 0.0 <= state.evaluate(player) <= 1.0


@pytest.mark.slow
def test_a_whole_tcs_d_day_at_a_tiny_budget() -> None:
    game = omaha.load("tcs")
    bots = bots_for(game, game.lineup("search"), 3, iterations=1, depth=4)
    assert play(game, "d-day", bots, seed=8).is_terminal()


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS)
def test_evaluate_is_in_range_and_zero_sum_for_two_sides(name: str, scenario: str) -> None:
    game = omaha.load(name)
    state = searched_decision(game, scenario, seed=3, skip=10)
    values = [state.evaluate(p) for p in game.players]
    assert all(0.0 <= v <= 1.0 for v in values)
    if len(game.players) == 2:
        assert values[0] + values[1] == pytest.approx(1.0)


# -- a game that hides something: the toy landing's machine gun --------------------------
class ToyScored(type(TOY)):  # type: ignore[misc]
    """The toy landing with an evaluation: the share of US squads alive (a US victory
    1, a German one 0), so cut rollouts tell good moves from bad ones."""

    def evaluate(self, state: State[Any], player: str) -> float:
        outcome = state.outcome()
        if outcome is not None and outcome.winner is not None:
            us = 1.0 if outcome.winner == "US" else 0.0
        else:
            squads = state.squads  # type: ignore[attr-defined]
            us = sum(1 for c in squads.values() if c >= 0) / len(squads)
        return us if player == "US" else 1.0 - us


def toy_us_decisions(seeds: range) -> list[State[Any]]:
    """US decisions of random toy games while some German token is still unrevealed."""
    game = ToyScored()
    out = []
    for seed in seeds:
        state = game.new_state(seed=seed)
        bot = game.bots["random"](seed=seed)
        while not state.is_terminal():
            unrevealed = set(state.hidden) - state.revealed  # type: ignore[attr-defined]
            choices = len(state.legal_actions())
            if state.current_player() == "US" and len(unrevealed) > 1 and choices > 2:
                out.append(state.clone())
            state.apply(bot.choose(state))
    return out


def toy_choices(states: list[State[Any]], resample: bool = True) -> list[bool]:
    """For each state, whether the agent chose alike in it and two worlds made from it
    with the machine gun dealt anew (resamples; or, to show the test's power, plain
    clones with the tokens dealt anew, which an agent that reads them tells apart)."""
    same = []
    for state in states:
        one, two = state.resample("US", 101), state.resample("US", 202)
        assert one.information_state("US") == state.information_state("US")
        chosen = {
            str(SearchBot(state.game, 9, iterations=24).choose(s if resample else s.clone()))
            for s in (state, one, two)
        }
        same.append(len(chosen) == 1)
    return same


def test_the_toy_agent_chooses_alike_whatever_the_hidden_tokens() -> None:
    states = toy_us_decisions(range(4))
    assert len(states) >= 8
    worlds = [(s.resample("US", 101), s.resample("US", 202)) for s in states]
    assert any(a.hidden != b.hidden for a, b in worlds)  # type: ignore[attr-defined]
    assert all(toy_choices(states))


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS)
def test_a_world_is_a_function_of_what_the_player_saw_and_the_seed(
    name: str, scenario: str
) -> None:
    """The agent searches ``resample(player, seed)`` worlds: made from a state or from
    another world of it (same information state, other hidden parts), the same seed
    must give the same world, or the search would depend on the hidden truth (a
    redraw that deals the hidden pool in the order it really lies fails this)."""
    game = omaha.load(name)
    for skip in (0, 4):
        state = searched_decision(game, scenario, seed=5, skip=skip)
        for player in game.players:
            other = state.resample(player, 404)
            assert world(state, player) == world(other, player)


def test_a_toy_world_is_a_function_of_what_the_us_saw_and_the_seed() -> None:
    for state in toy_us_decisions(range(2)):
        other = state.resample("US", 404)
        assert world(state, "US") == world(other, "US")


def world(state: State[Any], player: str) -> dict[str, Any]:
    """The snapshot of ``state.resample(player, 7)``, but the record of the dice already
    rolled (a world made from a world has the first world's deal in it too)."""
    snapshot: dict[str, Any] = json.loads(state.resample(player, 7).to_json())
    del snapshot["rng"]["drawn"]
    return snapshot


# -- the tools: --bot search ----------------------------------------------------------------
def test_omaha_play_and_compare_take_the_search_bot(capsys: pytest.CaptureFixture[str]) -> None:
    from omaha import cli

    assert cli.main(["play", "bloody", "--seed", "2", "--bot", "search", "--quiet"]) == 0
    capsys.readouterr()
    args = ["compare", "--game", "bloody", "--runs", "1", "--bot", "search"]
    assert cli.main([*args, "--executor", "serial", "--quiet"]) == 0
    assert "US=search" in capsys.readouterr().out


def test_a_session_plays_search_for_a_side_against_a_person() -> None:
    from omaha.session import Session

    session = Session("lnl", "beach", seed=3, bots={"US": "search"})
    for _ in range(40):  # the person takes the first choice; the search US answers
        if session.human_to_move != "German":
            break
        session.choose(1)
    assert "US" in session.deciders and "German" in session.deciders
