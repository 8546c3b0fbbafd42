"""D-Day at Omaha Beach: what a choice names and does, told before it is made.

A US attack (US Attack Results Chart): the attackers, attack and defence strengths,
whether the required weapons are there, and the chart's results. No die is rolled
on that chart, so a known defender gives one result for certain; a face-down
defender or depth marker is hidden, and then only the US side's numbers are told.
``names`` puts the attacking unit before the position it attacks.
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction

from omaha.kernel.actions import Action
from omaha.kernel.facts import NO_FACTS, Facts, Names, default_names
from omaha.landing_table import rules
from omaha.landing_table.actions import Attack, Join, Resolve, ResolveHero
from omaha.landing_table.core import LandingTableCore
from omaha.landing_table.procedures import attack as attack_rules


def names(core: LandingTableCore, action: Action, piece_ids: Collection[str] | None) -> Names:
    """The cells and pieces an action names (an attacker before its target)."""
    named = default_names(core, action, piece_ids)
    if isinstance(action, Attack) and len(named.pieces) == 2:
        return Names(named.cells, (action.unit, action.target))
    return named


def attack_facts(core: LandingTableCore, pid: str, attackers: list[str], hero: bool) -> Facts:
    """The numbers and (when the defender is known) the result of an attack on ``pid``."""
    lines = [f"attack on {pid} by {', '.join(attackers)}"]
    gid = core.pos[pid].unit
    if gid is None:
        return Facts(tuple(lines))
    plan = attack_rules.evaluate_attack(core, pid, attackers, hero)
    lines.append(f"attack strength {plan['attack']} ({attack_rules.ATTACK})")
    if not core.ger[gid].revealed:
        return Facts((*lines, "the defender is face down: its defence is hidden"),
                     f"att {plan['attack']}")  # fmt: skip
    verdict = plan["verdict"]
    lines.append(f"defence {plan['defense']} ({gid}, depth marker {plan['column']})")
    lines.append(
        "weapons: required ones present"
        if verdict.ok
        else f"weapons: missing {', '.join(verdict.missing) or 'flanking'}"
    )
    if plan["column"] == "unrevealed":
        return Facts((*lines, "the depth marker is hidden: it shows on attacking"),
                     f"{plan['attack']} v {plan['defense']}+?")  # fmt: skip
    cmp = rules.compare_strengths(plan["attack"], plan["defense"], verdict.ok)
    results = rules.attack_results(verdict.ok, cmp, plan["column"], core.turn)
    text = ", ".join(r.replace("_", " ") for r in results) or "no effect"
    return Facts(tuple(lines), f"{plan['attack']} v {plan['defense']}", ((text, Fraction(1)),))


def facts(core: LandingTableCore, action: Action) -> Facts:
    """What ``action`` does (see the module doc)."""
    if isinstance(action, Attack):
        return attack_facts(core, action.target, [action.unit], False)
    target = core.ctx.get("target") if core.ctx else None
    if target is None or not isinstance(action, (Join, Resolve, ResolveHero)):
        return NO_FACTS
    attackers = list(core.ctx["attackers"])
    if isinstance(action, Join):
        attackers.append(action.unit)
    return attack_facts(core, str(target), attackers, isinstance(action, ResolveHero))
