"""Square-grid geometry with orthogonal adjacency (Bloody Omaha's map)."""

from __future__ import annotations

import attrs

#: Orthogonal neighbour offsets: east, north, west, south (y grows northward).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))


@attrs.frozen(order=True)
class Square:
    """A square cell at column ``x`` (east) and row ``y`` (north)."""

    x: int
    y: int

    def neighbours(self) -> tuple[Square, ...]:
        """The four orthogonally adjacent squares (no diagonals)."""
        return tuple(Square(self.x + dx, self.y + dy) for dx, dy in DIRECTIONS)

    def distance(self, other: Square) -> int:
        """Orthogonal (Manhattan) distance: the number of orthogonal steps."""
        return abs(self.x - other.x) + abs(self.y - other.y)

    def __str__(self) -> str:
        return f"[{self.x},{self.y}]"
