"""Line of sight and spotting (series 7.0, 8.0, reconstructed) with the Omaha
hedgerows (1.3) and the naval observer's 10 m eye (2.6c).

A thread runs from hex centre to hex centre (exact geometry, the kernel's). Each
hex has a ground height (its map level) and a top (ground plus woods, forest or
buildings); a hex the thread crosses blocks it when its top rises above the
straight sight line between the two ends, and smoke in it always blocks. A
hexside the thread only runs along blocks only when both hexes beside it do.

Bocage (1.3): a thread crossing a bocage hexside is blocked unless that hexside
borders the firer's or the target's hex (fire and spotting); a target behind a
bocage hexside of its own hex is fired on as in a forest; a movement trigger is
seen through no bocage hexside except those bordering the overwatching unit.
Static results (terrain, heights, hedgerows) are cached on the scenario; smoke
is looked up in the game.
"""

from __future__ import annotations

import functools
import itertools
import operator
from typing import cast

import attrs
import numpy as np
import numpy.typing as npt

from omaha.kernel.hexes import Hex
from omaha.kernel.hexes import distance as hex_distance
from omaha.kernel.los import thread_offset
from omaha.tcs.core import TcsCore

#: cap on cached sight lines per scenario (each is small; games reuse them)
_CACHE_LIMIT = 400_000


@attrs.frozen
class Line:
    """What the thread from one hex centre to another meets, beyond its ends."""

    clear: bool  # terrain and heights do not block it
    cells: tuple[int, ...]  # hexes it crosses (for smoke)
    along: tuple[tuple[int, int], ...]  # hexside pairs it runs along (for smoke)
    bocage: tuple[tuple[int, int], ...]  # bocage hexsides it crosses
    shingle: bool  # it crosses a shingle hexside (1.13)


def ground(core: TcsCore, cell: int) -> int:
    """Ground height of a hex in tens of metres (map level x the series' level height)."""
    return core.scenario.beach.level[cell] * core.scenario.series.heights["level"]


def top(core: TcsCore, cell: int) -> int:
    """Ground plus what stands on it (woods, forest, buildings)."""
    terrain = core.scenario.board.terrain[cell]
    return ground(core, cell) + core.scenario.series.heights.get(terrain, 0)


def line(core: TcsCore, a: int, b: int, eye: int = 0) -> Line:
    """The static sight line from ``a`` (eye ``eye`` tens of metres above ground) to ``b``."""
    cache = core.scenario.sight_cache
    key = (a, b, eye)
    hit: Line | None = cache.get(key)
    if hit is not None:
        return hit
    if len(cache) > _CACHE_LIMIT:
        cache.clear()
    board = core.scenario.board
    thread = board.thread(a, b)
    dist = core.dist(a, b)
    ha, hb = ground(core, a) + eye, ground(core, b)

    def blocks(c: int) -> bool:
        d = core.dist(a, c)
        return top(core, c) * dist > ha * (dist - d) + hb * d

    cells = tuple(c for c in thread.cells if c not in (a, b) and c >= 0)
    along = tuple((x, y) for x, y in thread.along if x >= 0 and y >= 0)
    clear = not any(blocks(c) for c in cells) and not any(blocks(x) and blocks(y) for x, y in along)
    sides = core.scenario.beach.bocage_sides
    bocage = tuple(
        (min(x, y), max(x, y))
        for x, y in thread.crossed
        if x >= 0 and y >= 0 and (min(x, y), max(x, y)) in sides
    )
    shingle = any(
        (min(x, y), max(x, y)) in core.scenario.beach.shingle_sides
        for x, y in thread.crossed
        if x >= 0 and y >= 0
    )
    hit = cache[key] = Line(clear, cells, along, bocage, shingle)
    return hit


def _smoked(core: TcsCore, ln: Line) -> bool:
    smoke = core.smoke
    if not smoke:
        return False
    return any(c in smoke for c in ln.cells) or any(x in smoke and y in smoke for x, y in ln.along)


# One byte a (from, to) pair, eye 0, filled as lines are first asked for.
_KNOWN, _CLEAR, _FIRE, _TRIGGER, _BEHIND = 1, 2, 4, 8, 16


@functools.lru_cache(maxsize=8192)
def _offsets(dq: int, dr: int) -> _Offsets:
    """The thread from the origin to (dq, dr) as plain offsets: the cells it crosses
    (with their distance from the origin), the side pairs it runs along, the sides
    it crosses."""
    t = thread_offset(dq, dr)

    def d(h: Hex) -> int:
        return hex_distance(0, 0, h.q, h.r)

    return (
        tuple((h.q, h.r, d(h)) for h in t.cells),
        tuple(((x.q, x.r, d(x)), (y.q, y.r, d(y))) for x, y in t.along),
        tuple(((x.q, x.r), (y.q, y.r)) for x, y in t.crossed),
    )


_Offsets = tuple[
    tuple[tuple[int, int, int], ...],
    tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...],
    tuple[tuple[tuple[int, int], tuple[int, int]], ...],
]


@attrs.frozen
class _Grid:
    """What the sight bytes are worked out from, per scenario: cell coordinates and
    the index at each, heights of ground and top, the bocage and shingle sides."""

    q: tuple[int, ...]
    r: tuple[int, ...]
    at: dict[tuple[int, int], int]
    ground: tuple[int, ...]
    top: tuple[int, ...]


def _grid(core: TcsCore) -> _Grid:
    cache = core.scenario.sight_cache
    hit: _Grid | None = cache.get("grid")
    if hit is None:
        board = core.scenario.board
        n = len(board.terrain)
        hexes = [board.hex(c) for c in range(n)]
        hit = cache["grid"] = _Grid(
            tuple(h.q for h in hexes),
            tuple(h.r for h in hexes),
            {(h.q, h.r): c for c, h in enumerate(hexes)},
            tuple(ground(core, c) for c in range(n)),
            tuple(top(core, c) for c in range(n)),
        )
    return hit


def _compute(core: TcsCore, a: int, b: int, eye: int = 0) -> int:
    """The sight byte of ``a`` -> ``b`` (eye ``eye`` tens of metres above ``a``): what
    :func:`line` finds, without building the line."""
    g = _grid(core)
    aq, ar = g.q[a], g.r[a]
    cells, along, crossed = _offsets(g.q[b] - aq, g.r[b] - ar)
    at, tops = g.at, g.top
    dist = core.dist(a, b)
    ha, hb = g.ground[a] + eye, g.ground[b]
    clear = True
    for q, r, d in cells:
        c = at.get((q + aq, r + ar), -1)
        if c >= 0 and tops[c] * dist > ha * (dist - d) + hb * d:
            clear = False
            break
    if clear:
        for (xq, xr, xd), (yq, yr, yd) in along:
            x, y = at.get((xq + aq, xr + ar), -1), at.get((yq + aq, yr + ar), -1)
            if (
                x >= 0
                and y >= 0
                and tops[x] * dist > ha * (dist - xd) + hb * xd
                and tops[y] * dist > ha * (dist - yd) + hb * yd
            ):
                clear = False
                break
    code = _KNOWN | (_CLEAR if clear else 0) | _FIRE | _TRIGGER
    sides = core.scenario.beach.bocage_sides
    for (xq, xr), (yq, yr) in crossed:
        x, y = at.get((xq + aq, xr + ar), -1), at.get((yq + aq, yr + ar), -1)
        if x < 0 or y < 0 or ((x, y) if x < y else (y, x)) not in sides:
            continue
        if a not in (x, y):
            code &= ~_TRIGGER
            if b not in (x, y):
                code &= ~_FIRE
        if b in (x, y):
            code |= _BEHIND
    return code


def _code(core: TcsCore, a: int, b: int) -> int:
    """The static sight byte of ``a`` -> ``b``: terrain clear; the hedgerows let fire
    (and spotting) through; they let a movement trigger through; ``b`` lies behind a
    bocage hexside of its own hex."""
    scen = core.scenario
    n = len(scen.board.terrain)
    codes = scen.sight_codes
    if not codes:
        codes.extend(bytes(n * n))
    k = a * n + b
    code = codes[k]
    if not code:
        code = codes[k] = _compute(core, a, b)
    return code


def los(core: TcsCore, a: int, b: int, *, trigger: bool = False, eye: int = 0) -> bool:
    """Whether ``a`` sees ``b``: terrain, heights, smoke and the hedgerows of 1.3.

    ``trigger``: the sight of an overwatching unit at ``a`` on a moving unit at
    ``b`` (1.3: no movement trigger through bocage, except bocage bordering ``a``).
    """
    if a == b:
        return True
    if eye:
        ln = line(core, a, b, eye)
        if not ln.clear or _smoked(core, ln):
            return False
        return all(a in side or (not trigger and b in side) for side in ln.bocage)
    code = _code(core, a, b)
    if not code & _CLEAR or not code & (_TRIGGER if trigger else _FIRE):
        return False
    return not core.smoke or not _smoked(core, line(core, a, b))


def behind_bocage(core: TcsCore, a: int, b: int) -> bool:
    """TCS Omaha 1.3: a target at ``b`` engaged from ``a`` through a bocage hexside of
    its own hex gets the forest modifier (direct fire only)."""
    if a == b:
        return False
    return bool(_code(core, a, b) & _BEHIND)


def seen_from_the_ships(core: TcsCore, target: int) -> bool:
    """TCS Omaha 2.6c: some north edge hex sees ``target`` with the naval observer's
    eye above it (the terrain part kept per scenario; smoke looked up now)."""
    eye = core.scenario.tables.naval_observer_height
    cache = core.scenario.sight_cache
    key = ("ships", target)
    eyes: tuple[int, ...] | None = cache.get(key)
    if eyes is None and not core.smoke:  # whether any sees it: the nearest first
        seen: bool | None = cache.get(("ships?", target))
        if seen is None:
            edge = sorted(core.scenario.beach.north_edge, key=lambda c: (core.dist(c, target), c))
            seen = cache[("ships?", target)] = any(
                _compute(core, c, target, eye) & (_CLEAR | _FIRE) == _CLEAR | _FIRE for c in edge
            )
        return seen
    if eyes is None:
        eyes = cache[key] = tuple(
            c
            for c in core.scenario.beach.north_edge
            if _compute(core, c, target, eye) & (_CLEAR | _FIRE) == _CLEAR | _FIRE
        )
    if not core.smoke:
        return bool(eyes)
    return any(not _smoked(core, line(core, c, target, eye)) for c in eyes)


def spot_range(core: TcsCore, cell: int, units: list[int]) -> int:
    """Series 7.0 (reconstructed): how far the units of a hex are seen: by the hex's
    cover (woods, forest, village, buildings, defensive zones), at long range once
    any of them fired this turn; at night not beyond the night visibility, unless an
    illumination round lights the hex (the series' night, reconstructed)."""
    series = core.scenario.series
    if core.night and cell not in core.illuminated:  # lit hexes are seen as by day
        return series.spot_night
    if any(i in core.revealed for i in units):
        return series.spot_fired
    terrain = core.scenario.board.terrain[cell]
    rng = series.spot_concealed.get(terrain, series.spot_day)
    if cell in core.scenario.beach.dz:
        rng = min(rng, series.spot_dz)
    return rng


def matrices(core: TcsCore) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The distance table and the sight bytes as n x n arrays (views, shared)."""
    cache = core.scenario.sight_cache
    hit = cache.get("arrays")
    if hit is None:
        n = len(core.scenario.board.terrain)
        codes = core.scenario.sight_codes
        if not codes:
            codes.extend(bytes(n * n))
        dist = np.frombuffer(b"".join(core.scenario.beach.dist), dtype=np.uint8).reshape(n, n)
        hit = cache["arrays"] = (dist, np.frombuffer(codes, dtype=np.uint8).reshape(n, n))
    return cast(tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]], hit)


class Sighting:
    """Who of ``side`` sees what (a memo): the spot range of each enemy hex (series 7.0)
    and, hex by hex as asked, whether some unit (or, for the US, a leader: 2.3f) spots
    it. Kept across positions by :func:`omaha.tcs.procedures.action.sighting_of`, which
    has it :meth:`follow` each change: only the hexes a change touched are worked out
    again."""

    def __init__(self, core: TcsCore, side: str) -> None:
        self.core = core
        self.side = side
        self.dist = core.scenario.beach.dist
        self._range: dict[int, int] = {}
        #: enemy hex -> the seer cell found spotting it, or -1 when no seer does
        self._spot: dict[int, int] = {}
        self._seers: list[int] | None = None
        # what the memo was worked out from, besides the static terrain
        self._where = core.where[:]
        self._revealed = set(core.revealed)
        self._smoke = set(core.smoke)
        self._lit = set(core.illuminated)
        self._night = core.night

    def follow(self) -> bool:
        """Bring the memo up to the core's position now; False when what changed is not
        followed (smoke, night, illumination: a new memo is made instead).

        A hex where units came, went or revealed themselves (fired) gets its range and
        spotting worked out again; a hex spotted by a seer that left is asked again;
        a hex no seer spotted is tried from the seers that came. Everything else stands:
        spotting a hex depends on the units in it and on the seers, through sight lines
        that only smoke changes."""
        core = self.core
        if core.smoke != self._smoke or core.illuminated != self._lit or core.night != self._night:
            return False
        where, was = core.where, self._where
        touched: set[int] = set()
        if core.revealed != self._revealed:
            for i in core.revealed ^ self._revealed:
                touched.update((where[i], was[i]))
            self._revealed = set(core.revealed)
        if where != was:
            for i in itertools.compress(itertools.count(), map(operator.ne, was, where)):
                touched.update((was[i], where[i]))
            self._where = where[:]
        for c in touched:
            self._range.pop(c, None)
            self._spot.pop(c, None)
        if self._seers is None:
            return True
        seers = self.observer_cells()
        if seers != self._seers:
            gone = set(self._seers).difference(seers)
            came = sorted(set(seers).difference(self._seers))
            spot = self._spot
            for b, w in list(spot.items()):
                if w >= 0:
                    if w in gone:
                        del spot[b]
                elif came:
                    spot[b] = self._first_seer(b, came)
            self._seers = seers
        return True

    def range(self, b: int) -> int:
        """How far the enemy at ``b`` is seen; -1 when no enemy is there."""
        r = self._range.get(b)
        if r is None:
            core = self.core
            units = core.scenario.units
            here = [i for i in core.units_at(b) if units[i].side != self.side]
            r = self._range[b] = spot_range(core, b, here) if here else -1
        return r

    def sees(self, a: int, b: int, *, trigger: bool = False) -> bool:
        """A unit of ``side`` at ``a`` spots the enemy at ``b`` (series 7.0, 1.3);
        ``trigger``: sees it move (no movement trigger through bocage, 1.3)."""
        return self.dist[b][a] <= self.range(b) and los(self.core, a, b, trigger=trigger)

    def observer_cells(self) -> list[int]:
        """Cells of the units of ``side`` (and, for the US, of its leaders on the map)."""
        core = self.core
        cells = set(core.cells_of(self.side))
        if self.side == "US":
            cells.update(core.leader_cell[k] for k in core.living_leaders_on_map())
        return sorted(cells)

    def seers(self) -> list[int]:
        """:meth:`observer_cells`, worked out once (and followed)."""
        if self._seers is None:
            self._seers = self.observer_cells()
        return self._seers

    def spotted(self, b: int) -> bool:
        """Some unit (or, for the US, a leader) of ``side`` spots the enemy at ``b``:
        what mortars, rocket pits and batteries need to fire (3.4a, 2.8)."""
        w = self._spot.get(b)
        if w is None:
            w = self._spot[b] = self._first_seer(b, self.seers())
        return w >= 0

    def _first_seer(self, b: int, seers: list[int]) -> int:
        """The first of ``seers`` that spots the enemy at ``b``, or -1."""
        r = self.range(b)
        if r < 0:
            return -1
        row = self.dist[b]
        core = self.core
        return next((c for c in seers if row[c] <= r and los(core, c, b)), -1)

    def observers(self, b: int) -> list[int]:
        """Cells from which ``side`` spots the enemy at ``b`` (units' and US leaders')."""
        r = self.range(b)
        row = self.dist[b]
        return [c for c in self.seers() if row[c] <= r and los(self.core, c, b)]
