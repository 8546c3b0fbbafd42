"""Fire combat and what follows it: area and point fire, HE rounds, step losses,
morale, SYR retreats, pill box destruction and conversion, assault.

The series tables are reconstructed (:mod:`omaha.tcs.components.series`); the
Omaha rules act on them: defensive zones -2 (1.6), the shingle -2 (1.13),
bocage as forest (1.3), the shingle as the retreat of the beach (1.13a), pill
boxes (3.3), rocket pits (3.4). Every roll is logged with its rule.
"""

from __future__ import annotations

from collections.abc import Iterable

from omaha.kernel.events import register_templates
from omaha.kernel.hexes import Hex
from omaha.tcs.components.beach import COMPASS
from omaha.tcs.core import LOST, Status, TcsCore
from omaha.tcs.procedures.movement import assault_units, enemy_cells, impassable
from omaha.tcs.procedures.sight import behind_bocage, line
from omaha.tcs.procedures.sight import matrices as sight_arrays
from omaha.tcs.rules import (
    area_result,
    artillery_point_kill,
    assault_won,
    at_roll_needed,
    conversion_steps,
    designator,
    morale_result,
    point_kill,
    rocket_hits,
)

register_templates(
    {
        "tcs.fire.area": "{source} fire on {hex}: firepower {firepower}, roll {roll}{modifier}: "
        "{results}",
        "tcs.fire.point": "{source} fires at {target} ({hex}): roll {roll}{modifier} vs "
        "defence {defense}: {result}",
        "tcs.fire.rounds": "{source}: {rounds} rounds of {calibre} in {hex}: {results}",
        "tcs.fire.round_point": "{source}: {rounds} rounds on {target}: roll {roll}{modifier}: "
        "{result}",
        "tcs.morale": "{unit} morale check {roll}{modifier} against {morale}: {result}",
        "tcs.retreat": "{unit} retreats {start} -> {end}",
        "tcs.retreat.none": "{unit} cannot retreat farther from the enemy and is destroyed",
        "tcs.retreat.shingle": "{unit} at the shingle is paralyzed instead of retreating "
        "(company morale {level})",
        "tcs.loss": "{unit} loses {steps} step(s) ({left} left)",
        "tcs.destroyed": "{unit} is destroyed",
        "tcs.pillbox.destroyed": "pill box {unit} destroyed: conversion roll {roll}: {result}",
        "tcs.rocket.roll": "{unit} targeting roll: {result}",
        "tcs.rocket.stray": "{unit}'s rockets stray {direction} {distance} hexes to {hex}",
        "tcs.assault": "{side} assault from {start} on {hex}: {attack} steps against "
        "{defense}, roll {roll}{modifier}: {result}",
        "tcs.at_roll": "AT roll against {target}: {roll} (needs {needed}): {result}",
    }
)

COVER_TERRAIN = frozenset({"woods", "forest", "village", "building"})


def other(side: str) -> str:
    return "German" if side == "US" else "US"


# ------------------------------------------------------------------ modifiers
def area_hex_modifier(core: TcsCore, cell: int, *, forest: bool, shingle: bool) -> int:
    """Series 11.0 terrain (reconstructed) with 1.3 (bocage as forest), 1.6 (defensive
    zone -2 beyond terrain and positions) and 1.13 (the shingle, -2)."""
    scen = core.scenario
    s = scen.series
    m = s.area_terrain.get(scen.board.terrain[cell], 0)
    if forest:
        m = min(m, s.area_terrain.get("forest", m))
    if cell in scen.beach.dz:
        m += scen.tables.dz_modifier
    if cell in scen.beach.improved:
        m += s.area_improved
    if shingle and cell in scen.beach.next_to_shingle:
        m += scen.tables.shingle_fire
    if len(core.units_at(cell)) >= s.area_dense_from:
        m += s.area_dense
    return m


def area_unit_modifier(core: TcsCore, i: int) -> int:
    s = core.scenario.series
    m = 0
    if not core.fire_mode[i]:
        m += s.area_move_mode
    if core.dug_in[i]:
        m += s.area_dug_in
    if i in core.road_moved:
        m += s.area_road_moved
    return m


def point_modifier(core: TcsCore, target: int, cell: int, *, forest: bool, shingle: bool) -> int:
    """Series 12.0 (reconstructed) with 1.3, 1.6 and 1.13 as on the area table."""
    scen = core.scenario
    s = scen.series
    m = s.point_terrain.get(scen.board.terrain[cell], 0)
    if forest:
        m = min(m, s.point_terrain.get("forest", m))
    if cell in scen.beach.dz:
        m += scen.tables.dz_modifier
    if cell in scen.beach.improved:
        m += s.point_improved
    if shingle and cell in scen.beach.next_to_shingle:
        m += scen.tables.shingle_fire
    if not core.fire_mode[target]:
        m += s.point_move_mode
    if target in core.road_moved:
        m += s.point_road_moved
    return m


def _fmt(m: int) -> str:
    return f"{m:+d}" if m else ""


# ------------------------------------------------------------------ losses and morale
def lose_steps(core: TcsCore, i: int, n: int, rule: str) -> int:
    """Unit ``i`` loses ``n`` steps (at most what it has); a pill box destroyed converts
    (3.3f). Returns the steps lost."""
    n = min(n, core.steps[i])
    if n <= 0:
        return 0
    u = core.unit(i)
    core.set_steps(i, core.steps[i] - n)
    core.count_loss(i, n)
    core.touch()
    if core.steps[i] > 0:
        core.note("tcs.loss", rule, player=u.side, unit=u.id, steps=n, left=core.steps[i])
        return n
    cell = core.where[i]
    core.place(i, LOST)
    if u.type.kind == "pillbox":
        convert_destroyed(core, i, cell)
    else:
        core.note("tcs.destroyed", rule, player=u.side, unit=u.id)
    return n


def convert_destroyed(core: TcsCore, i: int, cell: int) -> None:
    """TCS Omaha 3.3f: a destroyed pill box leaves a full squad (1-2), a squad one step
    down (3-4) or nothing (5-6); the squad appears suppressed, is not fired on again
    this phase, and triggers no overwatch."""
    german = core.scenario.german
    die = core.dice.d6()
    steps = conversion_steps(die, core.scenario.tables)
    squad = german.squads[german.pillboxes.index(i)]
    core.bump("pillboxes_destroyed")
    if steps:
        core.place(squad, cell)
        core.set_steps(squad, steps)
        core.bump("german_steps_committed", steps)
        core.set_status(squad, Status.SUPPRESSED)
        core.set_fire_mode(squad, True)
        core.spared.add(squad)
    result = f"{core.uid(squad)} with {steps} step(s), suppressed" if steps else "no squad survives"
    core.note(
        "tcs.pillbox.destroyed",
        "3.3f",
        dice=(die,),
        player="German",
        unit=core.uid(i),
        roll=die,
        result=result,
    )


def suppress(core: TcsCore, i: int, level: Status = Status.SUPPRESSED) -> None:
    if core.status[i] < level:
        core.set_status(i, level)
        core.touch()  # who may fire and move follows the status


def morale_check(core: TcsCore, i: int, lost: int, *, mortar: bool) -> None:
    """Series 17.0 (reconstructed): a unit that lost steps and lives checks morale; its
    company's morale levels (1.13a) and mortar fire (3.4a) make it worse."""
    u = core.unit(i)
    if u.type.morale <= 0 or core.where[i] < 0:
        return
    scen = core.scenario
    s = scen.series
    cell = core.where[i]
    m = s.morale_per_step * lost + s.morale_company * core.company_morale.get(u.formation, 0)
    if mortar:
        m += s.morale_mortar
    if not core.fire_mode[i]:
        m += s.morale_move_mode
    if (
        scen.board.terrain[cell] in COVER_TERRAIN
        or cell in scen.beach.dz
        or cell in scen.beach.improved
    ):
        m += s.morale_cover
    if u.side == "US" and any(core.leader_cell[k] == cell for k in core.living_leaders_on_map()):
        m += s.morale_leader
    d = core.dice.two_d6()
    result = morale_result(d[0] + d[1], u.type.morale, m, s)
    core.note(
        "tcs.morale",
        "17.0",
        dice=d,
        player=u.side,
        unit=u.id,
        roll=d[0] + d[1],
        modifier=_fmt(m),
        morale=u.type.morale,
        result=result,
    )
    if result == "suppressed":
        suppress(core, i)
    elif result == "retreat":
        retreat(core, i, "17.0")
    elif result == "broken":
        core.company_morale[u.formation] = core.company_morale.get(u.formation, 0) + 1
        if lose_steps(core, i, 1, "17.0") and core.where[i] >= 0:
            retreat(core, i, "17.0")


# ------------------------------------------------------------------ retreats (SYR)
def enemy_field(core: TcsCore, side: str) -> bytes:
    """Each cell's hex distance to the nearest unit of ``side``'s enemy (99: none)."""

    def make() -> bytes:
        enemy = sorted(enemy_cells(core, side))
        if not enemy:
            return bytes([99]) * len(core.scenario.beach.dist)
        dist, _ = sight_arrays(core)
        return bytes(dist[enemy].min(axis=0))

    return core.derived(("enemy field", side), make)


def retreat_options(core: TcsCore, i: int, *, voluntary: bool) -> list[int]:
    """Where unit ``i`` may end an SYR: farther from the enemy than it starts, within
    the series' retreat distance (reconstructed); seaward of the shingle a required
    retreat may go toward or along it, a voluntary one never toward it (1.13a)."""
    scen = core.scenario
    beach = scen.beach
    u = core.unit(i)
    start = core.where[i]
    if u.type.move == "none" or (u.type.move == "tow" and not core.carried[i]):
        return []
    far = enemy_field(core, u.side)
    graph = beach.vehicle_graph if u.type.move in ("vehicle", "tow") else beach.foot_graph
    sea = beach.sea(core.tide_hour)
    closed = impassable(core, u.side, vehicle=u.type.vehicle)
    d0 = far[start]
    seaward = start in beach.strand
    reach = {start: 0}
    frontier = [start]
    for depth in range(1, scen.series.retreat_hexes + 1):
        nxt = []
        for a in frontier:
            for b, _ in graph.steps(a):
                if b in reach or b in sea or b in closed:
                    continue
                reach[b] = depth
                nxt.append(b)
        frontier = nxt
    out = []
    for c, _ in reach.items():
        if c == start:
            continue
        farther = far[c] > d0
        shingle = seaward and c in beach.strand_by_shingle
        if voluntary and seaward and _toward_shingle(core, start, c):
            continue
        if farther or (shingle and not voluntary):
            out.append(c)
    return out


def _toward_shingle(core: TcsCore, start: int, end: int) -> bool:
    gap = core.scenario.beach.shingle_gap
    return gap[end] < gap[start]


def retreat(core: TcsCore, i: int, rule: str, *, voluntary: bool = False) -> None:
    """An SYR: the unit is suppressed and must end farther from the enemy, or it is
    destroyed (1.8, 1.9, 1.10, 1.11: forced off the map, over a cliff or slope, into
    the sea). A unit already at the shingle on its seaward side is paralyzed instead
    and its company's morale worsens by one (1.13a)."""
    scen = core.scenario
    beach = scen.beach
    u = core.unit(i)
    start = core.where[i]
    if start < 0:
        return
    suppress(core, i)
    if not voluntary and start in beach.strand_by_shingle:
        level = core.company_morale.get(u.formation, 0) + 1
        core.company_morale[u.formation] = level
        suppress(core, i, Status.PARALYZED)
        core.note("tcs.retreat.shingle", "1.13a", player=u.side, unit=u.id, level=level)
        return
    options = retreat_options(core, i, voluntary=voluntary)
    if not options:
        core.count_loss(i, core.steps[i])
        core.set_steps(i, 0)
        core.place(i, LOST)
        core.note("tcs.retreat.none", rule, player=u.side, unit=u.id)
        return
    far = enemy_field(core, u.side)
    best = min(options, key=lambda c: (-far[c], core.dist(start, c), c))
    core.place(i, best)
    core.set_moving(i)
    core.note(
        "tcs.retreat", rule, player=u.side, unit=u.id, start=core.label(start), end=core.label(best)
    )


# ------------------------------------------------------------------ attacks
def area_attack(
    core: TcsCore,
    cell: int,
    firepower: int,
    modifier: int,
    *,
    targets: Iterable[int],
    mortar: bool,
    source: str,
    rule: str,
) -> None:
    """One roll on the Area Fire Table against the area targets listed in ``cell``
    (series 11.0, reconstructed reading): a result suppresses every one of them; its
    steps are taken one by one from the strongest unit there; a unit that lost steps
    checks morale. The roll takes the most exposed unit's mode and road modifiers, and
    the position modifier only when every unit is dug in."""
    targets = [
        i
        for i in targets
        if core.where[i] == cell and core.unit(i).type.target == "area" and i not in core.spared
    ]
    if not targets or firepower <= 0:
        return
    s = core.scenario.series
    exposure = max(area_unit_modifier(core, i) for i in targets)
    d = core.dice.two_d6()
    roll = d[0] + d[1]
    total = roll + modifier + exposure
    suppressed, steps = area_result(firepower, total, s)
    lost: dict[int, int] = {}
    for _ in range(steps):
        alive = [i for i in targets if core.steps[i] - lost.get(i, 0) > 0]
        if not alive:
            break
        worst = max(alive, key=lambda i: (core.steps[i] - lost.get(i, 0), -i))
        lost[worst] = lost.get(worst, 0) + 1
    for i in targets:
        core.fired_upon.add(i)
    results = [f"{core.uid(i)} -{n}" for i, n in sorted(lost.items())]
    if suppressed and not lost:
        results.append("suppressed")
    core.note(
        "tcs.fire.area",
        rule,
        dice=d,
        source=source,
        hex=core.label(cell),
        firepower=firepower,
        roll=roll,
        modifier=_fmt(modifier + exposure),
        results=", ".join(results) or "no effect",
    )
    if suppressed:
        for i in targets:
            suppress(core, i)
    for i, n in sorted(lost.items()):
        got = lose_steps(core, i, n, rule)
        if core.where[i] >= 0:
            morale_check(core, i, got, mortar=mortar)


def point_attack(
    core: TcsCore, firepower: int, target: int, modifier: int, *, source: str, rule: str
) -> bool:
    """One point weapon at one point target (series 12.0): a kill costs it a step."""
    cell = core.where[target]
    u = core.unit(target)
    d = core.dice.two_d6()
    roll = d[0] + d[1]
    kill = point_kill(roll, firepower, u.type.defense, modifier, core.scenario.series)
    core.fired_upon.add(target)
    core.note(
        "tcs.fire.point",
        rule,
        dice=d,
        source=source,
        target=u.id,
        hex=core.label(cell),
        roll=roll,
        modifier=_fmt(firepower + modifier),
        defense=u.type.defense,
        result="hit" if kill else "miss",
    )
    if kill:
        lose_steps(core, target, 1, rule)
        if core.where[target] >= 0:
            suppress(core, target)
            morale_check(core, target, 1, mortar=False)
    return kill


def he_rounds(
    core: TcsCore, cell: int, rounds: int, calibre: str, *, source: str, rule: str
) -> None:
    """HE rounds impacting a hex (series 18.0): the area targets on the Area Fire Table
    (rounds x the calibre's firepower), each point target on the artillery point table.
    Bursts in the sea hurt nobody (1.11)."""
    scen = core.scenario
    if rounds <= 0 or cell in scen.beach.sea(core.tide_hour):
        return
    here = [i for i in core.units_at(cell) if i not in core.spared]
    if not here:
        return
    area_fp, bonus = scen.series.calibres[calibre]
    area = [i for i in here if core.unit(i).type.target == "area"]
    if area:
        area_attack(
            core,
            cell,
            rounds * area_fp,
            area_hex_modifier(core, cell, forest=False, shingle=False),
            targets=area,
            mortar=False,
            source=source,
            rule=rule,
        )
    for i in [x for x in here if core.unit(x).type.target == "point" and core.where[x] == cell]:
        u = core.unit(i)
        m = point_modifier(core, i, cell, forest=False, shingle=False)
        d = core.dice.two_d6()
        roll = d[0] + d[1]
        kill = artillery_point_kill(roll, rounds, bonus, u.type.defense, m, scen.series)
        core.fired_upon.add(i)
        core.note(
            "tcs.fire.round_point",
            rule,
            dice=d,
            source=source,
            rounds=rounds,
            target=u.id,
            roll=roll,
            modifier=_fmt(rounds + bonus - u.type.defense + m),
            result="destroyed" if kill else "no effect",
        )
        if kill:
            lose_steps(core, i, 1, rule)


# ------------------------------------------------------------------ a fire combat
def direct_modifiers(core: TcsCore, firer_cells: list[int], target: int) -> tuple[bool, bool]:
    """(across the shingle, behind its own bocage) of direct fire from ``firer_cells``
    at ``target`` (1.13, 1.3)."""
    shingle = any(line(core, a, target).shingle for a in firer_cells)
    forest = any(behind_bocage(core, a, target) for a in firer_cells)
    return shingle, forest


def resolve_fire(core: TcsCore, side: str, target: int, firers: list[int], *, rule: str) -> None:
    """A fire combat of ``side``'s area weapons on the enemy in ``target`` (series 11.0):
    firepower combined; mortars and rocket pits with their spotters (3.4a); the shingle
    and bocage modify it only when a direct-fire unit takes part (1.3, 1.13)."""
    scen = core.scenario
    units = scen.units
    direct = [i for i in firers if not units[i].type.indirect]
    indirect = [i for i in firers if units[i].type.indirect]
    firepower = 0
    long_range = False
    for i in direct:
        u = units[i]
        firepower += u.area_firepower(core.steps[i])
        if core.dist(core.where[i], target) * 2 > u.type.range:
            long_range = True
    strays: list[int] = []
    mortar = False
    for i in indirect:
        u = units[i]
        if u.type.kind == "rocket":
            die = core.dice.d6()
            hit = rocket_hits(die, scen.tables)
            core.note(
                "tcs.rocket.roll",
                "3.4b",
                dice=(die,),
                player=u.side,
                unit=u.id,
                result="on target" if hit else "miss",
            )
            if hit:
                firepower += u.area_firepower(core.steps[i])
                mortar = True
            else:
                strays.append(i)
        else:
            firepower += u.area_firepower(core.steps[i])
            mortar = True
    cells = sorted({core.where[i] for i in direct})
    shingle, forest = direct_modifiers(core, cells, target) if direct else (False, False)
    modifier = area_hex_modifier(core, target, forest=forest, shingle=shingle)
    if long_range:
        modifier += scen.series.area_long_range
    names = ", ".join(core.uid(i) for i in firers)
    enemy = [i for i in core.units_at(target) if units[i].side != side]
    area_attack(
        core, target, firepower, modifier, targets=enemy, mortar=mortar, source=names, rule=rule
    )
    for i in firers:
        core.acted.add(i)
        core.revealed.add(i)
        core.set_fire_mode(i, True)
    for i in [x for x in firers if units[x].type.kind == "rocket"]:
        core.place(i, LOST)  # 3.4a: eliminated on firing, hit or miss
        core.bump("rocket_pits_fired")
    for i in strays:
        _stray(core, i, target)


def _stray(core: TcsCore, pit: int, target: int) -> None:
    """TCS Omaha 3.4b: a missing rocket pit's rounds go astray like a designator round
    (one die for direction, one for distance). Reading (the text breaks off): they
    attack whatever stands in the hex they reach with the pit's firepower, friend or
    foe, as mortar fire; off the map or in the sea they are lost."""
    scen = core.scenario
    d1, d2 = core.dice.d6(), core.dice.d6()
    direction, dist = designator(d1, d2, 1, scen.tables)
    h = scen.board.hex(target)
    dq, dr = COMPASS[direction]
    at = scen.board.at(Hex(h.q + dq * dist, h.r + dr * dist))
    u = core.unit(pit)
    core.note(
        "tcs.rocket.stray",
        "3.4b",
        dice=(d1, d2),
        player=u.side,
        unit=u.id,
        direction=direction,
        distance=dist,
        hex=core.label(at) if at is not None else "off the map",
    )
    if at is None or at in scen.beach.sea(core.tide_hour):
        return
    here = core.units_at(at)
    if here:
        area_attack(
            core,
            at,
            u.type.area,
            area_hex_modifier(core, at, forest=False, shingle=False),
            targets=list(here),
            mortar=True,
            source=f"{u.id} (stray)",
            rule="3.4b",
        )


# ------------------------------------------------------------------ assault
def assault(core: TcsCore, side: str, start: int, target: int) -> None:
    """Series 22.0 (reconstructed): the defenders fire first; the surviving attackers
    then compare steps on two dice. Won: each defending area unit loses a step and
    retreats, and the attackers make AT rolls inside the hex against its point
    targets (the only AT rolls that can destroy a pill box, 3.3d); an emptied hex is
    taken. Lost: the attackers are suppressed and the strongest loses a step."""
    scen = core.scenario
    s = scen.series
    units = scen.units
    attackers = assault_units(core, side, start, target)
    defenders = [i for i in core.units_at(target) if units[i].side != side]
    area_def = [
        i
        for i in defenders
        if units[i].type.area > 0 and core.status[i] == Status.OK and not units[i].type.indirect
    ]
    for i in attackers:
        core.acted.add(i)
        core.set_fire_mode(i, True)
    if area_def:
        fp = sum(units[i].area_firepower(core.steps[i]) for i in area_def)
        m = area_hex_modifier(core, start, forest=False, shingle=False) + s.assault_fire_bonus
        area_attack(
            core,
            start,
            fp,
            m,
            targets=attackers,
            mortar=False,
            source=f"defensive fire from {core.label(target)}",
            rule="22.0",
        )
        for i in area_def:
            core.revealed.add(i)
    attackers = [i for i in attackers if core.where[i] == start and core.status[i] == Status.OK]
    defenders = [i for i in defenders if core.where[i] == target]
    if not attackers or not defenders:
        return
    attack = sum(core.steps[i] for i in attackers)
    defense = sum(
        core.steps[i] if units[i].type.target == "area" else s.assault_point_steps
        for i in defenders
    )
    m = s.assault_terrain.get(scen.board.terrain[target], 0)
    if target in scen.beach.improved:
        m += s.assault_improved
    d = core.dice.two_d6()
    roll = d[0] + d[1]
    won = assault_won(roll, attack, defense, m, s)
    core.note(
        "tcs.assault",
        "22.0",
        dice=d,
        player=side,
        side=side,
        start=core.label(start),
        hex=core.label(target),
        attack=attack,
        defense=defense,
        roll=roll,
        modifier=_fmt(m),
        result="the attack wins" if won else "the attack fails",
    )
    for i in defenders:
        core.fired_upon.add(i)
    if not won:
        for i in attackers:
            suppress(core, i)
        strongest = max(attackers, key=lambda x: (core.steps[x], -x))
        lose_steps(core, strongest, 1, "22.0")
        return
    for i in [x for x in defenders if units[x].type.target == "area"]:
        if core.where[i] == target:
            lose_steps(core, i, 1, "22.0")
        if core.where[i] == target:
            retreat(core, i, "22.0")
    infantry = [i for i in attackers if units[i].type.infantry_type]
    for i in [x for x in defenders if units[x].type.target == "point"]:
        if core.where[i] != target or not infantry:
            continue
        need = at_roll_needed(0, len(infantry), s)
        d = core.dice.two_d6()
        kill = d[0] + d[1] >= need
        core.note(
            "tcs.at_roll",
            "16.0, 3.3d",
            dice=d,
            player=side,
            target=core.uid(i),
            roll=d[0] + d[1],
            needed=need,
            result="destroyed" if kill else "no effect",
        )
        if kill:
            lose_steps(core, i, core.steps[i], "16.0")
    if not [i for i in core.units_at(target) if units[i].side != side]:
        for i in attackers:
            if core.where[i] == start:
                core.place(i, target)
                core.moved.add(core.uid(i))
