"""US attacks: the US Attack Results Chart with the Weapons Chart and the Terrain
Defense Table (reconstructed procedure: READINGS.md, "attacks").

A unit declares an attack on a German-occupied position in range, units whose
orders are still to come may join (at most three attackers, one Naval Fire
Marker), then the attack is resolved, with the Hero if the player spends one.
Attack strength is the attackers' sum; the defence is the German unit's
strength, plus its depth marker once revealed, each times its Terrain Defense
Table multiplier. A position is attacked once per US action phase.
"""

from __future__ import annotations

from typing import Any

from omaha.landing_table import rules
from omaha.landing_table.components.charts import WeaponsVerdict
from omaha.landing_table.core import ASHORE, LandingTableCore
from omaha.landing_table.procedures.orders import done

ATTACK = "DDOB US Attack Results Chart"


def start(core: LandingTableCore, uid: str, pid: str) -> None:
    """``attack P with U``: the first attacker declares the attack, which reveals a
    face-down defender (reconstructed: READINGS.md, "An attack reveals")."""
    done(core, uid)
    core.declare_attack(pid)
    gid = core.pos[pid].unit
    if gid is not None and not core.ger[gid].revealed:
        core.own_ger(gid).revealed = True
        core.note(
            "ddob.german",
            ATTACK + " (reconstructed: an attack reveals, when declared)",
            unit=gid,
            position=pid,
            what="revealed by the attack",
        )
    core.ctx = {"target": pid, "attackers": [uid]}
    core.decision = {"kind": "attack"}


def join(core: LandingTableCore, uid: str) -> None:
    """``add U``: another unit (or a Naval Fire Marker) joins the attack."""
    done(core, uid)
    core.ctx["attackers"].append(uid)


def attack_plan(core: LandingTableCore, hero: bool = False) -> dict[str, Any]:
    """The numbers of the attack being built, as it would be resolved now."""
    pid = str(core.ctx["target"])
    return evaluate_attack(core, pid, list(core.ctx["attackers"]), hero)


def evaluate_attack(
    core: LandingTableCore, pid: str, attackers: list[str], hero: bool, unit: str | None = None
) -> dict[str, Any]:
    """Strengths, multipliers and the weapons verdict of an attack (no dice, no change)
    on the unit of ``pid`` (or on ``unit``, had it been there).

    Flanking and the hexside benefit follow the attack hexside reading (READINGS.md).
    """
    p = core.scen.pos_by_id[pid]
    ps = core.pos[pid]
    gid = ps.unit if unit is None else unit
    assert gid is not None
    board = core.scen.board
    distances = core.lookup.distances(p.cell)
    keys: set[tuple[int, int]] = set()
    sides: tuple[str, ...] | None = None
    weapons: set[str] = set()
    adjacent: list[str] = []
    attack = 0
    for uid in attackers:
        attack += core.strength(uid)
        if uid.startswith("NF"):
            keys.add(rules.SEA)
            weapons |= core.weapons(uid, 99)
            continue
        cell = core.us[uid].where
        d = distances[cell]
        weapons |= core.weapons(uid, d)
        if d == 1:
            adjacent.append(uid)
        ap = rules.approach(board, cell, p.cell)
        keys.add(ap.key)
        sides = ap.sides
    same = sides if len(keys) == 1 and rules.SEA not in keys else None
    unit_mult, depth_mult = rules.defense_multipliers(board.terrain[p.cell], same)
    g = core.scen.germans[gid]
    verdict = rules.check_weapons(g.requires, weapons, len(keys), hero=hero)
    marker = ps.depth
    marker_value = int(marker) if marker is not None and marker != "TR" else 0
    column = "alone" if marker is None else "revealed" if ps.depth_revealed else "unrevealed"
    unit_def = g.defense * unit_mult
    marker_def = marker_value * depth_mult
    defense = unit_def + (marker_def if column == "revealed" else 0)
    return {
        "attack": attack,
        "defense": defense,
        "unit_def": unit_def,
        "unit_mult": unit_mult,
        "depth_mult": depth_mult,
        "marker_def": marker_def,
        "column": column,
        "verdict": verdict,
        "adjacent": adjacent,
        "directions": len(keys),
        "same_side": same,
        "weapons": sorted(weapons),
    }


def hero_helps(core: LandingTableCore) -> bool:
    """The Hero is offered only when it would meet the one missing requirement (the
    defender is revealed when the attack is declared, so the offer tells nothing new)."""
    if core.heroes <= 0:
        return False
    pid, attackers = str(core.ctx["target"]), list(core.ctx["attackers"])
    if evaluate_attack(core, pid, attackers, False)["verdict"].ok:
        return False
    return bool(evaluate_attack(core, pid, attackers, True)["verdict"].ok)


def resolve(core: LandingTableCore, hero: bool) -> None:
    """``resolve`` / ``resolve with hero``: the US Attack Results Chart."""
    core.decision = None
    pid = str(core.ctx["target"])
    attackers = list(core.ctx["attackers"])
    plan = attack_plan(core, hero)
    ps = core.pos[pid]
    gid = ps.unit
    assert gid is not None
    verdict: WeaponsVerdict = plan["verdict"]
    if verdict.hero_used:
        core.heroes -= 1
        core.stats["heroes_used"] += 1
    core.stats["attacks"] += 1
    cmp = rules.compare_strengths(plan["attack"], plan["defense"], verdict.ok)
    results = rules.attack_results(verdict.ok, cmp, plan["column"], core.turn)
    depth_text = (
        f" + depth {plan['marker_def'] // max(1, plan['depth_mult'])}x{plan['depth_mult']}"
        if plan["column"] == "revealed"
        else ""
    )
    core.note(
        "ddob.attack",
        ATTACK,
        position=pid,
        attackers=attackers,
        attack=plan["attack"],
        defense=plan["defense"],
        unit_def=core.scen.germans[gid].defense,
        unit_mult=plan["unit_mult"],
        depth_text=depth_text,
        weapons="yes" if verdict.ok else f"no (missing {', '.join(verdict.missing) or 'FL'})",
        hero=f" (Hero stands in for {verdict.missing[0]})" if verdict.hero_used else "",
        compare=cmp.replace("_", " "),
        column=plan["column"],
        results=", ".join(r.replace("_", " ") for r in results),
    )
    core.ctx = {}
    _apply_results(core, pid, results, plan)


def _apply_results(
    core: LandingTableCore, pid: str, results: tuple[str, ...], plan: dict[str, Any]
) -> None:
    ps = core.pos[pid]
    for r in results:
        gid = ps.unit
        if r == "reveal_compare":
            marker = ps.depth
            assert marker is not None
            ps = core.own_pos(pid)
            ps.depth_revealed = True
            value = 0 if marker == "TR" else int(marker) * plan["depth_mult"]
            again = rules.reveal_results(marker, plan["attack"], plan["unit_def"], value, core.turn)
            defense = plan["unit_def"] + value
            cmp = (
                "tactical reinforcement"
                if marker == "TR"
                else rules.compare_strengths(plan["attack"], defense, True).replace("_", " ")
            )
            core.note(
                "ddob.reveal",
                ATTACK + ", footnote (1)",
                position=pid,
                marker="Tactical Reinforcement" if marker == "TR" else marker,
                attack=plan["attack"],
                defense=defense,
                compare=cmp,
                results=", ".join(x.replace("_", " ") for x in again),
            )
            _apply_results(core, pid, again, plan)
            return
        if r == "us_disrupted":
            for uid in plan["adjacent"]:
                core.disrupt(uid, f"attack on {pid}", ATTACK)
        elif r == "german_gains_depth":
            _gain_depth(core, pid)
        elif r == "german_unrevealed" and gid is not None:
            if core.scen.germans[gid].division == "352":
                core.own_ger(gid).revealed = False
                core.note("ddob.german", ATTACK, unit=gid, position=pid, what="flipped face down")
        elif r == "german_disrupted" and gid is not None:
            core.own_ger(gid).disrupted = True
            core.note("ddob.german", ATTACK, unit=gid, position=pid, what="disrupted")
        elif r == "german_defeated" and gid is not None:
            defeat(core, pid, ATTACK)
        elif r == "depth_eliminated" and ps.depth is not None:
            ps = core.own_pos(pid)
            ps.depth = None
            ps.depth_revealed = False
            core.note("ddob.german", ATTACK, unit="depth marker", position=pid, what="eliminated")
        elif r == "optional_attrition":
            able = [u for u in plan["adjacent"] if core.us[u].status == ASHORE]
            if ps.depth is not None and able:
                core.ctx = {"target": pid}
                core.decision = {"kind": "attrition", "units": able}


def _gain_depth(core: LandingTableCore, pid: str) -> None:
    """German gains depth: a marker from the unit's division cup, if in communication
    and the position has none (READINGS.md)."""
    ps = core.pos[pid]
    gid = ps.unit
    if gid is None or ps.depth is not None or not core.in_communication(pid):
        return
    cup = core.scen.germans[gid].division
    if not len(core.cups[cup]):
        return
    ps = core.own_pos(pid)
    ps.depth = core.draw_from(cup)
    ps.depth_revealed = False
    core.note("ddob.gains_depth", ATTACK + ", notes", position=pid)


def defeat(core: LandingTableCore, pid: str, rule: str) -> None:
    """German defeated (Attack Results Chart notes): a 352nd unit in communication goes
    back to the Division box, any other is removed from play."""
    gid = core.pos[pid].unit
    assert gid is not None
    g = core.scen.germans[gid]
    p = core.scen.pos_by_id[pid]
    if g.division == "352" and core.in_communication(pid):
        where, what = "division", "defeated: back to the Division reinforcement box"
        core.put_in("division", gid)
    elif p.kind == "wn" and p.garrison == gid:
        where, what = "eliminated", "defeated: removed from play"
    else:
        where, what = "removed", "defeated: removed from play"
    core.remove_german(pid, where, revealed=g.division == "716")
    core.own_pos(pid).defeated = True
    core.stats["german_units_defeated"] += 1
    core.note("ddob.german", rule, unit=gid, position=pid, what=what)


def attrition(core: LandingTableCore, uid: str | None) -> None:
    """``attrition U`` / ``no attrition``: Optional Attrition (a step for the depth marker)."""
    pid = str(core.ctx["target"])
    core.ctx = {}
    core.decision = None
    if uid is None:
        return
    core.note("ddob.attrition", ATTACK + ", Optional Attrition", unit=uid, position=pid)
    core.lose_steps(uid, 1, "optional attrition", ATTACK + ", Optional Attrition")
    ps = core.own_pos(pid)
    ps.depth = None
    ps.depth_revealed = False
