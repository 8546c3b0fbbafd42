"""The registry of games: ``omaha.games()`` and ``omaha.load(name)``.

The four built-in rule modules are found by name; other packages may add games
through the ``omaha.games`` entry-point group (each entry point names a module
or object exposing a :class:`~omaha.kernel.protocol.Game` as ``GAME``), and
tests or notebooks may :func:`register` a game object directly.
"""

from __future__ import annotations

import importlib
import importlib.util
from importlib.metadata import entry_points
from typing import Any

from omaha.kernel.protocol import Game

BUILTIN: dict[str, str] = {
    "tcs": "omaha.tcs",
    "lnl": "omaha.lnl",
    "bloody": "omaha.bloody",
    "landing_table": "omaha.landing_table",
}

_registered: dict[str, Game[Any]] = {}
_loaded: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> None:
    """Make a game object available to :func:`load` under its name."""
    _registered[game.name] = game


def unregister(name: str) -> None:
    _registered.pop(name, None)


def _plugins() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group="omaha.games")}


def games() -> tuple[str, ...]:
    """Names of the installed games, sorted."""
    names = {n for n, mod in BUILTIN.items() if importlib.util.find_spec(mod) is not None}
    names.update(_plugins())
    names.update(_registered)
    return tuple(sorted(names))


def load(name: str) -> Game[Any]:
    """The :class:`Game` registered under ``name``."""
    if name in _registered:
        return _registered[name]
    if name in _loaded:
        return _loaded[name]
    target = BUILTIN.get(name) or _plugins().get(name)
    if target is None or importlib.util.find_spec(target.split(":")[0]) is None:
        known = ", ".join(games()) or "none"
        raise KeyError(f"no game named {name!r} (installed: {known})")
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    game = getattr(module, attr or "GAME")
    if not isinstance(game, Game):
        raise TypeError(f"{target} does not provide a Game")
    _loaded[name] = game
    return game
