"""TCS Omaha: what a choice does, told before it is made (``state.facts``).

A move: its cost in movement points and the allowance (2.3). A fire combat (series
11.0, reconstructed tables; 3.4a-b for rocket pits): the stacks and units firing,
their combined firepower, the modifiers (the target hex's terrain and zone, long
range, the most exposed target's mode and position) and the chance of each Area
Fire Table result, summed exactly over the two dice and each rocket pit's targeting
roll. The numbers are the ones :func:`omaha.tcs.procedures.combat.resolve_fire`
uses. Units the firing side does not see are not named, and a target hex holding
any gives no odds.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from omaha.kernel.actions import Action
from omaha.kernel.facts import NO_FACTS, Facts, chances_of, visible_pieces
from omaha.tcs.actions import MoveTo, Resolve, Target, With, WithAll
from omaha.tcs.core import TcsCore
from omaha.tcs.procedures import action as act
from omaha.tcs.procedures import combat
from omaha.tcs.procedures import movement as moving
from omaha.tcs.rules import area_result, rocket_hits

#: The sums of two dice and how many of the 36 throws give each.
TWO_DICE = {s: 6 - abs(s - 7) for s in range(2, 13)}


def _result(suppressed: bool, steps: int) -> str:
    if steps:
        return f"{steps} step{'s' if steps > 1 else ''} lost"
    return "suppressed" if suppressed else "no effect"


def fire_facts(core: TcsCore, side: str, target: int, stacks: list[str]) -> Facts:
    """The facts of ``side``'s area fire from ``stacks`` (labels) at ``target``."""
    scen = core.scenario
    units, s = scen.units, scen.series
    enemy = [i for i in core.units_at(target) if units[i].side != side]
    area = [i for i in enemy if units[i].type.target == "area" and i not in core.spared]
    label = core.label(target)
    seen = visible_pieces(core)
    shown = [core.uid(i) for i in enemy if core.uid(i) in seen]
    unseen = len(shown) < len(enemy)  # hidden units stay hidden: no odds that tell of them
    lines = [f"target {label}: {', '.join(shown) or 'no enemy seen'}"]
    sight = act.sighting_of(core, side)
    firers = [i for a in stacks for i in act.stack_firers(core, side, core.cell(a), target, sight)]
    if not firers:
        return Facts((*lines, "no stack fires yet: add stacks"))
    direct = [i for i in firers if not units[i].type.indirect]
    rockets = [i for i in firers if units[i].type.kind == "rocket"]
    sure = sum(units[i].area_firepower(core.steps[i]) for i in firers if i not in rockets)
    long_range = any(core.dist(core.where[i], target) * 2 > units[i].type.range for i in direct)
    cells = sorted({core.where[i] for i in direct})
    shingle, forest = combat.direct_modifiers(core, cells, target) if direct else (False, False)
    hex_mod = combat.area_hex_modifier(core, target, forest=forest, shingle=shingle)
    modifier = hex_mod + (s.area_long_range if long_range else 0)
    exposure = max((combat.area_unit_modifier(core, i) for i in area), default=0)
    lines.append(f"firers ({', '.join(stacks)}): {', '.join(core.uid(i) for i in firers)}")
    lines.append(
        f"firepower {sure}"
        + (f" + {len(rockets)} rocket pit(s) if on target (3.4b)" if rockets else "")
    )
    lines.append(
        f"modifiers: hex {hex_mod:+d}"
        + (f", long range {s.area_long_range:+d}" if long_range else "")
        + f", target exposure {exposure:+d} (11.0)"
    )
    if unseen:
        return Facts((*lines, "not all of the target is seen: no odds"), f"fp {sure}")
    if not area:
        return Facts((*lines, "no area target there: no effect"), "no target")
    weights: dict[str, Fraction] = {}
    hit_die = Fraction(sum(1 for d in range(1, 7) if rocket_hits(d, scen.tables)), 6)
    for hits in product((True, False), repeat=len(rockets)):
        p_hits = Fraction(1)
        firepower = sure
        for i, hit in zip(rockets, hits, strict=True):
            p_hits *= hit_die if hit else 1 - hit_die
            firepower += units[i].area_firepower(core.steps[i]) if hit else 0
        for roll, ways in TWO_DICE.items():
            p = p_hits * Fraction(ways, 36)
            res = (
                _result(*area_result(firepower, roll + modifier + exposure, s))
                if firepower > 0
                else "no effect"
            )
            weights[res] = weights.get(res, Fraction(0)) + p
    order = ["3 steps lost", "2 steps lost", "1 step lost", "suppressed", "no effect"]
    chances = chances_of((r, weights[r]) for r in order if r in weights)
    effect = sum((p for r, p in chances if r != "no effect"), Fraction(0))
    return Facts(tuple(lines), f"fp {sure} · {float(effect):.0%}", chances)


def move_facts(core: TcsCore, action: MoveTo) -> Facts:
    """The movement points a move costs and what its movers had (2.3, 2.3d)."""
    pid = core.selected
    if pid is None:
        return NO_FACTS
    end = core.cell(action.hex)
    if pid.startswith(act.STACK):
        start = core.cell(pid[1:])
        cost = act.stack_destinations(core, act.phasing(core), start).get(end)
        movers = act.stack_movers(core, act.phasing(core), start)
        have = min((moving.allowance(core, i) for i in movers), default=0)
    else:
        cost = moving.destinations(core, pid).get(end)
        have = (
            moving.mover(core, pid)[0]
            if moving.is_leader(pid)
            else moving.allowance(core, core.unit_index(pid))
        )
    if cost is None:
        return NO_FACTS
    return Facts((f"costs {cost} MP of {have} (2.3)", f"{have - cost} MP unused after it"),
                 f"{cost} MP")  # fmt: skip


def facts(core: TcsCore, action: Action) -> Facts:
    """What ``action`` does (see the module doc)."""
    side = act.phasing(core)
    if isinstance(action, MoveTo):
        return move_facts(core, action)
    if isinstance(action, Target):
        return fire_facts(core, side, core.cell(action.hex), [])
    if core.combat is None or not isinstance(action, (With, WithAll, Resolve)):
        return NO_FACTS
    side = core.combat["side"]
    stacks = list(core.combat["stacks"])
    if isinstance(action, With):
        stacks.append(action.hex)
    elif isinstance(action, WithAll):
        stacks += [str(a.hex) for a in act.legal_fire(core) if isinstance(a, With)]
    out = fire_facts(core, side, core.cell(core.combat["target"]), stacks)
    if isinstance(action, Resolve):
        return out
    return Facts(("after this:", *out.lines), out.label, out.chances)
