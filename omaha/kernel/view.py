"""What a player may see: pieces, marks and tracks on a board, renderer-neutral.

A game builds its :class:`View` with :meth:`omaha.kernel.protocol.State.make_view`,
which fills the common header (game, title, turn, phase, pending decision) the
same way for every game; the SVG renderer and the CLI read only these types.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from omaha.kernel.actions import Action
from omaha.kernel.board import Board


@attrs.frozen
class Pending:
    """The decision a state waits for: its kind, its owner and a prompt; ``focus``, the
    cells it is about (an attack's target while it is put together), for a map to mark."""

    kind: str
    player: str
    prompt: str
    focus: tuple[str, ...] = ()


#: One part of a prompt and the action class (or classes) it names.
Offer = tuple[str, type[Action] | tuple[type[Action], ...]]


def on_offer(legal: Iterable[Action], parts: Iterable[Offer]) -> str:
    """The parts of a prompt whose actions are legal now, as a player reads a choice
    ("a", "a or b", "a, b or c"): a prompt names only what is on offer."""
    kinds = {type(a) for a in legal}
    texts = [text for text, cls in parts if any(issubclass(k, cls) for k in kinds)]
    if len(texts) < 2:
        return "".join(texts)
    return f"{', '.join(texts[:-1])} or {texts[-1]}"


@attrs.frozen
class Piece:
    """A counter or token as a player may see it."""

    id: str
    side: str
    name: str
    where: str
    values: str = ""
    marks: tuple[str, ...] = ()
    hidden: bool = False
    #: the symbol on the counter: infantry, armour, engineer, artillery, mortar,
    #: machine_gun, anti_tank, recon, airborne, ranger, headquarters, leader,
    #: fortification, pillbox, rocket, boat (see omaha.kernel.svg.counters)
    kind: str = ""
    #: the size mark above the symbol, as printed: "I", "II", "III", "•", "••"
    echelon: str = ""
    #: (steps left, steps at full strength), shown as pips
    steps: tuple[int, int] | None = None


@attrs.frozen
class Mark:
    """Something printed or placed on a cell or box that is not a piece."""

    where: str
    text: str
    kind: str = "note"


@attrs.frozen
class View:
    """A neutral description of what one player may see (renderers and the CLI)."""

    game: str
    title: str
    player: str | None
    turn: str
    phase: str
    board: Board
    pending: Pending | None
    pieces: tuple[Piece, ...] = ()
    marks: tuple[Mark, ...] = ()
    tracks: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()

    def _repr_svg_(self) -> str:
        """Jupyter shows a view as its picture: ``state.view("US")`` in a cell."""
        from omaha.kernel.svg import render_view

        return render_view(self)

    def summary(self) -> str:
        """A few lines of text: turn, tracks, pieces by place, pending decision."""
        lines = [f"{self.title} — {self.turn}, {self.phase}"]
        if self.tracks:
            lines.append("  " + "  ".join(f"{k}: {v}" for k, v in self.tracks))
        by_place: dict[str, list[Piece]] = {}
        for p in self.pieces:
            by_place.setdefault(p.where, []).append(p)
        for where in sorted(by_place):
            shown = []
            for p in by_place[where]:
                text = "?" if p.hidden else p.name
                if p.values and not p.hidden:
                    text += f" {p.values}"
                if p.marks:
                    text += " [" + ",".join(p.marks) + "]"
                shown.append(f"{p.side}:{text}")
            lines.append(f"  {where or '(off map)'}: " + "; ".join(shown))
        lines.extend(f"  {n}" for n in self.notes)
        if self.pending is not None:
            lines.append(f"  -> {self.pending.player}: {self.pending.prompt}")
        return "\n".join(lines)
