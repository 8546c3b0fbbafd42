"""The conformance suite's shared checks (tests/conformance/test_api.py) on the campaign
and june7, in a cheaper form that fits the normal suite: each check once, on a prefix
of one seeded game (``PREFIX`` decisions from the set-up), not on whole games per check;
one whole random june7 game to its end. The whole-game forms run with
``pytest --long-cases`` (tests/conftest.py LONG_CASES)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache

import attrs
import pytest

import omaha
from omaha.kernel.actions import Action, sort_key
from omaha.tcs import GAME
from omaha.tcs.state import TcsState

SCENARIOS = ("june7", "campaign")
#: decisions of each prefix: the set-up and the first turns
PREFIX = 300
SEED = 4


@attrs.frozen
class Alien(Action):
    notation = "alien {x}"
    x: int


@cache
def prefix(scenario: str) -> tuple[str, ...]:
    """The notation of the first ``PREFIX`` decisions of a seeded game: the heuristic's
    set-up (a whole plan in one decision), then random play (in the campaign, into the
    landing of 6 June)."""
    state = GAME.new_state(scenario, seed=SEED)
    setup, bot = GAME.bots["heuristic"](seed=SEED), GAME.bots["random"](seed=SEED)
    out = []
    while not state.is_terminal() and len(out) < PREFIX:
        action = (setup if state.in_setup else bot).choose(state)
        out.append(str(action))
        state.apply(action)
    return tuple(out)


def replayed(scenario: str, count: int = PREFIX) -> TcsState:
    state = GAME.new_state(scenario, seed=SEED)
    for text in prefix(scenario)[:count]:
        state.apply(GAME.parse_action(text))
    assert isinstance(state, TcsState)
    return state


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_prefix_is_listed_sorted_and_every_listed_action_applies(scenario: str) -> None:
    """Legal actions sorted and unique, each of the first few applying on a clone;
    an illegal one (listed before, or alien) refused with the state, dice and log
    unchanged; reading the state (listing, views) rolls no dice."""
    state = GAME.new_state(scenario, seed=SEED)
    pool: list[Action] = []
    for step, text in enumerate(prefix(scenario)):
        actions = state.legal_actions()
        assert list(actions) == sorted(actions, key=sort_key) and len(set(actions)) == len(actions)
        if step % 10 == 0:
            for action in actions[:10]:
                state.clone().apply(action)
            before, drawn = state.to_json(), state.dice.count
            for action in [a for a in pool[-20:] if a not in actions] + [Alien(1)]:
                with pytest.raises(omaha.IllegalAction):
                    state.apply(action)
            for player in (None, *GAME.players):
                state.view(player)
            assert state.to_json() == before and state.dice.count == drawn
        pool.extend(actions[:3])
        state.apply(GAME.parse_action(text))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_prefix_snapshot_round_trip_and_record(scenario: str) -> None:
    """Every tenth step's snapshot reads back to itself with the same legal actions and
    future; the prefix's record replays (seeded and scripted) to the same state; a
    clone played on leaves the original as it was; the same inputs give the same log."""
    state = GAME.new_state(scenario, seed=SEED)
    for step, text in enumerate(prefix(scenario)):
        action = GAME.parse_action(text)
        if step % 10 == 0:
            snap = state.to_json()
            restored = GAME.state_from_json(snap)
            assert restored.to_json() == snap
            assert restored.legal_actions() == state.legal_actions()
            restored.apply(action)
            state.apply(action)
            assert restored.to_json() == state.to_json()
        else:
            state.apply(action)
    record = omaha.GameRecord.from_json(state.record().to_json())
    assert GAME.replay(record).to_json() == state.to_json()
    scripted = json.loads(GAME.replay(record, scripted=True).to_json())
    ours = json.loads(state.to_json())
    assert all(ours[k] == scripted[k] for k in ("state", "log", "actions"))
    before = state.to_json()
    twin, bot = state.clone(), GAME.bots["random"](seed=9)
    for _ in range(50):
        twin.apply(bot.choose(twin))
    assert state.to_json() == before
    again = replayed(scenario)
    assert [str(e) for e in again.log] == [str(e) for e in state.log]


_CHILD = """
import hashlib, omaha
game = omaha.load("tcs")
state = game.new_state({scenario!r}, seed={seed})
for text in {actions!r}:
    state.apply(game.parse_action(text))
print(hashlib.sha256(state.to_json().encode()).hexdigest())
"""


def test_prefix_deterministic_across_hash_seeds() -> None:
    """june7's prefix gives one snapshot under two PYTHONHASHSEEDs."""
    code = _CHILD.format(scenario="june7", seed=SEED, actions=prefix("june7")[:150])
    digests = set()
    for hash_seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_a_random_june7_game_terminates() -> None:
    """A whole random june7 game ends with an outcome and nothing left to decide."""
    state = GAME.new_state("june7", seed=SEED)
    bot = GAME.bots["random"](seed=SEED)
    steps = 0
    while not state.is_terminal():
        assert state.legal_actions()
        state.apply(bot.choose(state))
        steps += 1
        assert steps < 20_000
    assert state.current_player() is None and state.legal_actions() == ()
    assert state.outcome() is not None
