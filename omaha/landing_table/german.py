"""The German phase: fire (turns 1-16) and the German Action Summary (turns 17-32).

One fire card is drawn each German phase (reconstructed). On turns 1-16 every
occupied, undisrupted position of a colour the card shows fires
(:meth:`GermanMixin._fire`: the German Fire Chart with its notes, hit limits and
selection priorities). From turn 17 every position of those colours, occupied
or not, takes the action the card's letter gives it on the German Action
Summary (:func:`rules.german_action`). Positions act in the order of the
positions file (west to east, WN before reinforcement positions). A disrupted
German unit neither fires nor acts, and every German disruption ends with the
phase (reconstructed: a disruption silences one German phase).

The sub-rules the Action Summary cites by number (16.1-16.9) are not in the
text we have; their reconstructions are stated on each method. Readings:

* A "hit" by mortar or artillery fire is the loss of a step; targets follow the
  fire chart's selection priorities (closest, most steps, player choice) and
  the position's hit limit. Mortar fire counts the concentrated-target note.
* "On high ground" (mortar fire) means on the plateau above the bluff (rows A-F).
* Leaders (HQs and generals) are not hit by the chart's unit results, only by
  the leader-hit note (a leader hit eliminates the leader).
* A result that only disrupts has no effect on an already disrupted unit, and
  such a unit is not selected (it does not use up the hit limit).
* An ambush hits at most one unit whatever the position's (empty) hit limit.
"""

from __future__ import annotations

from typing import Any

from omaha.landing_table import rules
from omaha.landing_table.core import Core
from omaha.landing_table.scenario import Card, Position

FIRE = "DDOB German Fire Chart"
SUMMARY = "DDOB German Action Summary"
ARTILLERY_RANGE = 8  # reconstructed (16.7)


class GermanMixin(Core):
    # -- phase ---------------------------------------------------------------------
    def _begin_german(self) -> None:
        summary = rules.uses_action_summary(self.turn)
        self._phase = "german action" if summary else "german fire"
        card = self.draw_card()
        self.card = card.id
        self.ctx = {}
        self.queue = [
            p.id
            for p in self.scen.positions
            if p.colour in card.colours and (summary or self.occupied(p.id))
        ]
        self.note(
            "ddob.german_card",
            SUMMARY if summary else FIRE,
            card=card.describe(),
            colours="/".join(sorted(card.colours)),
            act=f"act on letter {card.action}" if summary else "fire",
            positions=list(self.queue),
        )

    def _german_step(self) -> bool:
        if not self.queue:
            return False
        pid = self.queue.pop(0)
        card = self.scen.cards[self.card or ""]
        if rules.uses_action_summary(self.turn):
            self._act(pid, card)
        else:
            self._fire(pid, card)
        return True

    def _end_german(self) -> None:
        for g in self.ger.values():
            g.disrupted = False
        for uid, s in self.us.items():
            if self.unit(uid).first_wave and s.landed_turn == self.turn and s.status == "ashore":
                self.stats["first_wave_ashore"] += s.steps
        self.card = None

    # -- the fire chart ---------------------------------------------------------------
    def _firer(self, pid: str) -> str:
        g = self.pos[pid].unit
        if g is None:
            return "ambush"
        return "position" if self.ger[g].revealed else "unrevealed"

    def _limit(self, pid: str) -> int:
        ps = self.pos[pid]
        return rules.hit_limit(self.turn, 1 if ps.unit else 0, 1 if ps.depth else 0)

    def _fire(self, pid: str, card: Card, firer: str | None = None) -> None:
        """German Fire Chart: one position fires at every US unit in its field of fire."""
        p = self.scen.pos_by_id[pid]
        g = self.pos[pid].unit
        if g is not None and self.ger[g].disrupted:
            self.note("ddob.silent", FIRE, position=pid, why="disrupted")
            return
        mode = firer or self._firer(pid)
        limit = 1 if mode == "ambush" else self._limit(pid)
        armour_bonus = card.icon == "armour"
        cands: list[tuple[tuple[int, int, int], str]] = []
        effects: dict[str, list[Any]] = {}
        board = self.scen.board
        for cell, uids in sorted(self.us_at().items()):
            dot = p.fof.get(cell)
            if dot is None:
                continue
            hex_steps = self.steps_in(cell)
            for uid in uids:
                u = self.unit(uid)
                if u.kind.leader:
                    continue
                matches = rules.matches_target(u.symbol, (card.symbol,), hex_steps)
                armoured = rules.counts_as_armoured(u.kind.armoured, armour_bonus)
                eff = rules.fire_effect(dot, mode, armoured, matches)
                if eff is None or (not eff.lose and self.us[uid].disrupted):
                    continue
                steps = self.us[uid].steps
                cands.append((rules.selection_key(dot, board.distance(p.cell, cell), steps), uid))
                effects[uid] = [eff.lose, eff.disrupt, f"{dot} fire", board.labels[cell]]
        if cands:
            self.note("ddob.fires", FIRE, position=pid, firer=_FIRER_TEXT[mode], limit=limit)
        leader = mode != "ambush" and card.icon == "leader"
        self._select(pid, cands, effects, limit, FIRE, leader)

    def _select(
        self,
        pid: str,
        cands: list[tuple[tuple[int, int, int], str]],
        effects: dict[str, list[Any]],
        limit: int,
        rule: str,
        leader: bool,
        stage: str = "units",
    ) -> None:
        """Hit the selected units; ask the player among units tied at the hit limit."""
        sure, tied, need = rules.select_hits(cands, limit)
        for uid in sure:
            self._hit(pid, uid, effects[uid], rule, stage)
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
            self.ctx = ctx
            self.decision = {"kind": "hit", "units": list(tied), "need": need}
            return
        self._after_hits(ctx)

    def _after_hits(self, ctx: dict[str, Any]) -> None:
        """Once the units are hit: the leader-hit note, if the card calls for it."""
        self.ctx = {}
        if ctx["stage"] == "units" and ctx["leader"] and ctx["hits"] < ctx["limit"]:
            self._leader_hit(ctx["pos"])

    def _leader_hit(self, pid: str) -> None:
        """German Fire Chart, note Leader Hits: one leader in the intense or steady field is hit."""
        p = self.scen.pos_by_id[pid]
        board = self.scen.board
        cands: list[tuple[tuple[int, int, int], str]] = []
        effects: dict[str, list[Any]] = {}
        for cell, uids in sorted(self.us_at().items()):
            dot = p.fof.get(cell)
            if dot not in rules.CHARTS.leader_dots:
                continue
            for uid in uids:
                if self.is_leader(uid):
                    key = rules.selection_key(dot, board.distance(p.cell, cell), 1)
                    cands.append((key, uid))
                    effects[uid] = [True, False, f"{dot} fire", board.labels[cell]]
        if cands:
            self._select(pid, cands, effects, 1, FIRE + ", Leader Hits", False, "leader")

    def _hit(self, pid: str, uid: str, eff: list[Any], rule: str, stage: str) -> None:
        lose, disrupt, dot, label = bool(eff[0]), bool(eff[1]), str(eff[2]), str(eff[3])
        why = f"{pid}: {dot} at {label}"
        if stage == "leader":
            self.eliminate(uid, f"leader hit, {why}", rule)
            return
        if lose:
            self.lose_steps(uid, 1, why, rule)
        if disrupt and self.us[uid].status == "ashore":
            self.disrupt(uid, why, rule)

    def _do_hit(self, uid: str) -> None:
        d = self.decision
        assert d is not None
        ctx = self.ctx
        self._hit(str(ctx["pos"]), uid, ctx["effects"][uid], ctx["rule"], ctx["stage"])
        ctx["hits"] += 1
        tied = [u for u in d["units"] if u != uid]
        need = int(d["need"]) - 1
        if need > 0:
            self.decision = {"kind": "hit", "units": tied, "need": need}
            return
        self.decision = None
        self._after_hits(ctx)

    # -- the action summary ----------------------------------------------------------
    def _status(self, p: Position) -> str:
        """The Action Summary column; any US counter, a leader too, is a US unit in the field."""
        if self.pos[p.id].unit is None:
            return "unoccupied"
        seen = any(cell in p.fof for cell in self.us_at())
        return "us_in_fof" if seen else "no_us_in_fof"

    def _unoccupied_ok(self, p: Position) -> bool:
        """German Action Summary: the conditions of the two "unoccupied" columns."""
        if not self.in_communication(p.id):
            return False
        if p.kind == "wn":
            return True
        near = rules.CHARTS.action_params["reinforcement_unoccupied_within"]
        board = self.scen.board
        return any(board.distance(p.cell, c) <= near for c in self.us_at())

    def _act(self, pid: str, card: Card) -> None:
        p = self.scen.pos_by_id[pid]
        g = self.pos[pid].unit
        if g is not None and self.ger[g].disrupted:
            self.note("ddob.idle", SUMMARY, position=pid, why="disrupted")
            return
        status = self._status(p)
        action = rules.german_action(card.action, p.kind, status)
        if status == "unoccupied" and action != "no_action" and not self._unoccupied_ok(p):
            action = "no_action"
        self.note(
            "ddob.action",
            SUMMARY,
            position=pid,
            status=_STATUS_TEXT[status],
            letter=card.action,
            action=action.replace("_", " "),
        )
        handler = getattr(self, f"_a_{action}")
        handler(p, card)

    def _a_no_action(self, p: Position, card: Card) -> None:
        return

    def _a_fire(self, p: Position, card: Card) -> None:
        self._fire(p.id, card)

    def _a_reoccupy(self, p: Position, card: Card) -> None:
        """16.1 (reconstructed): the position's own eliminated garrison returns to it."""
        gid = p.garrison
        if gid is None or self.ger[gid].where != "eliminated" or p.cell in self.us_at():
            return
        self._place(gid, p.id, revealed=True)
        self.note("ddob.reoccupy", SUMMARY + " (16.1)", unit=gid, position=p.id)

    def _a_resupply_fire(self, p: Position, card: Card) -> None:
        """Re-supply: a depth marker (if none) before the position fires."""
        ps = self.pos[p.id]
        if ps.depth is None and len(self.cups["352"]):
            ps.depth = self.cups["352"].draw(self.dice)
            ps.depth_revealed = False
            self.note("ddob.resupply", SUMMARY, position=p.id)
        self._fire(p.id, card)

    def _a_redeploy(self, p: Position, card: Card) -> None:
        """16.3 (reconstructed): the unit moves to the free reinforcement position in
        communication whose intense and steady fields hold the most US units (ties:
        the nearest, then file order); it stays if no such position has any."""
        board = self.scen.board
        best: tuple[int, int, int] | None = None
        target: Position | None = None
        us_cells = self.us_at()
        for i, q in enumerate(self.scen.positions):
            if q.kind != "reinforcement" or q.id == p.id or self.occupied(q.id):
                continue
            if q.cell in us_cells or not self.in_communication(q.id):
                continue
            n = len(self.fof_units(q, ("intense", "steady")))
            if n == 0:
                continue
            key = (-n, board.distance(p.cell, q.cell), i)
            if best is None or key < best:
                best, target = key, q
        if target is not None:
            self._shift(p.id, target.id)
            self.note(
                "ddob.redeploy",
                SUMMARY + " (16.3)",
                unit=self.pos[target.id].unit,
                start=p.id,
                end=target.id,
            )

    def _a_reinforce(self, p: Position, card: Card) -> None:
        """16.4 (reconstructed): a unit from the Division box, face down, with a depth
        marker; at a non-VP position only if US units are in its intense or steady field."""
        if p.vp == 0 and not self.fof_units(p, ("intense", "steady")):
            return
        if not len(self.cups["division"]):
            return
        gid = self.cups["division"].draw(self.dice)
        self._place(gid, p.id, revealed=False)
        depth = ""
        if self.pos[p.id].depth is None and len(self.cups["352"]):
            self.pos[p.id].depth = self.cups["352"].draw(self.dice)
            self.pos[p.id].depth_revealed = False
            depth = " with a depth marker"
        self.note(
            "ddob.reinforce", SUMMARY + " (16.4)", unit="a 352nd unit", position=p.id, depth=depth
        )

    def _a_mortar_fire(self, p: Position, card: Card) -> None:
        """16.5 (reconstructed reading): units with the card's target symbol within 5 hexes
        (2 or 3 on the plateau) lose a step, up to the hit limit."""
        params = rules.CHARTS.action_params
        reach = int(params["mortar_range"])
        high = int(
            params[
                "mortar_high_ground_wn" if p.kind == "wn" else "mortar_high_ground_reinforcement"
            ]
        )
        board = self.scen.board
        cands: list[tuple[tuple[int, int, int], str]] = []
        effects: dict[str, list[Any]] = {}
        for cell, uids in sorted(self.us_at().items()):
            d = board.distance(p.cell, cell)
            if d > (high if self.plateau(cell) else reach):
                continue
            hex_steps = self.steps_in(cell)
            for uid in uids:
                u = self.unit(uid)
                if u.kind.leader or not rules.matches_target(u.symbol, (card.symbol,), hex_steps):
                    continue
                cands.append(((0, d, -self.us[uid].steps), uid))
                effects[uid] = [True, False, "mortar fire", board.labels[cell]]
        self._select(p.id, cands, effects, self._limit(p.id), SUMMARY + " (16.5)", False)

    def _a_patrol_all(self, p: Position, card: Card) -> None:
        """Patrol: every US unit in the intense and steady fields is disrupted (no hit limit)."""
        for uid in self.fof_units(p, ("intense", "steady")):
            self.disrupt(uid, f"patrol from {p.id}", SUMMARY)

    def _a_patrol_one(self, p: Position, card: Card) -> None:
        """16.6 (reconstructed): one US unit within 3 hexes is disrupted."""
        reach = int(rules.CHARTS.action_params["patrol_range"])
        self._one_near(p, reach, [False, True], "patrol", SUMMARY + " (16.6)", skip_disrupted=True)

    def _a_artillery_fire(self, p: Position, card: Card) -> None:
        """16.7 (reconstructed): a WN with artillery hits one US unit within 8 hexes."""
        g = self.pos[p.id].unit
        if g is None or not self.scen.germans[g].artillery:
            return
        self._one_near(p, ARTILLERY_RANGE, [True, False], "artillery fire", SUMMARY + " (16.7)")

    def _one_near(
        self,
        p: Position,
        reach: int,
        eff: list[bool],
        what: str,
        rule: str,
        skip_disrupted: bool = False,
    ) -> None:
        board = self.scen.board
        cands: list[tuple[tuple[int, int, int], str]] = []
        effects: dict[str, list[Any]] = {}
        for cell, uids in sorted(self.us_at().items()):
            d = board.distance(p.cell, cell)
            if d > reach:
                continue
            for uid in uids:
                if self.is_leader(uid) or (skip_disrupted and self.us[uid].disrupted):
                    continue
                cands.append(((0, d, -self.us[uid].steps), uid))
                effects[uid] = [eff[0], eff[1], what, board.labels[cell]]
        self._select(p.id, cands, effects, 1, rule, False)

    def _advance_target(self, p: Position) -> Position | None:
        """16.8 (reconstructed): the arrow's position is free of Germans and of US units
        and in German communication."""
        if p.advance is None:
            return None
        q = self.scen.pos_by_id[p.advance]
        if self.occupied(q.id) or q.cell in self.us_at() or not self.in_communication(q.id):
            return None
        return q

    def _a_advance_or_fire(self, p: Position, card: Card) -> None:
        q = self._advance_target(p)
        if q is None:
            self._fire(p.id, card)
            return
        self._a_advance(p, card)

    def _a_advance(self, p: Position, card: Card) -> None:
        q = self._advance_target(p)
        if q is None:
            return
        unit = self.pos[p.id].unit
        self._shift(p.id, q.id)
        self.note(
            "ddob.advance",
            SUMMARY + " (16.8)",
            unit=unit if self.ger[str(unit)].revealed else "a 352nd unit",
            start=p.id,
            end=q.id,
        )

    def _a_ambush(self, p: Position, card: Card) -> None:
        """16.9: an unoccupied position ambushes one unit (German Fire Chart, ambush column)."""
        self._fire(p.id, card, firer="ambush")

    # -- moving German units -------------------------------------------------------------
    def _place(self, gid: str, pid: str, revealed: bool) -> None:
        g = self.ger[gid]
        self.seen.add(gid)
        g.where = pid
        g.revealed = revealed
        g.disrupted = False
        self.pos[pid].unit = gid
        self.touch()

    def _shift(self, src: str, dst: str) -> None:
        """A unit and its depth marker move from one position to another."""
        a, b = self.pos[src], self.pos[dst]
        gid = a.unit
        assert gid is not None
        b.unit, b.depth, b.depth_revealed = gid, a.depth, a.depth_revealed
        a.unit, a.depth, a.depth_revealed = None, None, False
        self.ger[gid].where = dst
        self.touch()


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
