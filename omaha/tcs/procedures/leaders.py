"""US leaders (2.3f): selection before play, losses under enemy eyes, removal at 1300."""

from __future__ import annotations

from omaha.kernel.decks import Cup
from omaha.kernel.events import register_templates
from omaha.tcs.components.tables import DD
from omaha.tcs.core import TcsCore
from omaha.tcs.procedures.sight import los
from omaha.tcs.rules import leader_killed, leaders_available

register_templates(
    {
        "tcs.leaders.none": "no leader has units in the assault waves",
        "tcs.leaders.selection": "leader selection: {eligible} leaders in the cup, {available} "
        "available; drawn {drawn}",
        "tcs.leaders.removed": "leaders leave play: {leaders}",
        "tcs.leaders.loss": "{leader} in {hex} under enemy eyes: {result}",
    }
)


def step_leader_selection(core: TcsCore) -> bool:
    """TCS Omaha 2.3f: leaders of the assault-wave (and first transport) units go in a cup.

    Two dice on the Leader Selection Table say how many are drawn at random;
    each lands with a boat: reading, a boat drawn at random among those
    carrying units of its command (not a swimming DD tank). Reading: the cup
    is filled when the plan is committed, from the assault waves and the first
    transport landing when the plan designates it.
    """
    plan = core.plan
    assert plan is not None
    oob = core.scenario.oob
    carriers: dict[int, list[str]] = {}
    unit_boats = plan.unit_boats()
    order = {b.id: k for k, b in enumerate(plan.boats)}
    swimming = {b.id for b in plan.boats if b.kind == DD}
    for ld in oob.leaders:
        boats: set[str] = set()
        for uid, bids in unit_boats.items():
            if ld.commands_unit(oob.unit(uid)):
                boats.update(b for b in bids if b not in swimming)
        if boats:
            carriers[ld.index] = sorted(boats, key=order.__getitem__)
    if not carriers:
        core.note("tcs.leaders.none", "2.3f", player="US")
        return True
    cup = Cup(oob.leaders[k].id for k in carriers)
    d = core.dice.two_d6()
    n = leaders_available(d[0] + d[1], core.scenario.tables)
    drawn = []
    for _ in range(min(n, len(cup))):
        lid = cup.draw(core.dice)
        k = oob.leader(lid).index
        options = carriers[k]
        boat = options[core.dice.pick(len(options))]
        core.set_leader_status(k, "aboard")
        core.leader_boat[k] = boat
        drawn.append(f"{lid} ({oob.leaders[k].name}) with boat {boat}")
    core.note(
        "tcs.leaders.selection",
        "2.3f",
        dice=d,
        player="US",
        eligible=len(carriers),
        available=n,
        drawn=drawn,
    )
    return True


def step_leaders_out(core: TcsCore) -> bool:
    """TCS Omaha 2.3f: all leaders leave play at the beginning of the 1300 6 June turn."""
    if core.turn_label != core.scenario.tables.leader_removal:
        return True
    gone = []
    for k, s in enumerate(core.leader_status):
        if s in ("map", "aboard"):
            core.set_leader_status(k, "removed")
            gone.append(core.lid(k))
    core.note("tcs.leaders.removed", "2.3f", leaders=gone)
    return True


def step_leader_losses(core: TcsCore) -> bool:
    """TCS Omaha 2.3f Leader Losses: one roll for each leader an enemy unit can see
    within visibility and its weapon range; killed on a 12 (stays in the hex)."""
    for k in core.living_leaders_on_map():
        cell = core.leader_cell[k]
        if not exposed(core, cell):
            continue
        d = core.dice.two_d6()
        killed = leader_killed(d[0] + d[1], core.scenario.tables)
        if killed:
            core.set_leader_status(k, "dead")
        core.note(
            "tcs.leaders.loss",
            "2.3f",
            dice=d,
            player="US",
            leader=core.lid(k),
            hex=core.label(cell),
            result="killed" if killed else "unhurt",
        )
    return True


def exposed(core: TcsCore, cell: int) -> bool:
    """Whether a released German unit sees ``cell`` within visibility and its weapon's
    range (its longest: a pill box's MGs reach 12 hexes, its gun 7)."""
    scen = core.scenario
    vis = scen.tables.visibility
    released = core.released
    for i in core.german_units():
        g = core.where[i]
        if g < 0:
            continue
        u = scen.units[i]
        if scen.german.formation(u.formation).status != "released" and u.formation not in released:
            continue
        rng = max(u.type.range, u.type.point_range)
        if core.dist(g, cell) <= min(rng, vis) and los(core, g, cell):
            return True
    return False
