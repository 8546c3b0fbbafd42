"""Landings: the assault waves (2.1a, 2.1i-2.1l) and the transport landings (2.1m),
the placement of what comes ashore, and what landing sets off: op sheets on the
correct sector (2.3a), battery fires (2.9), NFST radios (2.6d), leaders (2.3f)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import LandAt
from omaha.tcs.components.plan import PlannedBoat, PlannedGroup
from omaha.tcs.components.tables import DD
from omaha.tcs.core import LOST, Decision, TcsCore
from omaha.tcs.procedures.ammo import battery_lands
from omaha.tcs.procedures.command import check_task
from omaha.tcs.procedures.nfst import nfst_lands
from omaha.tcs.procedures.runin import BoatOutcome, RunningBoat, resolve_box
from omaha.tcs.rules import (
    majority_hex,
    random_losses,
    spread_pool,
    survival_check,
    survival_key,
)

SUNK, OFF, CHOOSE = "sunk", "off map", "choose"

register_templates(
    {
        "tcs.transport.begin": "transport landing: {boats} boats on the {line} line",
        "tcs.leaders.drowned": "{leader} goes down with boat {boat}",
        "tcs.leaders.land": "{leader} lands in {hex}",
        "tcs.wave.begin": "assault wave {wave}: {boats} boats run in on the {line} tide line "
        "({pillboxes} pill boxes)",
        "tcs.boat.survival": "{boat} ({boat_type}, {box}) survival {roll}{modifier} = {total}: "
        "{result}",
        "tcs.boat.losses": "{boat} sinks: random losses {losses}",
        "tcs.boat.scatter": "{boats} ({box}) scatter to {sector}",
        "tcs.boat.hex": "{boat} lands on hex of {sector} ({line} line): {where}",
        "tcs.boat.choose": "{boat} lands in {hex}",
        "tcs.land.units": "ashore in {hex} ({sector}): {units}",
    }
)


def box_order(core: TcsCore) -> list[str]:
    """The assault beach boxes west to east (the order the boxes land in)."""
    beach = core.scenario.beach
    first = {s.beach: s.cols[0] for s in reversed(beach.sectors)}
    return sorted(beach.assault_boxes, key=lambda b: (first[beach.assault_boxes[b]], b))


def step_assault(core: TcsCore) -> bool:
    """TCS Omaha 2.1a, 2.1i-2.1l: an assault wave lands on 0640, 0740 and 0940.

    Landing is the first activity of the US Action Phase (2.1n). Box by box
    (west to east): survival rolls, scatter to a sector, hex on the tide line
    of the hour; then the US chooses among the hexes of a minor sector (Dog
    Red 1, Fox Red 8) and the wave is placed, in move mode.
    """
    wave = next((w for w in (1, 2, 3) if core.turn_has(f"wave{w}")), None)
    if wave is None or core.plan is None or core.landing is not None:
        return True
    plan = core.plan
    boats = [b for b in plan.boats if b.wave == wave]
    if not boats:
        return True
    hour = core.tide_hour  # the line in force: 0740 lands on the 0700 line (2.1l)
    pools = {g.id: [list(x) for x in g.pool] for g in plan.groups if g.wave == wave and g.pooled}
    fates: dict[str, str] = {}
    choices: dict[str, list[str]] = {}
    core.note(
        "tcs.wave.begin",
        "2.1a",
        player="US",
        wave=wave,
        boats=len(boats),
        line=hour,
        pillboxes=len(core.pillboxes),
    )
    for box in box_order(core):
        in_box = [b for b in boats if b.box == box]
        if not in_box:
            continue
        running = [
            RunningBoat(b.id, b.kind, b.group, survival_line(core, b), b.points) for b in in_box
        ]

        def on_survival(rb: RunningBoat, out: BoatOutcome, box: str = box) -> None:
            log_survival(core, rb, out, box)
            if not out.survived:
                sink(core, rb, pools)

        outcomes = resolve_box(
            box,
            running,
            hour,
            len(core.pillboxes),
            core.dice,
            core.scenario.beach,
            core.scenario.tables,
            on_survival=on_survival,
        )
        log_scatter(core, outcomes, {b.id: b for b in in_box})
        for out in outcomes:
            if not out.survived:
                fates[out.boat] = SUNK
            elif not out.hexes:
                fates[out.boat] = OFF
            elif len(out.hexes) == 1:
                fates[out.boat] = core.label(out.hexes[0])
            else:
                fates[out.boat] = CHOOSE
                choices[out.boat] = [core.label(c) for c in out.hexes]
    core.landing = {
        "kind": "assault",
        "wave": wave,
        "fates": fates,
        "choices": choices,
        "pools": pools,
    }
    return True


def survival_line(core: TcsCore, b: PlannedBoat) -> str:
    """The survival line of a boat (2.1i): a Dukw's depends on its load class."""
    classes = [core.scenario.oob.unit(u).type.load_class for u, _ in b.load]
    return survival_key(b.kind, classes)


def log_survival(core: TcsCore, rb: RunningBoat, out: BoatOutcome, box: str) -> None:
    c = out.check
    core.note(
        "tcs.boat.survival",
        "2.1i",
        dice=out.dice,
        player="US",
        boat=rb.id,
        boat_type=rb.kind,
        box=box,
        roll=c.roll,
        modifier=f"{c.modifier:+d}",
        total=c.total,
        result="survives" if c.survives else "lost",
    )


def sink(core: TcsCore, rb: RunningBoat, pools: dict[str, list[list[Any]]]) -> None:
    """TCS Omaha 2.1i, 2.1j: a lost boat takes its load (a pooled group loses at random)."""
    oob = core.scenario.oob
    if rb.group is not None and rb.group in pools:
        pool = pools[rb.group]
        cup = [(u, s, oob.unit(u).type.points) for u, s in pool if s > 0]
        losses = random_losses(cup, rb.points, core.dice.pick)
        for loss in losses:
            for entry in pool:
                if entry[0] == loss.unit:
                    entry[1] -= loss.steps
        core.note(
            "tcs.boat.losses",
            "2.1j",
            player="US",
            boat=rb.id,
            losses=[
                f"{x.unit} -{x.steps}" + (" (eliminated)" if x.eliminated else "") for x in losses
            ],
        )
    for k, s in enumerate(core.leader_status):
        if s == "aboard" and core.leader_boat[k] == rb.id:
            core.set_leader_status(k, "lost")
            core.note("tcs.leaders.drowned", "2.3f", player="US", leader=core.lid(k), boat=rb.id)


def log_scatter(
    core: TcsCore, outcomes: Sequence[BoatOutcome], boats: dict[str, PlannedBoat]
) -> None:
    seen: set[str] = set()
    for out in outcomes:
        if not out.survived:
            continue
        b = boats[out.boat]
        key = b.group or b.id
        if key in seen:
            continue
        seen.add(key)
        members = [
            o.boat for o in outcomes if o.survived and (boats[o.boat].group or o.boat) == key
        ]
        core.note(
            "tcs.boat.scatter",
            "2.1l",
            dice=(out.scatter or 0,),
            player="US",
            boats=members,
            box=b.box,
            sector=out.sector,
        )
    for out in outcomes:
        if not out.survived:
            continue
        where = ", ".join(core.label(c) for c in out.hexes) or "off the map (removed)"
        core.note(
            "tcs.boat.hex",
            "2.1l",
            dice=(out.hex_roll or 0,),
            player="US",
            boat=out.boat,
            sector=out.sector,
            line=core.tide_hour,
            where=where,
        )


def step_landing_choices(core: TcsCore) -> bool:
    """TCS Omaha 2.1l, 2.1m: the US picks a hex where the rules leave a choice."""
    if core.landing is None:
        return True
    for bid, fate in sorted(core.landing["fates"].items()):
        if fate == CHOOSE:
            return core.set_wait(Decision.LAND, "US", f"choose the landing hex of boat {bid}")
    place_landing(core)
    return True


def legal_land(core: TcsCore) -> Iterator[Action]:
    assert core.landing is not None
    for bid, fate in sorted(core.landing["fates"].items()):
        if fate == CHOOSE:
            for x in core.landing["choices"][bid]:
                yield LandAt.of(bid, x)
            return


def apply_land(core: TcsCore, action: Action) -> None:
    assert core.landing is not None and isinstance(action, LandAt)
    core.landing["fates"][action.boat] = action.hex
    core.note("tcs.boat.choose", "2.1l", player="US", boat=action.boat, hex=action.hex)


def landing_boats(core: TcsCore) -> tuple[list[PlannedBoat], list[PlannedGroup]]:
    assert core.landing is not None
    if core.landing["kind"] == "assault":
        assert core.plan is not None
        w = core.landing["wave"]
        return (
            [b for b in core.plan.boats if b.wave == w],
            [g for g in core.plan.groups if g.wave == w],
        )
    return list(core.transports.get(core.landing["turn"], [])), []


def place_landing(core: TcsCore) -> None:
    """Units of surviving boats go to their hexes, in move mode (2.1, 2.1l)."""
    landing = core.landing
    assert landing is not None
    oob = core.scenario.oob
    boats, groups = landing_boats(core)
    fates: dict[str, str] = landing["fates"]
    pools: dict[str, list[list[Any]]] = landing["pools"]
    parts: dict[str, list[tuple[int, int]]] = {}
    planned: dict[str, int] = {}
    via_dukw: set[str] = set()
    assault = landing["kind"] == "assault"
    for b in boats:
        fate = fates[b.id]
        kind = b.kind
        core.bump(f"boats_sent_{kind}")
        if fate == SUNK:
            core.bump(f"boats_lost_{kind}")
        if kind == DD:
            core.bump("dd_launched")
            if fate not in (SUNK, OFF):
                core.bump("dd_landed")
        for u, s in b.load:
            planned[u] = planned.get(u, 0) + s
            if kind == "DUKW" and oob.unit(u).is_gun:
                core.bump("dukw_guns_loaded", s)
                if fate in (SUNK, OFF):
                    core.bump("dukw_guns_lost", s)
                else:
                    core.bump("dukw_guns_landed", s)
            if fate not in (SUNK, OFF):
                parts.setdefault(u, []).append((core.cell(fate), s))
                if kind == "DUKW":
                    via_dukw.add(u)
    for g in groups:
        if not g.pooled:
            continue
        for u, s in g.pool:
            planned[u] = planned.get(u, 0) + s
        # survivors ride the boats that were not sunk, in plan order; the share of
        # a boat sent off the map (Dog Red, 2.1l) goes with it
        afloat = [x for x in g.boats if fates[x] != SUNK]
        if not afloat:
            continue
        caps = [next(b.points for b in boats if b.id == x) for x in afloat]
        survivors = [(u, s, oob.unit(u).type.points) for u, s in pools[g.id] if s > 0]
        for bid, load in zip(afloat, spread_pool(survivors, caps), strict=True):
            if fates[bid] == OFF:
                continue
            for u, s in load:
                parts.setdefault(u, []).append((core.cell(fates[bid]), s))
    placed: dict[int, list[str]] = {}
    for u in sorted(planned, key=oob.index):
        i = oob.index(u)
        unit = oob.units[i]
        got = sum(s for _, s in parts.get(u, []))
        lost = planned[u] - got
        core.bump("steps_committed", planned[u])
        if landing.get("wave") == 1:
            core.bump("wave1_planned", planned[u])
            core.bump("wave1_landed", got)
        core.bump(f"steps_lost_{unit.type.name}", lost)
        core.bump(f"steps_landed_{unit.type.name}", got)
        if got == 0:
            core.place(i, LOST)
            core.set_steps(i, 0)
            continue
        cell = majority_hex(parts[u])
        core.place(i, cell)
        core.set_steps(i, got)
        core.carried[i] = u in via_dukw and unit.type.move == "tow"
        placed.setdefault(cell, []).append(u + (f" ({got}/{planned[u]})" if lost else ""))
        sector = core.scenario.beach.sector_of(cell)
        if assault and sector is not None:
            if sector.beach == core.planned_beach[i]:
                core.bump("units_correct_beach")
            else:
                core.bump("units_wrong_beach")
        check_task(core, i)
        if unit.is_gun:
            battery_lands(core, unit.id, got)
        nfst_lands(core, unit.id)
    for cell in sorted(placed):
        sector = core.scenario.beach.sector_of(cell)
        core.note(
            "tcs.land.units",
            "2.1l",
            player="US",
            hex=core.label(cell),
            sector=sector.name if sector else "-",
            units=placed[cell],
        )
    for k, st in enumerate(core.leader_status):
        if st == "aboard" and core.leader_boat[k] in fates:
            fate = fates[core.leader_boat[k] or ""]
            if fate == OFF:
                core.set_leader_status(k, "lost")
            elif fate != SUNK:
                core.set_leader_status(k, "map")
                core.set_leader_cell(k, core.cell(fate))
                core.bump("leaders_landed")
                core.note("tcs.leaders.land", "2.3f", player="US", leader=core.lid(k), hex=fate)
    if landing["kind"] == "transport":
        core.land_transports(landing["turn"])
    core.landing = None


def step_transport_landing(core: TcsCore) -> bool:
    """TCS Omaha 2.1m, 2.1i: transports assigned last hour land now, without scatter.

    Each boat rolls for survival (with the pill box modifier); the US picks the
    hex of each survivor along the tide line of any sector of its beach.
    """
    label = core.scenario.turns[core.turn].label
    boats = core.transports.get(label)
    if not boats or core.landing is not None:
        return True
    pools: dict[str, list[list[Any]]] = {}
    fates: dict[str, str] = {}
    choices: dict[str, list[str]] = {}
    beach = core.scenario.beach
    hour = core.tide_hour
    core.note("tcs.transport.begin", "2.1m", player="US", boats=len(boats), line=hour)
    for b in boats:
        d = core.dice.two_d6()
        check = survival_check(
            survival_key(b.kind), d[0] + d[1], len(core.pillboxes), core.scenario.tables
        )
        rb = RunningBoat(b.id, b.kind, None, check.key, b.points)
        log_survival(core, rb, BoatOutcome(b.id, d, check), b.box)
        if not check.survives:
            fates[b.id] = SUNK
            sink(core, rb, pools)
            continue
        fates[b.id] = CHOOSE
        sectors = beach.sectors_of_beach(beach.transport_boxes[b.box])
        choices[b.id] = [core.label(c) for s in sectors for c in beach.sector_line(s, hour)]
    core.landing = {
        "kind": "transport",
        "turn": label,
        "fates": fates,
        "choices": choices,
        "pools": pools,
    }
    return True
