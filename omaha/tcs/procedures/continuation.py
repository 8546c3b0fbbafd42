"""A finished game continued into a longer scenario: the d-day game's end position at
2140 6 June is the campaign's position then, and play goes on at 2200 6 June.

The campaign extends d-day (its 6 June turns, forces and rules are d-day's), so the
continued game is the d-day game's snapshot read under the campaign: every unit,
marker, pool and record as it stood (by hex label: the campaign's map adds sheet C to
maps A and B), the same dice, the log and actions so far; its result is set aside and
the next turn begins. The continued game's record is a snapshot, not a replay from the
campaign's start (its first turns were played under d-day's victory conditions).
"""

from __future__ import annotations

import json

from omaha.errors import IllegalAction
from omaha.kernel.events import register_templates
from omaha.tcs.state import TcsState

register_templates({"tcs.continued": "the game goes on in the {scenario} scenario after {turn}"})


def continue_into(state: TcsState, scenario: str) -> TcsState:
    """The finished ``state`` (d-day) carried on in ``scenario`` (the campaign) from its
    next turn; ``IllegalAction`` if the game is not over or the scenarios do not agree
    on the turns played."""
    if state.result is None:
        raise IllegalAction("only a finished game is continued into a longer scenario")
    game = state.game
    longer = game.load_scenario(scenario)
    played = [t.label for t in state.scenario.turns]
    labels = [t.label for t in longer.turns]
    if labels[: len(played)] != played or len(labels) <= len(played):
        raise IllegalAction(
            f"{longer.name} does not go on from {state.scenario.name}'s turns "
            f"({played[0]} - {played[-1]})"
        )
    env = json.loads(state.to_json())
    env["scenario"] = {"id": longer.id, "hash": longer.hash}
    later = game.state_from_json(json.dumps(env), name=f"{state.scenario.name} continued")
    assert isinstance(later, TcsState)
    # read as the finished game it was (past its last step), then its result set aside:
    # the sequence of play goes on with the campaign's next turn
    later.result = None
    later.note("tcs.continued", "", scenario=longer.name, turn=played[-1])
    later._advance()
    return later
