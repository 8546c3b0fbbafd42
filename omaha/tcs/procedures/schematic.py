"""Before play, the US landing schematic (2.1a-2.1h): a whole plan, or boat by boat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import (
    AddLca,
    ClearPlan,
    CloseBoat,
    CommitPlan,
    EndPlan,
    Load,
    LoadSteps,
    OpenBoat,
    UsePlan,
)
from omaha.tcs.components.plan import (
    ASSAULT_WAVES,
    TRANSPORT,
    Plan,
    PlanError,
    PlannedBoat,
    PlannedGroup,
    check_plan,
)
from omaha.tcs.components.tables import BOAT_KINDS, DD
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.procedures.boats import (
    MAX_CANCELS,
    capacity,
    explain_load,
    loadable,
    next_id,
    open_points,
    planned_steps,
    used,
)
from omaha.tcs.procedures.rockets import log_targets

register_templates(
    {
        "tcs.plan.commit": "US landing plan '{name}' committed: {waves}; {opsheets} op sheets",
        "tcs.plan.cleared": "the US clears the landing schematic and starts again",
    }
)


def step_us_plan(core: TcsCore) -> bool:
    """TCS Omaha 2.1a, 2.1h: the US lays out the landing schematic before play."""
    if core.plan is not None:
        return True
    if core.open_boat is not None:
        ob = core.open_boat
        what = f"{ob['kind']} of wave {ob['wave']} to {ob['box']}"
        if ob["kind"] == "LCA":
            what = f"LCA group of {ob['lcas']} in wave {ob['wave']} to {ob['box']}"
        pts = open_points(core)
        return core.set_wait(
            Decision.PLAN, "US", f"load the {what} ({pts} points aboard), or close it"
        )
    n = len(core.draft_boats)
    return core.set_wait(
        Decision.PLAN,
        "US",
        f"landing plan: commit a whole plan, or add boats ({n} so far), or end the plan",
    )


def draft_plan(core: TcsCore) -> Plan:
    return Plan("custom", tuple(core.draft_boats), tuple(core.draft_groups))


def draft_problem(core: TcsCore) -> str | None:
    """Why the boats laid out so far are not a valid plan (None when they are)."""
    try:
        check_plan(draft_plan(core), core.scenario.rules)
    except PlanError as exc:
        return str(exc)
    return None


def dukws_ready(core: TcsCore, wave: int) -> bool:
    """TCS Omaha 2.1f (per wave): every Dukw of the wave loaded with 4+ points."""
    t = core.scenario.tables
    dukws = [b for b in core.draft_boats if b.wave == wave and b.kind == "DUKW"]
    return len(dukws) == t.wave(wave).count("DUKW") and all(
        b.points >= t.dukw_min_points for b in dukws
    )


def partial_boat(core: TcsCore) -> PlannedBoat:
    """The last boat laid out that holds part of the split unit being completed."""
    for b in reversed(core.draft_boats):
        if any(u == core.partial for u, _ in b.load):
            return b
    raise AssertionError("no boat holds the partial unit")


def legal_plan(core: TcsCore) -> Iterator[Action]:
    scen = core.scenario
    t = scen.tables
    ob = core.open_boat
    if core.partial is not None:
        # a split unit is being completed: nothing else until it is aboard
        unit = scen.oob.unit(core.partial)
        left = unit.steps - planned_steps(core).get(core.partial, 0)
        if ob is not None:
            room = capacity(core, ob["kind"]) - open_points(core)
            fit = min(left, room // unit.type.points)
            if fit > 0:
                yield LoadSteps.of(core.partial, fit)
            else:
                yield CloseBoat.of()
        else:
            last = partial_boat(core)
            if used(core, last.wave, last.kind) < t.wave(last.wave).count(last.kind):
                for box in sorted(scen.beach.assault_boxes):
                    yield OpenBoat.of(last.wave, last.kind, box)
        return
    if ob is None:
        if not core.draft_boats:
            yield from (UsePlan.of(n) for n in sorted(scen.plans))
        elif may_cancel(core):
            yield ClearPlan.of()
        if draft_problem(core) is None:
            yield EndPlan.of()
        planned = planned_steps(core)
        dd_left = any(u.dd and u.id not in planned for u in scen.oob.units)
        for wave in ASSAULT_WAVES:
            for kind in (*BOAT_KINDS, DD):
                if kind == "LCI":
                    continue
                if kind == DD:
                    if not dd_left:
                        continue
                elif used(core, wave, kind) >= t.wave(wave).count(kind):
                    continue
                if kind in ("LCT", "Rhino") and not dukws_ready(core, wave):
                    continue
                if not may_cancel(core) and not _fills(core, kind):
                    continue  # it could only be closed empty again
                for box in sorted(scen.beach.assault_boxes):
                    yield OpenBoat.of(wave, kind, box)
        return
    options = list(_boat_options(core, ob))
    if ob["load"] or may_cancel(core) or not options:
        yield CloseBoat.of()
    yield from options


def may_cancel(core: TcsCore) -> bool:
    """Whether the schematic may still be cleared, or a boat closed empty (a cancel)."""
    cancels: int = core.sd.get("cancels", 0)
    return cancels < MAX_CANCELS


def _fills(core: TcsCore, kind: str) -> bool:
    """Whether a new boat of ``kind`` could take any unit now."""
    if kind == DD:
        return any(True for _ in loadable(core, DD, 0, "plan"))
    group = core.scenario.tables.boat("LCA").group if kind == "LCA" else 1
    options = loadable(core, kind, capacity(core, kind, group), "plan")
    return any(kind != "LCA" or isinstance(a, Load) for a in options)


def _boat_options(core: TcsCore, ob: dict[str, Any]) -> Iterator[Action]:
    t = core.scenario.tables
    kind = ob["kind"]
    if kind == DD:
        yield from loadable(core, DD, 0, "plan")
        return
    if (
        kind == "LCA"
        and ob["lcas"] < t.boat("LCA").group
        and used(core, ob["wave"], "LCA") < t.wave(ob["wave"]).count("LCA")
    ):
        yield AddLca.of()
    room = capacity(core, kind, ob.get("lcas", 1)) - open_points(core)
    if kind == "LCA":
        # a pooled group carries whole units (splits within the group are its business)
        for a in loadable(core, kind, room, "plan"):
            if isinstance(a, Load):
                yield a
    else:
        yield from loadable(core, kind, room, "plan")


def apply_plan(core: TcsCore, action: Action) -> None:
    scen = core.scenario
    if isinstance(action, UsePlan):
        commit(core, scen.plans[action.name])
    elif isinstance(action, CommitPlan):
        commit(core, Plan.from_tokens(action.tokens))
    elif isinstance(action, OpenBoat):
        core.open_boat = {
            "wave": action.wave,
            "kind": action.kind,
            "box": action.box,
            "lcas": 1,
            "load": [],
        }
    elif isinstance(action, AddLca):
        assert core.open_boat is not None
        core.open_boat["lcas"] += 1
    elif isinstance(action, Load | LoadSteps):
        ob = core.open_boat
        assert ob is not None
        unit = scen.oob.unit(action.unit)
        steps = action.steps if isinstance(action, LoadSteps) else unit.steps
        if ob["kind"] == DD:
            bid = next_id(core, f"{ob['wave']}.DD")
            core.draft_boats.append(
                PlannedBoat(bid, ob["wave"], DD, ob["box"], None, ((unit.id, 1),), 0)
            )
        else:
            ob["load"].append([unit.id, steps])
            done = planned_steps(core).get(unit.id, 0)
            core.partial = unit.id if done < unit.steps else None
    elif isinstance(action, CloseBoat):
        if core.open_boat is not None and not core.open_boat["load"]:
            core.sd["cancels"] = core.sd.get("cancels", 0) + 1
        close_boat(core)
    elif isinstance(action, EndPlan):
        commit(core, draft_plan(core))
    elif isinstance(action, ClearPlan):
        core.sd["cancels"] = core.sd.get("cancels", 0) + 1
        core.draft_boats, core.draft_groups, core.counters = [], [], {}
        core.note("tcs.plan.cleared", "2.1h", player="US")


def close_boat(core: TcsCore) -> None:
    """The open boat joins the schematic (an LCA group as its boats and pooled load)."""
    ob = core.open_boat
    assert ob is not None
    core.open_boat = None
    load = tuple((u, s) for u, s in ob["load"])
    if ob["kind"] == DD or not load:
        return
    pts = sum(core.scenario.oob.unit(u).type.points * s for u, s in load)
    if ob["kind"] == "LCA":
        cap = capacity(core, "LCA")
        shares = [min(cap, max(0, pts - cap * k)) for k in range(ob["lcas"])]
        shares = [s for s in shares if s > 0]
        gid = next_id(core, f"{ob['wave']}.G")
        ids = []
        for share in shares:
            bid = next_id(core, f"{ob['wave']}.")
            ids.append(bid)
            core.draft_boats.append(PlannedBoat(bid, ob["wave"], "LCA", ob["box"], gid, (), share))
        core.draft_groups.append(PlannedGroup(gid, ob["wave"], ob["box"], tuple(ids), True, load))
    else:
        bid = next_id(core, f"{ob['wave']}.")
        core.draft_boats.append(
            PlannedBoat(bid, ob["wave"], ob["kind"], ob["box"], None, load, pts)
        )


def check_commit(core: TcsCore, action: CommitPlan) -> None:
    """A whole plan is legal without being listed: validate it here (2.1-2.1h)."""
    if core.wait is None or core.wait[0] != Decision.PLAN or core.draft_boats or core.open_boat:
        raise IllegalAction("a whole landing plan is committed before any boat is laid out")
    try:
        plan = Plan.from_tokens(action.tokens)
        check_plan(plan, core.scenario.rules)
    except PlanError as exc:
        raise IllegalAction(f"landing plan: {exc}") from None


def commit(core: TcsCore, plan: Plan) -> None:
    """TCS Omaha 2.1a: the assault waves are fixed once play begins."""
    scen = core.scenario
    check_plan(plan, scen.rules)
    core.plan = plan
    core.open_boat = None
    core.draft_boats, core.draft_groups = [], []
    oob, beach = scen.oob, scen.beach
    for b in plan.boats:
        for u, _ in b.load:
            i = oob.index(u)
            boxes = beach.transport_boxes if b.wave == TRANSPORT else beach.assault_boxes
            core.planned_beach[i] = boxes[b.box]
    for g in plan.groups:
        for u, _ in g.pool:
            core.planned_beach[oob.index(u)] = beach.assault_boxes[g.box]
    summary = []
    for w in (*ASSAULT_WAVES, TRANSPORT):
        boats = plan.wave_boats(w)
        if not boats:
            continue
        counts = {k: sum(1 for b in boats if b.kind == k) for k in (*BOAT_KINDS, DD)}
        text = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
        label = f"wave {w}" if w else f"first transport {plan.transport_hour}"
        summary.append(f"{label}: {text}")
    core.note(
        "tcs.plan.commit",
        "2.1a, 2.1h",
        player="US",
        name=plan.name,
        waves="; ".join(summary) or "no assault boats",
        opsheets=len(plan.opsheets),
    )
    if plan.lctr:  # a plan that names LCT(R) targets names all it fires
        core.lctr_targets = [core.cell(x) for x in plan.lctr]
        log_targets(core)
    for bn, u in plan.nfst:
        if scen.nfst:
            core.nfst[bn] = [u, "assigned"]


def explain_plan(core: TcsCore, action: Action) -> str:
    """Why a schematic action is refused (2.1c-2.1g, 2.1j, 2.1m)."""
    scen = core.scenario
    t, beach = scen.tables, scen.beach
    if isinstance(action, OpenBoat):
        if action.box not in beach.assault_boxes:
            boxes = ", ".join(sorted(beach.assault_boxes))
            return f"{action.box!r} is not a landing beach box ({boxes})"
        if action.wave not in (1, 2, 3):
            return "assault landings come in waves 1, 2 and 3 only (2.1a)"
        if action.kind in BOAT_KINDS and action.kind != "LCI":
            have = t.wave(action.wave).count(action.kind)
            if have == 0:
                return f"wave {action.wave} has no {action.kind}s (2.1g)"
            if used(core, action.wave, action.kind) >= have:
                return f"wave {action.wave} has {have} {action.kind}s and all are used (2.1g)"
            if action.kind in ("LCT", "Rhino") and not dukws_ready(core, action.wave):
                return (
                    f"every Dukw of wave {action.wave} must carry {t.dukw_min_points}+ load "
                    "points before any LCT or Rhino is used (2.1f)"
                )
        if action.kind == "LCI":
            return "LCIs land only in transport landings (2.1m)"
        if core.open_boat is not None:
            return "close the open boat first"
    if isinstance(action, Load | LoadSteps):
        return explain_load(core, action, "plan")
    if isinstance(action, EndPlan):
        problem = draft_problem(core) if core.open_boat is None else "close the open boat"
        if problem:
            return problem
    return ""
