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
    #: each action in the game's notation; the tagged JSON form (a mapping) where the
    #: notation would not read back as the same action, and in records written before
    actions: tuple[str | Mapping[str, Any], ...]
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
                "actions": [a if isinstance(a, str) else dict(a) for a in self.actions],
                "dice": list(self.dice),
                "result": self.result,
            },
            sort_keys=True,
            indent=1,
        )

    @classmethod
    def from_json(cls, text: str, name: str = "record") -> GameRecord:
        """Read a record; anything malformed is a :class:`RecordError` naming ``name``."""
        data = load_json(text, name, "JSON")
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(name, "format", f"is not {RECORD_FORMAT!r}")
        check_version(data, "version", RECORD_VERSION, name)
        for key, kind in (("actions", list), ("dice", list), ("scenario", dict)):
            value = data.get(key)
            if not isinstance(value, kind):
                raise RecordError(name, key, f"must be a JSON {kind.__name__}, not {_short(value)}")
        for key, value in (
            ("game", data.get("game")),
            ("scenario.id", data["scenario"].get("id")),
            ("scenario.hash", data["scenario"].get("hash")),
        ):
            if not isinstance(value, str):
                raise RecordError(name, key, f"must be a string, not {_short(value)}")
        seed = data.get("seed")
        if seed is not None:
            try:
                check_seed(seed)
            except ValueError as exc:
                raise RecordError(name, "seed", str(exc)) from None
        files = _files(data["scenario"].get("files", []), name)
        for i, d in enumerate(data["dice"]):
            if isinstance(d, bool) or not isinstance(d, int):
                raise RecordError(name, f"dice[{i}]", f"a roll is a whole number, not {_short(d)}")
        result = data.get("result")
        if result is not None and not isinstance(result, str):
            raise RecordError(name, "result", f"must be a string or null, not {_short(result)}")
        return cls(
            game=data["game"],
            scenario=data["scenario"]["id"],
            scenario_hash=data["scenario"]["hash"],
            seed=seed,
            actions=tuple(data["actions"]),
            dice=tuple(data["dice"]),
            result=result,
            files=files,
        )


def load_json(text: str, name: str, what: str) -> Any:
    """Parse JSON text; anything that is not usable JSON is a :class:`RecordError`
    (nested too deeply for the parser, a number with more digits than Python reads)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(name, "", f"is not {what} ({exc})") from None
    except RecursionError:
        raise RecordError(name, "", f"is not {what} (nested too deeply)") from None
    except ValueError as exc:  # an integer past the interpreter's digit limit
        raise RecordError(name, "", f"is not {what} ({exc})") from None


def check_version(
    data: Mapping[str, Any], key: str, expected: int, name: str, label: str = "", why: str = ""
) -> None:
    """``data[key]`` is the version ``expected`` (a JSON number, not ``true``)."""
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value != expected:
        raise RecordError(name, key, f"{label}{_short(value)} is not supported{why}")


def _short(value: Any) -> str:
    """A value for a message, cut short (a record may hold anything, of any size)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return "a very large number"
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        return type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


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
    env = load_json(text, name, "a snapshot")
    if not isinstance(env, dict) or env.get("format") != SNAPSHOT_FORMAT:
        raise RecordError(name, "format", "is not an omaha snapshot")
    check_version(
        env, "version", SNAPSHOT_VERSION, name,
        "snapshot version ", f" (this library reads version {SNAPSHOT_VERSION})",
    )  # fmt: skip
    if env.get("game") != game:
        raise RecordError(
            name, "game", f"snapshot is of game {_short(env.get('game'))}, not {game!r}"
        )
    check_version(
        env, "state_version", state_version, name,
        f"{game} state version ", f" (this library writes version {state_version})",
    )  # fmt: skip
    return env
