"""Placing units (LnL Omaha: Setting up the Game): the set-up, the turn-3 landings
and the 101st Airborne, one unit at a time; a whole set-up may be given at once as
a validated ``deploy`` plan."""

from __future__ import annotations

import copy
from collections.abc import Iterator

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.lnl.actions import Deploy, Place, place
from omaha.lnl.core import LnlCore


def place_hexes(core: LnlCore, u: int) -> list[int]:
    """Legal hexes for the next unit to place, by how its force is placed."""
    key = ("place", u)
    hit = core.memo.get(key)
    if hit is None:
        hit = core.memo[key] = _place_hexes(core, u)
    return list(hit)


def _place_hexes(core: LnlCore, u: int) -> list[int]:
    unit = core.scen.units[u]
    force = core.scen.forces[core.scen.force_of[u]]
    side = unit.side
    T = core.T
    if force.how == "landing":
        # LnL Omaha: Setting up the Game: part ocean/beach next to the beach, one
        # unit a hex (engineers exempt); reading R7 (READINGS.md): the turn-3
        # landings obey the same limit.
        out = []
        for c in T.landing:
            if core.enemy_at(c, side):
                continue
            if unit.type.engineer or core.stack_count(c) == 0:
                out.append(c)
        return out
    # anywhere allowed that holds no enemy and has room (LnL Omaha: Stacking)
    cells = T.land_cells if force.how == "free" else force.cells
    defs = core.scen.units
    occ = core.occ
    engineer = unit.type.engineer
    out = []
    for c in cells:
        here = occ.get(c)
        if here is None or (
            defs[here[0]].side == side
            and (engineer or sum(1 for y in here if not defs[y].type.engineer) < 2)
        ):
            out.append(c)
    return out


def place_options(core: LnlCore) -> Iterator[Action]:
    """``place U at H`` for the next unit, in notation order (the hexes in natural order)."""
    u = core.place_queue[0]
    uid, rank = core.uid(u), core.T.label_rank
    for c in sorted(place_hexes(core, u), key=rank.__getitem__):
        yield place(uid, core.label(c))


def apply_place_action(core: LnlCore, action: Action) -> None:
    """``place U at H`` for the next unit, or a whole set-up (``deploy ...``)."""
    if isinstance(action, Deploy):
        apply_deploy(core, action)
    else:
        assert isinstance(action, Place)
        apply_place(core, action)


def apply_place(core: LnlCore, action: Place) -> None:
    u = core.place_queue.pop(0)
    c = core.cell_of(action.hex)
    core.put(u, c)
    force = core.scen.forces[core.scen.force_of[u]]
    if force.how == "landing":
        core.set_placed(u, max(core.turn, 1))
    core.set_due(u, None)
    core.note(
        "lnl.place",
        "LnL Omaha: Setting up the Game",
        player=core.scen.units[u].side,
        unit=action.unit,
        hex=action.hex,
    )


def cannot_place(core: LnlCore) -> None:
    """No legal hex for the next unit to place.

    LnL Omaha: Setting up the Game: with no valid landing hex the landing units
    wait for the following turn; any other unit stays off the map.
    """
    u = core.place_queue[0]
    if core.place_mode == "landing":
        waiting = list(core.place_queue)
        core.place_queue = []
        core.note(
            "lnl.wait",
            "LnL Omaha: Setting up the Game",
            player="US",
            units=core.ids(waiting),
            why="no free part ocean/beach hex; they land next turn",
        )
        return
    core.place_queue.pop(0)
    core.set_due(u, None)
    core.note(
        "lnl.wait",
        "LnL Omaha: Setting up the Game",
        player=core.u(u).side,
        units=[core.uid(u)],
        why="no hex where it may be placed; it stays off the map",
    )


def check_deploy(core: LnlCore, action: Deploy) -> list[tuple[int, int]]:
    """Validate a whole set-up plan against the placing rules; returns the placements.

    The plan must place, in any order, exactly the units of the side now
    setting up that remain to be placed.
    """
    if core.current_phase != "setup" or not core.place_queue or core.busy_except_place():
        raise IllegalAction("a whole set-up can only be given during the set-up")
    side = core.scen.units[core.place_queue[0]].side
    todo = [x for x in core.place_queue if core.scen.units[x].side == side]
    plan: list[tuple[int, int]] = []
    seen: set[int] = set()
    for item in action.placements:
        if "@" not in item:
            raise IllegalAction(f"'{item}': a placement is written unit@hex")
        uid, hexlabel = item.split("@", 1)
        u = core.unit_index(uid)
        if u not in todo:
            raise IllegalAction(f"{uid} is not among the {side} units still to set up")
        if u in seen:
            raise IllegalAction(f"{uid} is placed twice")
        seen.add(u)
        plan.append((u, core.cell_of(hexlabel)))
    missing = [core.uid(x) for x in todo if x not in seen]
    if missing:
        raise IllegalAction(f"the plan does not place {', '.join(missing)}")
    scratch = copy.copy(core)
    scratch.occ = {c: list(xs) for c, xs in core.occ.items()}
    scratch.where = list(core.where)
    scratch.control = list(core.control)
    scratch.entered = list(core.entered)
    scratch.ashore = list(core.ashore)
    scratch.memo = {}
    scratch.fire_plans = {}
    scratch.journal = None  # its changes are not the state's
    for u, c in plan:
        if c not in place_hexes(scratch, u):
            raise IllegalAction(
                f"{core.uid(u)} may not be set up in {core.label(c)} "
                "(LnL Omaha: Setting up the Game)"
            )
        scratch.put(u, c)
    return plan


def apply_deploy(core: LnlCore, action: Deploy) -> None:
    plan = check_deploy(core, action)
    order = {u: i for i, u in enumerate(core.place_queue)}
    for u, c in sorted(plan, key=lambda p: order[p[0]]):
        core.place_queue.remove(u)
        core.place_queue.insert(0, u)
        apply_place(core, Place(core.uid(u), core.label(c)))
