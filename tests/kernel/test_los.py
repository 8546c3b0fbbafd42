"""Tests for omaha.kernel.los: hand-checked threads, symmetries, and an exhaustive
comparison with an independent sampling reference for every offset up to distance 12."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.kernel.hexes import Hex, hex_range
from omaha.kernel.los import Thread, thread, thread_offset

H = Hex


def offsets_at(n: int) -> list[tuple[int, int]]:
    return [(h.q, h.r) for h in Hex(0, 0).ring(n)]


ALL_OFFSETS = [off for n in range(1, 13) for off in offsets_at(n)]


# --------------------------------------------------------------------------- hand-checked
# Working: unscaled, hex h is {p : |f_i(p - h)| <= 1} with f = (q - r, q + 2r, -2q - r).
# On p(t) = t*d that is |t*F_i - H_i| <= 1 with F = f(d), H = f(h).


def test_same_hex_is_empty() -> None:
    t = thread(H(5, -2), H(5, -2))
    assert t == Thread(H(5, -2), H(5, -2), (), (), (), ())


def test_adjacent() -> None:
    # (0,0)->(1,0) crosses the shared side at its midpoint and nothing else.
    t = thread(H(0, 0), H(1, 0))
    assert t.cells == () and t.along == () and t.corners == ()
    assert t.crossed == ((H(0, 0), H(1, 0)),)


def test_straight_along_hex_direction() -> None:
    # The line r = 0 never meets a corner (scaled corners have r = 3k +- 1 or +-2),
    # so it crosses the three sides between (0,0),(1,0),(2,0),(3,0) at their midpoints.
    t = thread(H(0, 0), H(3, 0))
    assert t.cells == (H(1, 0), H(2, 0))
    assert t.crossed == ((H(0, 0), H(1, 0)), (H(1, 0), H(2, 0)), (H(2, 0), H(3, 0)))
    assert t.along == () and t.corners == ()


def test_diagonal_runs_along_a_side() -> None:
    # Scaled by 3, the segment is (0,0)->(6,-3). The corner of (0,0),(1,0),(1,-1) is the
    # centroid (0+3+3, 0+0-3)/3 = (2,-1); that of (1,0),(1,-1),(2,-1) is (4,-2). Both are on
    # the segment, and between them lies the side shared by (1,0) and (1,-1).
    t = thread(H(0, 0), H(2, -1))
    assert t.cells == ()
    assert t.crossed == ()
    assert t.along == ((H(1, -1), H(1, 0)),)
    assert t.corners == (
        (H(0, 0), H(1, -1), H(1, 0)),
        (H(1, -1), H(1, 0), H(2, -1)),
    )


def test_double_diagonal_passes_through_a_centre() -> None:
    # (0,0)->(4,-2) is two copies of the above joined at the centre of (2,-1): that hex is
    # entered and left through corners only, crossing no side, but is a cell.
    t = thread(H(0, 0), H(4, -2))
    assert t.cells == (H(2, -1),)
    assert t.crossed == ()
    assert t.along == ((H(1, -1), H(1, 0)), (H(3, -2), H(3, -1)))
    assert t.corners == (
        (H(0, 0), H(1, -1), H(1, 0)),
        (H(1, -1), H(1, 0), H(2, -1)),
        (H(2, -1), H(3, -2), H(3, -1)),
        (H(3, -2), H(3, -1), H(4, -2)),
    )


def test_knight_offset() -> None:
    # d = (3,-1): F = (4, 1, -5). Intervals of t (each hex: |4t-H1|<=1, |t-H2|<=1, |5t+H3|<=1):
    #   (0,0)  H=(0,0,0):   [0, 1/5]     leaves by f3 alone at 1/5 (4/5 < 1): a side
    #   (1,0)  H=(1,1,-2):  [1/5, 1/2]   leaves by f1 alone at 1/2 (5/2-2 = 1/2 < 1)
    #   (2,-1) H=(3,0,-3):  [1/2, 4/5]   leaves by f3 alone at 4/5
    #   (3,-1) H=(4,1,-5):  [4/5, 1]
    #   (1,-1) H=(2,-1,-1) needs |t+1| <= 1, i.e. t <= 0: not touched.
    # Corners on the line are at t in Z/3 (d primitive) but no event is at 1/3 or 2/3.
    t = thread(H(0, 0), H(3, -1))
    assert t.cells == (H(1, 0), H(2, -1))
    assert t.crossed == ((H(0, 0), H(1, 0)), (H(1, 0), H(2, -1)), (H(2, -1), H(3, -1)))
    assert t.along == () and t.corners == ()


def test_through_corners_transversally() -> None:
    # d = (4,1): F = (3, 6, -9); d/3 = (4/3, 1/3) is the corner of (1,0),(2,0),(1,1).
    #   (0,0)  H=(0,0,0):   [0, 1/9]     leaves by f3 alone: side into (1,0)
    #   (1,0)  H=(1,1,-2):  [1/9, 1/3]   f2 and f3 tight at 1/3: the corner
    #   (2,0)  H=(2,2,-4):  [1/3, 1/2]   leaves by f2 alone at 1/2: side into (2,1)
    #   (1,1)  H=(0,3,-3):  only t = 1/3 (touched at the corner, not a cell)
    #   then the mirror image through the midpoint (2, 1/2): (2,1), (3,1), b.
    # (1,0) -> (2,0) happens through a corner: adjacent cells with no crossed side.
    t = thread(H(0, 0), H(4, 1))
    assert t.cells == (H(1, 0), H(2, 0), H(2, 1), H(3, 1))
    assert t.crossed == ((H(0, 0), H(1, 0)), (H(2, 0), H(2, 1)), (H(3, 1), H(4, 1)))
    assert t.along == ()
    assert t.corners == ((H(1, 0), H(1, 1), H(2, 0)), (H(2, 1), H(3, 0), H(3, 1)))


def test_translated_hand_case() -> None:
    t = thread(H(10, -3), H(13, -4))
    assert t.cells == (H(11, -3), H(12, -4))
    assert t.reversed().crossed == (
        (H(13, -4), H(12, -4)),
        (H(12, -4), H(11, -3)),
        (H(11, -3), H(10, -3)),
    )


def test_offset_cache_is_bounded() -> None:
    maxsize = thread_offset.cache_info().maxsize
    assert maxsize is not None and maxsize >= 4096


# --------------------------------------------------------------------------- symmetries

coord = st.integers(-40, 40)
hexes = st.builds(Hex, coord, coord)


@given(hexes, hexes)
def test_reverse_symmetry(a: Hex, b: Hex) -> None:
    assert thread(b, a) == thread(a, b).reversed()
    assert thread(a, b).reversed().reversed() == thread(a, b)


@given(hexes, hexes, hexes)
def test_translation_invariance(a: Hex, b: Hex, by: Hex) -> None:
    t, u = thread(a, b), thread(a + by, b + by)
    assert u.a == a + by and u.b == b + by
    assert u.cells == tuple(h + by for h in t.cells)
    assert u.crossed == tuple((h + by, n + by) for h, n in t.crossed)
    assert u.along == tuple((h + by, n + by) for h, n in t.along)
    assert u.corners == tuple((h + by, m + by, n + by) for h, m, n in t.corners)


@given(hexes, hexes)
def test_structure(a: Hex, b: Hex) -> None:
    t = thread(a, b)
    assert a not in t.cells and b not in t.cells
    assert len(set(t.cells)) == len(t.cells)
    for h, n in t.crossed:
        assert h.distance(n) == 1
    for h, n in t.along:
        assert h < n and h.distance(n) == 1
        assert h not in t.cells and n not in t.cells
    for trio in t.corners:
        assert list(trio) == sorted(trio)
        x, y, z = trio
        assert x.distance(y) == y.distance(z) == x.distance(z) == 1


# --------------------------------------------------------------------------- reference


def nearest_centres(xn: int, yn: int, den: int) -> tuple[Hex, ...]:
    """Hexes whose centre is nearest (Euclidean) to the axial point (xn/den, yn/den).

    The hex grid is the Voronoi diagram of the centres, so one nearest centre means the
    point is inside that hex, two mean it is on their common side, three on a corner. The
    Euclidean norm in axial coordinates is proportional to q^2 + q*r + r^2. A hex spans at
    most 2/3 either side of its centre in q (and in r), so the nearest centres have
    q in {floor(x), floor(x)+1} and r in {floor(y), floor(y)+1}
    (checked against a wider search in test_nearest_centres_candidates).
    """
    fq, fr = xn // den, yn // den
    best = -1
    out: list[Hex] = []
    for q in (fq, fq + 1):
        for r in (fr, fr + 1):
            x, y = xn - q * den, yn - r * den
            d2 = x * x + x * y + y * y
            if best < 0 or d2 < best:
                best, out = d2, [Hex(q, r)]
            elif d2 == best:
                out.append(Hex(q, r))
    return tuple(sorted(out))


def nearest_centres_brute(xn: int, yn: int, den: int) -> tuple[Hex, ...]:
    fq, fr = xn // den, yn // den
    cands = [Hex(q, r) for q in range(fq - 2, fq + 4) for r in range(fr - 2, fr + 4)]

    def d2(h: Hex) -> int:
        x, y = xn - h.q * den, yn - h.r * den
        return x * x + x * y + y * y

    best = min(d2(h) for h in cands)
    return tuple(sorted(h for h in cands if d2(h) == best))


@given(st.integers(-500, 500), st.integers(-500, 500), st.sampled_from([1, 2, 3, 6, 7, 36, 60]))
def test_nearest_centres_candidates(xn: int, yn: int, den: int) -> None:
    assert nearest_centres(xn, yn, den) == nearest_centres_brute(xn, yn, den)


def test_nearest_centres_known_points() -> None:
    assert nearest_centres(0, 0, 1) == (H(0, 0),)
    assert nearest_centres(1, 0, 2) == (H(0, 0), H(1, 0))  # side midpoint
    assert nearest_centres(2, -1, 3) == (H(0, 0), H(1, -1), H(1, 0))  # corner


def reference(dq: int, dr: int) -> Thread:
    """The thread from (0,0) to (dq,dr) by classifying sample points t = k/M exactly.

    Why the samples see everything, with n = distance and F = (dq-dr, dq+2dr, -2dq-dr):
    every hexside lies on a line f_i(p) = integer (f as in the hand-checked cases), and
    p(t) = t*d meets those lines at t in Z/F_i. Between two consecutive such t the segment
    touches no side, so it is inside a single hex. Two distinct such t differ by at least
    1/|F_i*F_j| >= 1/(4n^2), as |F_i| <= 2n. With M > 4n^2 every open stretch between them
    holds a sample, so (1) each hex interior crossed holds an interior sample, (2) between two
    consecutive samples at most one such t occurs, so a change of hex between interior
    samples is a single proper side crossing, or the crossing point is itself a sample.
    Corners: d = g*d' with d' primitive and g | n; a corner is in (1/3)Z^2, so one on the
    segment is (j/3)d' = (j/(3g))d, at t in Z/(3g), and 3g | 3n | M: every corner on the
    segment is a sample. A side run along is a whole side, t-length 1/(3g) >= 1/(3n), so it
    holds >= M/(3n) - 1 = 79 on-side samples, while a crossed side holds at most one.
    """
    n = Hex(0, 0).distance(Hex(dq, dr))
    m = 240 * n
    assert m > 4 * n * n and m % (3 * n) == 0
    a, b = Hex(0, 0), Hex(dq, dr)
    seq = [nearest_centres(k * dq, k * dr, m) for k in range(m + 1)]
    assert seq[0] == (a,) and seq[-1] == (b,)

    cells: list[Hex] = []
    corners: list[tuple[Hex, Hex, Hex]] = []
    side_count: Counter[tuple[Hex, ...]] = Counter()
    side_order: list[tuple[Hex, ...]] = []
    for near in seq:
        if len(near) == 1:
            if near[0] not in cells and near[0] not in (a, b):
                cells.append(near[0])
        elif len(near) == 2:
            if near not in side_count:
                side_order.append(near)
            side_count[near] += 1
        else:
            assert len(near) == 3
            corners.append((near[0], near[1], near[2]))
    along = [(s[0], s[1]) for s in side_order if side_count[s] >= 2]

    crossed: list[tuple[Hex, Hex]] = []
    for k in range(m):
        cur, nxt = seq[k], seq[k + 1]
        if len(cur) == 1 and len(nxt) == 1 and cur != nxt:
            # one proper crossing between two samples: the hexes must share a side
            assert cur[0].distance(nxt[0]) == 1, (dq, dr, k)
            crossed.append((cur[0], nxt[0]))
        elif len(cur) == 1 and len(nxt) == 2 and side_count[nxt] == 1:
            after = seq[k + 2]
            assert len(after) == 1 and {cur[0], after[0]} == set(nxt), (dq, dr, k)
            crossed.append((cur[0], after[0]))
    return Thread(a, b, tuple(cells), tuple(crossed), tuple(along), tuple(corners))


@pytest.mark.parametrize("n", range(1, 13))
def test_against_sampling_reference(n: int) -> None:
    for dq, dr in offsets_at(n):
        assert thread_offset(dq, dr) == reference(dq, dr), (dq, dr)


far_offsets = st.tuples(st.integers(-50, 50), st.integers(-50, 50)).filter(
    lambda o: 13 <= Hex(0, 0).distance(Hex(*o)) <= 50
)


@settings(max_examples=20, deadline=None)
@given(far_offsets)
def test_against_sampling_reference_far(off: tuple[int, int]) -> None:
    # M = 240n > 4n^2 still holds for n <= 59 (see reference).
    assert thread_offset(*off) == reference(*off)


def test_reference_can_fail() -> None:
    # The reference is a real check: it tells apart the naive rounded cube-lerp line, which
    # misses hexes the thread crosses (and keeps ones it only grazes), from the exact cells.
    differs = 0
    for dq, dr in ALL_OFFSETS:
        line = lerp_line(Hex(0, 0), Hex(dq, dr))[1:-1]
        if tuple(line) != reference(dq, dr).cells:
            differs += 1
        if differs:
            break
    assert differs
    assert reference(4, -2).cells == (H(2, -1),)
    assert reference(2, -1).along == ((H(1, -1), H(1, 0)),)
    assert reference(2, -1).crossed == ()
    assert reference(4, 1).corners == ((H(1, 0), H(1, 1), H(2, 0)), (H(2, 1), H(3, 0), H(3, 1)))


# --------------------------------------------------------------------------- properties


def lerp_line(a: Hex, b: Hex) -> list[Hex]:
    """The usual rounded cube-lerp line (floating point; for a sanity check only)."""
    n = a.distance(b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        x = a.q + 1e-6 + (b.q - a.q) * t
        y = a.r + 2e-6 + (b.r - a.r) * t
        z = -x - y
        rx, ry, rz = round(x), round(y), round(z)
        ex, ey, ez = abs(rx - x), abs(ry - y), abs(rz - z)
        if ex > ey and ex > ez:
            rx = -ry - rz
        elif ey > ez:
            ry = -rx - rz
        out.append(Hex(rx, ry))
    return out


def chain_is_connected(t: Thread) -> bool:
    chain = [t.a, *t.cells, t.b]
    return all(x.distance(y) == 1 for x, y in itertools.pairwise(chain))


def test_chain_properties_all_offsets() -> None:
    seen_corner_only = 0
    for dq, dr in ALL_OFFSETS:
        t = thread_offset(dq, dr)
        n = t.a.distance(t.b)
        if not t.along:
            # Through a corner the thread passes between two of its three hexes, which
            # are adjacent; so without `along` the chain a, cells..., b is connected.
            assert chain_is_connected(t), (dq, dr)
            if t.corners:
                seen_corner_only += 1
        if not t.along and not t.corners:
            chain = [t.a, *t.cells, t.b]
            assert t.crossed == tuple(itertools.pairwise(chain)), (dq, dr)
            assert len(t.cells) >= n - 1
        else:
            assert t.corners  # running along a side starts and ends at corners
        line = lerp_line(t.a, t.b)
        for h in t.cells:
            assert min(h.distance(x) for x in line) <= 1, (dq, dr, h)
    assert seen_corner_only > 0


@given(hexes, hexes)
def test_chain_properties_random(a: Hex, b: Hex) -> None:
    t = thread(a, b)
    if a != b and not t.along:
        assert chain_is_connected(t)
    if not t.corners:
        assert len(t.cells) >= a.distance(b) - 1
        assert not t.along


def test_region_threads_touch_only_nearby_hexes() -> None:
    # Every reported hex is within the bounding strip of the segment (loose sanity).
    for q, r in hex_range(0, 0, 6):
        t = thread(Hex(0, 0), Hex(q, r))
        line = lerp_line(t.a, t.b)
        for pair in (*t.crossed, *t.along, *t.corners):
            for h in pair:
                assert min(h.distance(x) for x in line) <= 1
