"""The game in progress: turn flow, legal actions, views, snapshots, metrics.

Sequence of play (reconstructed; the published one is not available to us):

1. Turn start (turn 1 = 06:30, 30 minutes a turn). From turn 23 every obstacle
   hex counts as cleared (landing table note *).
2. Landing phase (:mod:`landing`): the units scheduled for the turn land.
3. German phase (:mod:`german`): one fire card; turns 1-16 the positions of its
   colours fire (German Fire Chart); turns 17-32 they act (Action Summary).
4. US action phase (:mod:`combat`): leaders first rally the units stacked with
   them; then every unit ashore gets its orders, then the Naval Fire Markers.
5. End phase: on a turn when the tide rises, units still on a flooded row are
   eliminated (landing table note on tide changes); disrupted US units recover
   unless they stand in the intense field of fire of an occupied position;
   exits open (or close again); after the last turn, victory.

Victory (reconstructed): VP for each VP position clear of Germans at the end
that the US holds or where a German unit was defeated (its printed vp times
the scenario's ``position`` weight), plus ``exit`` VP per exit open; the
scenario's levels turn the total into a result.

An exit (draw) opens at the end of a turn when none of the positions covering
it is occupied and a US unit stands in its exit hex; it closes again if one of
them is re-occupied.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.decks import Cup, Deck
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Pending, Piece, View
from omaha.landing_table import rules
from omaha.landing_table.actions import (
    Attack,
    Attrition,
    Barrage,
    Clear,
    Drift,
    EndActions,
    Follow,
    Hit,
    Hold,
    Join,
    Land,
    Move,
    NoAttrition,
    Resolve,
    ResolveHero,
)
from omaha.landing_table.combat import CombatMixin
from omaha.landing_table.core import GermanState, PositionState, USState
from omaha.landing_table.german import GermanMixin
from omaha.landing_table.landing import LandingMixin
from omaha.landing_table.scenario import DDOBScenario

END = "end phase (reconstructed)"
MARKS = (("exits_by_1200", 12 * 60), ("exits_by_1700", 17 * 60))


class DDOBState(LandingMixin, GermanMixin, CombatMixin):
    """A game of D-Day at Omaha Beach (the US player against the charts)."""

    def _setup(self) -> None:
        scenario = self.scenario
        self._init_fields()
        self.stats["first_wave_planned"] = float(
            sum(u.kind.steps for u in scenario.us if u.first_wave)
        )
        for key, _ in MARKS:
            self.stats[key] = -1.0
        self._start_turn()
        self._advance()

    # -- protocol basics ---------------------------------------------------------------
    @property
    def turn_label(self) -> str:
        return f"Turn {self.turn} ({self.time_of(self.turn)})"

    @property
    def phase(self) -> str:
        return self._phase

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    @property
    def pending(self) -> Pending | None:
        if self.result is not None or self.decision is None:
            return None
        d = self.decision
        kind = str(d["kind"])
        if kind == "land":
            box = self.scen.boxes[int(d["box"]) - 1]
            prompt = f"choose where {d['unit']} comes ashore in {box} ({self.tide()} tide)"
        elif kind == "drift":
            prompt = (
                f"Ranger {d['unit']} may drift 0-{d['most']} boxes east (landing table note **)"
            )
        elif kind == "follow":
            prompt = f"{d['unit']}: drift with {d['companion']}?"
        elif kind == "hit":
            units = ", ".join(d["units"])
            prompt = f"{self.ctx.get('pos')} fire: choose {d['need']} of {units} to be hit"
        elif kind == "orders":
            prompt = f"orders for {d['unit']}"
        elif kind == "attack":
            plan = self.attack_plan()
            prompt = (
                f"attack on {self.ctx['target']} by {', '.join(self.ctx['attackers'])} "
                f"({plan['attack']} vs {plan['defense']}): add units or resolve"
            )
        else:
            prompt = (
                f"optional attrition at {self.ctx['target']}: "
                "give a step to remove the depth marker?"
            )
        return Pending(kind, "US", prompt)

    # -- legal actions -----------------------------------------------------------------
    def _legal_actions(self) -> Iterable[Action]:
        d = self.decision
        if d is None:
            return []
        kind = d["kind"]
        labels = self.scen.board.labels
        if kind == "land":
            return [Land(str(d["unit"]), labels[c]) for c in self.land_options(int(d["box"]))]
        if kind == "drift":
            return [Drift(str(d["unit"]), n) for n in range(int(d["most"]) + 1)]
        if kind == "follow":
            return [Follow(str(d["unit"]), True), Follow(str(d["unit"]), False)]
        if kind == "hit":
            return [Hit(u) for u in d["units"]]
        if kind == "orders":
            return [*self.orders(str(d["unit"])), EndActions()]
        if kind == "attack":
            out: list[Action] = [Join(u) for u in self.joiners()]
            out.append(Resolve())
            if self.hero_helps():
                out.append(ResolveHero())
            return out
        return [*(Attrition(u) for u in d["units"]), NoAttrition()]

    def explain_illegal(self, action: Action) -> str:
        d = self.decision
        unit = getattr(action, "unit", None)
        if d is not None and d["kind"] == "land" and isinstance(action, Land):
            box = int(d["box"])
            hexes = " or ".join(self.scen.board.labels[c] for c in self.land_options(box))
            if action.unit != d["unit"]:
                return f"{d['unit']} is landing now, not {action.unit}"
            return (
                f"{action.hex} is not a hex of {self.scen.boxes[box - 1]} at {self.tide()} tide "
                f"(choose {hexes})"
            )
        if d is not None and d["kind"] == "hit" and isinstance(action, Hit):
            tied = ", ".join(d["units"])
            return f"{action.unit} is not among the units tied for this hit ({tied})"
        if d is not None and d["kind"] == "attack" and isinstance(action, Join):
            return (
                f"{action.unit} cannot join the attack on {self.ctx['target']}: it must not have "
                "had its orders yet, be undisrupted and in range, and at most three units attack"
            )
        if d is not None and d["kind"] == "orders" and unit is not None:
            current = str(d["unit"])
            if unit != current:
                return f"orders go unit by unit: it is {current}'s turn, not {unit}'s"
            s = self.us.get(unit)
            if s is not None and s.disrupted and isinstance(action, Attack | Barrage | Clear):
                return f"{unit} is disrupted: it may hold or move one hex only"
            if isinstance(action, Attack):
                return self._why_no_attack(unit, action.target)
            if isinstance(action, Move):
                return f"{unit} cannot reach {action.hex} this turn"
        return super().explain_illegal(action)

    def _why_no_attack(self, uid: str, pid: str) -> str:
        p = self.scen.pos_by_id.get(pid)
        if p is None:
            return f"{pid} is not a German position"
        if not self.occupied(pid):
            return f"no German unit holds {pid}"
        if pid in self.attacked:
            return f"{pid} has already been attacked this turn (one attack per position)"
        if self.strength(uid) <= 0:
            return f"{uid} has no attack strength"
        d = self.scen.board.distance(self.us[uid].where, p.cell)
        if d > self.unit_range(uid):
            return f"{pid} is {d} hexes away, beyond {uid}'s range of {self.unit_range(uid)}"
        return f"{uid} cannot attack {pid} across that hexside (Terrain Defense Table: prohibited)"

    # -- applying ---------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        board = self.scen.board
        if isinstance(action, Land):
            self._do_land(action.unit, board.cell(action.hex))
        elif isinstance(action, Drift):
            self._do_drift(action.unit, action.boxes)
        elif isinstance(action, Follow):
            self._do_follow(action.leader, action.drift)
        elif isinstance(action, Hit):
            self._do_hit(action.unit)
        elif isinstance(action, Hold):
            self.decision = None
            self._done(action.unit)
        elif isinstance(action, Move):
            self.decision = None
            self._do_move(action.unit, board.cell(action.hex))
        elif isinstance(action, Attack):
            self._start_attack(action.unit, action.target)
        elif isinstance(action, Join):
            self._do_join(action.unit)
        elif isinstance(action, Resolve | ResolveHero):
            self.decision = None
            self._resolve_attack(isinstance(action, ResolveHero))
        elif isinstance(action, Barrage):
            self.decision = None
            self._do_barrage(action.unit, action.target)
        elif isinstance(action, Clear):
            self.decision = None
            self._do_clear(action.unit)
        elif isinstance(action, Attrition):
            self._do_attrition(action.unit)
        elif isinstance(action, NoAttrition):
            self._do_attrition(None)
        elif isinstance(action, EndActions):
            self.decision = None
            self.queue = []
        else:  # pragma: no cover - the base class checked legality
            raise IllegalAction(f"unknown action {action}")
        self._advance()

    def _advance(self) -> None:
        """Run the procedures until the player must decide or the game is over."""
        while self.decision is None and self.result is None:
            ph = self._phase
            if ph == "landing":
                if not self._landing_step():
                    self._begin_german()
            elif ph in ("german fire", "german action"):
                if not self._german_step():
                    self._end_german()
                    self._begin_us()
            elif ph == "us action":
                if not self._us_step():
                    self._end_turn()
            else:  # pragma: no cover
                raise RuntimeError(f"no procedure for phase {ph!r}")

    # -- turn flow --------------------------------------------------------------------------
    def _start_turn(self) -> None:
        self._phase = "landing"
        self.note(
            "ddob.turn",
            "sequence of play (reconstructed)",
            time=self.time_of(self.turn),
            turn=self.turn,
            tide=self.tide(),
        )
        if rules.obstacles_all_cleared(self.turn) and not self.scen.obstacle_cells <= self.cleared:
            self.cleared |= self.scen.obstacle_cells
            self.note("ddob.cleared_all", "DDOB Amphibious Landing Table, Notes *")
        self._begin_landing()

    def _begin_us(self) -> None:
        self._phase = "us action"
        for s in self.us.values():
            s.acted = False
        self.naval_used = set()
        self.attacked = set()
        at = self.us_at()
        for uid in self.ashore():
            s = self.us[uid]
            if self.is_leader(uid) and not s.disrupted:
                rallied = [u for u in at.get(s.where, ()) if self.us[u].disrupted]
                for u in rallied:
                    self.us[u].disrupted = False
                if rallied:
                    self.note("ddob.rally", "leaders (reconstructed)", leader=uid, units=rallied)
        self.queue = [*self.ashore(), *self.naval_ids()]
        self.ctx = {}
        self.touch()

    def _us_step(self) -> bool:
        while self.queue:
            uid = self.queue[0]
            if uid.startswith("NF"):
                gone = uid in self.naval_used
            else:
                s = self.us[uid]
                gone = s.status != "ashore" or s.acted
            if gone or len(self.orders(uid)) <= 1:
                self.queue.pop(0)
                continue
            self.decision = {"kind": "orders", "unit": uid}
            return True
        return False

    def _end_turn(self) -> None:
        self._phase = "end"
        if self.tide_rising():
            drowned = [u for u in self.ashore() if self.flooded(self.us[u].where)]
            if drowned:
                rows = "".join(sorted(self.flooded_rows()))
                self.note(
                    "ddob.tide",
                    "DDOB Amphibious Landing Table, Notes (tide change)",
                    row=rows,
                    units=drowned,
                )
                for u in drowned:
                    self.eliminate(
                        u, "caught by the rising tide", "DDOB Amphibious Landing Table, Notes"
                    )
        pinned: set[int] = set()
        for p in self.scen.positions:
            if self.occupied(p.id):
                pinned |= {c for c, dot in p.fof.items() if dot == "intense"}
        recovered = [
            u for u in self.ashore() if self.us[u].disrupted and self.us[u].where not in pinned
        ]
        for u in recovered:
            self.us[u].disrupted = False
        if recovered:
            self.note("ddob.recover", END, units=recovered)
        self._update_exits()
        end_minutes = self.scen.start_minutes + self.scen.minutes * self.turn
        for key, mark in MARKS:
            if self.stats[key] < 0 and end_minutes >= mark:
                self.stats[key] = float(len(self.exits_open))
        if self.turn >= self.scen.turns:
            self._finish()
            return
        self.turn += 1
        self._start_turn()

    def _update_exits(self) -> None:
        us_cells = self.us_at()
        for e in self.scen.exits:
            clear = all(not self.occupied(pid) for pid in e.covered_by)
            if e.id in self.exits_open:
                if not clear:
                    del self.exits_open[e.id]
                    self.note("ddob.exit", END, exit=e.id, name=e.name, state="is closed again")
            elif clear and e.cell in us_cells:
                self.exits_open[e.id] = self.turn
                self.exits_first.setdefault(e.id, self.turn)
                self.note("ddob.exit", END, exit=e.id, name=e.name, state="is open")

    def victory_points(self) -> tuple[int, int, int]:
        """(VP, VP positions scoring, VP positions) at this moment."""
        vp = 0
        held = total = 0
        us_cells = self.us_at()
        for p in self.scen.positions:
            if p.vp <= 0:
                continue
            total += 1
            ps = self.pos[p.id]
            if ps.unit is None and (ps.defeated or p.cell in us_cells):
                held += 1
                vp += p.vp * self.scen.vp_position
        vp += self.scen.vp_exit * len(self.exits_open)
        return vp, held, total

    def _finish(self) -> None:
        vp, held, total = self.victory_points()
        for key, _ in MARKS:
            if self.stats[key] < 0:
                self.stats[key] = float(len(self.exits_open))
        level = next(lv for lv in self.scen.levels if vp >= lv.min)
        exits = ", ".join(sorted(self.exits_open)) or "none"
        self.result = Outcome(
            level.winner,
            level.level,
            points=(("US VP", float(vp)),),
            detail=f"exits open: {exits}; VP positions held {held} of {total}",
        )
        self.decision = None
        self.queue = []
        self.note(
            "ddob.end",
            "victory (reconstructed)",
            time=self.time_of(self.turn + 1),
            result=str(self.result),
        )

    # -- metrics ------------------------------------------------------------------------------
    def metrics(self) -> dict[str, float]:
        st = self.stats

        def ratio(a: float, b: float) -> float:
            return a / b if b else 0.0

        vp, held, total = self.victory_points()
        seen = sorted(self.seen)
        strength = sum(self.scen.germans[g].defense for g in seen)
        lost = sum(
            self.scen.germans[g].defense
            for g in seen
            if self.ger[g].where not in self.scen.pos_by_id
        )
        wn_clear = sum(1 for p in self.scen.positions if p.kind == "wn" and not self.occupied(p.id))
        return {
            "us_win": 1.0 if self.result is not None and self.result.winner == "US" else 0.0,
            "first_wave_ashore": ratio(st["first_wave_ashore"], st["first_wave_planned"]),
            "landed_off_target": ratio(st["landed_off_target"], st["landed"]),
            "us_losses": ratio(st["us_steps_lost"], st["us_steps_committed"]),
            "german_losses": ratio(lost, strength),
            "dd_tanks_ashore": ratio(st["dd_ashore"], st["dd_launched"]),
            "dukw_guns_lost": ratio(st["dukw_lost"], st["dukw_loaded"]),
            "exits_opened": float(len(self.exits_open)),
            "objectives_held": ratio(held, total),
            "turns_played": float(self.turn),
            "vp": float(vp),
            "exits_by_1200": max(0.0, st["exits_by_1200"]),
            "exits_by_1700": max(0.0, st["exits_by_1700"]),
            "wn_cleared": float(wn_clear),
            "mine_strikes": st["mines"],
            "heroes_used": st["heroes_used"],
        }

    # -- views --------------------------------------------------------------------------------
    def view(self, player: str | None = None) -> View:
        board = self.scen.board
        labels = board.labels
        hide = player == "US"
        pieces: list[Piece] = []
        for uid, s in self.us.items():
            u = self.unit(uid)
            k = u.kind
            if s.status == "ashore":
                where = labels[s.where]
            elif s.status == "scheduled" and s.turn == self.turn:
                where = self.scen.boxes[s.box - 1]
            else:
                continue
            values = "leader" if k.leader else f"{k.strength(s.steps)}-{self.unit_range(uid)}"
            tags = tuple(
                m
                for m, on in (
                    ("disrupted", s.disrupted),
                    (f"{s.steps}/{k.steps} steps", s.steps < k.steps),
                    (u.symbol, True),
                )
                if on
            )
            pieces.append(Piece(uid, "US", uid, where, values, tags))
        for nid in self.naval_ids():
            used = ("fired",) if nid in self.naval_used else ()
            pieces.append(Piece(nid, "US", nid, "naval", str(self.scen.naval_attack), used))
        for gid, g in sorted(self.ger.items()):
            gu = self.scen.germans[gid]
            if g.where in self.scen.pos_by_id:
                where = labels[self.scen.pos_by_id[g.where].cell]
            elif g.where == "division":
                where = "division"
            else:
                continue
            hidden = hide and not g.revealed
            gmarks = ("disrupted",) if g.disrupted else ()
            values = f"{gu.defense} {'+'.join(sorted(gu.requires))}"
            pieces.append(Piece(gid, "German", gid, where, values, gmarks, hidden=hidden))
        for p in self.scen.positions:
            ps = self.pos[p.id]
            if ps.depth is not None:
                hidden = hide and not ps.depth_revealed
                pieces.append(
                    Piece(
                        f"depth@{p.id}",
                        "German",
                        f"depth {ps.depth}",
                        labels[p.cell],
                        hidden=hidden,
                    )
                )
        marks: list[Mark] = []
        dots: dict[int, list[str]] = {}
        for p in self.scen.positions:
            marks.append(Mark(labels[p.cell], f"{p.id} ({p.colour})", "position"))
            if self.occupied(p.id):
                for cell, dot in p.fof.items():
                    dots.setdefault(cell, []).append(dot)
        for cell in sorted(dots):
            ds = sorted(dots[cell], key=lambda d: rules.CHARTS.dot_priority[d])
            text = "".join(rules.CHARTS.dot_symbol[d] for d in ds[:4]) + (
                "+" if len(ds) > 4 else ""
            )
            marks.append(Mark(labels[cell], text, "fire"))
        for cell in sorted(self.cleared & self.scen.obstacle_cells):
            marks.append(Mark(labels[cell], "cleared", "obstacles"))
        for e in self.scen.exits:
            state = "open" if e.id in self.exits_open else "closed"
            marks.append(Mark(labels[e.cell], f"exit {e.id} {state}", "exit"))
        vp, held, total = self.victory_points()
        tracks = (
            ("time", self.time_of(self.turn)),
            ("turn", f"{self.turn}/{self.scen.turns}"),
            ("tide", self.tide()),
            ("fire card", self.scen.cards[self.card].describe() if self.card else "-"),
            ("Hero markers", str(self.heroes)),
            ("US VP", str(vp)),
            ("exits open", ", ".join(sorted(self.exits_open)) or "none"),
        )
        notes = (
            f"VP positions held {held} of {total}",
            f"obstacle hexes cleared: {len(self.cleared & self.scen.obstacle_cells)}"
            f" of {len(self.scen.obstacle_cells)}",
            "fire dots: ● intense ⊕ steady ○ sporadic (occupied positions)",
        )
        return View(
            game=self.game.name,
            title=self.scen.title,
            player=player,
            turn=self.turn_label,
            phase=self._phase,
            board=board,
            pending=self.pending,
            pieces=tuple(pieces),
            marks=tuple(marks),
            tracks=tracks,
            notes=notes,
        )

    # -- snapshots ------------------------------------------------------------------------------
    def _dump(self) -> dict[str, Any]:
        labels = self.scen.board.labels
        return {
            "turn": self.turn,
            "phase": self._phase,
            "us": {
                uid: [
                    s.status,
                    s.steps,
                    s.turn,
                    s.box,
                    labels[s.where] if s.where >= 0 else None,
                    s.no_check,
                    s.disrupted,
                    s.acted,
                    s.landed_box,
                    s.landed_turn,
                    s.committed,
                ]
                for uid, s in self.us.items()
            },
            "ger": {gid: [g.where, g.revealed, g.disrupted] for gid, g in self.ger.items()},
            "pos": {
                pid: [ps.unit, ps.depth, ps.depth_revealed, ps.defeated]
                for pid, ps in self.pos.items()
            },
            "deck": self.deck.to_data(),
            "cups": {k: c.to_data() for k, c in sorted(self.cups.items())},
            "cleared": sorted(labels[c] for c in self.cleared),
            "exits_open": dict(self.exits_open),
            "exits_first": dict(self.exits_first),
            "heroes": self.heroes,
            "naval_used": sorted(self.naval_used),
            "attacked": sorted(self.attacked),
            "decision": self.decision,
            "queue": list(self.queue),
            "ctx": self.ctx,
            "card": self.card,
            "seen": sorted(self.seen),
            "stats": dict(self.stats),
            "result": None
            if self.result is None
            else [
                self.result.winner,
                self.result.level,
                [list(p) for p in self.result.points],
                self.result.detail,
            ],
        }

    def _restore(self, data: dict[str, Any]) -> None:
        assert isinstance(self.scenario, DDOBScenario)
        scen = self.scen = self.scenario
        board = scen.board
        self.turn = int(data["turn"])
        self._phase = str(data["phase"])
        self.us = {}
        for u in scen.us:  # order-of-battle order, which the procedures follow
            v = data["us"][u.id]
            self.us[u.id] = USState(
                u.id,
                status=v[0],
                steps=v[1],
                turn=v[2],
                box=v[3],
                where=board.cell(v[4]) if v[4] is not None else -1,
                no_check=v[5],
                disrupted=v[6],
                acted=v[7],
                landed_box=v[8],
                landed_turn=v[9],
                committed=v[10],
            )
        self.ger = {}
        for gid in scen.germans:
            v = data["ger"][gid]
            self.ger[gid] = GermanState(gid, v[0], v[1], v[2])
        self.pos = {}
        for p in scen.positions:
            v = data["pos"][p.id]
            self.pos[p.id] = PositionState(v[0], v[1], v[2], v[3])
        self.deck = Deck.from_data(data["deck"])
        self.cups = {k: Cup.from_data(v) for k, v in data["cups"].items()}
        self.cleared = {board.cell(c) for c in data["cleared"]}
        self.exits_open = {k: int(v) for k, v in data["exits_open"].items()}
        self.exits_first = {k: int(v) for k, v in data["exits_first"].items()}
        self.heroes = int(data["heroes"])
        self.naval_used = set(data["naval_used"])
        self.attacked = set(data["attacked"])
        self.decision = data["decision"]
        self.queue = list(data["queue"])
        self.ctx = data["ctx"]
        self.card = data["card"]
        self.seen = set(data["seen"])
        self.stats = {k: float(v) for k, v in data["stats"].items()}
        r = data["result"]
        self.result = (
            None
            if r is None
            else Outcome(r[0], r[1], points=tuple((str(a), float(b)) for a, b in r[2]), detail=r[3])
        )
        self._ver = 0
        self._cache = {}
