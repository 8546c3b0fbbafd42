"""Hex geometry on integer axial coordinates.

Axial ``(q, r)`` with the implied cube coordinate ``s = -q - r``. The six
neighbour directions are the unit cube vectors; distance is the cube (max)
norm. Nothing here knows about a particular map: printed labels and offset
layouts live in :mod:`omaha.kernel.labels`.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

#: Axial neighbour offsets, counter-clockwise starting "east" in cube terms.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
)


@attrs.frozen(order=True)
class Hex:
    """A hex cell in axial coordinates (q, r); ``s`` is derived."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in :data:`DIRECTIONS` order."""
        return tuple(Hex(self.q + dq, self.r + dr) for dq, dr in DIRECTIONS)

    def distance(self, other: Hex) -> int:
        return distance(self.q, self.r, other.q, other.r)

    def ring(self, radius: int) -> tuple[Hex, ...]:
        """Hexes at exactly ``radius`` steps (the centre itself for 0)."""
        return tuple(Hex(q, r) for q, r in ring(self.q, self.r, radius))

    def range(self, radius: int) -> tuple[Hex, ...]:
        """Hexes at ``radius`` steps or fewer, centre included."""
        return tuple(Hex(q, r) for q, r in hex_range(self.q, self.r, radius))

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


def distance(q1: int, r1: int, q2: int, r2: int) -> int:
    """Cube distance between two axial coordinates."""
    dq = q1 - q2
    dr = r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


def ring(q: int, r: int, radius: int) -> Iterator[tuple[int, int]]:
    """Axial coordinates at exactly ``radius`` from ``(q, r)``."""
    if radius < 0:
        raise ValueError(f"ring radius must be >= 0, not {radius}")
    if radius == 0:
        yield (q, r)
        return
    # Start radius steps in direction 4 and walk each of the six sides.
    cq = q + DIRECTIONS[4][0] * radius
    cr = r + DIRECTIONS[4][1] * radius
    for dq, dr in DIRECTIONS:
        for _ in range(radius):
            yield (cq, cr)
            cq += dq
            cr += dr


def hex_range(q: int, r: int, radius: int) -> Iterator[tuple[int, int]]:
    """Axial coordinates within ``radius`` of ``(q, r)``, centre included."""
    if radius < 0:
        raise ValueError(f"range radius must be >= 0, not {radius}")
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield (q + dq, r + dr)


def are_adjacent(a: Hex, b: Hex) -> bool:
    return a.distance(b) == 1
