"""Movement and reinforcements entering the map (LnL Omaha: Movement, TEC,
Special Units, Setting up the Game).

A stack is selected unit by unit among those that began the phase together,
then stepped hex by hex; after each hex entered the other side may fire once at
it (see :mod:`.opportunity`). Units may be dropped off on the way. Readings R10
and R11 (READINGS.md): units that began the phase in one hex and move separately
may not enter the same hex, and stacking holds at every hex entered.
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.lnl import rules
from omaha.lnl.actions import (
    STOP,
    Drop,
    Enter,
    Move,
    Step,
    Stop,
    With,
    drop,
    enter,
    move,
    step,
    with_,
)
from omaha.lnl.core import OFF, LnlCore, MoveGroup
from omaha.lnl.procedures.opportunity import open_window


# ----------------------------------------------------------------------------
# Costs
# ----------------------------------------------------------------------------
def step_cost(core: LnlCore, u: int, a: int, b: int, engineers: bool) -> int | None:
    """Cost for unit ``u`` to enter ``b`` from ``a`` (-1: from off the map).

    Reading R9 (READINGS.md): a reinforcement entering a road hex from the map
    edge arrives along that road and pays the road cost (1).
    """
    T = core.T
    unit = core.scen.units[u]
    crest = a >= 0 and T.crest(a, b)
    return rules.enter_cost(
        T.terrain[b],
        road_to_road=T.road[b] and (a < 0 or T.road[a]),
        crest=crest,
        ranger=unit.type.ranger,
        armor=unit.armor_unit,
        engineers=engineers,
        farmland_infantry_cost=core.scen.farmland_infantry_cost if unit.infantry else 2,
    )


def engineers_help(core: LnlCore, units: list[int], b: int) -> bool:
    """Moving with engineers, or into a beach hex holding friendly engineers."""
    defs = core.scen.units
    if not core.T.beachlike[b]:
        return False
    if any(defs[x].type.engineer for x in units):
        return True
    side = defs[units[0]].side
    return any(defs[x].type.engineer and defs[x].side == side for x in core.at(b))


# ----------------------------------------------------------------------------
# Selecting and stepping
# ----------------------------------------------------------------------------
def movable(core: LnlCore, u: int) -> bool:
    """May start a move this phase (LnL Omaha: Outline of Play, Movement)."""
    unit = core.scen.units[u]
    if unit.side != core.side or core.where[u] < 0 or unit.mf <= 0:
        return False
    if core.fired[u] or core.dis[u] or core.moved[u]:
        return False
    return not core.placement_restricted(u)


def group_steps(core: LnlCore, g: MoveGroup) -> list[int]:
    """Hexes the whole group may enter next (LnL Omaha: Movement, Stacking)."""
    return _steps(core, g.units, g.cell, g.start, g.serial, g.spent)


def first_steps(core: LnlCore, u: int) -> bool:
    """Whether a unit alone could take at least one step now."""
    here = core.where[u]
    return bool(_steps(core, [u], here, here, core.serial + 1, {u: 0}, first=True))


def _steps(
    core: LnlCore,
    units: list[int],
    cell: int,
    start: int,
    serial: int,
    spent: dict[int, int],
    *,
    first: bool = False,
) -> list[int]:
    """Hexes ``units`` moving together from ``cell`` may enter next (``first``: stop at one).

    Not the sea, not an enemy hex, not a hex another group from the same start
    hex entered (reading R10), within the stacking limit (R11), and every unit
    able to pay the step from what it has left.
    """
    T = core.T
    occ = core.occ
    defs = core.scen.units
    side = core.side
    land = T.land
    beachlike = T.beachlike
    closed = core.entered_by.get(start) if start >= 0 else None
    extra = 0
    with_engineers = False
    for x in units:
        if defs[x].type.engineer:
            with_engineers = True
        else:
            extra += 1
    costs = [(core.scen.step_costs[x][cell], spent[x], defs[x].mf) for x in units]
    out = []
    for i, n in enumerate(T.neighbours[cell]):
        if not land[n]:
            continue
        here = occ.get(n)
        eng = False
        stacked = 0
        if here is not None:
            if defs[here[0]].side != side:
                continue
            if extra:
                stacked = sum(1 for y in here if not defs[y].type.engineer)
        if extra and stacked + extra > 2:
            continue
        if closed is not None and closed.get(n, serial) != serial:
            continue
        if beachlike[n]:
            eng = with_engineers or (here is not None and any(defs[y].type.engineer for y in here))
        for table, used, mf in costs:
            c = table[i][1 if eng else 0]
            if c is None or used + c > mf:
                break
        else:
            out.append(n)
            if first:
                break
    return out


def move_options(core: LnlCore) -> Iterator[Action]:
    g = core.group
    assert g is not None
    yield STOP
    if not g.stepped and g.start >= 0:
        for x in core.at(g.start):
            if x not in g.units and movable(core, x):
                yield with_(core.uid(x))
    if len(g.units) > 1:
        for x in g.units:
            yield drop(core.uid(x))
    for n in group_steps(core, g):
        yield step(core.label(n))


def apply_move_action(core: LnlCore, action: Action) -> None:
    g = core.group
    assert g is not None
    if isinstance(action, With):
        u = core.unit_index(action.unit)
        g.units.append(u)
        g.units.sort()
        g.spent[u] = 0
    elif isinstance(action, Stop):
        _end_group(core, list(g.units))
        core.group = None
    elif isinstance(action, Drop):
        u = core.unit_index(action.unit)
        g.units.remove(u)
        _end_group(core, [u])
    elif isinstance(action, Step):
        _step(core, g, core.cell_of(action.hex))
    else:  # pragma: no cover
        raise IllegalAction(f"'{action}' is not a movement decision")


def _end_group(core: LnlCore, units: list[int]) -> None:
    for x in units:
        core.set_moved(x)


def _step(core: LnlCore, g: MoveGroup, n: int) -> None:
    eng = engineers_help(core, g.units, n)
    start = g.cell
    costs = []
    for x in g.units:
        c = step_cost(core, x, g.cell, n, eng)
        assert c is not None
        g.spent[x] += c
        costs.append(c)
        core.put(x, n)
    g.cell = n
    g.stepped = True
    if g.start >= 0:
        core.entered_by.setdefault(g.start, {})[n] = g.serial
    core.note(
        "lnl.move",
        "LnL Omaha: Movement",
        player=core.side,
        units=core.ids(g.units),
        start=core.label(start),
        end=core.label(n),
        cost=max(costs),
        left=min(core.scen.units[x].mf - g.spent[x] for x in g.units),
    )
    open_window(core)


def start_move(core: LnlCore, action: Action) -> None:
    """``move U``: select the first unit of a moving stack."""
    assert isinstance(action, Move)
    u = core.unit_index(action.unit)
    core.serial += 1
    core.group = MoveGroup([u], core.where[u], core.where[u], {u: 0}, core.serial)


# ----------------------------------------------------------------------------
# Reinforcements entering from the map edge
# ----------------------------------------------------------------------------
def due_entries(core: LnlCore) -> list[int]:
    """Units of the phasing side due to enter this movement phase."""
    out = []
    for u, turn in sorted(core.due.items()):
        unit = core.scen.units[u]
        force = core.scen.forces[core.scen.force_of[u]]
        if (
            unit.side == core.side
            and turn <= core.turn
            and core.where[u] == OFF
            and force.how == "edge"
        ):
            out.append(u)
    return out


def entry_hexes(core: LnlCore, u: int) -> list[int]:
    force = core.scen.forces[core.scen.force_of[u]]
    side = core.scen.units[u].side
    out = []
    for c in force.cells:
        if core.enemy_at(c, side) or not core.room_for(c, [u]):
            continue
        cost = step_cost(core, u, -1, c, False)
        mf = max(core.scen.units[u].mf, 1)
        if cost is not None and cost <= mf:
            out.append(c)
    return out


def enter_options(core: LnlCore) -> Iterator[Action]:
    for u in due_entries(core):
        for c in entry_hexes(core, u):
            yield enter(core.uid(u), core.label(c))


def phase_options(core: LnlCore) -> Iterator[Action]:
    """Bring on a reinforcement, or start a move.

    Reading R3 (READINGS.md): reinforcements due must enter before the phase may
    end, so the caller offers no ``end phase`` while any ``enter`` is listed.
    """
    yield from enter_options(core)
    for u in movers(core):
        yield move(core.uid(u))


def movers(core: LnlCore) -> list[int]:
    """Units of the phasing side that may start a move and take a first step."""
    key = ("movers", core.side)
    hit = core.memo.get(key)
    if hit is None:
        hit = core.memo[key] = [
            u for u in core.units_of(core.side) if movable(core, u) and first_steps(core, u)
        ]
    return list(hit)


def apply_enter(core: LnlCore, action: Action) -> None:
    """A reinforcement enters on an entry hex and may move on with what is left.

    LnL Omaha: Setting up the Game (the 916th AT at A6, A10 or A13; 2/916 on row
    A); bonus scenario ("on or within one hex of"). Reading R8 (READINGS.md):
    entering is the first step of the unit's move.
    """
    assert isinstance(action, Enter)
    u = core.unit_index(action.unit)
    c = core.cell_of(action.hex)
    cost = step_cost(core, u, -1, c, False)
    assert cost is not None
    core.serial += 1
    core.put(u, c)
    core.set_due(u, None)
    mf = core.scen.units[u].mf
    core.group = MoveGroup([u], -1, c, {u: cost if mf > 0 else 0}, core.serial, True)
    core.note(
        "lnl.enter",
        "LnL Omaha: Setting up the Game",
        player=core.side,
        unit=action.unit,
        hex=action.hex,
    )
    if mf <= 0:
        core.set_moved(u)
    open_window(core)
    if mf <= 0 and core.group is not None and core.opp is None:
        core.group = None
