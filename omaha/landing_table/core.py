"""The state's records and the queries every procedure shares.

:class:`Core` holds the game in progress: the US units (scheduled, ashore or
gone), the German units and positions (with depth markers), the fire card
deck and the cups, cleared obstacles, open exits and the pending decision. The
procedures live in mixins (:mod:`landing`, :mod:`german`, :mod:`combat`) and
the turn flow in :mod:`state`.

Reconstructed rules that the queries encode (stated here once):

* German communication: a hex is in German communication when a path of land
  hexes free of US units joins it to the southern map edge (row A).
* A position is *occupied* when a German unit stands in it.
"""

from __future__ import annotations

import copy
from collections import deque
from typing import Any

import attrs

from omaha.kernel.decks import Cup, Deck
from omaha.kernel.events import register_templates
from omaha.kernel.protocol import Outcome, State
from omaha.landing_table import rules
from omaha.landing_table.scenario import (
    PLATEAU_ROWS,
    SYMBOLS,
    TIDE_ORDER,
    TIDE_ROWS,
    Card,
    DDOBScenario,
    Position,
    USUnit,
)

register_templates(
    {
        "ddob.turn": "— {time}: turn {turn} begins (tide {tide}) —",
        "ddob.german_card": "fire card {card}: {colours} positions {act}: {positions}",
        "ddob.mine_card": "{unit} draws {card} for a mine check",
        "ddob.landing": "{unit} lands: card {card}, result {letter} on the {row} row: {effect}",
        "ddob.no_check": "{unit} lands without a landing-hazard check ({why})",
        "ddob.drift": "{unit} drifts from {start} to {end}",
        "ddob.overrun": "{unit} drifts past the east end: its craft comes back to {box} next turn",
        "ddob.lost_at_sea": "{unit} is lost at sea",
        "ddob.loses": "{unit} loses {steps} step(s) ({why}); {left} left",
        "ddob.eliminated": "{unit} is eliminated ({why})",
        "ddob.ashore": "{unit} comes ashore at {hex} ({box})",
        "ddob.mine": "{unit} strikes a mine at {hex}",
        "ddob.ranger": "{unit} chooses to drift {boxes} box(es) east",
        "ddob.follow": "{leader} {choice} {unit}",
        "ddob.fires": "{position} fires ({firer}, hit limit {limit})",
        "ddob.silent": "{position} does not fire ({why})",
        "ddob.idle": "{position} takes no action ({why})",
        "ddob.action": "{position} ({status}): action {letter} -> {action}",
        "ddob.reoccupy": "{unit} re-occupies {position}",
        "ddob.resupply": "{position} is re-supplied with a depth marker",
        "ddob.redeploy": "{unit} redeploys from {start} to {end}",
        "ddob.reinforce": "{unit} reinforces {position}{depth}",
        "ddob.advance": "{unit} advances from {start} to {end}",
        "ddob.disrupted": "{unit} is disrupted ({why})",
        "ddob.move": "{unit} moves {start} -> {end}",
        "ddob.attack": "attack on {position}: {attackers} strength {attack} vs {defense} "
        "(unit {unit_def}x{unit_mult}{depth_text}); weapons {weapons}{hero}; {compare} "
        "/ {column}: {results}",
        "ddob.reveal": "depth marker at {position} revealed: {marker}; now {attack} vs "
        "{defense}: {compare}: {results}",
        "ddob.german": "{unit} at {position}: {what}",
        "ddob.gains_depth": "{position} gains a depth marker",
        "ddob.attrition": "{unit} gives a step to eliminate the depth marker at {position}",
        "ddob.barrage": "{unit} barrages {position}: card {card}: colour {colour}, symbol "
        "{symbol}, depth {depth}, strength {strength}: {result}",
        "ddob.clear": "{unit} clears the obstacles at {hex}",
        "ddob.rally": "{leader} rallies {units}",
        "ddob.recover": "disruption ends for {units}",
        "ddob.tide": "rising tide floods row {row}: {units} eliminated",
        "ddob.cleared_all": "the tide and the engineers have cleared every obstacle",
        "ddob.exit": "exit {exit} ({name}) {state}",
        "ddob.end": "game over at {time}: {result}",
    }
)


@attrs.define
class USState:
    """A US unit in play (``where`` is a cell index, -1 off the map)."""

    id: str
    steps: int
    status: str = "scheduled"  # scheduled | ashore | eliminated | removed
    turn: int = 1
    box: int = 1
    where: int = -1
    no_check: bool = False
    disrupted: bool = False
    acted: bool = False
    landed_box: int = 0
    landed_turn: int = 0
    committed: bool = False


@attrs.define
class GermanState:
    id: str
    where: str  # a position id, "division", "eliminated", "removed"
    revealed: bool = True
    disrupted: bool = False


@attrs.define
class PositionState:
    unit: str | None = None
    depth: str | None = None
    depth_revealed: bool = False
    defeated: bool = False


class Core(State[DDOBScenario]):
    """Shared data and queries of a D-Day at Omaha Beach game."""

    scen: DDOBScenario
    turn: int
    _phase: str
    us: dict[str, USState]
    ger: dict[str, GermanState]
    pos: dict[str, PositionState]
    deck: Deck
    cups: dict[str, Cup]
    cleared: set[int]
    exits_open: dict[str, int]
    exits_first: dict[str, int]
    heroes: int
    naval_used: set[str]
    attacked: set[str]
    decision: dict[str, Any] | None
    queue: list[str]
    ctx: dict[str, Any]
    card: str | None
    seen: set[str]
    stats: dict[str, float]
    result: Outcome | None
    _ver: int
    _cache: dict[str, Any]

    def _init_fields(self) -> None:
        scenario = self.scenario
        self.scen = scenario
        self.turn = 1
        self._phase = "landing"
        self.us = {
            u.id: USState(u.id, u.kind.steps, "scheduled", u.turn, u.box) for u in scenario.us
        }
        self.ger = {}
        self.seen = set()
        self.pos = {p.id: PositionState() for p in scenario.positions}
        self.deck = Deck(scenario.cards)
        self.cups = {
            "716": Cup(scenario.depth_cups["716"]),
            "352": Cup(scenario.depth_cups["352"]),
            "division": Cup(scenario.division),
        }
        self.cleared = set()
        self.exits_open = {}
        self.exits_first = {}
        self.heroes = scenario.heroes
        self.naval_used = set()
        self.attacked = set()
        self.decision = None
        self.queue = []
        self.ctx = {}
        self.card = None
        self.stats = dict.fromkeys(STAT_KEYS, 0.0)
        self.result = None
        self._ver = 0
        self._cache = {}
        for gid in scenario.germans:
            self.ger[gid] = GermanState(gid, "reserve")
        for gid in scenario.division:
            self.ger[gid] = GermanState(gid, "division", revealed=False)
        for p in scenario.positions:
            if p.garrison is not None:
                g = self.ger[p.garrison]
                g.where = p.id
                g.revealed = p.kind == "wn"
                self.pos[p.id].unit = p.garrison
                self.seen.add(p.garrison)
            if p.depth:
                cup = "716" if p.kind == "wn" else "352"
                self.pos[p.id].depth = self.cups[cup].draw(self.dice)

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        """A fast exact copy (clones are on the hot path of search bots and tests)."""
        twin = type(self).__new__(type(self))
        memo[id(self)] = twin
        d = dict(self.__dict__)
        d["dice"] = copy.deepcopy(self.dice, memo)
        d["log"] = list(self.log)
        d["actions"] = list(self.actions)
        d["us"] = {k: attrs.evolve(v) for k, v in self.us.items()}
        d["ger"] = {k: attrs.evolve(v) for k, v in self.ger.items()}
        d["pos"] = {k: attrs.evolve(v) for k, v in self.pos.items()}
        d["deck"] = Deck.from_data(self.deck.to_data())
        d["cups"] = {k: Cup(c.contents) for k, c in self.cups.items()}
        for key in ("cleared", "naval_used", "attacked", "seen"):
            d[key] = set(d[key])
        for key in ("exits_open", "exits_first", "stats"):
            d[key] = dict(d[key])
        d["queue"] = list(self.queue)
        d["decision"] = copy.deepcopy(self.decision)
        d["ctx"] = copy.deepcopy(self.ctx)
        d["_cache"] = {}
        twin.__dict__.update(d)
        return twin

    # -- bookkeeping ---------------------------------------------------------------
    def touch(self) -> None:
        """Positions of units changed: drop the cached occupancy and communication."""
        self._ver += 1
        self._cache.clear()

    @property
    def board_rows(self) -> tuple[str, ...]:
        return self.scen.row_of

    def unit(self, uid: str) -> USUnit:
        return self.scen.us_by_id[uid]

    def strength(self, uid: str) -> int:
        if uid.startswith("NF"):
            return self.scen.naval_attack
        return self.unit(uid).kind.strength(self.us[uid].steps)

    def is_leader(self, uid: str) -> bool:
        return self.unit(uid).kind.leader

    def full(self, uid: str) -> bool:
        return self.us[uid].steps == self.unit(uid).kind.steps

    def time_of(self, turn: int) -> str:
        minutes = self.scen.start_minutes + (turn - 1) * self.scen.minutes
        return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"

    # -- tide -------------------------------------------------------------------------
    def tide(self, turn: int | None = None) -> str:
        t = self.turn if turn is None else turn
        level = "low"
        for start, lv in self.scen.tide:
            if start <= t:
                level = lv
        return level

    def flooded_rows(self, turn: int | None = None) -> frozenset[str]:
        """Beach rows under water: those seaward of the current tide row."""
        level = self.tide(turn)
        idx = TIDE_ORDER.index(level)
        return frozenset(TIDE_ROWS[lv] for lv in TIDE_ORDER[:idx])

    def flooded(self, cell: int) -> bool:
        return self.scen.row_of[cell] in self.flooded_rows()

    def tide_rising(self) -> bool:
        return self.turn > 1 and TIDE_ORDER.index(self.tide()) > TIDE_ORDER.index(
            self.tide(self.turn - 1)
        )

    def obstacle(self, cell: int) -> bool:
        """An uncleared beach-obstacle hex."""
        return cell in self.scen.obstacle_cells and cell not in self.cleared

    # -- occupancy ------------------------------------------------------------------
    def ashore(self) -> list[str]:
        """US units on the map, in order-of-battle order."""
        got = self._cache.get("ashore")
        if got is None:
            got = self._cache["ashore"] = [u for u, s in self.us.items() if s.status == "ashore"]
        return list(got)

    def us_at(self) -> dict[int, list[str]]:
        """US units ashore by cell (leaders included)."""
        got = self._cache.get("us_at")
        if got is None:
            got = {}
            for uid in self.ashore():
                got.setdefault(self.us[uid].where, []).append(uid)
            self._cache["us_at"] = got
        return dict(got)

    def steps_in(self, cell: int) -> int:
        """US steps in a hex, leaders not counted (concentrated target)."""
        return sum(self.us[u].steps for u in self.us_at().get(cell, ()) if not self.is_leader(u))

    def german_cells(self) -> dict[int, str]:
        """Occupied positions by cell."""
        got = self._cache.get("german_cells")
        if got is None:
            got = {
                self.scen.pos_by_id[pid].cell: pid
                for pid, ps in self.pos.items()
                if ps.unit is not None
            }
            self._cache["german_cells"] = got
        return dict(got)

    def occupied(self, pid: str) -> bool:
        return self.pos[pid].unit is not None

    def communication(self) -> frozenset[int]:
        """Land hexes in German communication (reconstructed: see the module doc)."""
        got = self._cache.get("comm")
        if got is None:
            board = self.scen.board
            rows = self.scen.row_of
            us_cells = set(self.us_at())
            land = [r not in TIDE_ROWS.values() for r in rows]
            seen = {c for c in range(len(board)) if rows[c] == "A" and c not in us_cells}
            todo = deque(sorted(seen))
            while todo:
                c = todo.popleft()
                for n in board.neighbours[c]:
                    if n not in seen and land[n] and n not in us_cells:
                        seen.add(n)
                        todo.append(n)
            got = self._cache["comm"] = frozenset(seen)
        return frozenset(got)

    def in_communication(self, pid: str) -> bool:
        return self.scen.pos_by_id[pid].cell in self.communication()

    def fof_units(self, p: Position, dots: tuple[str, ...] = rules.DOTS) -> list[str]:
        """US units (leaders excluded) in a position's field of fire with one of ``dots``."""
        out: list[str] = []
        for cell, uids in sorted(self.us_at().items()):
            if p.fof.get(cell) in dots:
                out.extend(u for u in uids if not self.is_leader(u))
        return out

    def plateau(self, cell: int) -> bool:
        """Above the bluff: "high ground" for German mortar fire (reconstructed reading)."""
        return self.scen.row_of[cell] in PLATEAU_ROWS

    # -- naval markers ---------------------------------------------------------------------
    def naval_ids(self) -> tuple[str, ...]:
        count = sum(n for t, n in self.scen.naval if t <= self.turn)
        return tuple(f"NF{i}" for i in range(1, count + 1))

    def naval_symbol(self, nid: str) -> str:
        return SYMBOLS[(int(nid[2:]) - 1) % len(SYMBOLS)]

    # -- cards and steps -------------------------------------------------------------------
    def draw_card(self) -> Card:
        """Draw a fire card (it goes to the discards; the deck reshuffles when empty)."""
        cid = self.deck.draw(self.dice)
        self.deck.discard(cid)
        return self.scen.cards[cid]

    def lose_steps(self, uid: str, n: int, why: str, rule: str) -> None:
        """Take ``n`` steps from a US unit; at none left it is eliminated."""
        s = self.us[uid]
        taken = min(n, s.steps)
        s.steps -= taken
        self.stats["us_steps_lost"] += taken
        if s.steps <= 0:
            self.eliminate(uid, why, rule, count=False)
        else:
            self.note("ddob.loses", rule, unit=uid, steps=taken, why=why, left=s.steps)
        self.touch()

    def eliminate(self, uid: str, why: str, rule: str, count: bool = True) -> None:
        s = self.us[uid]
        if count:
            self.stats["us_steps_lost"] += s.steps
        s.steps = 0
        s.status = "eliminated"
        s.where = -1
        s.disrupted = False
        self.note("ddob.eliminated", rule, unit=uid, why=why)
        self.touch()

    def disrupt(self, uid: str, why: str, rule: str) -> None:
        s = self.us[uid]
        if s.status == "ashore" and not s.disrupted:
            s.disrupted = True
            self.note("ddob.disrupted", rule, unit=uid, why=why)


STAT_KEYS = (
    "us_steps_committed",
    "us_steps_lost",
    "first_wave_planned",
    "first_wave_ashore",
    "landed",
    "landed_off_target",
    "dd_launched",
    "dd_ashore",
    "dukw_loaded",
    "dukw_lost",
    "german_units_defeated",
    "mines",
    "attacks",
    "barrages",
    "heroes_used",
    "exits_by_1200",
    "exits_by_1700",
    "wn_cleared",
)
