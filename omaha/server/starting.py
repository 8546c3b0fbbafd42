"""New games of ``omaha serve``: from a ``/api/new`` body or a loaded record.

Everything a body names is checked before a game is built: the game installed,
the side, the seed, each bot existing and playing the side it is given, the
scenario one the server offers (:mod:`.scenarios`). A folder scenario that fails
to load is reported on the server's terminal and only named to the page, since
its files may lead to others outside the folder.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import attrs

from omaha.errors import DataFileError
from omaha.kernel.records import GameRecord
from omaha.registry import games, load
from omaha.server import bodies
from omaha.server.bodies import BadRequest
from omaha.server.scenarios import Catalogue
from omaha.session import Session


def default_bots(game_name: str, human: str | None = None) -> dict[str, str]:
    """Bots for every side but ``human`` (default: the first side): the game's strongest."""
    game = load(game_name)
    human = human or game.players[0]
    pick = next(b for b in ("heuristic", "historical", "solitaire", "random") if b in game.bots)
    lineup = game.lineup(pick)
    return {side: lineup[side] for side in game.players if side != human}


def games_info(catalogue: Catalogue) -> list[dict[str, Any]]:
    """The installed games, the scenarios offered, the bots and the sides they play."""
    out = []
    for name in games():
        game = load(name)
        out.append(
            {
                "name": name,
                "title": game.title,
                "players": list(game.players),
                "scenarios": catalogue.names(name),
                "bots": [
                    {"name": bot, "sides": list(game.bot_sides(bot))} for bot in sorted(game.bots)
                ],
            }
        )
    return out


def check_bots(game_name: str, bots: dict[str, str]) -> None:
    """Every bot named exists and can play the side it is given."""
    game = load(game_name)
    for side, bot in bots.items():
        if side not in game.players:
            raise BadRequest(
                f"{game_name} has no side {side[:80]!r} (sides: {', '.join(game.players)})"
            )
        if bot not in game.bots:
            raise BadRequest(
                f"{game_name} has no bot {bot[:80]!r} (bots: {', '.join(sorted(game.bots))})"
            )
        if side not in game.bot_sides(bot):
            raise BadRequest(f"the {bot} bot of {game_name} does not play {side}")


def new_session(data: dict[str, Any], catalogue: Catalogue) -> Session:
    """The game a ``/api/new`` body asks for."""
    bodies.only(data, "game", "scenario", "seed", "bots", "human")
    name = bodies.text(data, "game") or "lnl"
    if name not in games():
        raise BadRequest(f"there is no game named {name[:80]!r} (games: {', '.join(games())})")
    game = load(name)
    human = bodies.text(data, "human")
    if human is not None and human not in game.players:
        raise BadRequest(f"{name} has no side {human[:80]!r}")
    seed = bodies.seed(data)
    bots = bodies.bots(data)
    bots = default_bots(name, human) if bots is None else bots
    check_bots(name, bots)
    try:
        scenario = catalogue.resolve(name, bodies.text(data, "scenario"))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    try:
        return Session(name, scenario, seed=seed, bots=bots)
    except DataFileError as exc:
        if isinstance(scenario, Path):  # the folder's file: its messages stay here
            print(f"omaha serve: {exc}", file=sys.stderr)
            raise BadRequest(
                f"scenario {scenario.name!r} cannot be played: `omaha validate` it"
            ) from None
        raise BadRequest(str(exc)) from None
    except (ValueError, KeyError) as exc:
        raise BadRequest(str(exc.args[0] if exc.args else exc)) from None


def loaded_session(
    data: dict[str, Any], catalogue: Catalogue, limit: int, current: Session | None
) -> Session:
    """The game a ``/api/load`` body's record resumes (its scenario must be offered here:
    an embedded one could extend any file of this machine); the bots of ``current``
    when it is the same game and the body names none."""
    bodies.only(data, "record", "bots")
    text = bodies.text(data, "record", limit) or ""
    bots = bodies.bots(data)
    try:
        record = GameRecord.from_json(text, "the loaded record")
        if record.game not in games():
            raise BadRequest(f"the record is of a game not installed here ({record.game[:80]!r})")
        scenario = catalogue.for_record(record.game, record.scenario)
        record = attrs.evolve(record, scenario=str(scenario), files=())
        if bots is None and current is not None and current.game.name == record.game:
            bots = dict(current.bot_names)
        bots = default_bots(record.game) if bots is None else bots
        check_bots(record.game, bots)
        return Session.from_record(record, bots=bots, name="the loaded record")
    except BadRequest:
        raise
    except RecursionError:
        raise BadRequest("the record is nested too deeply") from None
    except (DataFileError, ValueError, KeyError) as exc:
        raise BadRequest(str(exc.args[0] if isinstance(exc, KeyError) else exc)) from None
