"""Nothing is hidden on an LnL map (READINGS.md, "Information"): every event and every
action is seen by both sides, and a resample is the same game with other dice (the
action deck is drawn with the dice, so its future is theirs)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from omaha import testing
from omaha.kernel.protocol import State

from .helpers import GAME


def checkpoints(scenario: str, lineup: str, seed: int) -> list[State[Any]]:
    """Every 15th position of a seeded game, to its end."""
    state = GAME.new_state(scenario, seed=seed)
    names = GAME.lineup(lineup) if lineup != "random" else {}
    bots = {p: GAME.bots[names.get(p, "random")](seed=seed + k) for k, p in enumerate(GAME.players)}
    kept = []
    n = 0
    while not state.is_terminal():
        if n % 15 == 0:
            kept.append(state.clone())
        state.apply(bots[state.current_player()].choose(state))
        n += 1
    return kept


def future(state: State[Any]) -> list[int]:
    """The next twenty rolls of the state's dice (on a copy)."""
    dice = state.dice.copy()
    return [dice.roll(6) for _ in range(20)]


def but_the_dice(snapshot: str) -> dict[str, object]:
    data = json.loads(snapshot)
    del data["seed"], data["rng"]
    return data


@pytest.mark.parametrize("scenario", GAME.scenarios())
@pytest.mark.parametrize("lineup", ["random", "heuristic"])
def test_a_resample_is_the_game_with_other_dice(scenario: str, lineup: str) -> None:
    """For each side, at positions of random and bot games: the log and the actions are
    all seen, nothing is hidden, and a resample equals the original in everything but
    its dice, whose future differs."""
    for state in checkpoints(scenario, lineup, 2):
        for player in GAME.players:
            assert testing.hidden_parts(state, player) == ()
            assert all(testing.seen_event(state, e, player) == e for e in state.log)
            assert all(
                testing.seen_action(state, k, player) == str(a) for k, a in enumerate(state.actions)
            )
            twin = state.resample(player, 7)
            assert but_the_dice(twin.to_json()) == but_the_dice(state.to_json())
            assert twin.log == state.log and twin.actions == state.actions
            assert future(twin) != future(state)
