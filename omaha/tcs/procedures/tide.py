"""The tide (1.12a): each hour turn the tide line moves; what it covers advances or drowns."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import Advance
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.rules import hour_of

register_templates(
    {
        "tcs.tide.move": "the tide line moves from {old} to {new}",
        "tcs.tide.drowned": "{unit} ({steps} steps) is lost to the tide in {hex}",
        "tcs.tide.leader": "{leader} is lost to the tide",
        "tcs.tide.advance": "the tide covers {start}: {pieces} advance to {to}",
    }
)


def step_tide(core: TcsCore) -> bool:
    """TCS Omaha 1.12a: at the start of each hour turn's Command Planning Phase the
    tide line moves; pieces in hexes that became sea advance one hex (even if
    suppressed or paralyzed, drawing no overwatch); tow-only units with no
    carrier or vehicle in their hex are destroyed. Readings: any vehicle in the
    hex will do for every tow-only unit there; a gun landed by a Dukw keeps that
    Dukw as its carrier; advancing is always taken (staying means drowning)."""
    scen = core.scenario
    if not core.started:
        core.started = True
        core.sd = {"queue": []}
        hour = hour_of(core.turn_time)
        if core.turn_has("hour") and hour != core.tide_hour:
            old = core.tide_hour
            core.set_tide(hour)
            core.note("tcs.tide.move", "1.12a", old=old, new=hour)
            sea = scen.beach.sea(hour)
            occ = core.occupied_us()
            for cell in sorted(c for c in occ if c in sea):
                here = occ[cell]
                vehicle = any(scen.oob.units[i].type.move == "vehicle" for i in here)
                for i in here:
                    u = scen.oob.units[i]
                    if u.type.move == "tow" and not vehicle and not core.carried[i]:
                        core.lose_unit(i, "tcs.tide.drowned", "1.12a", hex=core.label(cell))
            wet = {c for c in core.occupied_us() if c in sea}
            wet |= {core.leader_cell[k] for k in core.living_leaders_on_map()} & sea
            core.sd["queue"] = [core.label(c) for c in sorted(wet)]
    while core.sd["queue"]:
        cell = core.cell(core.sd["queue"][0])
        if not tide_options(core, cell):
            for i in core.occupied_us().get(cell, []):
                core.lose_unit(i, "tcs.tide.drowned", "1.12a", hex=core.label(cell))
            for k in core.living_leaders_on_map():
                if core.leader_cell[k] == cell:
                    core.set_leader_status(k, "lost")
                    core.note("tcs.tide.leader", "1.12a", leader=core.lid(k))
            core.sd["queue"].pop(0)
            continue
        return core.set_wait(
            Decision.TIDE, "US", f"the tide covers {core.label(cell)}: advance its pieces one hex"
        )
    return True


def tide_options(core: TcsCore, cell: int) -> list[int]:
    """Dry strand hexes next to ``cell`` the pieces there may advance to."""
    beach = core.scenario.beach
    sea = beach.sea(core.tide_hour)
    return [
        n
        for n in core.scenario.board.neighbours[cell]
        if n not in sea and n in beach.strand and n not in core.german_cells()
    ]


def legal_tide(core: TcsCore) -> Iterator[Action]:
    start = core.sd["queue"][0]
    for n in tide_options(core, core.cell(start)):
        yield Advance.of(start, core.label(n))


def apply_tide(core: TcsCore, action: Action) -> None:
    assert isinstance(action, Advance)
    a, b = core.cell(action.start), core.cell(action.to)
    moved = []
    for i in core.occupied_us().get(a, []):
        core.place(i, b)
        moved.append(core.uid(i))
    for k in core.living_leaders_on_map():
        if core.leader_cell[k] == a:
            core.set_leader_cell(k, b)
            moved.append(core.lid(k))
    core.note(
        "tcs.tide.advance", "1.12a", player="US", start=action.start, to=action.to, pieces=moved
    )
    core.sd["queue"].pop(0)
