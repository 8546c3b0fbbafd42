"""Information sets, for every game and scenario: ``information_state`` is what a player
has seen and done, and ``resample`` gives states that agree with it, draw every hidden
part afresh and play on (DESIGN.md, "Information"); OpenSpiel's own information-set
search plays through the adapter."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from test_api import CASES, IDS, STEP_CAP

from omaha import testing
from omaha.kernel.information import UNSEEN_KIND, Unseen
from omaha.kernel.protocol import Game, State

#: Games (or a game's scenarios) that hide part of the position from some player
#: (READINGS.md says what): their resamples must draw it anew. The others hide only their
#: future (dice, deck order). TCS's e1-draw has no landing and no release rolls.
HIDING: set[str | tuple[str, str]] = {
    "toy",
    "bloody",
    "landing_table",
    ("tcs", "d-day"),
    ("tcs", "landing"),
}
SEEDS = int(os.environ.get("OMAHA_INFORMATION_SEEDS", "2"))
#: Long random games (TCS d-day, landing) are checked on their first decisions.
DECISION_CAP = 400


def _checkpoints(game: Game[Any], scenario: str, seed: int, bot: str) -> list[State[Any]]:
    """Positions of a seeded game (every decision early on, then every 20th)."""
    state = game.new_state(scenario, seed=seed)
    bots = (
        {
            p: game.bots[game.lineup(bot).get(p, "random")](seed=seed + i)
            for i, p in enumerate(game.players)
        }
        if bot != "random"
        else {p: game.bots["random"](seed=seed * 7 + i) for i, p in enumerate(game.players)}
    )
    kept = []
    decisions = 0
    while not state.is_terminal() and decisions < DECISION_CAP:
        if decisions < 20 or decisions % 20 == 0:
            kept.append(state.clone())
        state.apply(bots[state.current_player()].choose(state))
        decisions += 1
        assert decisions < STEP_CAP
    return kept


def _lineups(game: Game[Any]) -> list[str]:
    return ["random", "heuristic"] if "heuristic" in game.bots else ["random"]


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_resamples_agree_with_what_the_player_saw(game: Game[Any], scenario: str) -> None:
    """At decisions of random and heuristic games, for every player: each resample has
    the same information state (folded anew from its own history), the same
    observation, sound invariants, nothing of the true hidden history in its log or
    actions, and its hidden parts drawn anew across seeds where the game hides any."""
    differed = 0
    hidden_seen = 0
    for bot in _lineups(game):
        for seed in range(SEEDS):
            for state in _checkpoints(game, scenario, seed, bot):
                for player in game.players:
                    key = state.information_state(player)
                    assert testing.information_from_scratch(state, player) == key
                    before = state.to_json()
                    twins = [state.resample(player, s) for s in (11, 12, 13)]
                    assert state.to_json() == before  # resampling changes nothing here
                    for twin in twins:
                        assert twin.information_state(player) == key
                        assert testing.information_from_scratch(twin, player) == key
                        assert twin.invariants() == [], twin.invariants()
                        assert np.array_equal(twin.observation(player), state.observation(player))
                        if player == state.current_player():  # their own options
                            assert twin.legal_actions() == state.legal_actions()
                    parts = [testing.hidden_parts(t, player) for t in twins]
                    if testing.hidden_parts(state, player):
                        hidden_seen += 1
                        differed += any(p != testing.hidden_parts(state, player) for p in parts)
    if game.name in HIDING or (game.name, scenario) in HIDING:
        assert hidden_seen > 0, "the game hides nothing in these games"
        assert differed > 0, "resamples never drew a hidden part anew"
    else:
        assert hidden_seen == 0


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_resamples_play_on_to_an_end(game: Game[Any], scenario: str) -> None:
    """A resampled state is a game like any other: it plays on to a legal end, and two
    resamples with different seeds have different futures."""
    for state in _checkpoints(game, scenario, 3, "random")[::7][:4]:
        player = state.current_player()
        assert player is not None
        twin = state.resample(player, 5)
        bot = game.bots["random"](seed=5)
        steps = 0
        while not twin.is_terminal() and steps < DECISION_CAP:
            twin.apply(bot.choose(twin))
            steps += 1
            key = twin.information_state(player)
            if steps % 50 == 0:
                assert testing.information_from_scratch(twin, player) == key
        assert twin.is_terminal() or steps == DECISION_CAP


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_what_a_resample_keeps_of_hidden_history(game: Game[Any], scenario: str) -> None:
    """A resample's log and actions hold what its player saw and nothing else: every
    event is as ``_event_seen_by`` gives it (or a placeholder), every action either the
    true one (seen whole) or an ``Unseen`` with the text the player saw."""
    for state in _checkpoints(game, scenario, 4, "random")[::10][:5]:
        for player in game.players:
            twin = state.resample(player, 8)
            assert len(twin.log) == len(state.log)
            for event, mine in zip(state.log, twin.log, strict=True):
                seen = testing.seen_event(state, event, player)
                assert mine == seen or (seen is None and mine.kind == UNSEEN_KIND)
            for k, (action, mine) in enumerate(zip(state.actions, twin.actions, strict=True)):
                text = testing.seen_action(state, k, player)
                if text == str(action):
                    assert mine is action
                else:
                    assert isinstance(mine, Unseen) and mine.seen == text


def test_different_histories_to_one_position_differ() -> None:
    """Two histories that reach the same position are different information states
    (perfect recall), and a history a player saw the same way is the same one."""
    from toygame import GAME as TOY

    a = TOY.new_state(seed=1)
    b = TOY.new_state(seed=1)
    assert a.information_state(TOY.players[0]) == b.information_state(TOY.players[0])
    c = TOY.new_state(seed=2)
    moved = False
    for state, other in ((a, c),):
        for action in state.legal_actions():
            twin = state.clone()
            twin.apply(action)
            if twin.information_state(TOY.players[0]) != other.information_state(TOY.players[0]):
                moved = True
    assert moved
    with pytest.raises(ValueError, match="is not a player"):
        a.information_state("Nobody")


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_information_state_survives_a_snapshot(game: Game[Any], scenario: str) -> None:
    state = _checkpoints(game, scenario, 6, "random")[-1]
    again = game.state_from_json(state.to_json())
    for player in game.players:
        assert again.information_state(player) == state.information_state(player)


#: OpenSpiel's ISMCTS over a whole TCS d-day, landing or campaign game is minutes: run with the
#: slow, and sampled only (explicit chance replays each step once per outcome, so its cost
#: grows with the square of a step's rolls: e1-draw covers TCS's explicit mode).
LONG_SEARCH = {("tcs", "d-day"), ("tcs", "landing"), ("tcs", "campaign"), ("tcs", "june7")}
SEARCH_CASES = [
    pytest.param(
        g, s, explicit, marks=[pytest.mark.slow] if (g.name, s) in LONG_SEARCH else [],
        id=f"{g.name}-{s}-{'explicit' if explicit else 'sampled'}",
    )
    for g, s in CASES
    if g.name != "toy"
    for explicit in (False, True)
    if not (explicit and (g.name, s) in LONG_SEARCH)
]  # fmt: skip


@pytest.mark.parametrize(("game", "scenario", "explicit"), SEARCH_CASES)
def test_openspiel_ismcts_plays_a_whole_game(
    game: Game[Any], scenario: str, explicit: bool
) -> None:
    """OpenSpiel's own Python ISMCTSBot (its code, not ours) plays every player through
    the adapter to the end: it keys its tree on information_state_string, asserts every
    resample_from_infostate has the root's key, and searches from there."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    from omaha.integrations import openspiel

    class Flat(mcts.Evaluator):  # type: ignore[misc]
        """No rollout: every position is worth 0, every action equally likely."""

        def evaluate(self, state: Any) -> list[float]:
            return [0.0] * state.get_game().num_players()

        def prior(self, state: Any) -> list[tuple[int, float]]:
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]

    openspiel.register_all()
    name = openspiel.short_name(game, explicit)
    spiel = pyspiel.load_game(name, {"scenario": scenario, "seed": 2})
    rng = np.random.RandomState(2)
    bot = ismcts.ISMCTSBot(spiel, Flat(), uct_c=2.0, max_simulations=3, random_state=rng)
    state = spiel.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    low, high = game.utility_range
    assert all(low <= r <= high for r in state.returns())


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_the_log_as_a_player_saw_it(game: Game[Any], scenario: str) -> None:
    """``log_seen_by`` is the log through the game's hook, unseen events left out; None
    is the whole log."""
    state = _checkpoints(game, scenario, 5, "random")[-1]
    assert state.log_seen_by(None) == state.log
    for player in game.players:
        expected = [
            seen for e in state.log if (seen := testing.seen_event(state, e, player)) is not None
        ]
        assert state.log_seen_by(player) == expected
