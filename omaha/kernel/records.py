"""The two saved formats: game records (like PGN) and state snapshots.

* A **game record** holds the scenario id and hash, the seed, the actions and
  the dice rolled: it replays the game (``Game.replay``) and lasts.
* A **snapshot** (``State.to_json``) is a versioned canonical envelope around
  one game's exact state, restored by ``Game.state_from_json``.

Every problem with either file is an :class:`~omaha.errors.RecordError` naming
the file, the key and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from omaha.errors import RecordError
from omaha.kernel.dice import check_seed

SNAPSHOT_FORMAT = "omaha-snapshot"
SNAPSHOT_VERSION = 2
RECORD_FORMAT = "omaha-record"
RECORD_VERSION = 1


@attrs.frozen
class GameRecord:
    """Scenario id and hash, seed, actions and dice: replayable like a PGN."""

    game: str
    scenario: str
    scenario_hash: str
    seed: int | None
    actions: tuple[Mapping[str, Any], ...]
    dice: tuple[int, ...]
    result: str | None = None
    #: the text of a custom scenario's files (name, text), the scenario file first;
    #: empty for a shipped scenario, which is named by id and checked by hash
    files: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> str:
        scenario: dict[str, Any] = {"id": self.scenario, "hash": self.scenario_hash}
        if self.files:
            scenario["files"] = [{"name": n, "text": t} for n, t in self.files]
        return json.dumps(
            {
                "format": RECORD_FORMAT,
                "version": RECORD_VERSION,
                "game": self.game,
                "scenario": scenario,
                "seed": self.seed,
                "actions": [dict(a) for a in self.actions],
                "dice": list(self.dice),
                "result": self.result,
            },
            sort_keys=True,
            indent=1,
        )

    @classmethod
    def from_json(cls, text: str, name: str = "record") -> GameRecord:
        """Read a record; anything malformed is a :class:`RecordError` naming ``name``."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(name, "", f"is not JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(name, "format", f"is not {RECORD_FORMAT!r}")
        if data.get("version") != RECORD_VERSION:
            raise RecordError(name, "version", f"{data.get('version')!r} is not supported")
        for key, kind in (("actions", list), ("dice", list), ("scenario", dict)):
            value = data.get(key)
            if not isinstance(value, kind):
                raise RecordError(name, key, f"must be a JSON {kind.__name__}, not {value!r}")
        seed = data.get("seed")
        if seed is not None:
            try:
                check_seed(seed)
            except ValueError as exc:
                raise RecordError(name, "seed", str(exc)) from None
        files = _files(data["scenario"].get("files", []), name)
        for i, d in enumerate(data["dice"]):
            if isinstance(d, bool) or not isinstance(d, int):
                raise RecordError(name, f"dice[{i}]", f"a roll is a whole number, not {d!r}")
        try:
            return cls(
                game=str(data["game"]),
                scenario=str(data["scenario"]["id"]),
                scenario_hash=str(data["scenario"]["hash"]),
                seed=seed,
                actions=tuple(data["actions"]),
                dice=tuple(int(d) for d in data["dice"]),
                result=data.get("result"),
                files=files,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(name, "", f"is not a complete game record ({exc})") from None


def _files(data: Any, name: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(data, list):
        raise RecordError(name, "scenario.files", "must be a list of {name, text}")
    out = []
    for i, entry in enumerate(data):
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("name"), str)
            and isinstance(entry.get("text"), str)
        ):
            raise RecordError(name, f"scenario.files[{i}]", "must be {name: string, text: string}")
        out.append((entry["name"], entry["text"]))
    return tuple(out)


def read_snapshot(
    text: str, *, game: str, state_version: int, name: str = "snapshot"
) -> dict[str, Any]:
    """The envelope of a snapshot of ``game``, its format and versions checked."""
    try:
        env = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(name, "", f"is not a snapshot ({exc})") from None
    if not isinstance(env, dict) or env.get("format") != SNAPSHOT_FORMAT:
        raise RecordError(name, "format", "is not an omaha snapshot")
    if env.get("version") != SNAPSHOT_VERSION:
        raise RecordError(
            name,
            "version",
            f"snapshot version {env.get('version')!r} is not supported "
            f"(this library reads version {SNAPSHOT_VERSION})",
        )
    if env.get("game") != game:
        raise RecordError(name, "game", f"snapshot is of game {env.get('game')!r}, not {game!r}")
    if env.get("state_version") != state_version:
        raise RecordError(
            name,
            "state_version",
            f"{game} state version {env.get('state_version')!r} is not supported "
            f"(this library writes version {state_version})",
        )
    return env
