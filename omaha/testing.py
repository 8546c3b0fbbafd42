"""Staging positions and pinning dice: the one fixture API of the tests (and of
anyone checking a rule by hand).

Every game's tests build on these helpers and never touch a private attribute
of a state::

    from omaha import testing

    state = testing.start("lnl", seed=3)
    with state.edit():                       # change public fields; caches drop
        ...
    testing.pin_dice(state, [6, 1])          # the next rolls, in order
    testing.play(state, "end phase")         # player notation or Action objects
    testing.assert_illegal(state, "fire 1/A/116 at Z99", match="not a hex")

Dice pinned with :func:`pin_dice` run out loudly
(:class:`~omaha.kernel.dice.DiceExhausted`), so a test states every roll it needs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.dice import ScriptedDice
from omaha.kernel.events import Event
from omaha.kernel.protocol import Game, State
from omaha.registry import load

__all__ = [
    "assert_illegal",
    "hidden_parts",
    "information_from_scratch",
    "pin_dice",
    "play",
    "seen_action",
    "seen_event",
    "start",
]


def _game(game: str | Game[Any]) -> Game[Any]:
    return load(game) if isinstance(game, str) else game


def start(
    game: str | Game[Any],
    scenario: str | Path | None = None,
    *,
    seed: int = 0,
    dice: Iterable[int] | None = None,
) -> State[Any]:
    """A new game, seeded, or with every roll from ``dice`` (set-up rolls included)."""
    g = _game(game)
    if dice is None:
        return g.new_state(scenario, seed=seed)
    return g.new_state(scenario, dice=ScriptedDice(dice))


def pin_dice(state: State[Any], rolls: Iterable[int]) -> ScriptedDice:
    """Replace the state's dice: the next rolls are ``rolls``, in order."""
    dice = ScriptedDice(rolls)
    state.dice = dice
    return dice


def _action(state: State[Any], action: str | Action) -> Action:
    return state.game.parse_action(action) if isinstance(action, str) else action


def play(state: State[Any], *actions: str | Action) -> State[Any]:
    """Apply each action (player notation or an Action) in turn; returns the state."""
    for action in actions:
        state.apply(_action(state, action))
    return state


def assert_illegal(state: State[Any], action: str | Action, match: str | None = None) -> str:
    """``action`` is refused with IllegalAction and the state is exactly as it was.

    ``match`` is a regular expression the message must contain. Returns the message.
    """
    before = state.to_json()
    drawn = state.dice.count
    try:
        state.apply(_action(state, action))
    except IllegalAction as exc:
        message = str(exc)
    else:
        raise AssertionError(f"{action} was accepted")
    if match is not None and not re.search(match, message):
        raise AssertionError(f"message {message!r} does not match {match!r}")
    if state.dice.count != drawn or state.to_json() != before:
        raise AssertionError(f"refused {action} changed the state")
    return message


# -- information sets: the game's hooks, for tests that check what a player saw ------------
def information_from_scratch(state: State[Any], player: str) -> str:
    """``state.information_state(player)`` folded from its whole history, nothing kept
    (what the kept fold must equal)."""
    twin = state.clone()
    twin._seen = {}
    return twin.information_state(player)


def hidden_parts(state: State[Any], player: str) -> tuple[object, ...]:
    """Every part of the position hidden from ``player`` (what a resample draws anew)."""
    return state._hidden_parts(player)


def seen_event(state: State[Any], event: Event, player: str) -> Event | None:
    """What ``player`` saw of a log event (None: nothing)."""
    return state._event_seen_by(event, player)


def seen_action(state: State[Any], index: int, player: str) -> str | None:
    """What ``player`` saw of the ``index``-th recorded action (None: nothing)."""
    return state._action_seen_by(state.actions[index], state.decisions[index][1], player)
