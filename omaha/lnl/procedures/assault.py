"""Close assault, retreats and advances (LnL Omaha: Close Assault, Close Assault Table).

The attacker picks an adjacent enemy hex, adds unfired units of one company and
the support units stacked with them, and reads the odds of close assault factors
on the Close Assault Table, shifted by the TEC, a disrupted defender and
infantry against armor alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.lnl import rules
from omaha.lnl.actions import (
    CANCEL,
    RESOLVE,
    STAY,
    Add,
    Advance,
    Assault,
    Cancel,
    Resolve,
    Retreat,
    Stay,
    add,
    advance,
    assault,
    retreat,
)
from omaha.lnl.core import AdvanceTask, Attack, LnlCore, RetreatTask


# ----------------------------------------------------------------------------
# Who may assault, and the odds
# ----------------------------------------------------------------------------
def assault_eligible(core: LnlCore, u: int, side: str) -> bool:
    """Unfired, undisrupted, not yet in an assault this phase, not landed this turn.

    LnL Omaha: Close Assault; reading R26 (READINGS.md): no assault in the landing
    turn, one assault a phase, and assaulting places no Fired marker.
    """
    if core.scen.units[u].side != side or core.where[u] < 0:
        return False
    if core.fired[u] or core.dis[u] or core.assaulted[u] or core.ca(u) <= 0:
        return False
    return not core.placement_restricted(u)


def can_assault_into(core: LnlCore, u: int, target: int) -> bool:
    """Adjacent, and across a crest only for Rangers (LnL Omaha: Close Assault)."""
    here = core.where[u]
    if core.T.dist[here][target] != 1:
        return False
    return not core.T.crest(here, target) or core.scen.units[u].type.ranger


def assault_group_ok(core: LnlCore, units: list[int]) -> bool:
    """LnL Omaha: Close Assault: one company, plus support units stacked with it."""
    if len(units) <= 1:
        return True
    defs = core.scen.units
    for company in sorted({defs[x].company for x in units}):
        company_cells = {core.where[x] for x in units if defs[x].company == company}
        if all(
            defs[x].company == company or (defs[x].type.support and core.where[x] in company_cells)
            for x in units
        ):
            return True
    return False


def assault_numbers(core: LnlCore, attackers: list[int], target: int) -> tuple[int, int, int]:
    """(attack factors, defence factors, net shift) (LnL Omaha: CAT notes, TEC).

    Right one if the attackers include infantry and the defenders are armor
    with no infantry (reading R27 in READINGS.md), right two if any defender is
    disrupted; left for the hex's terrain and fortification, and one if any
    attacker is across a crest.
    """
    defs = core.scen.units
    defenders = core.at(target)
    att = sum(core.ca(x) for x in attackers)
    dfn = sum(core.ca(x) for x in defenders)
    shift = 0
    if any(defs[x].infantry for x in attackers) and all(defs[x].hard for x in defenders):
        shift += 1
    if any(core.dis[x] for x in defenders):
        shift += 2
    shift -= core.T.terrain_shift(target)
    if any(core.T.crest(core.where[x], target) for x in attackers):
        shift -= rules.CREST_SHIFT
    return att, dfn, shift


def assault_column(core: LnlCore, attackers: list[int], target: int) -> int | None:
    if not attackers or not core.at(target):
        return None
    att, dfn, shift = assault_numbers(core, attackers, target)
    return rules.cat_final(rules.cat_position(att, dfn), shift)


def assault_candidates(core: LnlCore, side: str, target: int) -> list[int]:
    return [
        x
        for x in core.units_of(side)
        if assault_eligible(core, x, side) and can_assault_into(core, x, target)
    ]


def best_group(core: LnlCore, side: str, target: int) -> tuple[int | None, list[int]]:
    """The company group (with its stacked support) giving the best CAT column,
    and that column (None: no assault possible)."""
    return _best_group(core, assault_candidates(core, side, target), target)


def _best_group(core: LnlCore, cands: list[int], target: int) -> tuple[int | None, list[int]]:
    defs = core.scen.units
    best: tuple[int | None, list[int]] = (None, [])
    for company in sorted({defs[x].company for x in cands}):
        company_cells = {core.where[x] for x in cands if defs[x].company == company}
        group = [
            x
            for x in cands
            if defs[x].company == company
            or (defs[x].type.support and core.where[x] in company_cells)
        ]
        col = assault_column(core, group, target)
        if col is not None and (best[0] is None or col > best[0]):
            best = (col, group)
    return best


def best_assault(core: LnlCore, side: str, target: int) -> int | None:
    """The best CAT column ``side`` can reach against ``target`` (None: none)."""
    return core.cached(("best assault", side, target), lambda: best_group(core, side, target)[0])


def assault_targets(core: LnlCore, side: str) -> list[int]:
    """Enemy hexes ``side`` may close assault now, in board order."""
    key = ("assault targets", side)
    hit = core.memo.get(key)
    if hit is None:
        hit = core.memo[key] = []
        eligible = [x for x in core.units_of(side) if assault_eligible(core, x, side)]
        defs = core.scen.units
        for c in sorted(core.occ) if eligible else ():
            if defs[core.occ[c][0]].side == side:
                continue
            cands = [x for x in eligible if can_assault_into(core, x, c)]
            if cands and _best_group(core, cands, c)[0] is not None:
                hit.append(c)
    return list(hit)


# ----------------------------------------------------------------------------
# The close assault phase's own decisions
# ----------------------------------------------------------------------------
def phase_options(core: LnlCore) -> Iterator[Action]:
    """Close assault a hex (none after too many were cancelled: reading R34)."""
    if not core.may_open_attack():
        return
    for c in assault_targets(core, core.side):
        yield assault(core.label(c))


def open_assault(core: LnlCore, action: Action) -> None:
    """``assault H``: attackers are added next."""
    assert isinstance(action, Assault)
    core.attack = Attack(core.side, "assault", [], core.cell_of(action.hex))


def assault_options(core: LnlCore) -> Iterator[Action]:
    a = core.attack
    assert a is not None and a.mode == "assault"
    for x in assault_candidates(core, a.side, a.target):
        if x not in a.firers and assault_group_ok(core, [*a.firers, x]):
            yield add(core.uid(x))
    if assault_column(core, a.firers, a.target) is not None:
        yield RESOLVE
    yield CANCEL


def apply_assault_action(core: LnlCore, action: Action) -> None:
    a = core.attack
    assert a is not None
    if isinstance(action, Add):
        a.firers.append(core.unit_index(action.unit))
    elif isinstance(action, Cancel):
        core.attack = None
        core.count_cancel()
    elif isinstance(action, Resolve):
        resolve_assault(core, a)
    else:  # pragma: no cover
        raise IllegalAction(f"'{action}' is not part of a close assault")


def resolve_assault(core: LnlCore, a: Attack) -> None:
    """Draw a card and apply the CAT result (LnL Omaha: Close Assault)."""
    att, dfn, shift = assault_numbers(core, a.firers, a.target)
    col = rules.cat_final(rules.cat_position(att, dfn), shift)
    assert col is not None
    value, card = core.card_value("assault")
    res = rules.cat_result(value, col)
    defenders = list(core.at(a.target))
    rule = "LnL Omaha: Close Assault"
    core.note(
        "lnl.assault",
        rule,
        dice=[value],
        player=a.side,
        attackers=core.ids(a.firers),
        target=core.label(a.target),
        defenders=core.ids(defenders),
        att=att,
        dfn=dfn,
        shift=f"{shift:+d}",
        column=rules.CAT_COLUMNS[col],
        card=card or "d6",
        value=value,
        result=res,
    )
    core.attack = None
    for x in a.firers:
        core.set_assaulted(x)
    dside = core.scen.units[defenders[0]].side
    if res == "DR":
        for x in defenders:
            core.lose_step(x, rule + " (DR)", "close assault")
        survivors = [x for x in defenders if core.where[x] >= 0]
        if survivors:
            core.retreat = RetreatTask(dside, survivors)
        core.advance = AdvanceTask(a.side, list(a.firers), a.target)
    elif res == "DElim":
        for x in defenders:
            core.eliminate(x, rule + " (DElim)", "close assault")
        core.advance = AdvanceTask(a.side, list(a.firers), a.target)
    elif res == "AR":
        for x in a.firers:
            core.lose_step(x, rule + " (AR)", "close assault")
        survivors = [x for x in a.firers if core.where[x] >= 0]
        if survivors:
            core.retreat = RetreatTask(a.side, survivors)
    elif res == "AElim":
        for x in a.firers:
            core.eliminate(x, rule + " (AElim)", "close assault")
    settle_retreat(core)
    settle_advance(core)


# ----------------------------------------------------------------------------
# Retreat and advance
# ----------------------------------------------------------------------------
def retreat_hexes(core: LnlCore, u: int) -> list[int]:
    """Where a unit may retreat one hex (LnL Omaha: Close Assault, DR and AR).

    Not into an enemy hex, not next to an undisrupted enemy unit, not where the
    terrain (a crest for a non-Ranger, the sea) bars it, not over-stacked.
    Reading R30 (READINGS.md): no retreat without a movement factor; one unit
    at a time, each to its own hex.
    """
    unit = core.scen.units[u]
    here = core.where[u]
    if unit.mf <= 0:
        return []
    out = []
    for n in core.T.neighbours[here]:
        if not core.T.land[n] or core.enemy_at(n, unit.side):
            continue
        if core.T.crest(here, n) and not unit.type.ranger:
            continue
        if not core.room_for(n, [u]):
            continue
        if core.undisrupted_enemy_adjacent(n, unit.side):
            continue
        out.append(n)
    return out


def settle_retreat(core: LnlCore) -> None:
    """Eliminate retreating units with nowhere to go; stop at a real choice."""
    r = core.retreat
    while r is not None and r.queue:
        u = r.queue[0]
        if core.where[u] < 0:
            r.queue.pop(0)
            continue
        if retreat_hexes(core, u):
            return
        r.queue.pop(0)
        core.eliminate(u, "LnL Omaha: Close Assault (no retreat)", "could not retreat")
    core.retreat = None


def retreat_options(core: LnlCore) -> Iterator[Action]:
    r = core.retreat
    assert r is not None
    u = r.queue[0]
    for n in retreat_hexes(core, u):
        yield retreat(core.uid(u), core.label(n))


def apply_retreat(core: LnlCore, action: Action) -> None:
    assert isinstance(action, Retreat)
    r = core.retreat
    assert r is not None
    u = r.queue.pop(0)
    start = core.where[u]
    dest = core.cell_of(action.hex)
    core.put(u, dest)
    core.note(
        "lnl.retreat",
        "LnL Omaha: Close Assault",
        player=r.side,
        unit=core.uid(u),
        start=core.label(start),
        end=action.hex,
    )
    settle_retreat(core)
    settle_advance(core)


def advance_units(core: LnlCore) -> list[int]:
    adv = core.advance
    if adv is None or core.enemy_at(adv.cell, adv.side):
        return []
    out = []
    for x in adv.units:
        if core.where[x] < 0 or core.where[x] == adv.cell or core.scen.units[x].mf <= 0:
            continue
        if not can_assault_into(core, x, adv.cell) or not core.T.land[adv.cell]:
            continue
        if core.room_for(adv.cell, [x]):
            out.append(x)
    return out


def settle_advance(core: LnlCore) -> None:
    if core.advance is not None and core.retreat is None and not advance_units(core):
        core.advance = None


def advance_options(core: LnlCore) -> Iterator[Action]:
    yield STAY
    for x in advance_units(core):
        yield advance(core.uid(x))


def apply_advance(core: LnlCore, action: Action) -> None:
    """The attackers may occupy the hex they emptied (LnL Omaha: Close Assault).

    Reading R31 (READINGS.md): any of the attackers, one at a time.
    """
    adv = core.advance
    assert adv is not None
    if isinstance(action, Stay):
        core.advance = None
        return
    assert isinstance(action, Advance)
    u = core.unit_index(action.unit)
    start = core.where[u]
    core.put(u, adv.cell)
    core.note(
        "lnl.advance",
        "LnL Omaha: Close Assault",
        player=adv.side,
        unit=action.unit,
        start=core.label(start),
        end=core.label(adv.cell),
    )
    settle_advance(core)
