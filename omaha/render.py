"""Pictures of games: SVG of a state's view, drawn from the protocol alone."""

from __future__ import annotations

from omaha.kernel.protocol import State
from omaha.kernel.svg import render_board, render_view

__all__ = ["render_board", "render_state", "render_view"]


def render_state(state: State, player: str | None = None) -> str:
    """SVG of what ``player`` sees (None: everything)."""
    return render_view(state.view(player))
