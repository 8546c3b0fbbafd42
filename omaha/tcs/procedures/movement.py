"""US movement on the beach (2.1n, 2.3d-2.3f) and the 29th ID's exit west (2.7b)."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import EndAction, ExitWest, MoveTo, Select, Stay
from omaha.tcs.core import EXITED, Decision, TcsCore
from omaha.tcs.procedures.command import check_task

#: reachable hexes by (start, allowance, graph, free), for one tide and German set
ReachTable = dict[tuple[int, int, str, bool], dict[int, int]]

register_templates(
    {
        "tcs.leaders.command": "{units} units start the phase within 3 hexes of a leader",
        "tcs.move": "{unit} moves {start} -> {end} ({mp} MP)",
        "tcs.exit": "{unit} leaves the map westward from {hex}",
    }
)


def step_move(core: TcsCore) -> bool:
    """US movement: along the beach seaward of the shingle (2.3d, 2.3e), landed units
    with their full allowance (2.1n); under a leader (2.3f) or on task with a
    landing op sheet (2.3a) a unit may also go landward. Reading: beach obstacle
    hexes (2.4) stay closed until tested, which comes with part 2."""
    if not core.started:
        core.started = True
        core.sd = {"ended": False}
        core.moved, core.selected = set(), None
        radius = core.scenario.tables.leader_radius
        board = core.scenario.board
        leaders = [core.leader_cell[k] for k in core.living_leaders_on_map()]
        core.free = {
            i
            for i, w in enumerate(core.where)
            if w >= 0 and any(board.distance(w, c) <= radius for c in leaders)
        }
        if core.free:
            core.note("tcs.leaders.command", "2.3f", player="US", units=len(core.free))
    if core.sd["ended"]:
        return True
    if core.selected is not None:
        return core.set_wait(Decision.MOVE, "US", f"move {core.selected}: choose a hex, or stay")
    return core.set_wait(Decision.MOVE, "US", "select a unit to move, or end the action phase")


def is_leader(pid: str) -> bool:
    return pid.startswith("Ldr-")


def piece_cell(core: TcsCore, pid: str) -> int:
    """Where a unit or leader (by id) is."""
    if is_leader(pid):
        return core.leader_cell[core.scenario.oob.leader(pid).index]
    return core.where[core.unit_index(pid)]


def mover(core: TcsCore, pid: str) -> tuple[int, str, bool]:
    """Allowance, movement graph and whether the piece may go landward."""
    if is_leader(pid):
        return core.scenario.tables.leader_mp, "foot", True
    i = core.unit_index(pid)
    u = core.scenario.oob.units[i]
    free = i in core.free or core.on_task[i]
    if u.type.move == "tow":
        return (10, "vehicle", free) if core.carried[i] else (0, "foot", free)
    return u.type.ma, u.type.move, free


def reach_table(core: TcsCore) -> ReachTable:
    """Reachable hexes by (start, allowance, graph, free) for the current tide and
    German pieces; pure, so it lives on the scenario and is shared by all states."""
    key = (core.tide_hour, tuple(sorted(core.german_cells())))
    cache = core.scenario.reach_cache
    table = cache.get(key)
    if table is None:
        if len(cache) > 64:
            cache.clear()
        table = cache[key] = {}
    return table


def destinations(core: TcsCore, pid: str, table: ReachTable | None = None) -> dict[int, int]:
    """Hexes the piece can reach this phase, with their MP cost."""
    ma, graph_name, free = mover(core, pid)
    if ma <= 0:
        return {}
    start = piece_cell(core, pid)
    table = reach_table(core) if table is None else table
    key = (start, ma, graph_name, free)
    hit = table.get(key)
    if hit is None:
        beach = core.scenario.beach
        graph = beach.foot_graph if graph_name == "foot" else beach.vehicle_graph
        hit = graph.reachable(start, ma, blocked=blocked(core, free))
        hit.pop(start, None)
        table[key] = hit
    return hit


def blocked(core: TcsCore, free: bool) -> frozenset[int]:
    """Hexes no US unit may enter: sea, obstacle hexes, German pieces, and the land
    beyond the shingle for a unit without a leader or op sheet (2.3d)."""
    key = (core.tide_hour, free, tuple(sorted(core.german_cells())))
    cache = core.scenario.blocked_cache
    hit = cache.get(key)
    if hit is None:
        beach = core.scenario.beach
        base = set(beach.sea(core.tide_hour)) | set(beach.obstacles) | core.german_cells()
        if not free:
            base |= beach.land
        if len(cache) > 64:
            cache.clear()
        hit = cache[key] = frozenset(base)
    return hit


def legal_move(core: TcsCore) -> Iterator[Action]:
    if core.selected is None:
        yield EndAction()
        units = core.scenario.oob.units
        table = reach_table(core)
        for i, w in enumerate(core.where):
            if w >= 0 and (units[i].type.ma > 0 or core.carried[i]):
                uid = units[i].id
                if uid not in core.moved and destinations(core, uid, table):
                    yield Select.of(uid)
        for k in core.living_leaders_on_map():
            lid = core.lid(k)
            if lid not in core.moved and destinations(core, lid, table):
                yield Select.of(lid)
        return
    yield Stay()
    for c in sorted(destinations(core, core.selected)):
        yield MoveTo.of(core.label(c))
    pid = core.selected
    if not is_leader(pid):
        i = core.unit_index(pid)
        if core.scenario.oob.units[i].is_29th and core.where[i] in core.scenario.beach.west_edge:
            yield ExitWest()


def apply_move(core: TcsCore, action: Action) -> None:
    if isinstance(action, EndAction):
        core.sd["ended"] = True
        core.selected = None
    elif isinstance(action, Select):
        core.selected = action.unit
    elif isinstance(action, Stay):
        assert core.selected is not None
        core.moved.add(core.selected)
        core.selected = None
    elif isinstance(action, MoveTo):
        pid = core.selected
        assert pid is not None
        start = piece_cell(core, pid)
        end = core.cell(action.hex)
        cost = destinations(core, pid)[end]
        if is_leader(pid):
            core.leader_cell[core.scenario.oob.leader(pid).index] = end
        core.moved.add(pid)
        core.selected = None
        core.note(
            "tcs.move",
            "2.3d",
            player="US",
            unit=pid,
            start=core.label(start),
            end=action.hex,
            mp=cost,
        )
        if not is_leader(pid):
            i = core.unit_index(pid)
            core.where[i] = end
            check_task(core, i)
    elif isinstance(action, ExitWest):
        pid = core.selected
        assert pid is not None
        i = core.unit_index(pid)
        core.note("tcs.exit", "2.7b", player="US", unit=pid, hex=core.label(core.where[i]))
        core.where[i] = EXITED
        core.moved.add(pid)
        core.selected = None


def explain_move(core: TcsCore, action: Action) -> str:
    if isinstance(action, Select):
        return f"{action.unit} has no move to make now (not ashore, already moved, or unable)"
    if isinstance(action, MoveTo) and core.selected is not None:
        return (
            f"{core.selected} cannot reach {action.hex}: sea beyond the tide line, beach "
            "obstacles, the shingle without a leader or op sheet (2.3d), or too far"
        )
    return ""
