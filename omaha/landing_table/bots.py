"""Bots for D-Day at Omaha Beach: random (kernel) and a heuristic US player.

The heuristic US player uses only what the US may see (an unrevealed 352nd
unit is taken at an assumed strength, an unrevealed depth marker is unknown):

* landing: the box hex with the least German fire on it (and no mine if the
  card shows one); a Ranger drifts east when that takes it out of heavier fire
  (the 5th Rangers' diversion to Dog White); a leader drifts with his unit;
* German fire ties: the weakest of the tied units takes the hit;
* orders, unit by unit: engineers clear obstacle hexes while the landings go
  on; a unit attacks a position when it and the units still to act can meet
  the weapons requirements (spending a Hero for one missing weapon) with
  enough strength; artillery and naval fire barrage the position that covers
  most US steps; everyone else moves towards the nearest hex from which an
  occupied position can be attacked, an unopened exit or an unheld VP
  position, weighing German fire on the way and avoiding stacks of 5+ steps;
  units on a row the rising tide floods get off it first.
"""

from __future__ import annotations

import heapq
import weakref
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.board import Board
from omaha.kernel.dice import RandomDice
from omaha.kernel.movement import MovementGraph
from omaha.kernel.protocol import RandomBot, State
from omaha.landing_table import rules
from omaha.landing_table.actions import (
    Attack,
    Attrition,
    Barrage,
    Clear,
    Drift,
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
from omaha.landing_table.components.charts import CHARTS
from omaha.landing_table.core import LandingTableCore
from omaha.landing_table.procedures.attack import attack_plan, evaluate_attack
from omaha.landing_table.procedures.orders import MAX_ATTACKERS, can_attack

__all__ = ["HeuristicBot", "RandomBot"]

DOT_WEIGHT = {"intense": 3.0, "steady": 2.0, "sporadic": 1.0}
ASSUMED_DEFENSE = 6  # an unrevealed 352nd unit
INF = 10**6
DANGER_WEIGHT = 0.5  # German fire against progress when choosing a move


class DistanceFields:
    """Cheapest movement cost to a set of goal cells from every cell (static costs).

    The field of a goal set is the cell-wise minimum of the fields of its goal
    cells; each goal cell's field is one reverse Dijkstra, made once per graph and
    kept as a row of one matrix (a goal set's field is then one indexed minimum).
    """

    def __init__(self, graph: MovementGraph) -> None:
        n = len(graph.board)
        self._reverse: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for a in range(n):
            for b, c in graph.steps(a):
                self._reverse[b].append((a, c))
        #: row g: the cost from every cell to cell g, once ``_made[g]``
        self._rows: npt.NDArray[np.int64] = np.zeros((n, n), dtype=np.int64)
        self._made = bytearray(n)

    def _row(self, goal: int) -> None:
        """Fill the row of ``goal`` (a reverse Dijkstra)."""
        rev = self._reverse
        best = [INF] * len(rev)
        best[goal] = 0
        heap = [(0, goal)]
        while heap:
            d, b = heapq.heappop(heap)
            if d > best[b]:
                continue
            for a, c in rev[b]:
                nd = d + c
                if nd < best[a]:
                    best[a] = nd
                    heapq.heappush(heap, (nd, a))
        self._rows[goal] = best
        self._made[goal] = 1

    def to(self, goals: Iterable[int]) -> list[int]:
        """Cost from every cell to the nearest of ``goals`` (INF where none is reachable)."""
        cells = sorted(set(goals))
        if not cells:
            return [INF] * len(self._reverse)
        made = self._made
        for g in cells:
            if not made[g]:
                self._row(g)
        field: list[int] = self._rows[cells].min(axis=0).tolist()
        return field


_FIELDS: weakref.WeakKeyDictionary[MovementGraph, DistanceFields] = weakref.WeakKeyDictionary()


def distance_fields(graph: MovementGraph) -> DistanceFields:
    """The distance fields of a movement graph (made once)."""
    got = _FIELDS.get(graph)
    if got is None:
        got = _FIELDS[graph] = DistanceFields(graph)
    return got


_ATTACK_CELLS: weakref.WeakKeyDictionary[Board, dict[tuple[int, int], tuple[int, ...]]] = (
    weakref.WeakKeyDictionary()
)


def attack_cells(board: Board, cell: int, reach: int) -> tuple[int, ...]:
    """Cells within ``reach`` from which ``cell`` may be attacked (cached, pure)."""
    memo = _ATTACK_CELLS.get(board)
    if memo is None:
        memo = _ATTACK_CELLS[board] = {}
    got = memo.get((cell, reach))
    if got is None:
        got = memo[(cell, reach)] = tuple(
            c
            for c in board.within(cell, reach)
            if c != cell and not rules.approach(board, c, cell).prohibited
        )
    return got


class HeuristicBot:
    """A sensible US player (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = RandomDice(seed)
        self._fields: dict[tuple[object, ...], list[int]] = {}
        self._danger: dict[tuple[object, ...], dict[int, float]] = {}
        self._attack: dict[tuple[object, ...], frozenset[int]] = {}

    def choose(self, state: State[Any]) -> Action:
        if not isinstance(state, LandingTableCore):
            raise IllegalAction("this bot plays D-Day at Omaha Beach only")
        if state.current_player() != "US":
            raise IllegalAction("the heuristic bot plays the US side only")
        d = state.decision
        assert d is not None
        kind = d["kind"]
        legal = state.legal_actions()
        if kind == "land":
            return self._land(state, legal)
        if kind == "drift":
            return self._drift(state, legal)
        if kind == "follow":
            return state.lookup.action(Follow, str(d["unit"]), True)
        if kind == "hit":
            return min(
                (a for a in legal if isinstance(a, Hit)),
                key=lambda a: (state.strength(a.unit), a.unit),
            )
        if kind == "attrition":
            able = [a for a in legal if isinstance(a, Attrition) and state.us[a.unit].steps >= 2]
            return able[0] if able else state.lookup.action(NoAttrition)
        if kind == "attack":
            return self._build_attack(state, legal)
        return self._orders(state, str(d["unit"]), legal)

    def ranked(self, state: State[Any]) -> list[Action]:
        """The legal actions best first, this bot's choice first (the search agent's
        candidates): for a unit's orders the attacks it would make (smallest group
        first), the barrages by threat, then the moves by the score it moves by; for
        a landing the boxes by risk; the unscored rest in listing order."""
        first = self.choose(state)
        assert isinstance(state, LandingTableCore)
        legal = state.legal_actions()
        d = state.decision
        assert d is not None
        scored: list[tuple[tuple[float, float, str], Action]] = []
        if d["kind"] == "land":
            danger = self.danger(state)
            board = state.scen.board
            for a in legal:
                if isinstance(a, Land):
                    scored.append(((0.0, danger.get(board.cell(a.hex), 0.0), a.hex), a))
        elif d["kind"] == "orders" and not str(d["unit"]).startswith("NF"):
            uid = str(d["unit"])
            for a in legal:
                if isinstance(a, Attack):
                    group = self._best_group(state, a.target, uid)
                    if group is not None:
                        scored.append(((0.0, len(group), str(a)), a))
                elif isinstance(a, Barrage):
                    scored.append(((1.0, -self._threat(state, a), str(a)), a))
            moves = [a for a in legal if isinstance(a, Move)]
            for (score, label), a in self._move_options(state, uid, moves, allow_hold=True):
                scored.append(((2.0, score, label), a))
        scored.sort(key=lambda x: x[0])
        out, seen = [first], {str(first)}
        for _, a in scored:
            if str(a) not in seen:
                out.append(a)
                seen.add(str(a))
        out.extend(a for a in legal if str(a) not in seen)
        return out

    # -- appraisal ------------------------------------------------------------------------
    def danger(self, state: LandingTableCore) -> dict[int, float]:
        """German fire weight per cell, from occupied positions (public information)."""
        german = state.german_by_cell()
        key = (id(state.scen), german)
        got = self._danger.get(key)
        if got is None:
            got = {}
            occupied = [p.id for p in state.scen.positions if state.occupied(p.id)]
            for pid in occupied:
                for cell, dot in state.scen.pos_by_id[pid].fof.items():
                    got[cell] = got.get(cell, 0.0) + DOT_WEIGHT[dot]
            if len(self._danger) > 64:
                self._danger.clear()
            self._danger[key] = got
        return got

    def _land(self, state: LandingTableCore, legal: tuple[Action, ...]) -> Action:
        d = state.decision
        assert d is not None
        card = d.get("card")
        mine = card is not None and state.scen.cards[str(card)].mine and rules.mine_turn(state.turn)
        danger = self.danger(state)
        board = state.scen.board

        def score(a: Action) -> tuple[float, float, str]:
            assert isinstance(a, Land)
            cell = board.cell(a.hex)
            risk = 1.0 if mine and state.obstacle(cell) else 0.0
            return (risk, danger.get(cell, 0.0), a.hex)

        return min(legal, key=score)

    def _drift(self, state: LandingTableCore, legal: tuple[Action, ...]) -> Action:
        d = state.decision
        assert d is not None
        danger = self.danger(state)
        box = int(d["box"])

        def score(a: Action) -> tuple[float, int]:
            assert isinstance(a, Drift)
            cells = state.land_options(box + a.boxes)
            return (min(danger.get(c, 0.0) for c in cells), a.boxes)

        return min(legal, key=score)

    # -- attacks ------------------------------------------------------------------------------
    def _defense_guess(
        self, state: LandingTableCore, pid: str, attackers: list[str]
    ) -> tuple[int, bool]:
        """(estimated defence to beat, weapons met?) from what the US can see."""
        gid = state.pos[pid].unit
        assert gid is not None
        plan = evaluate_attack(state, pid, attackers, False)
        ps = state.pos[pid]
        if state.ger[gid].revealed:
            unit_def = plan["unit_def"]
            ok = plan["verdict"].ok or (
                state.heroes > 0 and evaluate_attack(state, pid, attackers, True)["verdict"].ok
            )
        else:
            unit_def = ASSUMED_DEFENSE * plan["unit_mult"]
            ok = len(plan["weapons"]) >= 5
        marker = 0
        if ps.depth is not None:
            if ps.depth_revealed:
                marker = (0 if ps.depth == "TR" else int(ps.depth)) * plan["depth_mult"]
            else:
                marker = 2 * plan["depth_mult"]
        return unit_def + marker, ok

    def _good_attack(self, state: LandingTableCore, pid: str, attackers: list[str]) -> bool:
        defense, ok = self._defense_guess(state, pid, attackers)
        attack = sum(state.strength(u) for u in attackers)
        return ok and attack > defense

    def _candidates(self, state: LandingTableCore, pid: str, first: str) -> list[str]:
        """Units still to act that could join an attack on ``pid`` (strongest first)."""
        out = []
        naval = first.startswith("NF")
        distances = state.lookup.distances(state.scen.pos_by_id[pid].cell)
        longest = state.lookup.longest_range
        spotted: bool | None = None  # whether a Naval Fire Marker may fire at pid
        for uid in state.queue:
            if uid == first:
                continue
            if uid.startswith("NF"):
                if not naval and uid not in state.naval_used:
                    if spotted is None:
                        spotted = pid in state.naval_targets()
                    if spotted:
                        out.append(uid)
                        naval = True
                continue
            s = state.us[uid]
            # a quick test first: no unit attacks from farther than the longest range
            near = s.status == "ashore" and distances[s.where] <= longest
            if near and can_attack(state, uid, pid):
                out.append(uid)
        return sorted(out, key=lambda u: (-state.strength(u), u))

    def _best_group(self, state: LandingTableCore, pid: str, first: str) -> list[str] | None:
        group = [first]
        if self._good_attack(state, pid, group):
            return group
        for uid in self._candidates(state, pid, first):
            if len(group) >= MAX_ATTACKERS:
                break
            group.append(uid)
            if self._good_attack(state, pid, group):
                return group
        return None

    def _build_attack(self, state: LandingTableCore, legal: tuple[Action, ...]) -> Action:
        pid = str(state.ctx["target"])
        attackers = list(state.ctx["attackers"])
        if not self._good_attack(state, pid, attackers):
            joins = [a for a in legal if isinstance(a, Join)]
            if joins:
                return max(joins, key=lambda a: (state.strength(a.unit), a.unit))
        hero = state.lookup.action(ResolveHero)
        if hero in legal and not attack_plan(state)["verdict"].ok:
            return hero
        return state.lookup.action(Resolve)

    # -- orders -----------------------------------------------------------------------------
    def _orders(self, state: LandingTableCore, uid: str, legal: tuple[Action, ...]) -> Action:
        if uid.startswith("NF"):
            hold = state.lookup.action(Hold, uid)
            return self._barrage(state, [a for a in legal if isinstance(a, Barrage)]) or hold
        s = state.us[uid]
        board = state.scen.board
        if state.tide_rising() and state.flooded(s.where):
            moves = [a for a in legal if isinstance(a, Move)]
            dry = [a for a in moves if not state.flooded(board.cell(a.hex))]
            if dry:
                return self._best_move(state, uid, dry, allow_hold=False)
        if state.turn < 20:  # the only Clear a unit is offered is its own
            clear = next((a for a in legal if isinstance(a, Clear)), None)
            if clear is not None:
                return clear
        attacks = [a for a in legal if isinstance(a, Attack)]
        best: tuple[int, Attack] | None = None
        for a in attacks:
            group = self._best_group(state, a.target, uid)
            if group is not None:
                key = len(group)
                if best is None or key < best[0]:
                    best = (key, a)
        if best is not None:
            return best[1]
        barrage = self._barrage(state, [a for a in legal if isinstance(a, Barrage)])
        if barrage is not None:
            return barrage
        moves = [a for a in legal if isinstance(a, Move)]
        if moves:
            return self._best_move(state, uid, moves, allow_hold=True)
        return state.lookup.action(Hold, uid)

    def _barrage(self, state: LandingTableCore, options: list[Barrage]) -> Action | None:
        if not options:
            return None

        def threat(a: Barrage) -> tuple[int, str]:
            return (self._threat(state, a), a.target)

        best = max(options, key=threat)
        return best if threat(best)[0] > 0 else None

    def _threat(self, state: LandingTableCore, a: Barrage) -> int:
        """A barrage's worth: the steps the target's fire reaches, 0 if it is disrupted."""
        p = state.scen.pos_by_id[a.target]
        gid = state.pos[a.target].unit
        disrupted = gid is not None and state.ger[gid].disrupted
        return 0 if disrupted else state.fof_steps(p, ("intense", "steady"))

    def _goals(self, state: LandingTableCore, uid: str) -> frozenset[int]:
        """Where a unit wants to go: next to an occupied position (in range for
        vehicles), onto a cleared strongpoint nobody holds (so it is not
        re-occupied), an unopened exit, or an unheld VP position. A leader goes
        where units are disrupted, to rally them."""
        k = state.unit(uid).kind
        us_cells = state.us_at()
        if k.leader:
            shaken = {
                state.us[u].where
                for u in state.ashore()
                if state.us[u].disrupted and not state.is_leader(u)
            }
            if shaken:
                return frozenset(shaken)
        reach = max(1, state.unit_range(uid)) if k.move == "vehicle" else 1
        goals = set(self._attack_goals(state, reach))
        for e in state.scen.exits:
            if e.id not in state.exits_open:
                goals.add(e.cell)
        for p in state.scen.positions:
            ps = state.pos[p.id]
            if ps.unit is not None or p.cell in us_cells:
                continue
            if (p.kind == "wn" and ps.defeated) or (p.vp > 0 and not ps.defeated):
                goals.add(p.cell)
        return frozenset(goals)

    def _attack_goals(self, state: LandingTableCore, reach: int) -> frozenset[int]:
        """Free cells from which an occupied position may be attacked at ``reach``."""
        german = state.german_by_cell()
        key = (id(state.scen), german, reach)
        got = self._attack.get(key)
        if got is None:
            cells = {cell for cell, _ in german}
            board = state.scen.board
            got = frozenset(
                c for cell in cells for c in attack_cells(board, cell, reach) if c not in cells
            )
            if len(self._attack) > 256:
                self._attack.clear()
            self._attack[key] = got
        return got

    def _field(self, state: LandingTableCore, uid: str) -> list[int]:
        k = state.unit(uid).kind
        goals = self._goals(state, uid)
        key = (id(state.scen), k.move, goals)
        got = self._fields.get(key)
        if got is None:
            if len(self._fields) > 256:
                self._fields.clear()
            got = self._fields[key] = distance_fields(state.scen.moves[k.move]).to(goals)
        return got

    def _best_move(
        self, state: LandingTableCore, uid: str, moves: Sequence[Action], allow_hold: bool
    ) -> Action:
        return min(self._move_options(state, uid, moves, allow_hold), key=lambda x: x[0])[1]

    def _move_options(
        self, state: LandingTableCore, uid: str, moves: Sequence[Action], allow_hold: bool
    ) -> list[tuple[tuple[float, str], Action]]:
        """Each move (and holding, if allowed) with its score, lower better."""
        board = state.scen.board
        field = self._field(state, uid)
        danger = self.danger(state)
        s = state.us[uid]
        own = 0 if state.is_leader(uid) else s.steps
        flood_next = state.scen.flood_cells[state.tide(min(state.turn + 1, 32))]

        def score(cell: int) -> tuple[float, str]:
            dist = field[cell] if field[cell] < INF else 50
            stack = state.steps_in(cell) + (0 if cell == s.where else own)
            crowd = 4.0 if stack >= CHARTS.concentrated_steps else 0.0
            wet = 20.0 if cell in flood_next else 0.0
            return (
                3.0 * dist + DANGER_WEIGHT * danger.get(cell, 0.0) + crowd + wet,
                board.labels[cell],
            )

        cells = state.lookup.cells
        options: list[tuple[tuple[float, str], Action]] = [
            (score(cells[a.hex]), a) for a in moves if isinstance(a, Move)
        ]
        if allow_hold:
            options.append((score(s.where), state.lookup.action(Hold, uid)))
        return options
