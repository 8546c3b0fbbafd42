"""What a choice names and what it does, before it is made: two small hooks.

``state.names(action)`` is the board labels and piece ids an action names, in the
order a player points at them: what to select first (a piece, or a cell), then the
cell the choice is made on (its last cell). The default reads the action's fields:
a string that is a visible piece's id is a piece, one that is a board label a cell.
A game overrides it where a field means something else (a card id that reads like
a square) or where the order differs.

``state.facts(action)`` is what the action does, as a :class:`Facts`: a few lines
of text (a fire's firers, column and modifiers; a move step's cost and what is
left; a card's title and effect) and, where chance decides, the chance of each
result computed from the game's tables. The default has no lines. Each game keeps
its own in ``omaha/<game>/facts.py``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction
from typing import Protocol

import attrs

from omaha.kernel.actions import Action
from omaha.kernel.board import Board
from omaha.kernel.view import View


class Seen(Protocol):
    """What the default hook reads of a state (a protocol State has all of it)."""

    @property
    def board(self) -> Board: ...

    def current_player(self) -> str | None: ...

    def view(self, player: str | None = None) -> View: ...


@attrs.frozen
class Names:
    """The cells (printed labels) and pieces (ids) an action names, in pointing order."""

    cells: tuple[str, ...] = ()
    pieces: tuple[str, ...] = ()


@attrs.frozen
class Facts:
    """What a choice does: text lines, a short label for the map, result chances.

    ``chances`` pairs each possible result with its exact probability; they sum to 1
    when given (empty when no chance is involved).
    """

    lines: tuple[str, ...] = ()
    label: str = ""
    chances: tuple[tuple[str, Fraction], ...] = ()

    def text(self) -> str:
        """The facts as lines of plain text (the terminal's ``?N``)."""
        out = list(self.lines)
        if self.chances:
            out.append("chances: " + ", ".join(f"{r} {float(p):.0%}" for r, p in self.chances))
        return "\n".join(out) or "nothing more to say about this choice"


NO_FACTS = Facts()


def chances_of(
    weights: Mapping[str, int | Fraction] | Iterable[tuple[str, int | Fraction]],
) -> tuple[tuple[str, Fraction], ...]:
    """Results and their exact probabilities from results and weights (counts or
    fractions), summed by result, in first-seen order; zero weights dropped."""
    pairs = weights.items() if isinstance(weights, Mapping) else weights
    total: dict[str, Fraction] = {}
    for result, w in pairs:
        total[result] = total.get(result, Fraction(0)) + Fraction(w)
    whole = sum(total.values(), Fraction(0))
    if whole == 0:
        return ()
    return tuple((r, w / whole) for r, w in total.items() if w)


def visible_pieces(state: Seen) -> frozenset[str]:
    """The ids of the pieces the player to move sees."""
    return frozenset(p.id for p in state.view(state.current_player()).pieces if not p.hidden)


def default_names(state: Seen, action: Action, piece_ids: Collection[str] | None = None) -> Names:
    """The cells and visible pieces an action's fields name, in field order
    (``piece_ids``: the visible pieces, when the caller knows them already)."""
    if piece_ids is None:
        piece_ids = visible_pieces(state)
    board = state.board
    cells: list[str] = []
    pieces: list[str] = []
    for value in attrs.asdict(action, recurse=False).values():  # type: ignore[arg-type]
        for item in value if isinstance(value, tuple) else (value,):
            if not isinstance(item, str):
                continue
            if item in piece_ids:
                pieces.append(item)
            elif board.has(item):
                cells.append(board.labels[board.cell(item)])
    return Names(tuple(cells), tuple(pieces))
