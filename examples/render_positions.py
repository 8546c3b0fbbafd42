"""Draw a position of every design: the map, the counters, the legend.

Writes ``<game>.svg`` (and ``<game>.png`` when the ``png`` extra is installed) into
the folder given (default: a new temporary folder, printed), each after a few dozen decisions of
the game's own bots, as a player sees it and as an observer sees it.

    python examples/render_positions.py [folder]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import omaha
from omaha.kernel.svg import render_view, to_png

STEPS = {"lnl": 150, "tcs": 600, "bloody": 20, "landing_table": 80}


def position(name: str, seed: int = 1) -> omaha.State:
    """The game ``name`` after some decisions of its strongest bots."""
    game = omaha.load(name)
    best = next(b for b in ("heuristic", "historical", "random") if b in game.bots)
    lineup = game.lineup(best)
    bots = {side: game.bots[lineup[side]](seed=seed) for side in game.players}
    fallback = game.bots["random"](seed=seed)
    state = game.new_state(seed=seed)
    for _ in range(STEPS.get(name, 50)):
        if state.is_terminal():
            break
        try:
            action = bots[state.current_player() or ""].choose(state)
        except omaha.IllegalAction:  # a one-sided bot asked for the other side
            action = fallback.choose(state)
        state.apply(action)
    return state


def main(folder: Path | None = None) -> list[Path]:
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="omaha-pictures-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"pictures in {folder}")
    written = []
    for name in omaha.games():
        state = position(name)
        for who, view in (
            (name, state.view(None)),
            (f"{name}-{state.game.players[0]}", state.view(state.game.players[0])),
        ):
            svg = render_view(view)
            path = folder / f"{who}.svg"
            path.write_text(svg)
            written.append(path)
            try:
                png = to_png(svg)
            except RuntimeError:  # the png extra is not installed
                continue
            (folder / f"{who}.png").write_bytes(png)
            written.append(folder / f"{who}.png")
        print(f"{name}: {state.turn_label}, {state.phase}")
    return written


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
