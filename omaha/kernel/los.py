"""Exact line-of-sight threads on the hex grid.

A *thread* is the straight segment from the centre of hex ``a`` to the centre of
hex ``b``. :func:`thread` reports exactly what that segment meets on the way
(integer arithmetic only: no floating point, no tolerance, no rounded line):

``cells``
    Hexes whose open interior the segment passes through for a positive length,
    ordered from ``a`` to ``b``. The endpoints ``a`` and ``b`` are never listed.
    A hex may be entered and left through corners only, crossing no side (the
    thread ``(0,0)->(4,-2)`` passes through the centre of ``(2,-1)``); it is
    still a cell.
``crossed``
    Hexsides the segment crosses at a point strictly inside the side (not at a
    corner), in order, each as ``(hex left, hex entered)``. Sides of ``a`` and
    ``b`` are included.
``along``
    Hexsides the segment runs exactly along (always for the side's whole
    length), in order, each as the sorted pair of the two hexes sharing it.
    Running along a side does not make either hex a cell.
``corners``
    Hex vertices lying on the segment, in order, each as the sorted triple of
    the three hexes meeting there (``a`` or ``b`` may be one of them); this
    includes the two corners at the ends of every ``along`` side.

``thread(a, a)`` has all four empty. Between two cells that follow each other
there is a crossed side or a corner (the thread may pass from one hex into an
adjacent one through a corner, grazing the third hex there, which is no cell).

Each list is ordered by the position along the segment of the first point where
the segment meets the element. A thread depends only on the offset ``b - a``:
:func:`thread_offset` computes and caches the thread from the origin and
:func:`thread` translates it; ``thread(b, a) == thread(a, b).reversed()``.
The caches are bounded LRU caches (:func:`clear_caches` empties them).

Nothing here decides what blocks sight; each game's rules do. For example, in
LnL a hex whose side the thread only runs along does not block, so such a game
looks at ``cells`` (and perhaps ``crossed`` for hexside terrain), while another
game may block an ``along`` side if either hex holds blocking terrain, or treat
``corners`` specially.
"""

from __future__ import annotations

import functools
import math

import attrs

from omaha.kernel.hexes import DIRECTIONS, Hex

# Geometry. Axial coordinates map linearly onto the Euclidean plane, so
# incidence (collinearity, crossing, passing a corner) and ratios along a line
# can be computed in axial coordinates directly. Scaling by 3 makes every hex
# corner an integer point: the corner shared by h, h + D[k] and h + D[k + 1] is
# the centroid 3h + D[k] + D[k + 1]. Unscaled, the closed hex of centre h is
# {p : |f_i(p - h)| <= 1 for i = 1, 2, 3} with the cube differences
# f_1 = q - r, f_2 = r - s = q + 2r, f_3 = s - q = -2q - r. On the thread
# p(t) = t * (dq, dr), 0 <= t <= 1, that is |t * F_i - H_i| <= 1 with
# F_i = f_i(dq, dr) and H_i = f_i(h): an interval of t with rational ends whose
# denominators divide F_i, computed below in units of 1 / lcm(|F_i|).


@attrs.frozen
class Thread:
    """What the segment centre(a) -> centre(b) meets; see the module docstring."""

    a: Hex
    b: Hex
    cells: tuple[Hex, ...]
    crossed: tuple[tuple[Hex, Hex], ...]
    along: tuple[tuple[Hex, Hex], ...]
    corners: tuple[tuple[Hex, Hex, Hex], ...]

    def reversed(self) -> Thread:
        """The same thread seen from ``b``."""
        return Thread(
            a=self.b,
            b=self.a,
            cells=self.cells[::-1],
            crossed=tuple((n, h) for h, n in self.crossed[::-1]),
            along=self.along[::-1],
            corners=self.corners[::-1],
        )

    def translated(self, by: Hex) -> Thread:
        """This thread moved by the offset ``by``."""
        bq, br = by.q, by.r
        moved: dict[Hex, Hex] = {}

        def mv(h: Hex) -> Hex:
            got = moved.get(h)
            if got is None:
                got = moved[h] = Hex(h.q + bq, h.r + br)
            return got

        return Thread(
            a=mv(self.a),
            b=mv(self.b),
            cells=tuple(map(mv, self.cells)),
            crossed=tuple((mv(h), mv(n)) for h, n in self.crossed),
            along=tuple((mv(h), mv(n)) for h, n in self.along),
            corners=tuple((mv(h), mv(m), mv(n)) for h, m, n in self.corners),
        )


_ORIGIN = Hex(0, 0)

#: Scaled offsets from a hex centre (at 3h) of its corners: corner k is shared with
#: h + D[k] and h + D[k + 1], at the centroid 3h + D[k] + D[k + 1].
_CORNERS: tuple[tuple[int, int], ...] = tuple(
    (DIRECTIONS[k][0] + DIRECTIONS[k - 5][0], DIRECTIONS[k][1] + DIRECTIONS[k - 5][1])
    for k in range(6)
)


def thread(a: Hex, b: Hex) -> Thread:
    """The thread from the centre of ``a`` to the centre of ``b``."""
    dq, dr = b.q - a.q, b.r - a.r
    if a.q == 0 and a.r == 0:
        return thread_offset(dq, dr)
    uniq, cells, crossed, along, corners = _plan(dq, dr)
    aq, ar = a.q, a.r
    hx = [a, b, *[Hex(q + aq, r + ar) for q, r in uniq]]
    return Thread(
        a=a,
        b=b,
        cells=tuple([hx[i] for i in cells]),
        crossed=tuple([(hx[i], hx[j]) for i, j in crossed]),
        along=tuple([(hx[i], hx[j]) for i, j in along]),
        corners=tuple([(hx[i], hx[j], hx[k]) for i, j, k in corners]),
    )


_Plan = tuple[
    tuple[tuple[int, int], ...],
    tuple[int, ...],
    tuple[tuple[int, int], ...],
    tuple[tuple[int, int], ...],
    tuple[tuple[int, int, int], ...],
]


@functools.lru_cache(maxsize=65536)
def _plan(dq: int, dr: int) -> _Plan:
    """thread_offset(dq, dr) as indices into [a, b, *others], for fast translation."""
    t = thread_offset(dq, dr)
    index: dict[tuple[int, int], int] = {(0, 0): 0, (dq, dr): 1}  # plain tuples hash fast
    uniq: list[tuple[int, int]] = []

    def ix(h: Hex) -> int:
        key = (h.q, h.r)
        got = index.get(key)
        if got is None:
            got = index[key] = len(index)
            uniq.append(key)
        return got

    cells = tuple(ix(h) for h in t.cells)
    crossed = tuple((ix(h), ix(n)) for h, n in t.crossed)
    along = tuple((ix(h), ix(n)) for h, n in t.along)
    corners = tuple((ix(h), ix(m), ix(n)) for h, m, n in t.corners)
    return tuple(uniq), cells, crossed, along, corners


def clear_caches() -> None:
    """Empty the offset caches (for benchmarks and memory pressure)."""
    thread_offset.cache_clear()
    _plan.cache_clear()


def _clip(q: int, r: int, f: tuple[int, int, int], unit: int) -> tuple[int, int, bool] | None:
    """Where the thread meets the closed hex (q, r): (lo, hi, on_boundary_line).

    ``lo``/``hi`` are in units of 1/unit of the parameter t; None if disjoint.
    ``on_boundary_line`` is true when the thread lies on the line of one side.
    """
    lo, hi = 0, unit
    on_line = False
    for fi, h_i in zip(f, (q - r, q + 2 * r, -2 * q - r), strict=True):
        if fi == 0:
            if h_i > 1 or h_i < -1:
                return None
            if h_i != 0:
                on_line = True
            continue
        step = unit // fi
        b1 = (h_i - 1) * step
        b2 = (h_i + 1) * step
        if step < 0:
            b1, b2 = b2, b1
        if b1 > lo:
            lo = b1
        if b2 < hi:
            hi = b2
        if lo > hi:
            return None
    return lo, hi, on_line


@functools.lru_cache(maxsize=65536)
def thread_offset(dq: int, dr: int) -> Thread:
    """The thread from ``Hex(0, 0)`` to ``Hex(dq, dr)`` (cached)."""
    start, end = _ORIGIN, Hex(dq, dr)
    if dq == 0 and dr == 0:
        return Thread(start, end, (), (), (), ())
    f = (dq - dr, dq + 2 * dr, -2 * dq - dr)
    unit = math.lcm(*(abs(x) for x in f if x != 0))

    # Candidates: hexes whose closed hex meets the infinite line, within the
    # segment's bounding box widened by one. Corner offsets v satisfy
    # |cross(d, v)| <= max|F_i| = m, so a hex meets the line iff
    # |3 * cross(d, h)| <= m, with cross(d, h) = dq * r - dr * q.
    w = max(abs(x) for x in f) // 3
    q_lo, q_hi = min(0, dq) - 1, max(0, dq) + 1
    r_lo, r_hi = min(0, dr) - 1, max(0, dr) + 1
    touched: dict[tuple[int, int], tuple[int, int, bool]] = {}
    if abs(dq) >= abs(dr):  # scan columns of q, solve for r
        for q in range(q_lo, q_hi + 1):
            x1, x2 = dr * q - w, dr * q + w  # dq * r in [x1, x2]
            if dq < 0:
                x1, x2 = -x2, -x1
            a = max(r_lo, -(-x1 // abs(dq)))
            z = min(r_hi, x2 // abs(dq))
            for r in range(a, z + 1):
                got = _clip(q, r, f, unit)
                if got is not None:
                    touched[(q, r)] = got
    else:  # scan rows of r, solve for q
        for r in range(r_lo, r_hi + 1):
            x1, x2 = dq * r - w, dq * r + w  # dr * q in [x1, x2]
            if dr < 0:
                x1, x2 = -x2, -x1
            a = max(q_lo, -(-x1 // abs(dr)))
            z = min(q_hi, x2 // abs(dr))
            for q in range(a, z + 1):
                got = _clip(q, r, f, unit)
                if got is not None:
                    touched[(q, r)] = got

    # Cells: positive length inside the closed hex, not lying on a side line
    # (a chord of a hexagon off its sides' lines is interior but for its ends).
    cell_keys = sorted(
        (lo, qr) for qr, (lo, hi, on_line) in touched.items() if lo < hi and not on_line
    )

    # Sides and corners, in scaled coordinates (centre of h at 3h, start at the origin, end
    # at P). cross(P, 3h + v) = 3 * (x + cross(d, v)) with x = 3 * cross(d, h), so the
    # sign of x + cv[k] places corner k of h relative to the thread's line (0: on it).
    px, py = 3 * dq, 3 * dr
    pp = px * px + py * py
    cv = [dq * vy - dr * vx for vx, vy in _CORNERS]
    hexes = {qr: Hex(*qr) for qr in touched}
    cells = tuple(hexes[qr] for _, qr in cell_keys if qr != (0, 0) and qr != (dq, dr))
    crossed: list[tuple[int, tuple[Hex, Hex]]] = []
    along: list[tuple[int, tuple[Hex, Hex]]] = []
    corner_at: dict[tuple[int, int], tuple[int, tuple[Hex, Hex, Hex]]] = {}
    for (q, r), h in hexes.items():
        cx, cy = 3 * q, 3 * r
        x = 3 * (dq * r - dr * q)
        for k in range(6):
            if x + cv[k] == 0:  # corner k (shared with h + D[k], h + D[k + 1]) on the line
                vx, vy = cx + _CORNERS[k][0], cy + _CORNERS[k][1]
                dot = vx * px + vy * py
                if 0 < dot < pp and (vx, vy) not in corner_at:
                    (kq, kr), (nq, nr) = DIRECTIONS[k], DIRECTIONS[k - 5]
                    trio = sorted((h, Hex(q + kq, r + kr), Hex(q + nq, r + nr)))
                    corner_at[(vx, vy)] = (dot, (trio[0], trio[1], trio[2]))
        for k in range(3):  # each side once; both its hexes must be touched
            kq, kr = DIRECTIONS[k]
            n = hexes.get((q + kq, r + kr))
            if n is None:
                continue
            # The side towards D[k] runs from corner k - 1 to corner k.
            s1, s2 = x + cv[k - 1], x + cv[k]
            c1x, c1y = cx + _CORNERS[k - 1][0], cy + _CORNERS[k - 1][1]
            if s1 == 0 and s2 == 0:  # collinear: along if the overlap has positive length
                c2x, c2y = cx + _CORNERS[k][0], cy + _CORNERS[k][1]
                u1, u2 = c1x * px + c1y * py, c2x * px + c2y * py
                start_u, end_u = max(0, min(u1, u2)), min(pp, max(u1, u2))
                if start_u < end_u:
                    along.append((start_u, (h, n) if h < n else (n, h)))
            elif (s1 < 0 < s2) or (s2 < 0 < s1):  # the line crosses strictly inside
                ex = _CORNERS[k][0] - _CORNERS[k - 1][0]
                ey = _CORNERS[k][1] - _CORNERS[k - 1][1]
                o_start = ey * c1x - ex * c1y  # which side of the side's line each end is on
                o_end = ex * (py - c1y) - ey * (px - c1x)
                if (o_start < 0 < o_end) or (o_end < 0 < o_start):
                    o_h = ex * (cy - c1y) - ey * (cx - c1x)
                    left, entered = (h, n) if (o_h < 0) == (o_start < 0) else (n, h)
                    # The crossing is where the thread leaves the closed hex it left.
                    crossed.append((touched[(left.q, left.r)][1], (left, entered)))

    crossed.sort(key=lambda item: item[0])
    along.sort(key=lambda item: item[0])
    return Thread(
        a=start,
        b=end,
        cells=cells,
        crossed=tuple(pair for _, pair in crossed),
        along=tuple(pair for _, pair in along),
        corners=tuple(trio for _, trio in sorted(corner_at.values(), key=lambda it: it[0])),
    )
