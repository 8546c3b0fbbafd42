"""Transport assignments (2.1m): each hour turn the US loads the next hour's transports."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import CloseBoat, EndTransports, Load, LoadSteps, OpenTransport
from omaha.tcs.components.plan import TRANSPORT, PlannedBoat
from omaha.tcs.components.turns import next_hour
from omaha.tcs.core import ABOARD, Decision, TcsCore
from omaha.tcs.procedures.boats import (
    MAX_CANCELS,
    boat_text,
    capacity,
    explain_load,
    loadable,
    next_id,
    transport_land_label,
    transport_points,
    transport_steps,
    transport_used,
)

register_templates(
    {
        "tcs.transport.planned": "first transport landing of the plan assigned for {turn}: {boats}",
        "tcs.transport.assigned": "transports for {turn}: {boats}",
    }
)


def next_hour_turn(core: TcsCore) -> str | None:
    """The turn an hour after this one, if the scenario plays it."""
    label = next_hour(core.turn_label)
    return label if any(t.label == label for t in core.scenario.turns) else None


def step_transports(core: TcsCore) -> bool:
    """TCS Omaha 2.1m: on an hour turn the US assigns the next hour's transport landing.

    One LCI and five LCTs each hour turn from 1000 6 June (so first assigned
    on the 0900 turn); unused capacity is lost; a transport landing pre-planned
    in the landing plan is assigned automatically the hour before.
    """
    if not core.turn_has("hour"):
        return True
    land = next_hour_turn(core)
    t = core.scenario.tables
    if land is None or (land.split()[0] < t.transport_first_hour and core.day == 6):
        return True
    if not core.started:
        core.started = True
        core.sd = {"ended": False}
        core.transport_open = None
        core.transports.setdefault(land, [])  # a landing turn, with or without boats
        plan = core.plan
        if (
            plan is not None
            and core.day == 6
            and plan.transport_hour == land.split()[0]
            and not core.stats.get("first_transport")
        ):
            core.stats["first_transport"] = 1
            for b in plan.wave_boats(TRANSPORT):
                core.board_transport(land, b)
                for u, _ in b.load:
                    core.place(core.unit_index(u), ABOARD)
            core.note(
                "tcs.transport.planned",
                "2.1m",
                player="US",
                turn=land,
                boats=[boat_text(core, b) for b in core.transports[land]],
            )
    if core.sd["ended"]:
        return True
    return core.set_wait(
        Decision.TRANSPORTS, "US", f"assign transport boats landing at {land} (1 LCI, 5 LCT)"
    )


def legal_transports(core: TcsCore) -> Iterator[Action]:
    ob = core.transport_open
    scen = core.scenario
    t = scen.tables
    if core.partial is not None:
        unit = scen.oob.unit(core.partial)
        left = unit.steps - transport_steps(core).get(core.partial, 0)
        if ob is not None:
            room = capacity(core, ob["kind"]) - transport_points(core)
            fit = min(left, room // unit.type.points)
            yield LoadSteps.of(core.partial, fit) if fit > 0 else CloseBoat.of()
        else:
            kind = core.sd["partial_kind"]
            for box in sorted(scen.beach.transport_boxes):
                yield OpenTransport.of(kind, box)
        return
    if ob is None:
        yield EndTransports.of()
        cancels: int = core.sd.get("cancels", 0)
        for kind, cap in t.transport_boats:
            if transport_used(core, kind) < cap:
                if cancels >= MAX_CANCELS and not any(
                    True for _ in loadable(core, kind, capacity(core, kind), "transport")
                ):
                    continue  # it could only be closed empty again
                for box in sorted(scen.beach.transport_boxes):
                    yield OpenTransport.of(kind, box)
        return
    room = capacity(core, ob["kind"]) - transport_points(core)
    options = list(loadable(core, ob["kind"], room, "transport"))
    if ob["load"] or core.sd.get("cancels", 0) < MAX_CANCELS or not options:
        yield CloseBoat.of()  # empty: a cancel, a few a landing (READINGS.md, "Agents")
    yield from options


def apply_transports(core: TcsCore, action: Action) -> None:
    scen = core.scenario
    if isinstance(action, EndTransports):
        core.sd["ended"] = True
        boats = core.transports.get(transport_land_label(core), [])
        core.note(
            "tcs.transport.assigned",
            "2.1m",
            player="US",
            turn=transport_land_label(core),
            boats=[boat_text(core, b) for b in boats] or ["none"],
        )
    elif isinstance(action, OpenTransport):
        core.transport_open = {"kind": action.kind, "box": action.box, "load": []}
    elif isinstance(action, Load | LoadSteps):
        ob = core.transport_open
        assert ob is not None
        unit = scen.oob.unit(action.unit)
        steps = action.steps if isinstance(action, LoadSteps) else unit.steps
        ob["load"].append([unit.id, steps])
        done = transport_steps(core).get(unit.id, 0)
        core.partial = unit.id if done < unit.steps else None
        if core.partial is not None:
            core.sd["partial_kind"] = ob["kind"]
    elif isinstance(action, CloseBoat):
        if core.transport_open is not None and not core.transport_open["load"]:
            core.sd["cancels"] = core.sd.get("cancels", 0) + 1
        close_transport(core)


def close_transport(core: TcsCore) -> None:
    """The loaded transport joins the next hour's landing; its units are aboard."""
    scen = core.scenario
    ob = core.transport_open
    assert ob is not None
    core.transport_open = None
    load = tuple((u, s) for u, s in ob["load"])
    if not load:
        return
    land = transport_land_label(core)
    bid = next_id(core, f"T{land.split()[0]}.")
    pts = sum(scen.oob.unit(u).type.points * s for u, s in load)
    core.board_transport(land, PlannedBoat(bid, TRANSPORT, ob["kind"], ob["box"], None, load, pts))
    for u, _ in load:
        i = core.unit_index(u)
        core.place(i, ABOARD)
        core.planned_beach[i] = scen.beach.transport_boxes[ob["box"]]


def explain_transports(core: TcsCore, action: Action) -> str:
    if isinstance(action, Load | LoadSteps):
        return explain_load(core, action, "transport")
    return ""
