"""US command after landing: op sheets carried out from their correct sector (2.3a),
new op sheets and their weighted turns (2.3a, 12 at most at any one time: a sheet
completed or lapsed frees its place, series 6.11), unassigned units that
must fall back (2.3g), and company morale recovering each hour (1.13a levels)."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import EndSheets, OpSheet
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.procedures.combat import retreat
from omaha.tcs.rules import weighted_turns

register_templates(
    {
        "tcs.opsheet.start": "{unit} is on its op sheet's sector {sector}",
        "tcs.sheet.start": "{formation} starts implementing an op sheet",
        "tcs.sheet.us": "{formation}'s op sheet is {result}",
        "tcs.unassigned": "{unit}, unassigned beyond the shingle after {turns} turns of "
        "defence, falls back",
    }
)


def sheet_sector(core: TcsCore, i: int) -> str | None:
    """The beach sector the op sheet of unit ``i`` names (None: no landing op sheet)."""
    if core.plan is None or core.scenario.no_opsheets:
        return None
    uid = core.uid(i)
    for o in core.plan.opsheets:
        if uid in o.units:
            return o.sector
    return None


def check_task(core: TcsCore, i: int) -> None:
    """TCS Omaha 2.3a: a landing op sheet is carried out only from its correct sector."""
    sheet = sheet_sector(core, i)
    if sheet is None or core.on_task[i] or core.where[i] < 0:
        return
    sector = core.scenario.beach.sector_of(core.where[i])
    if sector is not None and sector.name == sheet:
        core.on_task[i] = True
        core.note("tcs.opsheet.start", "2.3a", player="US", unit=core.uid(i), sector=sheet)


# ------------------------------------------------------------------ new op sheets (2.3a)
def implemented_count(core: TcsCore) -> int:
    """US op sheets implemented now (2.3a, "at any one time"): landing sheets with a unit
    on task and still on the map (one whose units are all gone has lapsed, series 6.11
    as reconstructed), and the new sheets implemented and not yet over."""
    plan = core.plan
    landing = 0
    if plan is not None:
        for o in plan.opsheets:
            idx = [core.unit_index(u) for u in o.units]
            if any(core.on_task[i] and core.where[i] >= 0 for i in idx):
                landing += 1
    return landing + len(core.us_implemented)


def under_leader(core: TcsCore, formation: str) -> bool:
    radius = core.scenario.tables.leader_radius
    leaders = [core.leader_cell[k] for k in core.living_leaders_on_map()]
    return any(
        core.where[i] >= 0 and any(core.dist(core.where[i], c) <= radius for c in leaders)
        for i in core.scenario.oob.formation_units(formation)
    )


def objective_cells(core: TcsCore) -> frozenset[int]:
    """The hexes a new US op sheet is written to reach (reconstructed): the draw exits
    and the village hexes, the objectives of the victory conditions."""
    beach = core.scenario.beach
    cells = set(beach.exits.values())
    for vc in beach.villages.values():
        cells.update(vc)
    return frozenset(cells)


def review_sheets(core: TcsCore) -> None:
    """Series 6.11 ([tab401], the first step of the Command Phase), reconstructed for the
    new US op sheets of 2.3a: an implemented sheet ends when its company has no unit
    left on the map (it lapses), or when every unit of it on the map stands at or next
    to an objective hex (its mission is accomplished). Either frees its place among the
    12; the company's units are then unassigned (2.3g) until a new sheet is implemented."""
    if not core.us_implemented:
        return
    board = core.scenario.board
    goals = objective_cells(core)
    near = goals | {n for c in goals for n in board.neighbours[c]}
    oob = core.scenario.oob
    for f in sorted(core.us_implemented):
        cells = [core.where[i] for i in oob.formation_units(f) if core.where[i] >= 0]
        if not cells:
            result = "over: no unit of it is left on the map"
        elif all(c in near for c in cells):
            result = "complete: its units stand at an objective"
        else:
            continue
        core.complete_sheet(f)
        core.note("tcs.sheet.us", "2.3a", player="US", formation=f, result=result)


def accrue(core: TcsCore) -> None:
    """TCS Omaha 2.3a: implementing sheets gain weighted turns (1 a turn under a leader,
    else the series rate); at the series' threshold a sheet is implemented, never more
    than 12 at a time."""
    scen = core.scenario
    for f in sorted(core.us_sheets):
        members = scen.oob.formation_units(f)
        if not any(core.where[i] >= 0 for i in members):
            del core.us_sheets[f]
            continue
        fired = any(i in core.fired_upon for i in members)
        rate = weighted_turns(under_leader(core, f), fired, False, core.night, scen.series)
        core.us_sheets[f] += rate
        if (
            core.us_sheets[f] >= scen.series.implement_at
            and implemented_count(core) < scen.tables.max_us_opsheets
        ):
            del core.us_sheets[f]
            core.implement_sheet(f)
            core.note("tcs.sheet.us", "2.3a", player="US", formation=f, result="implemented")


def sheet_candidates(core: TcsCore) -> list[str]:
    """Companies ashore with a unit not on task and no op sheet being implemented."""
    scen = core.scenario
    out = set()
    for i in core.us_units():
        if core.where[i] < 0 or core.on_task[i]:
            continue
        f = scen.units[i].formation
        if f not in core.us_sheets and f not in core.us_implemented:
            out.add(f)
    return sorted(out)


def step_us_sheets(core: TcsCore) -> bool:
    """TCS Omaha 2.3a: op sheets in the Command Planning Phase (the last turn's fire
    counted, then forgotten)."""
    if not core.started:
        core.started = True
        core.sd = {"ended": False}
        review_sheets(core)
        accrue(core)
        core.fired_upon = set()
    if core.sd["ended"] or not sheet_candidates(core):
        return True
    return core.set_wait(Decision.SHEETS, "US", "start op sheets for companies ashore, or end")


def legal_sheets(core: TcsCore) -> Iterator[Action]:
    yield EndSheets.of()
    for f in sheet_candidates(core):
        yield OpSheet.of(f)


def apply_sheets(core: TcsCore, action: Action) -> None:
    if isinstance(action, EndSheets):
        core.sd["ended"] = True
        return
    assert isinstance(action, OpSheet)
    core.us_sheets[action.formation] = 0
    core.note("tcs.sheet.start", "2.3a", player="US", formation=action.formation)


def step_recovery(core: TcsCore) -> bool:
    """Series 17.0 (reconstructed): on each hour turn every company regains morale."""
    if not core.turn_has("hour"):
        return True
    rec = core.scenario.series.morale_recovery
    for f in sorted(core.company_morale):
        core.company_morale[f] = max(0, core.company_morale[f] - rec)
        if not core.company_morale[f]:
            del core.company_morale[f]
    return True


# ------------------------------------------------------------------ unassigned (2.3g)
def unassigned_retreats(core: TcsCore) -> None:
    """TCS Omaha 2.3g: a US unit landward of the shingle with no op sheet (and no leader
    this turn) retreats after at most 3 turns of defence; seaward of the shingle it is
    free of this. Reading: a turn of defence is a turn fired upon or with a German unit
    within two hexes."""
    scen = core.scenario
    limit = scen.tables.unassigned_turns
    german = [
        c for c, here in core.occupancy().items() if any(core.side(i) == "German" for i in here)
    ]
    for i in core.us_units():
        c = core.where[i]
        if c < 0 or c not in scen.beach.land or command_assigned(core, i):
            core.defense_turns[i] = 0
            continue
        contact = i in core.fired_upon or any(core.dist(c, g) <= 2 for g in german)
        core.defense_turns[i] = core.defense_turns[i] + 1 if contact else 0
        if core.defense_turns[i] >= limit:
            core.defense_turns[i] = 0
            core.note("tcs.unassigned", "2.3g", player="US", unit=core.uid(i), turns=limit)
            retreat(core, i, "2.3g")


def command_assigned(core: TcsCore, i: int) -> bool:
    u = core.unit(i)
    return i in core.free or core.on_task[i] or u.formation in core.us_implemented
