"""The Action Phases: the phasing side moves, fires and assaults, unit by unit; the
other side answers each trigger with one overwatch stack (series 15.0, [op7]).

A fire combat is built in steps: pick an enemy hex (``target``), add stacks whose
area weapons can fire at it (``with``), then ``resolve fire``. Point weapons fire
one at one point target. A pill box's MGs and AT gun act as two units (3.3b).
Who may act: released German units (3.1); every US unit may fire and take a
voluntary SYR, but beyond the shingle moves only under a leader or an op sheet
(2.3d-2.3f). Units that fire enter fire mode (free); moving from fire mode costs
half the allowance ([op16]). Leaders move without triggering overwatch (2.3f).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import (
    Assault,
    AssaultMenu,
    Back,
    EndAction,
    ExitWest,
    FireMenu,
    MoveMenu,
    MoveTo,
    NoOverwatch,
    Overwatch,
    OverwatchAt,
    PointFire,
    PointMenu,
    Resolve,
    Retreat,
    RetreatMenu,
    Select,
    SelectStack,
    Stay,
    Target,
    TcsAction,
    With,
    WithAll,
)
from omaha.tcs.core import EXITED, Decision, Status, TcsCore
from omaha.tcs.procedures import combat
from omaha.tcs.procedures.command import check_task
from omaha.tcs.procedures.movement import (
    assault_units,
    command_free,
    destinations,
    first_steps,
    is_leader,
    may_move,
    path_to,
    piece_cell,
    stack_movers_by_cell,
    unit_destinations,
)
from omaha.tcs.procedures.release import check_automatic
from omaha.tcs.procedures.sight import Sighting, behind_bocage, line

register_templates(
    {
        "tcs.breach.german": "{unit} drives through the US breach {breach} (2.5c)",
        "tcs.phase": "{side} Action Phase",
        "tcs.leaders.command": "{units} units start the phase within 3 hexes of a leader",
        "tcs.move": "{unit} moves {start} -> {end} ({mp} MP)",
        "tcs.exit": "{unit} leaves the map westward from {hex}",
        "tcs.fire.target": "{side} fire combat on {hex}",
        "tcs.overwatch": "overwatch from {start} at {at}{permission}",
        "tcs.overwatch.denied": "overwatch from {start} at {at}: permission roll {roll}, "
        "no marked weapon may fire",
        "tcs.wire.cleared": "{unit} clears the wire in {hex} (2.4c)",
        "tcs.breach.pass": "{unit} passes the {breach} breach (road move)",
    }
)

other = combat.other

PROMPTS = {
    "move": "choose a stack (or leader) to move",
    "fire": "choose a hex to fire at",
    "point": "choose a point weapon's shot",
    "assault": "choose an assault",
    "retreat": "choose a unit to retreat",
}


# ------------------------------------------------------------------ the phase
def begin(core: TcsCore, side: str) -> None:
    """A side's Action Phase begins: nothing has moved or fired; US leaders free the
    units within 3 hexes of them (2.3f, the leader having survived 2.3f's roll)."""
    core.moved, core.acted, core.fired_point, core.spared = set(), set(), set(), set()
    core.selected = None
    core.touch()
    if side != "US":
        return
    radius = core.scenario.tables.leader_radius
    leaders = [core.leader_cell[k] for k in core.living_leaders_on_map()]
    core.free = {
        i
        for i in core.us_units()
        if core.where[i] >= 0 and any(core.dist(core.where[i], c) <= radius for c in leaders)
    }
    if core.free:
        core.note("tcs.leaders.command", "2.3f", player="US", units=len(core.free))


def step_us_action(core: TcsCore) -> bool:
    return step_action(core, "US")


def step_german_action(core: TcsCore) -> bool:
    return step_action(core, "German")


def step_action(core: TcsCore, side: str) -> bool:
    """A side's Action Phase: its actions, and the other side's overwatch answers."""
    if not core.started:
        core.started = True
        core.sd = {"ended": False}
        begin(core, side)
    if core.trigger is not None:
        if any(True for _ in legal_overwatch(core)):
            who = core.trigger["side"]
            at = ", ".join(core.trigger["at"])
            return core.set_wait(Decision.OVERWATCH, who, f"overwatch at {at}? one stack fires")
        core.trigger = None
    if core.sd["ended"]:
        return True
    if core.combat is not None:
        return core.set_wait(
            Decision.FIRE, side, f"fire on {core.combat['target']}: add stacks, then resolve"
        )
    if core.selected is not None:
        return core.set_wait(Decision.MOVE, side, f"move {core.selected}: choose a hex, or stay")
    menu = core.sd.get("menu")
    if menu:
        return core.set_wait(Decision.CHOOSE, side, f"{PROMPTS[menu]}, or back")
    return core.set_wait(
        Decision.ACT, side, "move, fire, assault or retreat a unit, or end the action phase"
    )


def phasing(core: TcsCore) -> str:
    assert core.wait is not None
    return core.wait[1]


# ------------------------------------------------------------------ who can fire at what
def can_fire(core: TcsCore, i: int) -> bool:
    """Area weapons that may fire now (not suppressed, not yet fired this phase; the
    German once released, 3.1)."""
    u = core.unit(i)
    if u.type.area <= 0 or core.status[i] != Status.OK or i in core.acted:
        return False
    if core.where[i] < 0 or i in core.spared:
        return False
    return not (u.side == "German" and not _released(core, i))


def _released(core: TcsCore, i: int) -> bool:
    f = core.unit(i).formation
    status = core.scenario.german.formation(f).status
    return status == "released" or f in core.released


def targets_of(core: TcsCore, cell: int) -> list[int]:
    """Enemy units in ``cell`` that may be fired on (not a squad spared this phase)."""
    return [i for i in core.units_at(cell) if i not in core.spared]


def sighting_of(core: TcsCore, side: str) -> Sighting:
    """The memo of who sees what for ``side``: one per side in the core's lasting memos,
    brought up to the position (:meth:`Sighting.follow`) once after each change (the
    core touched, or more units revealed by firing), made anew when smoke, night or
    illumination changed."""
    return core.derived(("sighting", side, len(core.revealed)), lambda: _followed(core, side))


def _followed(core: TcsCore, side: str) -> Sighting:
    key = ("sighting", side)
    kept = core.lasting.get(key)
    if isinstance(kept, Sighting) and kept.follow():
        return kept
    fresh = core.lasting[key] = Sighting(core, side)
    return fresh


def stack_firers(
    core: TcsCore, side: str, a: int, b: int, sighting: Sighting | None = None
) -> list[int]:
    """Area weapons of ``side`` in ``a`` that may fire at ``b`` now."""
    sight = sighting or sighting_of(core, side)
    dist = core.dist(a, b)
    out = []
    for i in core.side_units_at(a, side):
        if not can_fire(core, i):
            continue
        t = core.unit(i).type
        if dist > t.range:
            continue
        if sight.spotted(b) if t.indirect else sight.sees(a, b):
            out.append(i)
    return out


def enemy_cells_of(core: TcsCore, side: str) -> list[int]:
    return core.derived(("sorted", other(side)), lambda: sorted(core.cells_of(other(side))))


def friendly_cells(core: TcsCore, side: str) -> list[int]:
    return core.derived(("sorted", side), lambda: sorted(core.cells_of(side)))


MAX_RANGE = 14


def fire_targets(core: TcsCore, side: str, sighting: Sighting | None = None) -> list[int]:
    """Enemy hexes some stack of ``side`` can fire its area weapons at: a direct fire
    weapon in range that spots the hex, or an indirect one in range of a hex some
    unit or leader spots (3.4a)."""
    return list(_fire_targets(core, side, sighting))


def _fire_targets(core: TcsCore, side: str, sighting: Sighting | None = None) -> Iterator[int]:
    """:func:`fire_targets` one by one (the first is enough to offer the list)."""
    sight = sighting or sighting_of(core, side)
    stacks = kept_fire_reach(core, side)
    if not stacks:
        return
    dist = core.scenario.beach.dist
    units = core.scenario.units
    for b in enemy_cells_of(core, side):
        row = dist[b]
        if not any(
            (row[a] <= direct and sight.sees(a, b)) or (row[a] <= indirect and sight.spotted(b))
            for a, direct, indirect in stacks
        ):
            continue
        if any(units[i].side != side for i in targets_of(core, b)):
            yield b


def kept_fire_reach(core: TcsCore, side: str) -> list[tuple[int, int, int]]:
    """(cell, longest direct fire range, longest indirect fire range) of each stack of
    ``side`` with an area weapon that may fire now (-1: none of that kind); read only,
    kept for a position until a unit acts, is spared or a formation is released."""
    key = ("fire reach", side, len(core.acted), len(core.spared), len(core.released))
    return core.derived(key, lambda: fire_reach(core, side))


def fire_reach(core: TcsCore, side: str) -> list[tuple[int, int, int]]:
    """:func:`kept_fire_reach` worked out now (what the kept one must equal)."""
    units = core.scenario.units
    status, acted, spared = core.status, core.acted, core.spared
    german = side == "German"
    out = []
    for a, here in core.side_occupancy(side).items():
        direct = indirect = -1
        for i in here:  # can_fire, inline: this loop runs for every listing of the phase
            t = units[i].type
            if t.area <= 0 or status[i] != Status.OK or i in acted or i in spared:
                continue
            if german and not _released(core, i):
                continue
            if t.indirect:
                indirect = max(indirect, t.range)
            else:
                direct = max(direct, t.range)
        if direct >= 0 or indirect >= 0:
            out.append((a, direct, indirect))
    return out


def point_pairs(
    core: TcsCore, side: str, sighting: Sighting | None = None
) -> Iterator[tuple[int, int]]:
    """(firer, target) for every point weapon of ``side`` that may fire at an enemy
    point target it sees in range (series 12.0; pill boxes are never fired on by
    aircraft, but by point weapons, 3.3d)."""
    sight = sighting or sighting_of(core, side)
    units = core.scenario.units
    enemy = [
        i
        for c in enemy_cells_of(core, side)
        for i in targets_of(core, c)
        if units[i].side != side and units[i].type.target == "point"
    ]
    for i in side_units(core, side):
        u = units[i]
        if u.type.point <= 0:
            continue
        if core.status[i] != Status.OK or i in core.fired_point:
            continue
        if u.type.kind != "pillbox" and i in core.acted:
            continue
        if side == "German" and not _released(core, i):
            continue
        a = core.where[i]
        row, reach = core.scenario.beach.dist[a], u.type.point_range
        for t in enemy:
            b = core.where[t]
            if row[b] <= reach and sight.sees(a, b):
                yield i, t


def assaults(core: TcsCore, side: str) -> Iterator[tuple[int, int]]:
    board = core.scenario.board
    enemy = set(enemy_cells_of(core, side))
    for a in friendly_cells(core, side):
        for b in board.neighbours[a]:
            if b in enemy and assault_units(core, side, a, b):
                yield a, b


def retreaters(core: TcsCore, side: str) -> list[int]:
    """Units that may take a voluntary SYR (2.3d, 1.13a): those in contact (an enemy
    within two hexes) that cannot simply move away: suppressed units, and US units
    beyond the shingle with no leader or op sheet (2.3d); and somewhere to go."""
    return list(_retreaters(core, side))


def _retreaters(core: TcsCore, side: str) -> Iterator[int]:
    far = combat.enemy_field(core, side)
    land = core.scenario.beach.land
    for c in friendly_cells(core, side):
        if far[c] > 2:
            continue
        for i in core.side_units_at(c, side):
            if core.status[i] == Status.PARALYZED or i in core.acted:
                continue
            if core.uid(i) in core.moved or core.unit(i).type.move == "none":
                continue
            pinned = core.status[i] == Status.SUPPRESSED
            stuck = side == "US" and c in land and not command_free(core, i)
            if not (pinned or stuck):
                continue
            if side == "German" and not _released(core, i):
                continue
            if combat.retreat_options(core, i, voluntary=True):
                yield i


STACK = "@"  # ``selected`` names a stack as "@<hex>"


def side_units(core: TcsCore, side: str) -> list[int]:
    """The units of ``side`` on the map, in unit order."""
    return core.derived(
        ("units", side),
        lambda: sorted(i for c in core.cells_of(side) for i in core.side_units_at(c, side)),
    )


def _movable_key(core: TcsCore, side: str) -> tuple[object, ...]:
    return ("movable", side, len(core.acted), len(core.moved))


def movable(core: TcsCore, side: str) -> dict[int, list[int]]:
    """Cell -> the units there that may move now and have somewhere to go (read only;
    kept until units move, fall or act)."""

    def make() -> dict[int, list[int]]:
        return stack_movers_by_cell(core, side, friendly_cells(core, side))

    return core.derived(_movable_key(core, side), make)


def stack_movers(core: TcsCore, side: str, cell: int) -> list[int]:
    """The units of a stack that may move now and have somewhere to go (read only)."""
    return movable(core, side).get(cell, [])


def stack_destinations(core: TcsCore, side: str, cell: int) -> dict[int, int]:
    """Hexes every movable unit of the stack can reach (the most MP any needs; read
    only)."""

    def make() -> dict[int, int]:
        movers = stack_movers(core, side, cell)
        if not movers:
            return {}
        common = unit_destinations(core, movers[0])
        for i in movers[1:]:
            d = unit_destinations(core, i)
            if d is not common:
                common = {c: max(v, d[c]) for c, v in common.items() if c in d}
        return common

    return core.derived(("reach", side, cell, len(core.acted), len(core.moved)), make)


# ------------------------------------------------------------------ the action menu
#: the lists of the Action Phase behind one choice each (move, fire, ...)
MENUS: dict[str, type[TcsAction]] = {
    "move": MoveMenu,
    "fire": FireMenu,
    "point": PointMenu,
    "assault": AssaultMenu,
    "retreat": RetreatMenu,
}


def menu_options(core: TcsCore, side: str, menu: str) -> Iterator[Action]:
    """What one list of the Action Phase offers ``side`` now."""
    if menu == "move":
        for c in sorted(movable(core, side)):
            yield SelectStack.of(core.label(c))
        if side == "US":
            for k in core.living_leaders_on_map():
                lid = core.lid(k)
                if lid not in core.moved and destinations(core, lid):
                    yield Select.of(lid)
    elif menu == "fire":
        for b in fire_targets(core, side):
            yield Target.of(core.label(b))
    elif menu == "point":
        for i, t in point_pairs(core, side):
            yield PointFire.of(core.uid(i), core.uid(t))
    elif menu == "assault":
        for a, b in assaults(core, side):
            yield Assault.of(core.label(b), core.label(a))
    else:
        for i in retreaters(core, side):
            yield Retreat.of(core.uid(i))


def menu_list(core: TcsCore, side: str, menu: str) -> tuple[Action, ...]:
    """:func:`menu_options` as a tuple, worked out once for a position (units move or
    fall, their status changes: the core is touched; they act: the sets grow)."""
    return core.derived(_menu_key(core, side, menu), lambda: tuple(menu_options(core, side, menu)))


def _sizes(core: TcsCore) -> list[int]:
    """What grows whenever a unit of the phasing side acts (the lists change then)."""
    return [len(core.acted), len(core.moved), len(core.fired_point), len(core.spared)]


def _menu_key(core: TcsCore, side: str, menu: str) -> tuple[object, ...]:
    return ("menu", side, menu, *_sizes(core))


def _closed(core: TcsCore, menu: str) -> bool:
    """A list left with ``back`` is not offered again until a unit acts (it would list
    the same): the Action Phase cannot loop without end (READINGS.md, "Agents")."""
    closed: dict[str, list[int]] = core.sd.get("closed", {})
    return closed.get(menu) == _sizes(core)


def legal_act(core: TcsCore) -> Iterator[Action]:
    """Open the list of the stacks that may move, the hexes to fire at, the point fire
    shots, the assaults or the retreats (each when it is not empty), or end the phase."""
    side = phasing(core)
    yield EndAction.of()
    for menu, kind in MENUS.items():
        if _closed(core, menu):
            continue
        known = core.peek(_menu_key(core, side, menu))
        if known is not None:
            if known:
                yield kind.of()
        elif menu == "move":
            if _any_movable(core, side) or (side == "US" and _leader_may_move(core)):
                yield kind.of()
        elif _any_option(core, side, menu):
            yield kind.of()


def _any_movable(core: TcsCore, side: str) -> bool:
    """Whether :func:`movable` has anything, looked for stack by stack until found."""
    known = core.peek(_movable_key(core, side))
    if known is not None:
        return bool(known)
    return any(
        may_move(core, i) and first_steps(core, i)
        for c in friendly_cells(core, side)
        for i in core.side_units_at(c, side)
    )


def _any_option(core: TcsCore, side: str, menu: str) -> bool:
    """Whether a list of the Action Phase has anything (the first found is enough to
    offer the list; it is worked out whole when opened)."""
    if menu == "point":
        return next(point_pairs(core, side), None) is not None
    if menu == "assault":
        return next(assaults(core, side), None) is not None
    if menu == "retreat":
        return next(_retreaters(core, side), None) is not None
    return next(_fire_targets(core, side), None) is not None


def _leader_may_move(core: TcsCore) -> bool:
    return any(
        core.lid(k) not in core.moved and destinations(core, core.lid(k))
        for k in core.living_leaders_on_map()
    )


def apply_act(core: TcsCore, action: Action) -> None:
    if isinstance(action, EndAction):
        core.sd["ended"] = True
        core.selected = None
    else:
        core.sd["menu"] = next(m for m, kind in MENUS.items() if isinstance(action, kind))


def legal_choose(core: TcsCore) -> Iterator[Action]:
    yield Back.of()
    yield from menu_list(core, phasing(core), core.sd["menu"])


def apply_choose(core: TcsCore, action: Action) -> None:
    side = phasing(core)
    if isinstance(action, Back):
        core.sd.setdefault("closed", {})[core.sd["menu"]] = _sizes(core)
    core.sd["menu"] = None
    if isinstance(action, Select):  # a leader (units are picked from their stack)
        core.selected = action.unit
    elif isinstance(action, SelectStack):
        core.selected = STACK + action.hex
    elif isinstance(action, Target):
        core.combat = {"side": side, "target": action.hex, "stacks": []}
        core.note("tcs.fire.target", "11.0", player=side, side=side, hex=action.hex)
    elif isinstance(action, PointFire):
        point_fire(core, side, core.unit_index(action.unit), core.unit_index(action.target))
    elif isinstance(action, Assault):
        start, target = core.cell(action.start), core.cell(action.hex)
        combat.assault(core, side, start, target)
        if side == "US":
            check_automatic(core)
    elif isinstance(action, Retreat):
        i = core.unit_index(action.unit)
        core.acted.add(i)
        combat.retreat(core, i, "2.3d, 1.13a" if side == "US" else "17.0", voluntary=True)
        core.moved.add(action.unit)


def point_fire(core: TcsCore, side: str, i: int, t: int) -> None:
    """Series 12.0 with the Omaha modifiers (1.3, 1.6, 1.13); a pill box's AT gun fires
    apart from its MGs (3.3b), any other unit's shot is its fire of the phase."""
    scen = core.scenario
    u = core.unit(i)
    a, b = core.where[i], core.where[t]
    m = combat.point_modifier(
        core,
        t,
        b,
        forest=behind_bocage(core, a, b),
        shingle=line(core, a, b).shingle,
    )
    if core.dist(a, b) * 2 > u.type.point_range:
        m += scen.series.point_long_range
    core.fired_point.add(i)
    if u.type.kind != "pillbox":
        core.acted.add(i)
    core.set_fire_mode(i, True)
    core.revealed.add(i)
    combat.point_attack(core, u.type.point, t, m, source=u.id, rule="12.0")
    core.trigger = {"side": other(side), "kind": "fire", "at": [core.label(a)]}


# ------------------------------------------------------------------ moving
def legal_move(core: TcsCore) -> Iterator[Action]:
    """A selected stack moves together to a hex all its movable units reach, or one of
    them is picked to move alone; a selected unit or leader moves to a hex it reaches."""
    pid = core.selected
    assert pid is not None
    yield Stay.of()
    if pid.startswith(STACK):
        side = phasing(core)
        start = core.cell(pid[1:])
        for c in sorted(stack_destinations(core, side, start)):
            yield MoveTo.of(core.label(c))
        movers = stack_movers(core, side, start)
        if len(movers) > 1:
            yield from (Select.of(core.uid(i)) for i in movers)
        elif movers and exits_west(core, movers[0]):
            yield ExitWest.of()
        return
    for c in sorted(destinations(core, pid)):
        yield MoveTo.of(core.label(c))
    if not is_leader(pid) and exits_west(core, core.unit_index(pid)):
        yield ExitWest.of()


def exits_west(core: TcsCore, i: int) -> bool:
    """TCS Omaha 2.7b: a 29th ID unit on the west edge may leave the map."""
    u = core.unit(i)
    return u.side == "US" and u.is_29th and core.where[i] in core.scenario.beach.west_edge


def apply_move(core: TcsCore, action: Action) -> None:
    pid = core.selected
    assert pid is not None
    side = phasing(core)
    core.selected = None
    if pid.startswith(STACK):
        if isinstance(action, Select):
            core.selected = action.unit
            return
        movers = stack_movers(core, side, core.cell(pid[1:]))
        if isinstance(action, ExitWest):
            pid = core.uid(movers[0])
        else:
            move_stack(core, side, core.cell(pid[1:]), action)
            return
    core.moved.add(pid)
    if isinstance(action, Stay):
        return
    if isinstance(action, ExitWest):
        i = core.unit_index(pid)
        core.note("tcs.exit", "2.7b", player="US", unit=pid, hex=core.label(core.where[i]))
        core.place(i, EXITED)
        return
    assert isinstance(action, MoveTo)
    start = piece_cell(core, pid)
    end = core.cell(action.hex)
    cost = destinations(core, pid)[end]
    path = path_to(core, pid, end)
    core.note(
        "tcs.move",
        "2.3d" if side == "US" else "20.0",
        player=side,
        unit=pid,
        start=core.label(start),
        end=action.hex,
        mp=cost,
    )
    if is_leader(pid):
        core.set_leader_cell(core.scenario.oob.leader(pid).index, end)
        return  # 2.3f: leader movement never causes overwatch fires
    i = core.unit_index(pid)
    moved_through(core, i, path)
    core.place(i, end)
    core.set_moving(i)
    if side == "US":
        check_task(core, i)
        check_automatic(core)
    core.trigger = {"side": other(side), "kind": "move", "at": [action.hex], "unit": pid}


def move_stack(core: TcsCore, side: str, start: int, action: Action) -> None:
    """The movable units of a stack go together; one overwatch trigger for them all."""
    movers = stack_movers(core, side, start)
    if isinstance(action, Stay):
        core.moved.update(core.uid(i) for i in movers)
        return
    assert isinstance(action, MoveTo)
    end = core.cell(action.hex)
    cost = stack_destinations(core, side, start)[end]
    paths = {i: path_to(core, core.uid(i), end) for i in movers}
    core.note(
        "tcs.move",
        "2.3d" if side == "US" else "20.0",
        player=side,
        unit=", ".join(core.uid(i) for i in movers),
        start=core.label(start),
        end=action.hex,
        mp=cost,
    )
    for i in movers:
        core.moved.add(core.uid(i))
        moved_through(core, i, paths[i])
        core.place(i, end)
        core.set_moving(i)
        if side == "US":
            check_task(core, i)
    if side == "US":
        check_automatic(core)
    core.trigger = {"side": other(side), "kind": "move", "at": [action.hex]}


def moved_through(core: TcsCore, i: int, path: list[int]) -> None:
    """What a path does on the way: wire cleared by the first infantry crossing (2.4c);
    a shingle breach passed counts as a road move and, for vehicles, as the turn's
    traffic through it (2.5b)."""
    beach = core.scenario.beach
    u = core.unit(i)
    for a, b in pairwise(path):
        if core.obstacles.get(b) == "wire" and u.type.kind == "rifle":
            core.set_obstacle(b, "cleared")
            core.note("tcs.wire.cleared", "2.4c", player=u.side, unit=u.id, hex=core.label(b))
        name = beach.breach_of_side.get((min(a, b), max(a, b)))
        if name is not None and name in core.breaches:
            core.road_moved.add(i)
            if u.type.vehicle or u.type.move == "tow":
                core.breach_traffic[name] = core.breach_traffic.get(name, 0) + 1
                core.touch()
            core.note("tcs.breach.pass", "2.5b", player=u.side, unit=u.id, breach=name)
            if u.side == "German" and u.type.vehicle:  # 2.5c: through a US breach
                core.note("tcs.breach.german", "2.5c", player=u.side, unit=u.id, breach=name)


# ------------------------------------------------------------------ a fire combat
def legal_fire(core: TcsCore) -> Iterator[Action]:
    assert core.combat is not None
    side = core.combat["side"]
    target = core.cell(core.combat["target"])
    joined = set(core.combat["stacks"])
    if joined:
        yield Resolve.of()
    sight = sighting_of(core, side)
    more = 0
    for a in friendly_cells(core, side):
        label = core.label(a)
        if label in joined or core.dist(a, target) > MAX_RANGE:
            continue
        if stack_firers(core, side, a, target, sight):
            more += 1
            yield With.of(label)
    if more > 1:
        yield WithAll.of()


def apply_fire(core: TcsCore, action: Action) -> None:
    assert core.combat is not None
    if isinstance(action, With):
        core.combat["stacks"].append(action.hex)
        return
    if isinstance(action, WithAll):
        core.combat["stacks"].extend(str(a.hex) for a in legal_fire(core) if isinstance(a, With))
        return
    side = core.combat["side"]
    target = core.cell(core.combat["target"])
    sight = sighting_of(core, side)
    firers = [
        i
        for label in core.combat["stacks"]
        for i in stack_firers(core, side, core.cell(label), target, sight)
    ]
    stacks = list(core.combat["stacks"])
    core.combat = None
    combat.resolve_fire(core, side, target, firers, rule="11.0")
    core.trigger = {"side": other(side), "kind": "fire", "at": stacks}


# ------------------------------------------------------------------ overwatch
def overwatch_firers(
    core: TcsCore, side: str, a: int, b: int, *, move: bool, sighting: Sighting | None = None
) -> list[int]:
    """Units of ``side`` in ``a`` that may overwatch a trigger at ``b``: in fire mode,
    not suppressed, released, in range, seeing it (a movement trigger not through
    bocage, 1.3); marked weapons only with a permission roll."""
    return list(_overwatch_firers(core, side, a, b, move, sighting or sighting_of(core, side)))


def _overwatch_firers(
    core: TcsCore, side: str, a: int, b: int, move: bool, sight: Sighting
) -> Iterator[int]:
    """:func:`overwatch_firers` one by one (the first is enough to offer the stack)."""
    dist = core.dist(a, b)
    units = core.scenario.units
    status, fire_mode, spared = core.status, core.fire_mode, core.spared
    for i in core.side_units_at(a, side):
        if status[i] != Status.OK or not fire_mode[i] or i in spared:
            continue
        if side == "German" and not _released(core, i):
            continue
        t = units[i].type
        reach = max(t.range if t.area else 0, t.point_range if t.point else 0)
        if dist > reach:
            continue
        if sight.spotted(b) if t.indirect else sight.sees(a, b, trigger=move):
            yield i


def overwatch_answers(core: TcsCore) -> list[tuple[str, list[int]]]:
    """Each trigger hex holding an enemy, with the friendly stacks that may answer it
    (read only). Worked out once for a trigger and its hexes in a position: the
    step that offers overwatch, the listing, a bot and the answer itself all ask it.
    The memo holds the trigger it was made for (so while kept, its id names no other)
    and answers only that very object."""
    trig = core.trigger
    assert trig is not None
    key = ("overwatch", id(trig), tuple(trig["at"]), len(core.revealed), len(core.spared))
    made_for, answers = core.derived(key, lambda: (trig, fresh_overwatch_answers(core, trig)))
    return answers if made_for is trig else fresh_overwatch_answers(core, trig)


def fresh_overwatch_answers(core: TcsCore, trig: dict[str, Any]) -> list[tuple[str, list[int]]]:
    """:func:`overwatch_answers` for ``trig`` worked out now (what the kept ones must equal)."""
    side = trig["side"]
    move = trig["kind"] == "move"
    sight = sighting_of(core, side)
    units = core.scenario.units
    out = []
    for label in trig["at"]:
        b = core.cell(label)
        if not [i for i in core.units_at(b) if units[i].side != side]:
            continue
        row = core.scenario.beach.dist[b]
        stacks = [
            a
            for a in friendly_cells(core, side)
            if row[a] <= MAX_RANGE
            and next(_overwatch_firers(core, side, a, b, move, sight), None) is not None
        ]
        if stacks:
            out.append((label, stacks))
    return out


def legal_overwatch(core: TcsCore) -> Iterator[Action]:
    """Series 15.0: one stack answers a trigger. Where several hexes triggered it (a
    fire combat of several stacks) the hex is chosen first, then the stack (two small
    steps keep the action numbering small; READINGS.md, "Agents")."""
    answers = overwatch_answers(core)
    if len(answers) > 1:
        for label, _ in answers:
            yield OverwatchAt.of(label)
    elif answers:
        for a in answers[0][1]:
            yield Overwatch.of(core.label(a))
    if answers:
        yield NoOverwatch.of()


def apply_overwatch(core: TcsCore, action: Action) -> None:
    trig = core.trigger
    assert trig is not None
    if isinstance(action, OverwatchAt):
        trig["at"] = [action.at]  # the stack is chosen next
        return
    answers = overwatch_answers(core)
    core.trigger = None
    if not isinstance(action, Overwatch):
        return
    at = answers[0][0]  # the one hex answered (legal_overwatch offers stacks for one)
    side = trig["side"]
    a, b = core.cell(action.start), core.cell(at)
    firers = overwatch_firers(core, side, a, b, move=trig["kind"] == "move")
    units = core.scenario.units
    weapons = [(i, "area") for i in firers if units[i].type.area > 0]
    weapons += [(i, "point") for i in firers if units[i].type.point > 0]
    marks = {"area": core.marked, "point": core.marked_point}
    permitted = [(i, w) for i, w in weapons if i not in marks[w]]
    note = ""
    if len(permitted) < len(weapons):
        s = core.scenario.series
        die = core.dice.d6()
        for i, w in weapons:
            need = s.ow_marked_spotter if units[i].type.indirect else s.ow_marked_self
            if i in marks[w] and die >= need:
                permitted.append((i, w))
        note = f" (permission roll {die})"
        if not permitted:
            core.note(
                "tcs.overwatch.denied",
                "15.0",
                dice=(die,),
                player=side,
                start=action.start,
                at=at,
                roll=die,
            )
            return
    core.note("tcs.overwatch", "15.0", player=side, start=action.start, at=at, permission=note)
    area = sorted(i for i, w in permitted if w == "area")
    point = sorted(i for i, w in permitted if w == "point")
    if area:
        combat.resolve_fire(core, side, b, area, rule="15.0")
        for i in area:
            core.mark(i)
            if units[i].type.kind != "pillbox":
                core.mark(i, point=True)
    mover = trig.get("unit")
    if point:
        victims = [
            i
            for i in core.units_at(b)
            if units[i].side != side and units[i].type.target == "point" and i not in core.spared
        ]
        if mover is not None and core.has_unit(mover) and core.unit_index(mover) in victims:
            victims = [core.unit_index(mover)]
        for i in point:
            if not victims or core.where[victims[0]] != b:
                break
            m = combat.point_modifier(
                core,
                victims[0],
                b,
                forest=behind_bocage(core, a, b),
                shingle=line(core, a, b).shingle,
            )
            combat.point_attack(
                core, units[i].type.point, victims[0], m, source=units[i].id, rule="15.0"
            )
            core.mark(i, point=True)
            if units[i].type.kind != "pillbox":
                core.mark(i)
            core.revealed.add(i)
            core.set_fire_mode(i, True)
