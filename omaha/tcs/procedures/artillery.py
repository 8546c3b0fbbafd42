"""Artillery missions in the Aircraft and Artillery Phase: US batteries from the
ammunition pool (2.8, 2.9), the destroyer mission (2.6a-2.6d), and the released
German batteries (3.1).

A mission is called on a hex an observer spots; its designator round lands by
one die of direction and one of distance (x1 for guns; destroyers x2, x3 at
night, 2.6b) and becomes the adjustment point; if the observer sees that point
(bursts in the sea are seen, 1.11) a two-dice adjustment roll by its distance
from the target brings the fire for effect onto the target; otherwise the
mission checks fire and its ammunition returns ([op7], reconstructed). The fire
for effect is a concentration (Area A or B, reconstructed; Area C is the LCT(R)s',
2.2b): each hex of it with units rolls the Miller table for its rounds.
Destroyers: from 0940, one mission a turn, 30 rounds of 5-inch as 155mm HE, always
Area A, no friendly unit within 8 hexes of the target, the target seen by an
observer 10 m up anywhere off the north edge, or by an NFST with a working radio;
at night only a hex an illumination round lights (:mod:`omaha.tcs.procedures.night`).
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.kernel.hexes import Hex
from omaha.tcs.actions import EndMissions, Illuminate, Mission, Naval
from omaha.tcs.components.beach import COMPASS
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.procedures.action import sighting_of
from omaha.tcs.procedures.ammo import HE, batteries_with
from omaha.tcs.procedures.combat import he_rounds
from omaha.tcs.procedures.night import fire_illumination, illum_targets
from omaha.tcs.procedures.sight import los, seen_from_the_ships
from omaha.tcs.procedures.trp import trp_active
from omaha.tcs.rules import (
    adjustment_needed,
    concentration_rounds,
    designator,
    naval_designator_multiplier,
)

register_templates(
    {
        "tcs.mission": "{battery} mission on {target}: designator {direction} {distance}, "
        "adjustment point {point}; observer {observer}: {result}",
        "tcs.mission.ffe": "{battery} fires for effect on {target} (Area {area}, {calibre})",
    }
)

NAVAL = "naval"


# ------------------------------------------------------------------ batteries
def us_batteries(core: TcsCore) -> list[tuple[str, str]]:
    """Landed US batteries (formation, calibre) that may fire this turn: guns on the map,
    battery fires of their calibre in the pool (2.8, 2.9)."""
    return batteries_with(core, HE)


def observers(core: TcsCore, side: str, target: int) -> list[int]:
    """Cells from which ``side`` spots the enemy at ``target`` (US leaders observe, 2.3f)."""
    return sighting_of(core, side).observers(target)


def nearest_observer(core: TcsCore, side: str, target: int) -> int | None:
    obs = observers(core, side, target)
    return min(obs, key=lambda c: (core.dist(c, target), c)) if obs else None


def enemy_targets(core: TcsCore, side: str) -> list[int]:
    return sorted(
        c for c, here in core.occupancy().items() if any(core.side(i) != side for i in here)
    )


# ------------------------------------------------------------------ naval (2.6)
def naval_observer(core: TcsCore, target: int) -> int | None:
    """TCS Omaha 2.6c, 2.6d: where the destroyer mission is observed from: an NFST with a
    working radio that spots the target, else -1 for the 10 m observer off the north
    edge when some north edge hex sees it; None when nobody does."""
    for _bn, (uid, status) in sorted(core.nfst.items()):
        i = core.unit_index(uid)
        if (
            status == "working"
            and core.where[i] >= 0
            and sighting_of(core, "US").sees(core.where[i], target)
        ):
            return core.where[i]
    return -1 if seen_from_the_ships(core, target) else None


def naval_available(core: TcsCore) -> bool:
    t = core.scenario.tables
    first = t.naval_first
    return NAVAL not in core.missions and (core.day > 6 or core.turn_time >= first)


def naval_targets(core: TcsCore) -> list[int]:
    """TCS Omaha 2.6c: no friendly unit at or within 8 hexes; seen from the ships or an NFST."""
    return list(_naval_targets(core))


def _naval_targets(core: TcsCore) -> Iterator[int]:
    near = core.scenario.tables.naval_friendly_within
    us = core.cells_of("US")
    dist = core.scenario.beach.dist
    night = core.night
    for c in enemy_targets(core, "US"):
        if night and c not in core.illuminated:  # at night the ships see only lit hexes
            continue
        row = dist[c]
        if any(row[x] <= near for x in us):
            continue
        if naval_observer(core, c) is not None:
            yield c


# ------------------------------------------------------------------ the decisions
def step_us_missions(core: TcsCore) -> bool:
    """US battery and destroyer missions of the Aircraft and Artillery Phase."""
    if not core.started:
        core.started = True
        core.sd = {"ended": False}
    if core.sd["ended"] or not _any_us_mission(core):
        return True
    return core.set_wait(Decision.MISSIONS, "US", "call artillery or destroyer missions")


def _any_us_mission(core: TcsCore) -> bool:
    """Whether :func:`legal_us_missions` offers a mission (the first found is enough)."""
    if us_batteries(core):
        sight = sighting_of(core, "US")
        if any(sight.spotted(c) for c in enemy_targets(core, "US")):
            return True
    if naval_available(core) and next(_naval_targets(core), None) is not None:
        return True
    return core.night and next(illum_targets(core, enemy_targets(core, "US")), None) is not None


def legal_us_missions(core: TcsCore) -> Iterator[Action]:
    found = False
    batteries = us_batteries(core)
    if batteries:
        sight = sighting_of(core, "US")
        targets = [c for c in enemy_targets(core, "US") if sight.spotted(c)]
        for formation, _ in batteries:
            for c in targets:
                found = True
                yield Mission.of(formation, core.label(c))
    if naval_available(core):
        for c in naval_targets(core):
            found = True
            yield Naval.of(core.label(c))
    for c in illum_targets(core, enemy_targets(core, "US")):
        found = True
        yield Illuminate.of(core.label(c))
    if found:
        yield EndMissions.of()


def step_german_missions(core: TcsCore) -> bool:
    """Released German batteries fire in the Aircraft and Artillery Phase (3.1)."""
    if not core.started:
        core.started = True
        core.sd = {"ended": False}
    if core.sd["ended"] or not _any_german_mission(core):
        return True
    return core.set_wait(Decision.MISSIONS, "German", "fire the released batteries")


def _ready_batteries(core: TcsCore) -> list[str]:
    return [b for b, left in sorted(core.batteries.items()) if left > 0 and b not in core.missions]


def _any_german_mission(core: TcsCore) -> bool:
    """Whether :func:`legal_german_missions` offers a mission."""
    if not _ready_batteries(core):
        return False
    sight = sighting_of(core, "German")
    return any(sight.spotted(c) for c in enemy_targets(core, "German"))


def legal_german_missions(core: TcsCore) -> Iterator[Action]:
    ready = _ready_batteries(core)
    if not ready:
        return
    sight = sighting_of(core, "German")
    targets = [c for c in enemy_targets(core, "German") if sight.spotted(c)]
    if not targets:
        return
    for b in ready:
        for c in targets:
            yield Mission.of(b, core.label(c))
    yield EndMissions.of()


def legal_missions(core: TcsCore) -> Iterator[Action]:
    assert core.wait is not None
    if core.wait[1] == "US":
        yield from legal_us_missions(core)
    else:
        yield from legal_german_missions(core)


def apply_missions(core: TcsCore, action: Action) -> None:
    assert core.wait is not None
    side = core.wait[1]
    scen = core.scenario
    if isinstance(action, EndMissions):
        core.sd["ended"] = True
        return
    target = core.cell(action.hex)  # type: ignore[attr-defined]
    if isinstance(action, Illuminate):
        fire_illumination(core, target)
        return
    if isinstance(action, Naval):
        core.missions.add(NAVAL)
        t = scen.tables
        mult = naval_designator_multiplier(core.night, t)
        observer = naval_observer(core, target)
        fire(core, "destroyer", side, target, observer, mult, "A", t.naval_weapon, "2.6b")
        return
    assert isinstance(action, Mission)
    core.missions.add(action.battery)
    if side == "US":
        calibre = dict(us_batteries_all(core))[action.battery]
        core.add_ammo(calibre, -1)
        if trp_active(core, side, target):  # 2.8: no designator round on a TRP
            core.note(
                "tcs.trp.fire",
                "2.8",
                player=side,
                battery=action.battery,
                target=core.label(target),
            )
            fire_for_effect(core, action.battery, side, target, "A", calibre, "2.8")
            return
        done = fire(
            core,
            action.battery,
            side,
            target,
            nearest_observer(core, side, target),
            scen.series.adjust_multiplier,
            "A",
            calibre,
            "2.9",
        )
        if not done:
            core.add_ammo(calibre, 1)
    else:
        b = scen.german.battery(action.battery)
        core.set_battery_fires(b.id, core.batteries[b.id] - 1)
        done = fire(
            core,
            b.id,
            side,
            target,
            nearest_observer(core, side, target),
            scen.series.adjust_multiplier,
            b.concentration,
            b.calibre,
            "3.1",
        )
        if not done:
            core.set_battery_fires(b.id, core.batteries[b.id] + 1)


def us_batteries_all(core: TcsCore) -> list[tuple[str, str]]:
    """Every landed US battery and its calibre (whether or not it fired this turn)."""
    t = core.scenario.tables
    out: dict[str, str] = {}
    for i in core.us_units():
        u = core.unit(i)
        if u.type.kind == "gun" and core.where[i] >= 0:
            row = next((r for r in t.batteries if r.unit in (u.formation, u.battalion)), None)
            if row is not None:
                out[u.formation] = row.calibre
    return sorted(out.items())


def fire(
    core: TcsCore,
    battery: str,
    side: str,
    target: int,
    observer: int | None,
    multiplier: int,
    area: str,
    calibre: str,
    rule: str,
) -> bool:
    """Designator, adjustment and fire for effect; returns False when it checks fire."""
    scen = core.scenario
    board = scen.board
    d1, d2 = core.dice.d6(), core.dice.d6()
    direction, dist = designator(d1, d2, multiplier, scen.tables)
    h = board.hex(target)
    dq, dr = COMPASS[direction]
    point = board.at(Hex(h.q + dq * dist, h.r + dr * dist))
    seen = False
    if point is not None and observer is not None:
        ships = observer == -1
        seen = seen_from_the_ships(core, point) if ships else los(core, observer, point)
    roll: tuple[int, ...] = ()
    result = "checks fire (the observer cannot see the adjustment point)"
    ok = False
    if seen and point is not None:
        need = 2 if point == target else adjustment_needed(core.dist(point, target), scen.series)
        a, b = core.dice.two_d6()
        roll = (a, b)
        ok = a + b >= need
        result = f"adjustment {a + b} (needs {need}): " + (
            "fire for effect" if ok else "checks fire"
        )
    core.note(
        "tcs.mission",
        rule,
        dice=(d1, d2, *roll),
        player=side,
        battery=battery,
        target=core.label(target),
        direction=direction,
        distance=dist,
        point=core.label(point) if point is not None else "off the map",
        observer="the ships"
        if observer == -1
        else (core.label(observer) if observer is not None else "none"),
        result=result,
    )
    if not ok:
        return False
    fire_for_effect(core, battery, side, target, area, calibre, rule)
    return True


def fire_for_effect(
    core: TcsCore, battery: str, side: str, target: int, area: str, calibre: str, rule: str
) -> None:
    """The concentration on ``target``: the Miller table for the rounds of each hex."""
    scen = core.scenario
    board = scen.board
    radius = scen.series.concentrations[area]
    core.note(
        "tcs.mission.ffe",
        rule,
        player=side,
        battery=battery,
        target=core.label(target),
        area=area,
        calibre=calibre,
    )
    bands = scen.series.miller[area]
    for c in board.within(target, radius):
        if not core.units_at(c):
            continue
        tens, units = core.dice.d6(), core.dice.d6()
        rounds = concentration_rounds(10 * tens + units, bands)
        he_rounds(core, c, rounds, calibre, source=f"{battery} ({tens}{units})", rule=rule)
