"""The German phase: fire (turns 1-16) and the German Action Summary (turns 17-32).

One fire card a German phase (reconstructed). On turns 1-16 every occupied,
undisrupted position of a colour the card shows fires (:func:`fire`: the
German Fire Chart with its notes, hit limits and selection priorities). From
turn 17 every position of those colours, occupied or not, takes the action the
card's letter gives it on the Action Summary (:func:`act`, one function per
action in :data:`SUMMARY_ACTIONS`). Positions act in file order. A disrupted
German unit neither fires nor acts, and German disruption ends with the phase.
The sub-rules 16.1-16.9 are not in our text: their reconstructions and the
readings of the fire chart are in READINGS.md ("German phase").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from omaha.landing_table import rules
from omaha.landing_table.components.cards import Card
from omaha.landing_table.components.charts import CHARTS, DOTS
from omaha.landing_table.components.positions import Position
from omaha.landing_table.core import ASHORE, LandingTableCore, Phase

FIRE = "DDOB German Fire Chart"
SUMMARY = "DDOB German Action Summary"
ARTILLERY_RANGE = 8  # reconstructed (16.7)

Candidates = list[tuple[tuple[int, int, int], str]]
Effects = dict[str, list[Any]]


# -- phase ---------------------------------------------------------------------------
def begin_phase(core: LandingTableCore) -> None:
    """Draw the phase's fire card and queue the positions of its colours."""
    summary = rules.uses_action_summary(core.turn)
    core.current_phase = Phase.GERMAN_ACTION if summary else Phase.GERMAN_FIRE
    card = core.draw_card()
    core.set_card(card.id)
    core.ctx = {}
    core.set_queue(
        [
            p.id
            for p in core.scen.positions
            if p.colour in card.colours and (summary or core.occupied(p.id))
        ]
    )
    core.note(
        "ddob.german_card",
        SUMMARY if summary else FIRE,
        card=card.describe(),
        colours="/".join(sorted(card.colours)),
        act=f"act on letter {card.action}" if summary else "fire",
        positions=list(core.queue),
    )


def next_position(core: LandingTableCore) -> bool:
    """The next queued position fires or acts; False when none is left."""
    if not core.queue:
        return False
    pid = core.pop_queue()
    card = core.scen.cards[core.card or ""]
    if rules.uses_action_summary(core.turn):
        act(core, pid, card)
    else:
        fire(core, pid, card)
    return True


def end_phase(core: LandingTableCore) -> None:
    """German disruption ends; the first wave's landed steps are counted."""
    for gid, g in core.ger.items():
        if g.disrupted:
            core.own_ger(gid).disrupted = False
    for uid, s in core.us.items():
        if core.unit(uid).first_wave and s.landed_turn == core.turn and s.status == ASHORE:
            core.stats["first_wave_ashore"] += s.steps
    core.set_card(None)


# -- the fire chart --------------------------------------------------------------------
def _firer(core: LandingTableCore, pid: str) -> str:
    g = core.pos[pid].unit
    if g is None:
        return "ambush"
    return "position" if core.ger[g].revealed else "unrevealed"


def _limit(core: LandingTableCore, pid: str) -> int:
    ps = core.pos[pid]
    return rules.hit_limit(core.turn, 1 if ps.unit else 0, 1 if ps.depth else 0)


#: The cause a hit from each dot of a field of fire gives in the log.
_FIRE_WHY = {dot: f"{dot} fire" for dot in DOTS}


def fire(core: LandingTableCore, pid: str, card: Card, firer: str | None = None) -> None:
    """German Fire Chart: one position fires at every US unit in its field of fire."""
    p = core.scen.pos_by_id[pid]
    g = core.pos[pid].unit
    if g is not None and core.ger[g].disrupted:
        core.note("ddob.silent", FIRE, position=pid, why="disrupted")
        return
    mode = firer or _firer(core, pid)
    limit = 1 if mode == "ambush" else _limit(core, pid)
    armour_bonus = card.icon == "armour"
    cands: Candidates = []
    effects: Effects = {}
    labels = core.scen.board.labels
    distances = core.lookup.distances(p.cell)
    fof = p.fof
    by_id = core.scen.us_by_id
    symbols = (card.symbol,)
    # the order of the candidates does not matter: select_hits sorts them
    for cell, uids in core.us_at().items():
        dot = fof.get(cell)
        if dot is None:
            continue
        hex_steps = core.steps_in(cell)
        why, label = _FIRE_WHY[dot], labels[cell]
        for uid in uids:
            u = by_id[uid]
            if u.kind.leader:
                continue
            matches = rules.matches_target(u.symbol, symbols, hex_steps)
            armoured = rules.counts_as_armoured(u.kind.armoured, armour_bonus)
            eff = rules.fire_effect(dot, mode, armoured, matches)
            s = core.us[uid]
            if eff is None or (not eff.lose and s.disrupted):
                continue
            cands.append((rules.selection_key(dot, distances[cell], s.steps), uid))
            effects[uid] = [eff.lose, eff.disrupt, why, label]
    if cands:
        core.note("ddob.fires", FIRE, position=pid, firer=_FIRER_TEXT[mode], limit=limit)
    leader = mode != "ambush" and card.icon == "leader"
    _select(core, pid, cands, effects, limit, FIRE, leader)


def _select(
    core: LandingTableCore,
    pid: str,
    cands: Candidates,
    effects: Effects,
    limit: int,
    rule: str,
    leader: bool,
    stage: str = "units",
) -> None:
    """Hit the selected units; ask the player among units tied at the hit limit."""
    sure, tied, need = rules.select_hits(cands, limit)
    for uid in sure:
        _hit(core, pid, uid, effects[uid], rule, stage)
    ctx = {
        "pos": pid,
        "effects": effects,
        "limit": limit,
        "hits": len(sure),
        "rule": rule,
        "leader": leader,
        "stage": stage,
    }
    if need:
        core.ctx = ctx
        core.decision = {"kind": "hit", "units": list(tied), "need": need}
        return
    _after_hits(core, ctx)


def _after_hits(core: LandingTableCore, ctx: dict[str, Any]) -> None:
    """Once the units are hit: the leader-hit note, if the card calls for it."""
    core.ctx = {}
    if ctx["stage"] == "units" and ctx["leader"] and ctx["hits"] < ctx["limit"]:
        _leader_hit(core, ctx["pos"])


def _leader_hit(core: LandingTableCore, pid: str) -> None:
    """German Fire Chart, note Leader Hits: one leader in the intense or steady field is hit."""
    p = core.scen.pos_by_id[pid]
    board = core.scen.board
    cands: Candidates = []
    effects: Effects = {}
    for cell, uids in sorted(core.us_at().items()):
        dot = p.fof.get(cell)
        if dot not in CHARTS.leader_dots:
            continue
        for uid in uids:
            if core.is_leader(uid):
                key = rules.selection_key(dot, board.distance(p.cell, cell), 1)
                cands.append((key, uid))
                effects[uid] = [True, False, f"{dot} fire", board.labels[cell]]
    if cands:
        _select(core, pid, cands, effects, 1, FIRE + ", Leader Hits", False, "leader")


def _hit(core: LandingTableCore, pid: str, uid: str, eff: list[Any], rule: str, stage: str) -> None:
    lose, disrupt, dot, label = bool(eff[0]), bool(eff[1]), str(eff[2]), str(eff[3])
    why = f"{pid}: {dot} at {label}"
    if stage == "leader":
        core.eliminate(uid, f"leader hit, {why}", rule)
        return
    if lose:
        core.lose_steps(uid, 1, why, rule)
    if disrupt and core.us[uid].status == ASHORE:
        core.disrupt(uid, why, rule)


def choose_hit(core: LandingTableCore, uid: str) -> None:
    """``hit U``: the player picks one of the units tied at the hit limit."""
    d = core.decision
    assert d is not None
    ctx = core.ctx
    _hit(core, str(ctx["pos"]), uid, ctx["effects"][uid], ctx["rule"], ctx["stage"])
    ctx["hits"] += 1
    tied = [u for u in d["units"] if u != uid]
    need = int(d["need"]) - 1
    if need > 0:
        core.decision = {"kind": "hit", "units": tied, "need": need}
        return
    core.decision = None
    _after_hits(core, ctx)


# -- the action summary ------------------------------------------------------------------
def _status(core: LandingTableCore, p: Position) -> str:
    """The Action Summary column; any US counter, a leader too, is a US unit in the field."""
    if core.pos[p.id].unit is None:
        return "unoccupied"
    seen = any(cell in p.fof for cell in core.us_at())
    return "us_in_fof" if seen else "no_us_in_fof"


def _unoccupied_ok(core: LandingTableCore, p: Position) -> bool:
    """German Action Summary: the conditions of the two "unoccupied" columns."""
    if not core.in_communication(p.id):
        return False
    if p.kind == "wn":
        return True
    near = CHARTS.action_params["reinforcement_unoccupied_within"]
    board = core.scen.board
    return any(board.distance(p.cell, c) <= near for c in core.us_at())


def act(core: LandingTableCore, pid: str, card: Card) -> None:
    """German Action Summary: position ``pid`` takes the action of ``card``'s letter."""
    p = core.scen.pos_by_id[pid]
    g = core.pos[pid].unit
    if g is not None and core.ger[g].disrupted:
        core.note("ddob.idle", SUMMARY, position=pid, why="disrupted")
        return
    status = _status(core, p)
    action = rules.german_action(card.action, p.kind, status)
    if status == "unoccupied" and action != "no_action" and not _unoccupied_ok(core, p):
        action = "no_action"
    core.note(
        "ddob.action",
        SUMMARY,
        position=pid,
        status=_STATUS_TEXT[status],
        letter=card.action,
        action=action.replace("_", " "),
    )
    SUMMARY_ACTIONS[action](core, p, card)


def _no_action(core: LandingTableCore, p: Position, card: Card) -> None:
    return


def _fire(core: LandingTableCore, p: Position, card: Card) -> None:
    fire(core, p.id, card)


def _reoccupy(core: LandingTableCore, p: Position, card: Card) -> None:
    """16.1 (reconstructed): the position's own eliminated garrison returns to it."""
    gid = p.garrison
    if gid is None or core.ger[gid].where != "eliminated" or p.cell in core.us_at():
        return
    core.place_german(gid, p.id, revealed=True)
    core.note("ddob.reoccupy", SUMMARY + " (16.1)", unit=gid, position=p.id)


def _resupply_fire(core: LandingTableCore, p: Position, card: Card) -> None:
    """Re-supply: a depth marker (if none) before the position fires."""
    if core.pos[p.id].depth is None and len(core.cups["352"]):
        ps = core.own_pos(p.id)
        ps.depth = core.draw_from("352")
        ps.depth_revealed = False
        core.note("ddob.resupply", SUMMARY, position=p.id)
    fire(core, p.id, card)


def _redeploy(core: LandingTableCore, p: Position, card: Card) -> None:
    """16.3 (reconstructed): to the free reinforcement position in communication whose
    intense and steady fields hold the most US units (READINGS.md)."""
    board = core.scen.board
    best: tuple[int, int, int] | None = None
    target: Position | None = None
    us_cells = core.us_at()
    for i, q in enumerate(core.scen.positions):
        if q.kind != "reinforcement" or q.id == p.id or core.occupied(q.id):
            continue
        if q.cell in us_cells or not core.in_communication(q.id):
            continue
        n = len(core.fof_units(q, ("intense", "steady")))
        if n == 0:
            continue
        key = (-n, board.distance(p.cell, q.cell), i)
        if best is None or key < best:
            best, target = key, q
    if target is not None:
        core.shift_german(p.id, target.id)
        core.note(
            "ddob.redeploy",
            SUMMARY + " (16.3)",
            unit=core.pos[target.id].unit,
            start=p.id,
            end=target.id,
        )


def _reinforce(core: LandingTableCore, p: Position, card: Card) -> None:
    """16.4 (reconstructed): a unit from the Division box, face down, with a depth
    marker; at a non-VP position only if US units are in its intense or steady field."""
    if p.vp == 0 and not core.fof_units(p, ("intense", "steady")):
        return
    if not len(core.cups["division"]):
        return
    gid = core.draw_from("division")
    core.place_german(gid, p.id, revealed=False)
    depth = ""
    if core.pos[p.id].depth is None and len(core.cups["352"]):
        ps = core.own_pos(p.id)
        ps.depth = core.draw_from("352")
        ps.depth_revealed = False
        depth = " with a depth marker"
    core.note(
        "ddob.reinforce", SUMMARY + " (16.4)", unit="a 352nd unit", position=p.id, depth=depth
    )


def _mortar_fire(core: LandingTableCore, p: Position, card: Card) -> None:
    """16.5 (reconstructed reading): units with the card's target symbol within 5 hexes
    (2 or 3 on the plateau) lose a step, up to the hit limit."""
    params = CHARTS.action_params
    reach = int(params["mortar_range"])
    high = int(
        params["mortar_high_ground_wn" if p.kind == "wn" else "mortar_high_ground_reinforcement"]
    )
    board = core.scen.board
    cands: Candidates = []
    effects: Effects = {}
    for cell, uids in sorted(core.us_at().items()):
        d = board.distance(p.cell, cell)
        if d > (high if core.plateau(cell) else reach):
            continue
        hex_steps = core.steps_in(cell)
        for uid in uids:
            u = core.unit(uid)
            if u.kind.leader or not rules.matches_target(u.symbol, (card.symbol,), hex_steps):
                continue
            cands.append(((0, d, -core.us[uid].steps), uid))
            effects[uid] = [True, False, "mortar fire", board.labels[cell]]
    _select(core, p.id, cands, effects, _limit(core, p.id), SUMMARY + " (16.5)", False)


def _patrol_all(core: LandingTableCore, p: Position, card: Card) -> None:
    """Patrol: every US unit in the intense and steady fields is disrupted (no hit limit)."""
    for uid in core.fof_units(p, ("intense", "steady")):
        core.disrupt(uid, f"patrol from {p.id}", SUMMARY)


def _patrol_one(core: LandingTableCore, p: Position, card: Card) -> None:
    """16.6 (reconstructed): one US unit within 3 hexes is disrupted."""
    reach = int(CHARTS.action_params["patrol_range"])
    _one_near(core, p, reach, [False, True], "patrol", SUMMARY + " (16.6)", skip_disrupted=True)


def _artillery_fire(core: LandingTableCore, p: Position, card: Card) -> None:
    """16.7 (reconstructed): a WN with artillery hits one US unit within 8 hexes."""
    g = core.pos[p.id].unit
    if g is None or not core.scen.germans[g].artillery:
        return
    _one_near(core, p, ARTILLERY_RANGE, [True, False], "artillery fire", SUMMARY + " (16.7)")


def _one_near(
    core: LandingTableCore,
    p: Position,
    reach: int,
    eff: list[bool],
    what: str,
    rule: str,
    skip_disrupted: bool = False,
) -> None:
    board = core.scen.board
    cands: Candidates = []
    effects: Effects = {}
    for cell, uids in sorted(core.us_at().items()):
        d = board.distance(p.cell, cell)
        if d > reach:
            continue
        for uid in uids:
            if core.is_leader(uid) or (skip_disrupted and core.us[uid].disrupted):
                continue
            cands.append(((0, d, -core.us[uid].steps), uid))
            effects[uid] = [eff[0], eff[1], what, board.labels[cell]]
    _select(core, p.id, cands, effects, 1, rule, False)


def _advance_target(core: LandingTableCore, p: Position) -> Position | None:
    """16.8 (reconstructed): the arrow's position is free of Germans and of US units
    and in German communication."""
    if p.advance is None:
        return None
    q = core.scen.pos_by_id[p.advance]
    if core.occupied(q.id) or q.cell in core.us_at() or not core.in_communication(q.id):
        return None
    return q


def _advance_or_fire(core: LandingTableCore, p: Position, card: Card) -> None:
    q = _advance_target(core, p)
    if q is None:
        fire(core, p.id, card)
        return
    _advance(core, p, card)


def _advance(core: LandingTableCore, p: Position, card: Card) -> None:
    q = _advance_target(core, p)
    if q is None:
        return
    unit = core.pos[p.id].unit
    core.shift_german(p.id, q.id)
    core.note(
        "ddob.advance",
        SUMMARY + " (16.8)",
        unit=unit if core.ger[str(unit)].revealed else "a 352nd unit",
        start=p.id,
        end=q.id,
    )


def _ambush(core: LandingTableCore, p: Position, card: Card) -> None:
    """16.9: an unoccupied position ambushes one unit (German Fire Chart, ambush column)."""
    fire(core, p.id, card, firer="ambush")


#: What each German Action Summary result does (the chart's action names).
SUMMARY_ACTIONS: dict[str, Callable[[LandingTableCore, Position, Card], None]] = {
    "no_action": _no_action,
    "fire": _fire,
    "reoccupy": _reoccupy,
    "resupply_fire": _resupply_fire,
    "redeploy": _redeploy,
    "reinforce": _reinforce,
    "mortar_fire": _mortar_fire,
    "patrol_all": _patrol_all,
    "patrol_one": _patrol_one,
    "artillery_fire": _artillery_fire,
    "advance_or_fire": _advance_or_fire,
    "advance": _advance,
    "ambush": _ambush,
}

_STATUS_TEXT = {
    "us_in_fof": "occupied, US units in its field of fire",
    "no_us_in_fof": "occupied, no US unit in its field of fire",
    "unoccupied": "unoccupied",
}
_FIRER_TEXT = {
    "position": "WN or revealed position",
    "unrevealed": "unrevealed reinforcement position",
    "ambush": "ambush by an unoccupied position",
}
