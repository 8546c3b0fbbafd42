"""Which scenarios ``omaha serve`` offers: the shipped ones and a folder named at start.

A client names a scenario; it never sends a path. A name is either one of the
game's shipped ids (``game.scenarios()``) or the file name of a ``*.toml`` in the
folder given by ``--scenarios DIR``. Files of that folder are listed afresh at each
look-up (a new file shows up without a restart); a file counts only when it is a
regular file of bounded size whose resolved path stays inside the resolved folder
(so no ``..`` and no symlink leads out of it), and whose ``[scenario] game`` names
the game.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from omaha.registry import load

#: A scenario file larger than this is not listed (a shipped one is a few kB).
MAX_SCENARIO_BYTES = 1_000_000


class Catalogue:
    """The scenario names each game offers through the server."""

    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = Path(folder).resolve(strict=True) if folder is not None else None
        if self.folder is not None and not self.folder.is_dir():
            raise ValueError("not a folder")

    def shipped(self, game: str) -> tuple[str, ...]:
        return tuple(load(game).scenarios())

    def extra(self, game: str) -> dict[str, Path]:
        """The folder's scenario files for ``game``: file name -> resolved path."""
        if self.folder is None:
            return {}
        found: dict[str, Path] = {}
        for path in sorted(self.folder.glob("*.toml")):
            try:
                real = path.resolve(strict=True)
                if not real.is_relative_to(self.folder) or not real.is_file():
                    continue
                if real.stat().st_size > MAX_SCENARIO_BYTES:
                    continue
                with real.open("rb") as handle:
                    data = tomllib.load(handle)
            except (OSError, ValueError, RuntimeError):
                continue  # unreadable, not TOML, a symlink loop: not offered
            table = data.get("scenario")
            if isinstance(table, dict) and table.get("game") == game:
                found[path.name] = real
        return found

    def names(self, game: str) -> list[str]:
        return [*self.shipped(game), *self.extra(game)]

    def resolve(self, game: str, name: str | None) -> str | Path | None:
        """What to hand ``Session`` for the scenario ``name`` of ``game`` (None: the
        default); a name the server does not offer is a ``ValueError`` that repeats
        only the name."""
        if name is None or name == "":
            return None
        if name in self.shipped(game):
            return name
        extra = self.extra(game)
        if name in extra:
            return extra[name]
        offered = ", ".join(self.names(game))
        raise ValueError(f"{game} offers no scenario {name[:80]!r} here (offered: {offered})")

    def for_record(self, game: str, ref: str) -> str | Path:
        """The scenario a loaded record names, when the server offers it: a shipped id,
        or a folder file of the same file name (the replay then checks its hash)."""
        if ref in self.shipped(game):
            return ref
        extra = self.extra(game)
        base = ref.replace("\\", "/").rsplit("/", 1)[-1]
        if base in extra:
            return extra[base]
        raise ValueError(
            f"the record is of a scenario this server does not offer ({base[:80]!r}); "
            "start omaha serve with --scenarios DIR for a folder that holds it"
        )
