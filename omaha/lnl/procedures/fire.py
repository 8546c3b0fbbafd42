"""Fire combat (LnL Omaha: Fire Combat, Fire Results Table, Naval Gunfire Support).

An attack is put together one decision at a time — a first firer, a target hex
and whether the hard or the soft units in it are attacked, more firers that may
combine, NGFS packets and a card's +6 HE bonus — then resolved with one action
card. Opportunity fire (see :mod:`.opportunity`) builds and resolves its attacks
here too, aimed at the units that just entered a hex; a bombardment is an attack
of NGFS packets alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import attrs

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.lnl import rules
from omaha.lnl.actions import (
    ADD_BONUS,
    ADD_NGFS,
    CANCEL,
    RESOLVE,
    Add,
    AddBonus,
    AddNgfs,
    Bombard,
    Cancel,
    FireWith,
    Resolve,
    Target,
    add,
    bombard,
    fire_with,
    target,
)
from omaha.lnl.core import Attack, LnlCore
from omaha.lnl.procedures.losses import apply_fire_result, result_text

KINDS = ("hard", "soft")
NGFS_PACKET = 6  #: LnL Omaha: Naval Gunfire Support (packets of 6 HE factors)
BONUS_HE = 6  #: the +6 HE action card events


# ----------------------------------------------------------------------------
# Who may fire, and with whom
# ----------------------------------------------------------------------------
def reach(core: LnlCore, u: int, target: int) -> int:
    """How ``u`` may fire at hex ``target``: 0 not at all, 1 full, 2 halved.

    LnL Omaha: Fire Combat, FRT notes (up to twice the printed range at half
    firepower), Mortars (a German mortar may use any German unit's line of sight;
    reading R21 in READINGS.md).
    """
    here = core.where[u]
    t = core.scen.units[u].type
    d = core.T.dist[here][target]
    if d > 2 * t.range or d == 0:
        return 0
    if not core.T.los(here, target) and not (
        t.mortar and spotted(core, core.scen.units[u].side, target)
    ):
        return 0
    return 2 if d > t.range else 1


def spotted(core: LnlCore, side: str, target: int) -> bool:
    """Whether any unit of ``side`` on the map sees ``target`` (a mortar's spotter)."""
    defs = core.scen.units
    los = core.T.los
    return any(los(c, target) for c, xs in core.occ.items() if defs[xs[0]].side == side)


def may_combine(core: LnlCore, units: list[int]) -> bool:
    """LnL Omaha: Fire Combat: who may add their fire together.

    Units of one company combine when stacked or in adjacent hexes; support
    units (armor, engineers, gun batteries) combine with units they are stacked
    with. Reading R22 (READINGS.md): one connected group of the company's hexes.
    """
    if len(units) <= 1:
        return True
    defs = core.scen.units
    for company in sorted({defs[x].company for x in units}):
        members = [x for x in units if defs[x].company == company]
        company_cells = {core.where[x] for x in members}
        ok = all(
            defs[x].company == company or (defs[x].type.support and core.where[x] in company_cells)
            for x in units
        )
        if ok and connected(core, company_cells):
            return True
    return False


def connected(core: LnlCore, cells: set[int]) -> bool:
    """Whether ``cells`` form one group, each next to another."""
    return len(cells) <= 1 or len(component(core, next(iter(cells)), cells)) == len(cells)


def component(core: LnlCore, start: int, cells: set[int]) -> set[int]:
    """The cells of ``cells`` connected to ``start`` through neighbouring cells."""
    return _component(core.T.neighbours, start, cells)


def _component(neighbours: tuple[tuple[int, ...], ...], start: int, cells: set[int]) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        for n in neighbours[c]:
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


# ----------------------------------------------------------------------------
# Targets and factors
# ----------------------------------------------------------------------------
def targets_in(
    core: LnlCore, side: str, cell: int, kind: str, movers: list[int] | None
) -> list[int]:
    """Units of the other side that an attack on ``kind`` in ``cell`` hits.

    Reading R16 (READINGS.md): a result touches only the class attacked; an
    opportunity attack only the units that moved in (LnL Omaha: Opportunity Fire);
    a bombardment ("both") every unit.
    """
    pool = movers if movers is not None else core.at(cell)
    defs = core.scen.units
    if kind == "both":
        return [x for x in pool if defs[x].side != side]
    wanted = kind == "hard"
    hard = core.scen.hard
    return [x for x in pool if hard[x] == wanted and defs[x].side != side]


def factor(core: LnlCore, u: int, kind: str) -> int:
    """HE against soft targets, AP against hard ones (LnL Omaha: Fire Combat)."""
    return core.ap(u) if kind == "hard" else core.he(u)


def firer_reach(core: LnlCore, u: int, side: str, target: int, kind: str, mode: str) -> int:
    """0 if ``u`` may not join an attack on (target, kind), else 1 full / 2 halved.

    LnL Omaha: Fire Combat: units in one hex firing at one target combine
    (reading R17 in READINGS.md: one attack per hex on each target a phase).
    """
    defs = core.scen.units
    if defs[u].side != side or not core.can_fire(u) or factor(core, u, kind) <= 0:
        return 0
    if mode == "fire" and (core.where[u], target, kind) in core.fired_at:
        return 0
    return reach(core, u, target)


def numbers(core: LnlCore, a: Attack, movers: list[int] | None = None) -> tuple[int, int]:
    """(fire total, net column shift) of an attack (LnL Omaha: FRT notes, TEC).

    Right: one if any firer is adjacent, one for opportunity fire. Left: the
    target hex's terrain and fortification, one more if it is attacked across a
    crest by any attacker (see :meth:`MapTables.sheltered`), or by NGFS across a
    crest towards the sea (reading R18 in READINGS.md). For hard targets the
    highest armor rating among them is subtracted from the AP total.
    """
    t = a.target
    dist = core.T.dist
    terms = []
    for f in a.firers:
        here = core.where[f]
        halved = reach(core, f, t) == 2
        terms.append(
            (factor(core, f, a.kind), halved, dist[here][t] == 1, core.T.sheltered(here, t))
        )
    return _numbers(core, a, terms, movers)


def _numbers(
    core: LnlCore,
    a: Attack,
    terms: list[tuple[int, bool, bool, bool]],
    movers: list[int] | None,
    targets: list[int] | None = None,
) -> tuple[int, int]:
    """:func:`numbers` from each firer's (factor, halved, adjacent, across the crest);
    ``targets``: the units the attack hits, if the caller has them already."""
    t = a.target
    parts = [(f, halved) for f, halved, _, _ in terms]
    adjacent = any(term[2] for term in terms)
    shelter = any(term[3] for term in terms) or bool(a.ngfs and core.T.sea_sheltered[t])
    if a.kind == "hard":
        if targets is None:
            targets = targets_in(core, a.side, t, "hard", movers)
        armor = max((core.scen.units[x].type.armor for x in targets), default=0)
        total = rules.fire_total(parts) - armor
    else:
        extra = NGFS_PACKET * a.ngfs + (BONUS_HE if a.bonus else 0)
        total = rules.fire_total([*parts, (extra, False)])
    shift = (1 if adjacent else 0) + (1 if a.mode == "opp" else 0)
    shift -= core.T.terrain_shift(t) + (rules.CREST_SHIFT if shelter else 0)
    return total, shift


def column(core: LnlCore, a: Attack, movers: list[int] | None = None) -> int | None:
    """The FRT column of an attack, or None if it may not be made."""
    if a.target < 0 or (not a.firers and not a.ngfs):
        return None
    if not targets_in(core, a.side, a.target, a.kind, movers):
        return None
    return rules.frt_final(*numbers(core, a, movers))


def plan_column(core: LnlCore, a: Attack) -> int | None:
    """:func:`column` of a fire-phase attack whose firers are all among the fire plan's
    candidates on its target and kind (:func:`fire_candidates`), read from what the
    plan worked out for each (factor, range, adjacency, crest) instead of afresh; kept
    with the plan's hex (:attr:`KeptPlan.columns`) while its candidates stay the same."""
    if a.target < 0 or (not a.firers and not a.ngfs):
        return None
    kept = kept_plan(core, a.side).columns.get((a.target, a.kind)) if a.mode == "fire" else None
    if kept is None:  # not an enemy hex
        return _plan_column(core, a)
    key = (tuple(a.firers), a.ngfs, a.bonus)
    if key in kept:
        return kept[key]
    col = kept[key] = _plan_column(core, a)
    return col


def _plan_column(core: LnlCore, a: Attack) -> int | None:
    """:func:`plan_column` worked out (``a`` has a target and firers or NGFS)."""
    targets = targets_in(core, a.side, a.target, a.kind, None)
    if not targets:
        return None
    terms = fire_terms(core, a.side, a.target, a.kind)
    return rules.frt_final(*_numbers(core, a, [terms[f] for f in a.firers], None, targets))


def fire_terms(
    core: LnlCore, side: str, target: int, kind: str
) -> dict[int, tuple[int, bool, bool, bool]]:
    """Each candidate of :func:`fire_candidates` on (target, kind) with what it adds to an
    attack: (factor, halved, adjacent, firing across the target's crest); kept in ``memo``."""
    key = ("terms", side, target, kind)
    hit = core.memo.get(key)
    if hit is None:
        hit = core.memo[key] = {
            c[0]: (c[2], c[3], c[4], c[5]) for c in fire_candidates(core, side, target, kind)
        }
    return cast(dict[int, tuple[int, bool, bool, bool]], hit)


def ngfs_allowed(a: Attack) -> bool:
    """NGFS joins American high-explosive attacks of the fire phase only.

    LnL Omaha: Naval Gunfire Support; reading R19 (READINGS.md): never an AP
    attack; the packets need neither line of sight nor range.
    """
    return a.side == "US" and a.mode in ("fire", "bombard") and a.kind in ("soft", "both")


# ----------------------------------------------------------------------------
# Fire groups
# ----------------------------------------------------------------------------
def feasible_groups(
    core: LnlCore, side: str, target: int, kind: str, mode: str, movers: list[int] | None
) -> list[list[int]]:
    """The largest legal fire groups on (target, kind) that reach a legal column.

    For each company with units able to fire, each connected cluster of its
    hexes gives one group: its units there plus the support units stacked with
    them. Adding a firer never lowers the total, but one firing across the
    target's crest costs a column, so each cluster is also tried without such
    firers. Any unit of a listed group can lead an attack that is legal.
    """
    if mode == "fire" and movers is None:
        return list(kept_plan(core, side).plan.get((target, kind), ()))
    key = ("groups", side, target, kind, mode, tuple(movers) if movers is not None else None)
    hit = core.memo.get(key)
    if hit is None:
        hit = core.memo[key] = []
        targets = targets_in(core, side, target, kind, movers)
        if targets:
            cands = _candidates(core, side, target, (kind,), mode)[kind]
            hit.extend(_groups(core, side, target, kind, mode, targets, cands))
    return list(hit)


def fire_plan(core: LnlCore, side: str) -> dict[tuple[int, str], list[list[int]]]:
    """Every (target hex, kind) of the fire phase with its feasible groups."""
    return dict(kept_plan(core, side).plan)


def plan_candidates(core: LnlCore, side: str) -> dict[int, tuple[list[Candidate], list[Candidate]]]:
    """For each enemy hex, the units of ``side`` that may join a fire-phase attack on its
    hard and on its soft units (see :func:`_candidates`), worked out in one pass over
    the units that may fire. The lists are shared: not to be changed."""
    return kept_plan(core, side).cands


@attrs.frozen
class KeptPlan:
    """One side's fire plan (:func:`fire_plan`) with the fields it was worked out from.

    Kept in ``LnlCore.fire_plans`` across positions and never changed in place (clones
    share it): :func:`kept_plan`, the one place that replaces it, compares these fields
    with the position's and works out again only the hexes and firers that changed.
    """

    turn: int
    where: tuple[int, ...]
    steps: tuple[int, ...]
    dis: tuple[bool, ...]
    fired: tuple[bool, ...]
    placed: tuple[int, ...]
    fired_at: frozenset[tuple[int, int, str]]
    ngfs: int
    bonus: bool
    #: each enemy hex's candidates on its hard and its soft units (:func:`_plan_candidates`)
    cands: dict[int, tuple[list[Candidate], list[Candidate]]]
    #: each (hex, kind) with feasible groups, hexes in board order, hard before soft
    plan: dict[tuple[int, str], list[list[int]]]
    #: each enemy (hex, kind): the columns :func:`plan_column` worked out, by (firers,
    #: NGFS packets, +6 HE card). Filled as asked and handed on to the next plan for a
    #: hex whose candidates and targets stay the same (what a column reads), so its
    #: entries hold wherever it is found.
    columns: dict[tuple[int, str], dict[tuple[tuple[int, ...], int, bool], int | None]]


def kept_plan(core: LnlCore, side: str) -> KeptPlan:
    """The side's fire plan for this position: the kept one if nothing it reads changed,
    else brought up to date (also kept in ``memo`` for the position)."""
    key = ("plan", side)
    hit = core.memo.get(key)
    if hit is None:
        old = core.fire_plans.get(side)
        hit = core.memo[key] = core.fire_plans[side] = _updated_plan(core, side, old)
    return cast(KeptPlan, hit)


def fresh_plan(core: LnlCore, side: str) -> KeptPlan:
    """The side's fire plan worked out from scratch (what :func:`kept_plan` must equal)."""
    return _updated_plan(core, side, None)


def _updated_plan(core: LnlCore, side: str, old: KeptPlan | None) -> KeptPlan:
    """``old`` brought up to this position, or a plan from scratch (``old`` None).

    What a fire-phase candidate depends on: the firer's hex, steps and markers, the
    turn (landing restrictions), the hexes that already fired at a target (reading
    R17), and which hexes hold enemy units; groups depend on their candidates, the
    targets in the hex, NGFS packets left and the +6 HE card. A firer of ``side`` that
    changed hex can change what a mortar's spotters see: the plan is then redone.
    """
    defs = core.scen.units
    snap = (
        tuple(core.where),
        tuple(core.steps),
        tuple(core.dis),
        tuple(core.fired),
        tuple(core.placed),
    )
    fired_at = frozenset(core.fired_at)
    ngfs, bonus = core.ngfs_left, core.bonus[side]
    cells = enemy_cells(core, side)
    redo: set[int] = set()  # hexes whose candidates are worked out afresh
    changed: set[int] = set()  # units of ``side`` to take out and put back
    if old is not None and old.turn == core.turn:
        before = (old.where, old.steps, old.dis, old.fired, old.placed)
        for was, now in zip(before, snap, strict=True):
            if was != now:
                changed.update(i for i, (a, b) in enumerate(zip(was, now, strict=True)) if a != b)
        for u in list(changed):
            if defs[u].side != side:
                changed.discard(u)
                if old.where[u] != core.where[u]:
                    redo.update((old.where[u], core.where[u]))
            elif old.where[u] != core.where[u]:
                old = None  # a spotter may have moved: redo the plan
                break
        if old is not None:
            redo.update(t for _, t, _ in fired_at ^ old.fired_at)
    if old is None or old.turn != core.turn:
        cands = _plan_candidates(core, side, cells)
        fresh = set(cells)
    else:
        todo = [c for c in cells if c in redo or c not in old.cands]
        cands = _plan_candidates(core, side, todo)
        fresh = set(todo)
        rest = [c for c in cells if c not in fresh]
        movers = [x for x in shooters(core, side) if x in changed]
        back = _plan_candidates(core, side, rest, movers) if movers else {}
        for c in rest:
            hard, soft = old.cands[c]
            if changed:
                add_hard, add_soft = back.get(c, ([], []))
                new_hard = sorted([x for x in hard if x[0] not in changed] + add_hard)
                new_soft = sorted([x for x in soft if x[0] not in changed] + add_soft)
                if new_hard != hard or new_soft != soft:
                    fresh.add(c)
                hard, soft = new_hard, new_soft
            cands[c] = (hard, soft)
        cands = {c: cands[c] for c in cells}
    same_support = old is not None and old.ngfs == ngfs and old.bonus == bonus
    plan: dict[tuple[int, str], list[list[int]]] = {}
    columns: dict[tuple[int, str], dict[tuple[tuple[int, ...], int, bool], int | None]] = {}
    for c in cells:
        for kind, found in zip(KINDS, cands[c], strict=True):
            if old is not None and c not in fresh:
                columns[(c, kind)] = old.columns[(c, kind)]
            else:
                columns[(c, kind)] = {}
            if same_support and c not in fresh:
                assert old is not None
                kept = old.plan.get((c, kind))
                if kept is not None:
                    plan[(c, kind)] = kept
                continue
            units = targets_in(core, side, c, kind, None)
            if units:
                groups = _groups(core, side, c, kind, "fire", units, found)
                if groups:
                    plan[(c, kind)] = groups
    return KeptPlan(core.turn, *snap, fired_at, ngfs, bonus, cands, plan, columns)


def fire_candidates(core: LnlCore, side: str, target: int, kind: str) -> list[Candidate]:
    """The units of ``side`` that may join a fire-phase attack on ``kind`` in ``target``,
    in index order: the fire plan's pass for an enemy hex, else worked out for it alone."""
    cands = plan_candidates(core, side).get(target)
    if cands is None:
        return _candidates(core, side, target, (kind,), "fire")[kind]
    return cands[0] if kind == "hard" else cands[1]


def _plan_candidates(
    core: LnlCore, side: str, cells: list[int], units: list[int] | None = None
) -> dict[int, tuple[list[Candidate], list[Candidate]]]:
    """:func:`_candidates` in the fire phase for every hex of ``cells`` at once, hard and
    soft (one pass over the units that may fire, or over ``units`` of them)."""
    out: dict[int, tuple[list[Candidate], list[Candidate]]] = {c: ([], []) for c in cells}
    wanted = [(c, out[c]) for c in cells]
    defs = core.scen.units
    T = core.T
    n = T.n
    los_known = T.los_known
    fired_at = core.fired_at
    spotters: dict[int, bool] = {}
    for x in shooters(core, side) if units is None else units:
        t = defs[x].type
        here = core.where[x]
        i = 0 if core.steps[x] >= 2 else 1
        ap, he = t.ap[i], t.he[i]
        if ap <= 0 and he <= 0:
            continue
        near = T.dist[here]
        rng = t.range
        base = here * n
        for c, (hard_out, soft_out) in wanted:
            d = near[c]
            if d > 2 * rng or d == 0:
                continue
            a = ap if ap > 0 and (here, c, "hard") not in fired_at else 0
            h = he if he > 0 and (here, c, "soft") not in fired_at else 0
            if not a and not h:
                continue
            seen = los_known[base + c]
            if not (seen == 2 if seen else T.los(here, c)):
                if not t.mortar:
                    continue
                spotted_c = spotters.get(c)
                if spotted_c is None:
                    spotted_c = spotters[c] = spotted(core, side, c)
                if not spotted_c:
                    continue
            halved, adjacent, crest = d > rng, d == 1, T.sheltered(here, c)
            if a:
                hard_out.append((x, here, a, halved, adjacent, crest))
            if h:
                soft_out.append((x, here, h, halved, adjacent, crest))
    return out


def shooters(core: LnlCore, side: str) -> list[int]:
    """Units of ``side`` on the map that may fire now."""
    key = ("shooters", side)
    hit = core.memo.get(key)
    if hit is None:
        hit = core.memo[key] = [x for x in core.units_of(side) if core.can_fire(x)]
    return list(hit)


#: A candidate firer: (unit, its hex, factor, halved, adjacent, firing across the target's
#: crest).
Candidate = tuple[int, int, int, bool, bool, bool]


def _candidates(
    core: LnlCore, side: str, target: int, kinds: tuple[str, ...], mode: str
) -> dict[str, list[Candidate]]:
    """For each kind, the units of ``side`` that may join an attack on it, in index order.

    A unit in reach (:func:`reach`), with a factor against the kind, and (fire
    phase) not from a hex that already fired at it (reading R17).
    """
    hard: list[Candidate] | None = [] if "hard" in kinds else None
    soft: list[Candidate] | None = [] if "soft" in kinds else None
    both: list[Candidate] | None = [] if "both" in kinds else None
    out = {k: v for k, v in (("hard", hard), ("soft", soft), ("both", both)) if v is not None}
    if not kinds:
        return out
    defs = core.scen.units
    T = core.T
    n = T.n
    near = T.dist[target]  # distances are symmetric
    los_known = T.los_known
    where = core.where
    steps = core.steps
    fired_at = core.fired_at if mode == "fire" else ()
    for x in shooters(core, side):
        t = defs[x].type
        here = where[x]
        d = near[here]
        if d > 2 * t.range or d == 0:
            continue
        i = 0 if steps[x] >= 2 else 1
        ap = t.ap[i] if hard is not None and (here, target, "hard") not in fired_at else 0
        he = t.he[i] if soft is not None and (here, target, "soft") not in fired_at else 0
        he_both = t.he[i] if both is not None else 0
        if ap <= 0 and he <= 0 and he_both <= 0:
            continue
        seen = los_known[here * n + target]
        if not (seen == 2 if seen else T.los(here, target)) and not (
            t.mortar and spotted(core, side, target)
        ):
            continue
        halved, adjacent, crest = d > t.range, d == 1, T.sheltered(here, target)
        if ap > 0 and hard is not None:
            hard.append((x, here, ap, halved, adjacent, crest))
        if he > 0 and soft is not None:
            soft.append((x, here, he, halved, adjacent, crest))
        if he_both > 0 and both is not None:
            both.append((x, here, he_both, halved, adjacent, crest))
    return out


def _groups(
    core: LnlCore,
    side: str,
    target: int,
    kind: str,
    mode: str,
    targets: list[int],
    cands: list[Candidate],
) -> list[list[int]]:
    """The feasible groups among the candidates (see :func:`feasible_groups`)."""
    if not cands:
        return []
    defs = core.scen.units
    T = core.T
    # the column of a group, with every NGFS packet and bonus the attack could add
    probe = Attack(side, mode, [], target, kind)
    if ngfs_allowed(probe):
        probe.ngfs = core.ngfs_left
    probe.bonus = core.bonus[side] and kind != "hard"
    if kind == "hard":
        armor = max(defs[x].type.armor for x in targets)
        extra = 0
    else:
        armor = 0
        extra = NGFS_PACKET * probe.ngfs + (BONUS_HE if probe.bonus else 0)
    shift = (1 if mode == "opp" else 0) - T.terrain_shift(target)
    sea = bool(probe.ngfs) and T.sea_sheltered[target]
    key = (kind != "hard", armor, extra, shift, sea, tuple(cands))
    cache = core.groups_cache
    hit = cache.get(key)
    if hit is None:
        if len(cache) >= GROUPS_CACHE_CAP:
            cache.clear()
        hit = cache[key] = _group_up(core, key[0], armor, extra, shift, sea, cands)
    return [list(g) for g in hit]


#: Entries kept in ``LnlCore.groups_cache`` before it starts afresh.
GROUPS_CACHE_CAP = 20_000


def _group_up(
    core: LnlCore,
    he: bool,
    armor: int,
    extra: int,
    base_shift: int,
    sea: bool,
    cands: list[Candidate],
) -> tuple[tuple[int, ...], ...]:
    """The feasible groups among ``cands``: a pure function of its arguments (and of
    the scenario's companies and map), so its results are kept across positions."""
    defs = core.scen.units
    neighbours = core.T.neighbours

    def feasible(group: list[Candidate]) -> bool:
        parts = [(c[2], c[3]) for c in group]
        if he:
            parts.append((extra, False))
        shift = base_shift + (1 if any(c[4] for c in group) else 0)
        if sea or any(c[5] for c in group):
            shift -= rules.CREST_SHIFT
        return rules.frt_final(rules.fire_total(parts) - armor, shift) is not None

    out: list[tuple[int, ...]] = []
    for company in sorted({defs[c[0]].company for c in cands}):
        company_cells = {c[1] for c in cands if defs[c[0]].company == company}
        remaining = set(company_cells)
        while remaining:
            comp = _component(neighbours, min(remaining), company_cells)
            remaining -= comp
            group = [
                c
                for c in cands
                if c[1] in comp and (defs[c[0]].company == company or defs[c[0]].type.support)
            ]
            for variant in (group, [c for c in group if not c[5]]):
                if variant and feasible(variant):
                    out.append(tuple(c[0] for c in variant))
                    break
    return tuple(out)


def enemy_cells(core: LnlCore, side: str) -> list[int]:
    """Hexes holding units of the other side, in board order."""
    return sorted(c for c, xs in core.occ.items() if core.scen.units[xs[0]].side != side)


def fire_leaders(core: LnlCore, side: str) -> list[int]:
    """Units that may open an attack in the fire phase."""
    key = ("leaders", side)
    hit = core.memo.get(key)
    if hit is None:
        lead: set[int] = set()
        for groups in kept_plan(core, side).plan.values():
            for g in groups:
                lead.update(g)
        hit = core.memo[key] = sorted(lead)
    return list(hit)


def fire_targets(core: LnlCore, u: int) -> list[tuple[int, str]]:
    """(hex, kind) that an attack led by ``u`` in the fire phase could make: those of
    the fire plan with a feasible group that holds ``u`` (in board order, hard first)."""
    plan = kept_plan(core, core.scen.units[u].side).plan
    return [where for where, groups in plan.items() if any(u in g for g in groups)]


def bombard_column(core: LnlCore, cell: int, packets: int, bonus: bool) -> int | None:
    """Column of an NGFS bombardment (no ground units) of ``packets`` x 6 HE."""
    return column(core, Attack("US", "bombard", [], cell, "both", packets, bonus))


# ----------------------------------------------------------------------------
# The fire phase's own decisions
# ----------------------------------------------------------------------------
def phase_options(core: LnlCore) -> Iterator[Action]:
    """Open an attack with a unit, or (the Americans) bombard a hex with NGFS alone.

    Reading R34 (READINGS.md): none after too many attacks were cancelled this phase.
    """
    if not core.may_open_attack():
        return
    for u in fire_leaders(core, core.side):
        yield fire_with(core.uid(u))
    if core.side == "US" and core.ngfs_left > 0:
        for c in bombard_targets(core):
            yield bombard(core.label(c))


def bombard_targets(core: LnlCore) -> list[int]:
    """German hexes an NGFS bombardment of every packet left could attack."""
    hit = core.memo.get(("bombard",))
    if hit is None:
        hit = core.memo[("bombard",)] = [
            c
            for c in enemy_cells(core, "US")
            if bombard_column(core, c, core.ngfs_left, core.bonus["US"]) is not None
        ]
    return list(hit)


def open_fire(core: LnlCore, action: Action) -> None:
    """``fire with U``: the first firer of an attack."""
    assert isinstance(action, FireWith)
    core.attack = Attack(core.side, "fire", [core.unit_index(action.unit)])


def open_bombardment(core: LnlCore, action: Action) -> None:
    """``bombard H``: one NGFS packet on the hex, more may be added."""
    assert isinstance(action, Bombard)
    core.attack = Attack("US", "bombard", [], core.cell_of(action.hex), "both", 1)


# ----------------------------------------------------------------------------
# Putting an attack together
# ----------------------------------------------------------------------------
def opp_movers(core: LnlCore, a: Attack) -> list[int] | None:
    """The units an opportunity attack aims at (None for any other attack)."""
    return core.opp.movers if (a.mode == "opp" and core.opp is not None) else None


def attack_options(core: LnlCore) -> Iterator[Action]:
    a = core.attack
    assert a is not None
    movers = opp_movers(core, a)
    if a.target < 0:
        first = a.firers[0]
        for c, kind in fire_targets(core, first):
            yield target(core.label(c), kind)
        yield CANCEL
        return
    if a.mode == "fire":
        joiners = [c[0] for c in fire_candidates(core, a.side, a.target, a.kind)]
    elif a.mode == "bombard":
        joiners = []
    else:
        joiners = [
            x
            for x in shooters(core, a.side)
            if firer_reach(core, x, a.side, a.target, a.kind, a.mode)
        ]
    for x in joiners:
        if x not in a.firers and may_combine(core, [*a.firers, x]):
            yield add(core.uid(x))
    if ngfs_allowed(a) and a.ngfs < core.ngfs_left:
        yield ADD_NGFS
    if core.bonus[a.side] and not a.bonus and a.kind != "hard":
        yield ADD_BONUS
    if column(core, a, movers) is not None:
        yield RESOLVE
    yield CANCEL


def build_attack(core: LnlCore, a: Attack, action: Action) -> bool:
    """Add one building step to attack ``a`` (LnL Omaha: Fire Combat): its target, a
    firer, a naval packet or the bonus card; False if ``action`` is not such a step."""
    if isinstance(action, Target):
        a.target = core.cell_of(action.hex)
        a.kind = action.kind
    elif isinstance(action, Add):
        a.firers.append(core.unit_index(action.unit))
    elif isinstance(action, AddNgfs):
        a.ngfs += 1
    elif isinstance(action, AddBonus):
        a.bonus = True
    else:
        return False
    return True


def apply_attack_action(core: LnlCore, action: Action) -> None:
    a = core.attack
    assert a is not None
    if build_attack(core, a, action):
        return
    if isinstance(action, Cancel):
        core.attack = None
        core.count_cancel()
    elif isinstance(action, Resolve):
        resolve_fire(core, a)
    else:  # pragma: no cover - legality was checked
        raise IllegalAction(f"'{action}' is not part of putting an attack together")


# ----------------------------------------------------------------------------
# Resolution
# ----------------------------------------------------------------------------
def resolve_fire(core: LnlCore, a: Attack) -> None:
    """Draw a card and apply the FRT result (LnL Omaha: Fire Combat, FRT)."""
    movers = opp_movers(core, a)
    total, shift = numbers(core, a, movers)
    col = rules.frt_final(total, shift)
    assert col is not None
    value, card = core.card_value("fire")
    res = rules.frt_result(value, col)
    targets = targets_in(core, a.side, a.target, a.kind, movers)
    for f in a.firers:
        core.set_fired(f, True)
        if a.mode == "fire":
            core.fired_at.add((core.where[f], a.target, a.kind))
    if a.ngfs or a.bonus:
        core.spend_support(a.side, a.ngfs, a.bonus)
    rule = {
        "fire": "LnL Omaha: Fire Combat",
        "opp": "LnL Omaha: Opportunity Fire",
        "bombard": "LnL Omaha: Naval Gunfire Support",
    }[a.mode]
    core.note(
        "lnl.fire",
        rule,
        dice=[value],
        player=a.side,
        how={"fire": "fire", "opp": "opportunity fire", "bombard": "NGFS bombardment"}[a.mode],
        firers=core.ids(a.firers)
        + ([f"NGFS x{a.ngfs * NGFS_PACKET}"] if a.ngfs else [])
        + (["+6 HE card"] if a.bonus else []),
        target=core.label(a.target),
        target_kind=a.kind,
        units=core.ids(targets),
        total=total,
        shift=f"{shift:+d}",
        column=rules.frt_label(col),
        card=card or "d6",
        value=value,
        result=result_text(res),
    )
    core.attack = None
    apply_fire_result(core, a.side, targets, res, rule, converted=a.kind == "both")
    if a.mode == "opp" and core.opp is not None:
        stop_hit_movers(core, targets if res != "NE" else [])
        core.opp = None


def stop_hit_movers(core: LnlCore, hit: list[int]) -> None:
    """Movers hit by a Disrupted or Loss result stop where they are.

    Reading R25 (READINGS.md): movers not hit may move on.
    """
    g = core.group
    if g is None:
        return
    for x in hit:
        if x in g.units:
            g.units.remove(x)
            core.set_moved(x)
    if not g.units:
        core.group = None
