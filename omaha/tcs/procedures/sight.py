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

import attrs

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


def _borders(side: tuple[int, int], cell: int) -> bool:
    return cell in side


def los(core: TcsCore, a: int, b: int, *, trigger: bool = False, eye: int = 0) -> bool:
    """Whether ``a`` sees ``b``: terrain, heights, smoke and the hedgerows of 1.3.

    ``trigger``: the sight of an overwatching unit at ``a`` on a moving unit at
    ``b`` (1.3: no movement trigger through bocage, except bocage bordering ``a``).
    """
    if a == b:
        return True
    ln = line(core, a, b, eye)
    if not ln.clear or _smoked(core, ln):
        return False
    for side in ln.bocage:
        if _borders(side, a):
            continue
        if trigger or not _borders(side, b):
            return False
    return True


def behind_bocage(core: TcsCore, a: int, b: int) -> bool:
    """TCS Omaha 1.3: a target at ``b`` engaged from ``a`` through a bocage hexside of
    its own hex gets the forest modifier (direct fire only)."""
    if a == b:
        return False
    return any(_borders(side, b) for side in line(core, a, b).bocage)


def spot_range(core: TcsCore, cell: int, units: list[int]) -> int:
    """Series 7.0 (reconstructed): how far the units of a hex are seen: by the hex's
    cover (woods, forest, village, buildings, defensive zones), at long range once
    any of them fired this turn; at night not beyond the night visibility."""
    series = core.scenario.series
    if core.night:
        return series.spot_night
    if any(i in core.revealed for i in units):
        return series.spot_fired
    terrain = core.scenario.board.terrain[cell]
    rng = series.spot_concealed.get(terrain, series.spot_day)
    if cell in core.scenario.beach.dz:
        rng = min(rng, series.spot_dz)
    return rng


def spots(core: TcsCore, a: int, b: int, units: list[int] | None = None) -> bool:
    """Whether a unit at ``a`` spots the units at ``b`` (line of sight and range)."""
    here = core.units_at(b) if units is None else units
    return core.dist(a, b) <= spot_range(core, b, here) and los(core, a, b)
