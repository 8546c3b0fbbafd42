"""Movement (series 20.0, reconstructed; TCS Omaha 1.3-1.13, 2.3d-2.3f, 2.4, 2.5, 3.1).

Where a unit or leader may go this phase and what it costs: terrain and hexside
costs come from the map (:class:`~omaha.tcs.components.beach.Beach` graphs:
bocage +2 on foot and closed to vehicles, 1.3; cliffs closed, 1.9; extreme
slopes +2 on foot and closed to vehicles, 1.10; the shingle +2 on foot and closed
to vehicles, 1.13). On top, per game: the sea beyond the tide line (1.11, 1.12),
hexes held by the enemy, beach obstacle hexes until tested and cleared (2.4),
open shingle breaches (2.5b: vehicles one a turn, foot units without the +2),
command (2.3d: no US unit without a leader or op sheet beyond the shingle; 3.1:
German units move once released and on an op sheet, or in their first turns),
and modes (entering move mode costs half the allowance, [op16]).
"""

from __future__ import annotations

import heapq
from typing import cast

import attrs

from omaha.tcs.core import Status, TcsCore

#: cell -> (cost, previous cell) of a search
Search = dict[int, tuple[int, int]]


def is_leader(pid: str) -> bool:
    return pid.startswith("Ldr-")


def piece_cell(core: TcsCore, pid: str) -> int:
    """Where a unit or leader (by id) is."""
    if is_leader(pid):
        return core.leader_cell[core.scenario.oob.leader(pid).index]
    return core.where[core.unit_index(pid)]


def enemy_cells(core: TcsCore, side: str) -> frozenset[int]:
    return core.cells_of("German" if side == "US" else "US")


def obstacle_closed(core: TcsCore, cell: int, *, rifle: bool, vehicle: bool) -> bool:
    """TCS Omaha 2.4: an obstacle hex is closed until tested; mines and wire until
    breached (never forced, 2.4b); wire only until cleared, which infantry may do by
    entering (2.4c); a clear hex opens from the next turn (2.4d)."""
    state = core.obstacles.get(cell)
    if state is None or state == "mines":
        return True
    if state == "wire":
        return not rifle
    if state == "clear":
        return core.clear_from.get(cell, 0) > core.turn
    return False


def impassable(core: TcsCore, side: str, *, vehicle: bool, rifle: bool = False) -> frozenset[int]:
    """Hexes a unit of ``side`` cannot enter this turn (the sea apart)."""

    def make() -> frozenset[int]:
        closed = set(enemy_cells(core, side))
        for cell in core.scenario.beach.obstacles:
            if obstacle_closed(core, cell, rifle=rifle, vehicle=vehicle):
                closed.add(cell)
        return frozenset(closed)

    return core.derived(("closed", side, vehicle, rifle), make)


# ------------------------------------------------------------------ who may move
@attrs.frozen
class Movers:
    """What movement reads of every unit's counter, by unit index (per scenario)."""

    ma: tuple[int, ...]  # the type's allowance (a towed gun: 0, its carrier's if carried)
    tow: tuple[bool, ...]
    vehicle: tuple[bool, ...]  # moves on the vehicle graph (vehicles and towed guns)
    rifle: tuple[bool, ...]  # may clear wire by entering (2.4c)
    german: tuple[bool, ...]
    uid: tuple[str, ...]
    formation: tuple[str, ...]


def movers(core: TcsCore) -> Movers:
    """The :class:`Movers` of the scenario (built once)."""
    cache = core.scenario.sight_cache
    hit: Movers | None = cache.get("movers")
    if hit is None:
        units = core.scenario.units
        hit = cache["movers"] = Movers(
            tuple(u.type.ma for u in units),
            tuple(u.type.move == "tow" for u in units),
            tuple(u.type.vehicle or u.type.move == "tow" for u in units),
            tuple(u.type.kind == "rifle" for u in units),
            tuple(u.side == "German" for u in units),
            tuple(u.id for u in units),
            tuple(u.formation for u in units),
        )
    return hit


def command_free(core: TcsCore, i: int) -> bool:
    """TCS Omaha 2.3a, 2.3f: a US unit free to go beyond the shingle (under a leader at
    the start of the Action Phase, or on an implemented op sheet)."""
    return i in core.free or core.on_task[i] or movers(core).formation[i] in core.us_implemented


def german_may_move(core: TcsCore, i: int) -> bool:
    """TCS Omaha 3.1, 3.2: a German unit moves once released: the garrisons at once,
    a reserve on an implemented op sheet, a reinforcement for its first two turns
    after entering and then only on an implemented op sheet."""
    scen = core.scenario
    f = core.unit(i).formation
    status = scen.german.formation(f).status
    if status == "released":
        return True
    if f not in core.released:
        return False
    if f in core.german_sheets:
        return True
    if status == "reinforcement" and f in core.entered:
        return core.turn < core.entered[f] + scen.tables.release_free_turns
    return False


def allowance(core: TcsCore, i: int) -> int:
    """Movement points this phase: the type's (a Dukw-landed gun rides its carrier,
    1.12a reading); half of it goes to entering move mode from fire mode ([op16]); a
    suppressed unit has half of what is left (READINGS.md)."""
    m = movers(core)
    ma = (10 if core.carried[i] else 0) if m.tow[i] else m.ma[i]
    if core.fire_mode[i]:
        ma -= ma // 2
    if core.status[i] == Status.SUPPRESSED:
        ma //= 2  # reading of series 17.0: a suppressed unit crawls, it does not fire
    return ma


def may_move(core: TcsCore, i: int) -> bool:
    """Unit ``i`` may make a voluntary move now (its own side's Action Phase): not
    paralyzed (a suppressed unit crawls at half its allowance)."""
    if core.where[i] < 0 or core.status[i] == Status.PARALYZED or i in core.acted:
        return False
    m = movers(core)
    if m.uid[i] in core.moved or allowance(core, i) <= 0:
        return False
    if m.german[i]:
        return german_may_move(core, i)
    return core.where[i] in core.scenario.beach.strand or command_free(core, i)


# ------------------------------------------------------------------ where to
def terrain_key(core: TcsCore, side: str) -> int:
    """A small number naming what movement depends on besides the mover: tide, enemy
    hexes, obstacle states, breaches and their traffic (shared by every game of the
    scenario, so equal positions reuse each other's searches)."""

    def make() -> int:
        scen = core.scenario
        full = scen.tables.breach_vehicles
        state = (
            core.tide_hour,
            side,
            tuple(sorted(enemy_cells(core, side))),
            tuple(sorted(core.obstacles.items())),
            tuple(sorted(c for c, t in core.clear_from.items() if t > core.turn)),
            tuple(sorted(core.breaches)),
            tuple(sorted(b for b, n in core.breach_traffic.items() if n >= full)),
        )
        ids = scen.terrain_ids
        tid = ids.get(state)
        if tid is None:
            if len(ids) > 50_000:
                ids.clear()  # ids keep counting up: a forgotten one is never reused
            scen.terrain_count += 1
            tid = ids[state] = scen.terrain_count
        return tid

    return core.derived(("terrain", side), make)


def search(
    core: TcsCore, start: int, ma: int, *, side: str, vehicle: bool, rifle: bool, free: bool
) -> Search:
    """Cheapest costs within ``ma`` from ``start`` for one mover (see the module doc)."""
    return _search(core, start, ma, side=side, vehicle=vehicle, rifle=rifle, free=free)[0]


class Ways:
    """What one kind of mover meets on the map now (see the module docstring)."""

    def __init__(self, core: TcsCore, side: str, vehicle: bool, rifle: bool, free: bool) -> None:
        scen = core.scenario
        beach = scen.beach
        self.sea = beach.sea(core.tide_hour)
        self.closed = impassable(core, side, vehicle=vehicle, rifle=rifle)
        self.land = beach.land if side == "US" and not free else frozenset()
        self.graph = beach.vehicle_graph if vehicle else beach.foot_graph
        self.wire = frozenset(c for c, s in core.obstacles.items() if s == "wire")
        self.extra: dict[int, list[tuple[int, int]]] = {}
        self.discount: dict[tuple[int, int], int] = {}
        for name in core.breaches:
            strand, land, into_land, into_strand = beach.breach_steps[name]
            if vehicle:
                if core.breach_traffic.get(name, 0) < scen.tables.breach_vehicles:
                    self.extra.setdefault(strand, []).append((land, into_land))
                    self.extra.setdefault(land, []).append((strand, into_strand))
            else:
                self.discount[(strand, land)] = scen.tables.shingle_cost
                self.discount[(land, strand)] = scen.tables.shingle_cost

    def steps(self, a: int, ma: int) -> list[tuple[int, int]]:
        """(hex, cost) of every hex enterable from ``a`` in one step (within ``ma``)."""
        out = []
        sea, closed, land, wire, discount = (
            self.sea,
            self.closed,
            self.land,
            self.wire,
            (self.discount),
        )
        for b, c in (*self.graph.steps(a), *self.extra.get(a, ())):
            if b in sea or b in closed or b in land:
                continue
            c -= discount.get((a, b), 0)
            if b in wire:
                c += ma // 2  # 2.4c: the first crossing infantry spends half its allowance
            if c <= ma:
                out.append((b, c))
        return out


def ways(core: TcsCore, side: str, vehicle: bool, rifle: bool, free: bool) -> Ways:
    return core.derived(
        ("ways", side, vehicle, rifle, free), lambda: Ways(core, side, vehicle, rifle, free)
    )


def _search(
    core: TcsCore, start: int, ma: int, *, side: str, vehicle: bool, rifle: bool, free: bool
) -> tuple[Search, dict[int, int]]:
    """:func:`search`, and the reachable hexes with their costs (both cached; read only)."""
    scen = core.scenario
    key = (terrain_key(core, side), start, ma, vehicle, rifle, free)
    cache = scen.reach_cache
    hit = cache.get(key)
    if hit is not None:
        return cast(tuple[Search, dict[int, int]], hit)
    if len(cache) > 20_000:
        cache.clear()
    w = ways(core, side, vehicle, rifle, free)
    best: Search = {start: (0, start)}
    heap = [(0, start)]
    done: set[int] = set()
    while heap:
        d, a = heapq.heappop(heap)
        if a in done:
            continue
        done.add(a)
        for b, c in w.steps(a, ma):
            if b in done:
                continue
            nd = d + c
            if nd > ma:
                continue
            old = best.get(b)
            if old is None or nd < old[0] or (nd == old[0] and a < old[1]):
                best[b] = (nd, a)
                heapq.heappush(heap, (nd, b))
    found = (best, {c: v[0] for c, v in best.items() if c != start})
    cache[key] = found
    return found


def first_steps(core: TcsCore, i: int) -> list[int]:
    """The hexes next to unit ``i`` it could step into now (what a quick listing needs)."""
    ma = allowance(core, i)
    if ma <= 0:
        return []
    m = movers(core)
    german = m.german[i]
    side = "German" if german else "US"
    vehicle, rifle = m.vehicle[i], m.rifle[i]
    free = german or command_free(core, i)
    a = core.where[i]
    # what the ways depend on is named by the terrain key: kept per scenario, so a
    # stack's first steps survive the moves of its own side
    key = ("first", terrain_key(core, side), a, vehicle, rifle, free, ma)
    cache = core.scenario.reach_cache
    hit: list[int] | None = cache.get(key)
    if hit is None:
        if len(cache) > 20_000:
            cache.clear()
        hit = cache[key] = [b for b, _ in ways(core, side, vehicle, rifle, free).steps(a, ma)]
    return hit


def stack_movers_by_cell(core: TcsCore, side: str, cells: list[int]) -> dict[int, list[int]]:
    """Cell -> the units of ``side`` there that :func:`may_move` and have
    :func:`first_steps` (the same tests, read once for every stack of a side)."""
    m = movers(core)
    status, acted, moved = core.status, core.acted, core.moved
    fire_mode, carried = core.fire_mode, core.carried
    strand = core.scenario.beach.strand
    german = side == "German"
    tkey = terrain_key(core, side)
    cache = core.scenario.reach_cache
    out: dict[int, list[int]] = {}
    for c in cells:
        here = []
        for i in core.side_units_at(c, side):
            st = status[i]
            if st == Status.PARALYZED or i in acted or m.uid[i] in moved:
                continue
            ma = (10 if carried[i] else 0) if m.tow[i] else m.ma[i]  # allowance()
            if fire_mode[i]:
                ma -= ma // 2
            if st == Status.SUPPRESSED:
                ma //= 2
            if ma <= 0:
                continue
            if german:
                if not german_may_move(core, i):
                    continue
                free = True
            else:
                free = command_free(core, i)
                if not free and c not in strand:
                    continue
            vehicle, rifle = m.vehicle[i], m.rifle[i]
            key = ("first", tkey, c, vehicle, rifle, free, ma)  # first_steps()
            steps: list[int] | None = cache.get(key)
            if steps is None:
                steps = first_steps(core, i)
            if steps:
                here.append(i)
        if here:
            out[c] = here
    return out


def mover(core: TcsCore, pid: str) -> tuple[int, bool, bool, bool, str]:
    """Allowance, vehicle, rifle (may clear wire), free of the shingle limit, side."""
    if is_leader(pid):
        return core.scenario.tables.leader_mp, False, False, True, "US"
    i = core.unit_index(pid)
    u = core.unit(i)
    vehicle = u.type.vehicle or u.type.move == "tow"
    free = u.side == "German" or command_free(core, i)
    return allowance(core, i), vehicle, u.type.kind == "rifle", free, u.side


def unit_destinations(core: TcsCore, i: int) -> dict[int, int]:
    """Hexes unit ``i`` can reach this phase, with their MP cost (shared: read only)."""
    ma = allowance(core, i)
    if ma <= 0:
        return {}
    u = core.scenario.units[i]
    vehicle = u.type.vehicle or u.type.move == "tow"
    free = u.side == "German" or command_free(core, i)
    found = _search(
        core,
        core.where[i],
        ma,
        side=u.side,
        vehicle=vehicle,
        rifle=u.type.kind == "rifle",
        free=free,
    )
    return found[1]


def destinations(core: TcsCore, pid: str) -> dict[int, int]:
    """Hexes the piece can reach this phase, with their MP cost (shared: read only)."""
    if not is_leader(pid):
        return unit_destinations(core, core.unit_index(pid))
    ma, vehicle, rifle, free, side = mover(core, pid)
    if ma <= 0:
        return {}
    start = piece_cell(core, pid)
    return _search(core, start, ma, side=side, vehicle=vehicle, rifle=rifle, free=free)[1]


def path_to(core: TcsCore, pid: str, end: int) -> list[int]:
    ma, vehicle, rifle, free, side = mover(core, pid)
    start = piece_cell(core, pid)
    best = search(core, start, ma, side=side, vehicle=vehicle, rifle=rifle, free=free)
    path = [end]
    while path[-1] != start:
        path.append(best[path[-1]][1])
    return path[::-1]


def assault_units(core: TcsCore, side: str, start: int, target: int) -> list[int]:
    """Units of ``side`` in ``start`` that may assault the adjacent hex ``target``
    (series 22.0): infantry type, free to act, able to step into it."""
    scen = core.scenario
    board = scen.board
    if not board.adjacent(start, target):
        return []
    out = []
    for i in core.side_units_at(start, side):
        u = scen.units[i]
        if not u.type.infantry_type or core.status[i] != Status.OK or i in core.acted:
            continue
        if core.uid(i) in core.moved:
            continue
        if side == "German" and not german_may_move(core, i):
            continue
        if side == "US" and target in scen.beach.land and not command_free(core, i):
            continue
        cost = scen.beach.foot_graph.cost(start, target)
        if cost is None or cost > max(1, allowance(core, i)):
            continue
        out.append(i)
    return out
