"""LnL Omaha: what a choice does, told before it is made (``state.facts``).

A fire (LnL Omaha: Fire Combat, Fire Results Table): its firers, fire total, net
column shift and FRT column, and the chance of each result: an action card's value
picks the row, so each result's chance is the share of the cards left to draw
whose value gives it (the deck's composition is open; a d6 in the d6 option). A
close assault likewise on the Close Assault Table. A move step: its cost and the
movement factors left after it (LnL Omaha: Movement, Terrain Effects Chart).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from omaha.kernel.actions import Action
from omaha.kernel.facts import NO_FACTS, Facts, chances_of
from omaha.lnl import rules
from omaha.lnl.actions import (
    Assault,
    Bombard,
    Enter,
    FireWith,
    Move,
    OpFire,
    Resolve,
    Step,
)
from omaha.lnl.core import Attack, LnlCore
from omaha.lnl.procedures import assault as assault_rules
from omaha.lnl.procedures import fire as fire_rules
from omaha.lnl.procedures import movement as move_rules
from omaha.lnl.procedures.losses import result_text

FIRE_ROLL = "LnL Omaha: Fire Results Table"
ASSAULT_ROLL = "LnL Omaha: Close Assault Table"


def card_values(core: LnlCore) -> dict[int, int]:
    """How many of the cards left to draw have each value (1-6): the pile, or the
    discards when the pile is empty (they are reshuffled first); one each for a d6."""
    if core.scen.d6:
        return {v: 1 for v in range(1, 7)}
    deck = core.deck
    cards = deck.top[:1] or deck.deck.pile or deck.deck.discards  # a stacked card comes first
    return dict(Counter(core.scen.all_cards[c].value for c in cards))


def fire_chances(core: LnlCore, col: int) -> tuple[tuple[str, Fraction], ...]:
    """Each FRT result's chance on column ``col`` at the next card drawn."""
    return chances_of(
        (result_text(rules.frt_result(v, col)), n) for v, n in sorted(card_values(core).items())
    )


def assault_chances(core: LnlCore, col: int) -> tuple[tuple[str, Fraction], ...]:
    """Each CAT result's chance on column ``col`` at the next card drawn."""
    return chances_of((rules.cat_result(v, col), n) for v, n in sorted(card_values(core).items()))


def _fire_facts(core: LnlCore, a: Attack) -> Facts:
    """Firers, total, shift and column of attack ``a`` as it stands, with its odds."""
    if a.mode == "assault":
        return _assault_facts(core, a)
    movers = fire_rules.opp_movers(core, a)
    firers = core.ids(a.firers) + ([f"NGFS {a.ngfs} x 6 HE"] if a.ngfs else [])
    firers += ["+6 HE card"] if a.bonus else []
    lines = [f"firers: {', '.join(firers) or 'none yet'}"]
    if a.target < 0:
        return Facts(tuple([*lines, "choose a target next"]))
    targets = fire_rules.targets_in(core, a.side, a.target, a.kind, movers)
    lines.append(f"target: {core.label(a.target)} ({a.kind}): {', '.join(core.ids(targets))}")
    total, shift = fire_rules.numbers(core, a, movers)
    col = rules.frt_final(total, shift)
    lines.append(f"fire total {total}, column shift {shift:+d}")
    if col is None:
        lines.append("no column yet: too weak to fire")
        return Facts(tuple(lines), "no fire")
    lines.append(f"FRT column {rules.frt_label(col)} ({FIRE_ROLL})")
    chances = fire_chances(core, col)
    hit = sum((p for r, p in chances if r != "no effect"), Fraction(0))
    return Facts(tuple(lines), f"col {rules.frt_label(col)} · {float(hit):.0%}", chances)


def _assault_facts(core: LnlCore, a: Attack) -> Facts:
    lines = [f"attackers: {', '.join(core.ids(a.firers)) or 'none yet'}"]
    defenders = core.at(a.target)
    lines.append(f"defenders in {core.label(a.target)}: {', '.join(core.ids(defenders))}")
    if not a.firers:
        return Facts(tuple([*lines, "add attackers next"]))
    att, dfn, shift = assault_rules.assault_numbers(core, a.firers, a.target)
    col = rules.cat_final(rules.cat_position(att, dfn), shift)
    lines.append(f"{att} against {dfn}, column shift {shift:+d}")
    if col is None:
        return Facts(tuple([*lines, "below 1-2: no assault yet"]), "too weak")
    lines.append(f"CAT column {rules.CAT_COLUMNS[col]} ({ASSAULT_ROLL})")
    return Facts(tuple(lines), rules.CAT_COLUMNS[col], assault_chances(core, col))


def _after(core: LnlCore, action: Action) -> Attack | None:
    """The attack being built as it would stand after ``action`` (None: not one)."""
    a = core.attack
    if isinstance(action, FireWith):
        return Attack(core.side, "fire", [core.unit_index(action.unit)])
    if isinstance(action, Bombard):
        return Attack("US", "bombard", [], core.cell_of(action.hex), "both", 1)
    if isinstance(action, OpFire) and core.opp is not None:
        o = core.opp
        return Attack(o.side, "opp", [core.unit_index(action.unit)], o.cell, action.kind)
    if isinstance(action, Assault):
        return Attack(core.side, "assault", [], core.cell_of(action.hex))
    if a is None:
        return None
    b = a.copy()
    if fire_rules.build_attack(core, b, action) or isinstance(action, Resolve):
        return b
    return None


def _step_facts(core: LnlCore, action: Step) -> Facts:
    g = core.group
    if g is None:
        return NO_FACTS
    n = core.cell_of(action.hex)
    eng = move_rules.engineers_help(core, g.units, n)
    costs = {x: move_rules.step_cost(core, x, g.cell, n, eng) or 0 for x in g.units}
    left = min(core.scen.units[x].mf - g.spent[x] - c for x, c in costs.items())
    cost = max(costs.values())
    return Facts(
        (f"cost {cost} MF (LnL Omaha: Terrain Effects Chart)", f"{left} MF left after it"),
        f"{cost} MF",
    )


def facts(core: LnlCore, action: Action) -> Facts:
    """What ``action`` does (see the module doc)."""
    if isinstance(action, Step):
        return _step_facts(core, action)
    if isinstance(action, Move):
        u = core.unit_index(action.unit)
        return Facts((f"{action.unit}: {core.scen.units[u].mf} MF",))
    if isinstance(action, Enter):
        u = core.unit_index(action.unit)
        cost = move_rules.step_cost(core, u, -1, core.cell_of(action.hex), False)
        mf = core.scen.units[u].mf
        return Facts((f"enters for {cost} MF of {mf}",), f"{cost} MF")
    attack = _after(core, action)
    if attack is None:
        return NO_FACTS
    out = _fire_facts(core, attack)
    if isinstance(action, Resolve):
        return out
    prefix = "after this: " if core.attack is not None else ""
    return Facts(tuple(prefix + line if i == 0 else line for i, line in enumerate(out.lines)),
                 out.label, out.chances)  # fmt: skip
