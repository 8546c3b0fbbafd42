"""The agent surface every game honours: a fixed action numbering that round-trips
every legal action, observations, declared bounds, and the PettingZoo and OpenSpiel
adapters' own API tests (skipped where those extras are absent)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from test_api import CASES, IDS, STEP_CAP
from toygame import GAME as TOY

from omaha.errors import IllegalAction
from omaha.kernel.encoding import MAX_ACTION_SIZE
from omaha.kernel.protocol import Game

#: Games that do not declare their agent surface yet (strict xfail: remove when done).
UNDECLARED: set[str] = set()
SEEDS = int(os.environ.get("OMAHA_AGENT_SEEDS", "4"))


def _case(game: Game[Any], scenario: str) -> Any:
    marks = [pytest.mark.xfail(reason="agent surface not declared yet", strict=True)]
    return pytest.param(game, scenario, marks=marks if game.name in UNDECLARED else [])


AGENT_CASES = [_case(g, s) for g, s in CASES]

#: Scenarios whose random games are long (TCS d-day: ~3,500 decisions over 46 turns):
#: OpenSpiel's random_sim_test plays them whole, with its checks at every step (minutes),
#: so they run with the slow tests (``-m slow``); their short sibling stays in the quick run.
LONG_GAMES: set[tuple[str, str]] = {("tcs", "landing"), ("tcs", "d-day")}
OPENSPIEL_CASES = [
    pytest.param(*p.values, marks=[*p.marks, pytest.mark.slow])
    if (p.values[0].name, p.values[1]) in LONG_GAMES
    else p
    for p in AGENT_CASES
]


@pytest.mark.parametrize(("game", "scenario"), AGENT_CASES, ids=IDS)
def test_every_legal_action_has_a_number_and_stays_in_bounds(
    game: Game[Any], scenario: str
) -> None:
    space = game.action_space(scenario)
    limits = game.limits(scenario)
    layout = game.observation_layout(scenario)
    assert 0 < space.size <= MAX_ACTION_SIZE
    seen = 0
    for seed in range(SEEDS):
        state = game.new_state(scenario, seed=seed)
        bot = game.bots["random"](seed=seed)
        decisions = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            assert len(actions) <= limits.max_legal_actions
            for action in actions:
                code = space.encode(action)
                assert space.decode(code) == action
                seen += 1
            mask = state.action_mask()
            assert int(mask.sum()) == len(actions)
            if decisions % 25 == 0:
                for player in game.players:
                    obs = state.observation(player)
                    assert obs.shape == (layout.size,) and obs.dtype == np.float32
                    assert np.isfinite(obs).all()
            state.apply(bot.choose(state))
            decisions += 1
            assert decisions < STEP_CAP
        assert decisions <= limits.max_decisions
        returns = state.returns()
        low, high = game.utility_range
        assert set(returns) == set(game.players)
        assert all(low <= r <= high for r in returns.values())
        if game.zero_sum:
            assert abs(sum(returns.values())) < 1e-9
    assert seen > 0


@pytest.mark.parametrize(("game", "scenario"), AGENT_CASES, ids=IDS)
def test_observations_reveal_only_what_a_player_may_see(game: Game[Any], scenario: str) -> None:
    """Two positions a player cannot tell apart give that player the same observation:
    the state restored from a snapshot observes exactly as the original."""
    state = game.new_state(scenario, seed=9)
    bot = game.bots["random"](seed=9)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(bot.choose(state))
    twin = game.state_from_json(state.to_json())
    for player in game.players:
        assert np.array_equal(state.observation(player), twin.observation(player))


@pytest.mark.parametrize(("game", "scenario"), AGENT_CASES, ids=IDS)
def test_observations_kept_between_steps_equal_fresh_ones(game: Game[Any], scenario: str) -> None:
    """A game may keep its observation up to date from step to step (issue 15's speed):
    at every decision the observation equals the one a fresh state restored from the
    snapshot builds from nothing, a clone's equals its original's, changing a returned
    array changes nothing the state gives next, and ``observation_into`` writes the same."""
    state = game.new_state(scenario, seed=21)
    bot = game.bots["random"](seed=21)
    decisions = 0
    while not state.is_terminal() and decisions < 400:
        checked = decisions < 60 or decisions % 15 == 0
        for player in game.players:
            obs = state.observation(player)
            if checked:
                fresh = game.state_from_json(state.to_json()).observation(player)
                assert np.array_equal(obs, fresh), (decisions, player)
                assert np.array_equal(state.clone().observation(player), obs)
            kept = obs.copy()
            obs.fill(-7.0)  # the caller's to change
            assert np.array_equal(state.observation(player), kept)
            state.observation_into(player, obs)  # an observer's tensor, written in place
            assert np.array_equal(obs, kept)
        state.apply(bot.choose(state))
        decisions += 1


@pytest.mark.parametrize(("game", "scenario"), AGENT_CASES, ids=IDS)
def test_action_numbers_name_the_listed_actions(game: Game[Any], scenario: str) -> None:
    """``legal_codes`` are the encoded legal actions, ascending; ``action_of_code`` gives
    back the very listed object; a number of no legal action, or something that is not a
    number, raises IllegalAction and leaves the state as it was."""
    space = game.action_space(scenario)
    state = game.new_state(scenario, seed=5)
    bot = game.bots["random"](seed=5)
    for _ in range(40):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        with pytest.raises(IllegalAction):  # before any number was asked for, too
            state.apply(None)  # type: ignore[arg-type]
        codes = state.legal_codes()
        assert codes == tuple(sorted(space.encode(a) for a in legal))
        for code in codes:
            assert any(state.action_of_code(code) is a for a in legal)
        mask = state.action_mask()
        assert mask.dtype == np.int8 and [int(i) for i in np.flatnonzero(mask)] == list(codes)
        for code in np.flatnonzero(mask):  # numpy integers, as an agent reads the mask
            assert state.action_of_code(code) is state.action_of_code(int(code))
        before = state.to_json()
        unlisted = next(c for c in range(space.size) if c not in set(codes))
        for bad in (
            unlisted,
            -1,
            space.size,
            np.int64(unlisted),
            True,
            np.bool_(True),
            "3",
            2.0,
            None,
        ):
            with pytest.raises(IllegalAction):
                state.action_of_code(bad)
        assert state.to_json() == before
        # what action_of_code last gave is applied without a search of the legal list;
        # anything else handed to apply after it is still checked
        state.action_of_code(codes[0])
        for bad in (None, unlisted, space.decode(unlisted)):
            with pytest.raises(IllegalAction):
                state.apply(bad)  # type: ignore[arg-type]
        assert state.to_json() == before
        state.apply(bot.choose(state))


try:  # the adapters are optional extras
    from pettingzoo import test as pettingzoo_test
except ImportError:
    pettingzoo_test = None
try:
    import pyspiel
except ImportError:
    pyspiel = None


@pytest.mark.skipif(pettingzoo_test is None, reason="the pettingzoo extra is not installed")
@pytest.mark.parametrize(("game", "scenario"), AGENT_CASES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(game: Game[Any], scenario: str) -> None:
    from omaha.integrations.pettingzoo import raw_env

    assert pettingzoo_test is not None
    pettingzoo_test.api_test(raw_env(game, scenario), num_cycles=60)
    pettingzoo_test.seed_test(lambda: raw_env(game, scenario), num_cycles=40)


@pytest.mark.skipif(pyspiel is None, reason="the openspiel extra is not installed")
@pytest.mark.parametrize(("game", "scenario"), OPENSPIEL_CASES, ids=IDS)
def test_openspiel_random_sim_tests(game: Game[Any], scenario: str) -> None:
    from omaha.integrations import openspiel

    assert pyspiel is not None
    if openspiel.short_name(game) not in pyspiel.registered_names():
        openspiel.register(game)
    params = {"scenario": scenario}
    sampled = pyspiel.load_game(openspiel.short_name(game), params)
    pyspiel.random_sim_test(sampled, num_sims=2, serialize=False, verbose=False)
    explicit = pyspiel.load_game(openspiel.short_name(game, explicit=True), params)
    pyspiel.random_sim_test(explicit, num_sims=1, serialize=True, verbose=False)


def test_the_toy_game_is_fully_declared() -> None:
    assert TOY.name not in UNDECLARED
