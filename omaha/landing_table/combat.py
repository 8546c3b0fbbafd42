"""US actions: movement, attacks (US Attack Results Chart), barrages (US Barrage Table).

Reconstructed procedure (the published rules of play are not available):

* In the US action phase the units ashore get their orders one by one, in
  order-of-battle order, then the Naval Fire Markers. A unit either moves, or
  attacks, or barrages, or (engineers) clears the obstacles of its hex, or holds.
* Movement: up to the unit's movement points over the movement graph of its
  class; not into German-occupied or flooded hexes; a unit entering a hex next
  to an occupied German position stops there. A disrupted unit may move one
  hex only and may not attack, barrage or clear.
* Attack: a unit declares a German-occupied position within its range, other
  units whose orders are still to come may join, then the attack is resolved
  (with the Hero if the player spends one). A German position can be attacked
  once per US action phase. Attack strength is the sum of the
  attackers'; the German defence is the unit's strength, plus its depth marker
  once revealed, each times its Terrain Defense Table multiplier.
* Barrage: an artillery unit (or Naval Fire Marker) within barrage range draws
  a fire card and reads the US Barrage Table.
* At most three units (a Naval Fire Marker counts as one) attack together.
* Naval Fire Markers (from the turns the scenario gives) attack or barrage a WN
  only when a US unit with a radio (RD) is within 3 hexes of it; one marker at
  most joins an attack.

Readings:

* The hexside an attacker attacks through is the side where the straight
  thread from its hex centre enters the defender's hex (for an adjacent unit,
  the side they share). An attack whose thread enters through a corner is
  across neither side (it is prohibited only if both sides are). Flanking (FL)
  is met when the attackers come through two or more different sides or
  corners; a Naval Fire Marker attacks from the sea, a direction of its own.
* A reduced 9-2 unit has range 1.
* A unit is revealed when it is attacked (its strength is then known); a
  barrage does not reveal it.
* "German gains depth" draws from the depth cup of the defending unit's
  division (716th for WN garrisons, 352nd otherwise) and needs an empty slot:
  a position holds one depth marker at most.
"""

from __future__ import annotations

from typing import Any

import attrs

from omaha.kernel.actions import Action
from omaha.kernel.board import Board
from omaha.landing_table import rules
from omaha.landing_table.actions import (
    Attack,
    Barrage,
    Clear,
    Hold,
    Move,
)
from omaha.landing_table.core import Core
from omaha.landing_table.scenario import Position

ATTACK = "DDOB US Attack Results Chart"
BARRAGE = "DDOB US Barrage Table"
SEA: tuple[int, int] = (-2, -2)
MAX_ATTACKERS = 3  # reconstructed


@attrs.frozen
class Approach:
    """How an attack from one hex reaches a defender's hex."""

    key: tuple[int, int]
    sides: tuple[str, ...] | None  # the side's features (table names); None at a corner
    prohibited: bool


_APPROACH: dict[tuple[str, int, int], Approach] = {}


def _side_names(board: Board, a: int, b: int) -> tuple[str, ...]:
    names = tuple(sorted(rules.side_name(n, d) for n, d in board.crossing(a, b)))
    return names or ("unmarked",)


def approach(board: Board, a: int, b: int) -> Approach:
    """The side (or corner) through which an attack from ``a`` enters ``b`` (cached)."""
    key = (board.id, a, b)
    got = _APPROACH.get(key)
    if got is not None:
        return got
    if board.adjacent(a, b):
        sides = _side_names(board, a, b)
        got = Approach((a, a), sides, rules.attack_prohibited(sides))
    else:
        t = board.thread(a, b)
        entries = [x for x, y in t.crossed if y == b and x >= 0]
        if entries:
            n = entries[-1]
            sides = _side_names(board, n, b)
            got = Approach((n, n), sides, rules.attack_prohibited(sides))
        else:
            corners = [c for c in t.corners if b in c]
            others = sorted(x for x in corners[-1] if x != b) if corners else [-1, -1]
            n1, n2 = others[0], others[1]
            both = all(
                n >= 0 and rules.attack_prohibited(_side_names(board, n, b)) for n in (n1, n2)
            )
            got = Approach((n1, n2), None, both)
    _APPROACH[key] = got
    return got


class CombatMixin(Core):
    # -- orders --------------------------------------------------------------------
    def unit_range(self, uid: str) -> int:
        k = self.unit(uid).kind
        if k.range == 2 and not self.full(uid):
            return 1
        return k.range

    def reachable(self, uid: str) -> dict[int, int]:
        """Cells the unit may move to now, with their cost."""
        key = f"reach:{uid}"
        got = self._cache.get(key)
        if got is not None:
            return dict(got)
        s = self.us[uid]
        k = self.unit(uid).kind
        graph = self.scen.moves[k.move]
        german = self.german_cells()
        blocked = set(german) | self.scen.flood_cells[self.tide()]
        stop = self._stop_cells()
        extra = self._gate if k.move == "vehicle" else None
        reach = graph.reachable(s.where, k.mp, blocked=blocked, stop=stop, extra=extra)
        if s.disrupted:
            near = self.scen.board.neighbours[s.where]
            reach = {c: v for c, v in reach.items() if c in near or c == s.where}
        self._cache[key] = reach
        return dict(reach)

    def _gate(self, a: int, b: int) -> int | None:
        draw = self.scen.gates.get((a, b))
        if draw is not None and draw not in self.exits_open:
            return None
        return 0

    def _stop_cells(self) -> frozenset[int]:
        got = self._cache.get("stop")
        if got is None:
            board = self.scen.board
            got = frozenset(n for c in self.german_cells() for n in board.neighbours[c])
            self._cache["stop"] = got
        return frozenset(got)

    def can_attack(self, uid: str, pid: str) -> bool:
        """Whether a unit ashore may attack the German unit at ``pid`` now."""
        s = self.us[uid]
        if s.status != "ashore" or s.disrupted or self.strength(uid) <= 0:
            return False
        if pid in self.attacked:
            return False
        p = self.scen.pos_by_id[pid]
        d = self.scen.board.distance(s.where, p.cell)
        if not 1 <= d <= self.unit_range(uid):
            return False
        return not approach(self.scen.board, s.where, p.cell).prohibited

    def can_attack_joining(self, uid: str, pid: str) -> bool:
        """As :meth:`can_attack`, for a unit joining the attack on ``pid`` being built."""
        self.attacked.discard(pid)
        try:
            return self.can_attack(uid, pid)
        finally:
            self.attacked.add(pid)

    def attack_targets(self, uid: str) -> list[str]:
        return [pid for _, pid in sorted(self.german_cells().items()) if self.can_attack(uid, pid)]

    def barrage_targets(self, uid: str) -> list[str]:
        s = self.us[uid]
        reach = self.unit(uid).kind.barrage
        if reach <= 0 or s.disrupted or self.strength(uid) <= 0:
            return []
        board = self.scen.board
        return [
            pid
            for cell, pid in sorted(self.german_cells().items())
            if board.distance(s.where, cell) <= reach
        ]

    def naval_targets(self) -> list[str]:
        """WN positions a Naval Fire Marker may fire at: a radio-carrying unit within 3 hexes."""
        got = self._cache.get("naval_targets")
        if got is None:
            board = self.scen.board
            spotters = [
                self.us[u].where
                for u in self.ashore()
                if "RD" in self._weapons(u, 1) and not self.us[u].disrupted
            ]
            got = [
                pid
                for cell, pid in sorted(self.german_cells().items())
                if self.scen.pos_by_id[pid].kind == "wn"
                and any(board.distance(c, cell) <= self.scen.naval_spot for c in spotters)
            ]
            self._cache["naval_targets"] = got
        return list(got)

    def _weapons(self, uid: str, distance: int) -> frozenset[str]:
        if uid.startswith("NF"):
            return rules.unit_weapons("naval", True, distance)
        u = self.unit(uid)
        return rules.unit_weapons(
            u.kind.cls,
            self.full(uid),
            distance,
            range2=u.kind.range == 2,
            reduced=u.kind.reduced,
        )

    def orders(self, uid: str) -> list[Action]:
        """Every order the unit may be given (``hold`` first)."""
        key = f"orders:{uid}"
        got = self._cache.get(key)
        if got is not None:
            return list(got)
        out: list[Action] = [Hold(uid)]
        if uid.startswith("NF"):
            out += [Barrage(pid, uid) for pid in self.naval_targets()]
        else:
            s = self.us[uid]
            labels = self.scen.board.labels
            out += [Move(uid, labels[c]) for c in sorted(self.reachable(uid)) if c != s.where]
            if not s.disrupted:
                out += [Attack(pid, uid) for pid in self.attack_targets(uid)]
                out += [Barrage(pid, uid) for pid in self.barrage_targets(uid)]
                k = self.unit(uid).kind
                if k.clears and self.obstacle(s.where) and not self.flooded(s.where):
                    out.append(Clear(uid))
        self._cache[key] = out
        return list(out)

    def joiners(self) -> list[str]:
        """Units that may still join the attack being built."""
        pid = str(self.ctx["target"])
        if len(self.ctx["attackers"]) >= MAX_ATTACKERS:
            return []
        naval = not any(u.startswith("NF") for u in self.ctx["attackers"])
        out = []
        for uid in self.queue:
            if uid.startswith("NF"):
                if naval and uid not in self.naval_used and pid in self.naval_targets():
                    out.append(uid)
            elif uid != self.ctx["attackers"][0] and self.can_attack_joining(uid, pid):
                out.append(uid)
        return out

    # -- carrying out orders -------------------------------------------------------------
    def _done(self, uid: str) -> None:
        if uid.startswith("NF"):
            self.naval_used.add(uid)
        else:
            self.us[uid].acted = True
        if uid in self.queue:
            self.queue.remove(uid)
        self._cache.pop(f"orders:{uid}", None)

    def _do_move(self, uid: str, cell: int) -> None:
        s = self.us[uid]
        labels = self.scen.board.labels
        self.note(
            "ddob.move",
            "movement (reconstructed)",
            unit=uid,
            start=labels[s.where],
            end=labels[cell],
        )
        s.where = cell
        self._done(uid)
        self.touch()

    def _do_clear(self, uid: str) -> None:
        cell = self.us[uid].where
        self.cleared.add(cell)
        self.note(
            "ddob.clear", "engineers (reconstructed)", unit=uid, hex=self.scen.board.labels[cell]
        )
        self._done(uid)

    def _start_attack(self, uid: str, pid: str) -> None:
        self._done(uid)
        self.attacked.add(pid)
        self._cache.clear()
        self.ctx = {"target": pid, "attackers": [uid]}
        self.decision = {"kind": "attack"}

    def _do_join(self, uid: str) -> None:
        self._done(uid)
        self.ctx["attackers"].append(uid)

    def attack_plan(self, hero: bool = False) -> dict[str, Any]:
        """The numbers of the attack being built, as it would be resolved now."""
        pid = str(self.ctx["target"])
        return self.evaluate_attack(pid, list(self.ctx["attackers"]), hero)

    def evaluate_attack(self, pid: str, attackers: list[str], hero: bool) -> dict[str, Any]:
        """Strengths, multipliers and the weapons verdict of an attack (no dice, no change)."""
        p = self.scen.pos_by_id[pid]
        ps = self.pos[pid]
        gid = ps.unit
        assert gid is not None
        board = self.scen.board
        keys: set[tuple[int, int]] = set()
        sides: tuple[str, ...] | None = None
        weapons: set[str] = set()
        adjacent: list[str] = []
        attack = 0
        for uid in attackers:
            attack += self.strength(uid)
            if uid.startswith("NF"):
                keys.add(SEA)
                weapons |= self._weapons(uid, 99)
                continue
            cell = self.us[uid].where
            d = board.distance(cell, p.cell)
            weapons |= self._weapons(uid, d)
            if d == 1:
                adjacent.append(uid)
            ap = approach(board, cell, p.cell)
            keys.add(ap.key)
            sides = ap.sides
        same = sides if len(keys) == 1 and SEA not in keys else None
        unit_mult, depth_mult = rules.defense_multipliers(board.terrain[p.cell], same)
        g = self.scen.germans[gid]
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

    def hero_helps(self) -> bool:
        """The Hero is offered only when it would meet the one missing requirement."""
        if self.heroes <= 0:
            return False
        plan = self.attack_plan()
        if plan["verdict"].ok:
            return False
        return bool(self.attack_plan(hero=True)["verdict"].ok)

    def _resolve_attack(self, hero: bool) -> None:
        pid = str(self.ctx["target"])
        attackers = list(self.ctx["attackers"])
        plan = self.attack_plan(hero)
        ps = self.pos[pid]
        gid = ps.unit
        assert gid is not None
        verdict: rules.WeaponsVerdict = plan["verdict"]
        if not self.ger[gid].revealed:
            self.ger[gid].revealed = True
            self.note(
                "ddob.german",
                ATTACK + " (reconstructed: attack reveals)",
                unit=gid,
                position=pid,
                what="revealed by the attack",
            )
        if verdict.hero_used:
            self.heroes -= 1
            self.stats["heroes_used"] += 1
        self.stats["attacks"] += 1
        cmp = rules.compare_strengths(plan["attack"], plan["defense"], verdict.ok)
        results = rules.attack_results(verdict.ok, cmp, plan["column"], self.turn)
        depth_text = (
            f" + depth {plan['marker_def'] // max(1, plan['depth_mult'])}x{plan['depth_mult']}"
            if plan["column"] == "revealed"
            else ""
        )
        self.note(
            "ddob.attack",
            ATTACK,
            position=pid,
            attackers=attackers,
            attack=plan["attack"],
            defense=plan["defense"],
            unit_def=self.scen.germans[gid].defense,
            unit_mult=plan["unit_mult"],
            depth_text=depth_text,
            weapons="yes" if verdict.ok else f"no (missing {', '.join(verdict.missing) or 'FL'})",
            hero=f" (Hero stands in for {verdict.missing[0]})" if verdict.hero_used else "",
            compare=cmp.replace("_", " "),
            column=plan["column"],
            results=", ".join(r.replace("_", " ") for r in results),
        )
        self.ctx = {}
        self._attack_results(pid, results, plan, attackers)

    def _attack_results(
        self, pid: str, results: tuple[str, ...], plan: dict[str, Any], attackers: list[str]
    ) -> None:
        ps = self.pos[pid]
        for r in results:
            gid = ps.unit
            if r == "reveal_compare":
                marker = ps.depth
                assert marker is not None
                ps.depth_revealed = True
                value = 0 if marker == "TR" else int(marker) * plan["depth_mult"]
                again = rules.reveal_results(
                    marker, plan["attack"], plan["unit_def"], value, self.turn
                )
                defense = plan["unit_def"] + value
                cmp = (
                    "tactical reinforcement"
                    if marker == "TR"
                    else rules.compare_strengths(plan["attack"], defense, True).replace("_", " ")
                )
                self.note(
                    "ddob.reveal",
                    ATTACK + ", footnote (1)",
                    position=pid,
                    marker="Tactical Reinforcement" if marker == "TR" else marker,
                    attack=plan["attack"],
                    defense=defense,
                    compare=cmp,
                    results=", ".join(x.replace("_", " ") for x in again),
                )
                self._attack_results(pid, again, plan, attackers)
                return
            if r == "us_disrupted":
                for uid in plan["adjacent"]:
                    self.disrupt(uid, f"attack on {pid}", ATTACK)
            elif r == "german_gains_depth":
                self._gain_depth(pid)
            elif r == "german_unrevealed" and gid is not None:
                if self.scen.germans[gid].division == "352":
                    self.ger[gid].revealed = False
                    self.note(
                        "ddob.german", ATTACK, unit=gid, position=pid, what="flipped face down"
                    )
            elif r == "german_disrupted" and gid is not None:
                self.ger[gid].disrupted = True
                self.note("ddob.german", ATTACK, unit=gid, position=pid, what="disrupted")
            elif r == "german_defeated" and gid is not None:
                self.defeat(pid, ATTACK)
            elif r == "depth_eliminated" and ps.depth is not None:
                ps.depth = None
                ps.depth_revealed = False
                self.note(
                    "ddob.german", ATTACK, unit="depth marker", position=pid, what="eliminated"
                )
            elif r == "optional_attrition":
                able = [u for u in plan["adjacent"] if self.us[u].status == "ashore"]
                if ps.depth is not None and able:
                    self.ctx = {"target": pid}
                    self.decision = {"kind": "attrition", "units": able}

    def _gain_depth(self, pid: str) -> None:
        """German gains depth: a marker from the unit's division cup, if in communication."""
        ps = self.pos[pid]
        gid = ps.unit
        if gid is None or ps.depth is not None or not self.in_communication(pid):
            return
        cup = self.cups[self.scen.germans[gid].division]
        if not len(cup):
            return
        ps.depth = cup.draw(self.dice)
        ps.depth_revealed = False
        self.note("ddob.gains_depth", ATTACK + ", notes", position=pid)

    def defeat(self, pid: str, rule: str) -> None:
        """German defeated (Attack Results Chart notes)."""
        ps = self.pos[pid]
        gid = ps.unit
        assert gid is not None
        g = self.scen.germans[gid]
        p = self.scen.pos_by_id[pid]
        if g.division == "352" and self.in_communication(pid):
            where, what = "division", "defeated: back to the Division reinforcement box"
            self.cups["division"].put(gid)
        elif p.kind == "wn" and p.garrison == gid:
            where, what = "eliminated", "defeated: removed from play"
        else:
            where, what = "removed", "defeated: removed from play"
        self.ger[gid].where = where
        self.ger[gid].revealed = g.division == "716"
        self.ger[gid].disrupted = False
        ps.unit = None
        ps.depth = None
        ps.depth_revealed = False
        ps.defeated = True
        self.stats["german_units_defeated"] += 1
        self.note("ddob.german", rule, unit=gid, position=pid, what=what)
        self.touch()

    def _do_attrition(self, uid: str | None) -> None:
        pid = str(self.ctx["target"])
        self.ctx = {}
        self.decision = None
        if uid is None:
            return
        self.note("ddob.attrition", ATTACK + ", Optional Attrition", unit=uid, position=pid)
        self.lose_steps(uid, 1, "optional attrition", ATTACK + ", Optional Attrition")
        self.pos[pid].depth = None
        self.pos[pid].depth_revealed = False

    def _do_barrage(self, uid: str, pid: str) -> None:
        self._done(uid)
        p: Position = self.scen.pos_by_id[pid]
        ps = self.pos[pid]
        gid = ps.unit
        assert gid is not None
        card = self.draw_card()
        symbol = self.naval_symbol(uid) if uid.startswith("NF") else self.unit(uid).symbol
        colour = p.colour in card.colours
        sym = symbol == card.symbol
        strength = self.strength(uid)
        result = rules.barrage_result(colour, sym, ps.depth is not None, strength)
        self.stats["barrages"] += 1
        self.note(
            "ddob.barrage",
            BARRAGE,
            unit=uid,
            position=pid,
            card=card.describe(),
            colour="yes" if colour else "no",
            symbol="yes" if sym else "no",
            depth="yes" if ps.depth is not None else "no",
            strength=strength,
            result=result.replace("_", " "),
        )
        if result in ("disrupt", "disrupt_remove_depth"):
            self.ger[gid].disrupted = True
        if result == "disrupt_remove_depth":
            ps.depth = None
            ps.depth_revealed = False
