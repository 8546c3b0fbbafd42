"""PettingZoo and OpenSpiel adapters, on the toy game (each real game is checked in
``tests/conformance/test_agents_api.py``). Skipped when the extra is not installed."""

from __future__ import annotations

import numpy as np
import pytest
from toygame import GAME

pettingzoo_test = pytest.importorskip("pettingzoo.test")
pyspiel = pytest.importorskip("pyspiel")

from omaha.integrations import openspiel, pettingzoo  # noqa: E402

openspiel.register(GAME)


def test_pettingzoo_api_and_seed_tests_pass() -> None:
    pettingzoo_test.api_test(pettingzoo.raw_env(GAME), num_cycles=300)
    pettingzoo_test.seed_test(lambda: pettingzoo.raw_env(GAME), num_cycles=50)


def test_pettingzoo_game_is_the_library_game() -> None:
    env = pettingzoo.raw_env(GAME)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert obs["observation"].shape == (GAME.observation_layout().size,)
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert agent == env.state.current_player()
        assert sorted(GAME.encode(a) for a in env.state.legal_actions()) == list(legal)
        env.step(int(rng.choice(legal)))
    assert env.state.is_terminal()
    assert final == env.state.returns()


def test_openspiel_random_sim_tests_pass() -> None:
    sampled = pyspiel.load_game("omaha_toy")
    pyspiel.random_sim_test(sampled, num_sims=5, serialize=False, verbose=False)
    pyspiel.random_sim_test(
        pyspiel.load_game("omaha_toy_explicit"), num_sims=5, serialize=True, verbose=False
    )


def test_openspiel_mcts_plays_the_explicit_game_to_the_end() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("omaha_toy_explicit")
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(
        game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng, solve=False
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_openspiel_observation_tensor_is_the_library_observation() -> None:
    game = pyspiel.load_game("omaha_toy")
    state = game.new_initial_state()
    tensor = np.array(state.observation_tensor(0))
    inner = GAME.new_state(seed=0)
    assert np.array_equal(tensor, inner.observation("US"))
    assert state.observation_string(1).startswith("Toy landing")


def test_openspiel_initial_states_are_clones_with_the_same_future_and_observation() -> None:
    game = pyspiel.load_game("omaha_toy", {"seed": 11})
    fresh, other = game.new_initial_state(), game.new_initial_state()
    direct = GAME.new_state(seed=11)
    # the fresh state's tensor comes from the game's cached first position
    assert fresh.observation_tensor(0) == list(direct.observation(GAME.players[0]))
    while not fresh.is_terminal():
        action = fresh.legal_actions()[len(fresh.history()) % len(fresh.legal_actions())]
        fresh.apply_action(action)
        other.apply_action(action)
        direct.apply(GAME.decode(action))
        assert fresh.observation_tensor(0) == list(direct.observation(GAME.players[0]))
    assert other.is_terminal() and other.returns() == fresh.returns()
    assert fresh.returns() == [direct.returns()[p] for p in GAME.players]


def test_openspiel_a_played_first_state_leaves_later_initial_states_untouched() -> None:
    """The first initial position is handed over as it was set up (no clone); played to
    the end, it leaves every later initial state at the beginning, with the same future."""
    game = pyspiel.load_game("omaha_toy", {"seed": 12})
    first = game.new_initial_state()
    start = first.legal_actions()
    while not first.is_terminal():
        legal = first.legal_actions()
        first.apply_action(legal[len(first.history()) % len(legal)])
    later = game.new_initial_state()
    assert later.history() == [] and later.legal_actions() == start
    for action in first.history():
        later.apply_action(action)
    assert later.is_terminal() and later.returns() == first.returns()


@pytest.mark.parametrize("name", ["omaha_toy", "omaha_toy_explicit"])
def test_openspiel_legal_actions_answered_in_python_equal_pyspiel_own(name: str) -> None:
    """The state answers ``legal_actions`` and ``is_chance_node`` without pyspiel's C++
    round trip; at every node, for every player (and none), they equal what pyspiel's
    own implementation (``pyspiel.State``'s, called on the same state) gives."""
    game = pyspiel.load_game(name, {"seed": 4})
    rng = np.random.default_rng(4)
    state = game.new_initial_state()
    nodes = chance = 0
    while True:
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        chance += state.is_chance_node()
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in range(game.num_players()):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
        nodes += 1
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert nodes > 10 and (chance > 0) == name.endswith("explicit")
