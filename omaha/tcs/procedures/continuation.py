"""A finished game continued into a longer scenario: the d-day game's end position at
2140 6 June is the campaign's position then, and play goes on at 2200 6 June.

The campaign extends d-day (its 6 June turns, forces and rules are d-day's), so the
continued game is the d-day game's snapshot read under the campaign: every unit,
marker, pool and record as it stood (by hex label: the campaign's map adds sheet C to
maps A and B), the same dice, the log and actions so far; its result is set aside and
the next turn begins.

Its record (:class:`ContinuedRecord`) is the d-day game's record and the actions
played after it: :func:`replay` replays the d-day game, continues it and plays those
actions, to the same state. (The d-day actions do not replay from the campaign's own
start: its south edge is map C's, and its first turns were played under d-day's
victory conditions.)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from omaha.errors import IllegalAction, RecordError
from omaha.kernel.events import register_templates
from omaha.kernel.protocol import Game
from omaha.kernel.records import GameRecord, load_json
from omaha.tcs.state import TcsState

register_templates({"tcs.continued": "the game goes on in the {scenario} scenario after {turn}"})

CONTINUED_FORMAT = "omaha-continued-record"
CONTINUED_VERSION = 1


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
    if state.continued is not None:
        raise IllegalAction("a continued game is not continued again")
    env = json.loads(state.to_json())
    env["scenario"] = {"id": longer.id, "hash": longer.hash}
    later = game.state_from_json(json.dumps(env), name=f"{state.scenario.name} continued")
    assert isinstance(later, TcsState)
    # read as the finished game it was (past its last step), then its result set aside:
    # the sequence of play goes on with the campaign's next turn
    later.continued = (
        state.scenario.id,
        state.scenario.hash,
        len(state.actions),
        len(state.dice.drawn),
        str(state.outcome()),
    )
    later.result = None
    later.note("tcs.continued", "", scenario=longer.name, turn=played[-1])
    later._advance()
    return later


@attrs.frozen
class ContinuedRecord:
    """A continued game's record: the shorter game's record, the longer scenario (id and
    hash), and the actions and dice after the continuation."""

    before: GameRecord
    scenario: str
    scenario_hash: str
    actions: tuple[str | Mapping[str, Any], ...]
    dice: tuple[int, ...]
    result: str | None = None

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": CONTINUED_FORMAT,
                "version": CONTINUED_VERSION,
                "before": json.loads(self.before.to_json()),
                "scenario": {"id": self.scenario, "hash": self.scenario_hash},
                "actions": [a if isinstance(a, str) else dict(a) for a in self.actions],
                "dice": list(self.dice),
                "result": self.result,
            },
            sort_keys=True,
            indent=1,
        )

    @classmethod
    def from_json(cls, text: str, name: str = "record") -> ContinuedRecord:
        """Read a continued record; anything malformed is a :class:`RecordError`."""
        data = load_json(text, name, "JSON")
        if not isinstance(data, dict) or data.get("format") != CONTINUED_FORMAT:
            raise RecordError(name, "format", f"is not {CONTINUED_FORMAT!r}")
        if data.get("version") != CONTINUED_VERSION:
            raise RecordError(name, "version", f"must be {CONTINUED_VERSION}")
        try:
            scen = data["scenario"]
            return cls(
                before=GameRecord.from_json(json.dumps(data["before"]), f"{name}: before"),
                scenario=str(scen["id"]),
                scenario_hash=str(scen["hash"]),
                actions=tuple(data["actions"]),
                dice=tuple(int(d) for d in data["dice"]),
                result=data.get("result"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(name, "", f"is not a continued record ({exc})") from None


def record(state: TcsState) -> ContinuedRecord:
    """The record of a continued game (``IllegalAction`` for one that was not)."""
    if state.continued is None:
        raise IllegalAction("the game was not continued: its record is state.record()")
    sid, shash, n_actions, n_dice, result = state.continued
    codec = state.game.codec
    before = GameRecord(
        game=state.game.name,
        scenario=sid,
        scenario_hash=shash,
        seed=state.seed,
        actions=tuple(codec.to_record(a) for a in state.actions[:n_actions]),
        dice=tuple(state.dice.drawn[:n_dice]),
        result=result,
    )
    return ContinuedRecord(
        before=before,
        scenario=state.scenario.id,
        scenario_hash=state.scenario.hash,
        actions=tuple(codec.to_record(a) for a in state.actions[n_actions:]),
        dice=tuple(state.dice.drawn[n_dice:]),
        result=str(state.outcome()) if state.is_terminal() else None,
    )


def replay(game: Game[Any], rec: ContinuedRecord, name: str = "record") -> TcsState:
    """Replay a continued game of TCS ``game``: the shorter game, its continuation, the
    actions after; a record that does not replay so is a :class:`RecordError`."""
    first = game.replay(rec.before, name=f"{name}: before")
    assert isinstance(first, TcsState)
    longer = game.load_scenario(rec.scenario)
    if longer.hash != rec.scenario_hash:
        raise RecordError(name, "scenario.hash", f"scenario {rec.scenario!r} has changed")
    state = continue_into(first, rec.scenario)
    for k, data in enumerate(rec.actions):
        try:
            state.apply(game.codec.from_record(data))
        except (IllegalAction, ValueError) as exc:
            raise RecordError(name, f"actions[{k}]", f"does not replay: {exc}") from None
    if tuple(state.dice.drawn[len(rec.before.dice) :]) != rec.dice:
        raise RecordError(name, "dice", "replay drew other dice than the record")
    result = str(state.outcome()) if state.is_terminal() else None
    if result != rec.result:
        raise RecordError(name, "result", f"the record states {rec.result!r}, replay {result!r}")
    return state
