"""The typed data core of a D-Day at Omaha Beach game in progress.

:class:`LandingTableCore` holds every mutable field of a game: the turn and
phase, the US units (scheduled, ashore or gone), the German units and
positions (with depth markers), the fire card deck and the depth cups, cleared
obstacles, open exits, the pending decision and the statistics. Its methods
are small queries (where units are, the tide, German communication, victory
points) and mutators (draw a card, lose a step, disrupt). The procedures of
play are functions over the core in :mod:`omaha.landing_table.procedures`; the
sequence of play is :mod:`omaha.landing_table.state`.

Tests and tools stage positions by changing the public fields inside
``state.edit()``; every cache derived from them is dropped.
"""

from __future__ import annotations

import enum
from collections import deque
from typing import Any

import attrs

from omaha.kernel.actions import Action
from omaha.kernel.decks import Cup, Deck
from omaha.kernel.events import register_templates
from omaha.kernel.protocol import Outcome, State
from omaha.landing_table import rules
from omaha.landing_table.components.cards import SYMBOLS, Card
from omaha.landing_table.components.charts import DOTS
from omaha.landing_table.components.forces import USUnit
from omaha.landing_table.components.positions import Position
from omaha.landing_table.components.terrain import PLATEAU_ROWS, TIDE_ORDER, TIDE_ROWS
from omaha.landing_table.scenario import LandingTableScenario

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


class Phase(enum.Enum):
    """The phases of a turn (sequence of play, reconstructed: READINGS.md)."""

    LANDING = "landing"
    GERMAN_FIRE = "german fire"
    GERMAN_ACTION = "german action"
    US_ACTION = "us action"
    END = "end"


#: US unit statuses.
SCHEDULED, ASHORE, ELIMINATED, REMOVED = "scheduled", "ashore", "eliminated", "removed"
#: Where a German unit out of its positions is.
GERMAN_PLACES = ("reserve", "division", "eliminated", "removed")


@attrs.define
class USState:
    """A US unit in play (``where`` is a cell index, -1 off the map)."""

    id: str
    steps: int
    status: str = SCHEDULED  # scheduled | ashore | eliminated | removed
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
    """A German unit: ``where`` is a position id or one of :data:`GERMAN_PLACES`."""

    id: str
    where: str
    revealed: bool = True
    disrupted: bool = False


@attrs.define
class PositionState:
    """What stands in a German position: its unit and depth marker."""

    unit: str | None = None
    depth: str | None = None
    depth_revealed: bool = False
    defeated: bool = False


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


class LandingTableCore(State[LandingTableScenario]):
    """Every field of a D-Day at Omaha Beach game in progress, and the shared queries.

    ``decision`` is the pending decision as data (``{"kind": "land", "unit":
    ..., "box": ..., "card": ...}`` and so on), ``queue`` the units or
    positions still to act in the current phase, ``ctx`` what the procedure
    under way remembers (the attack being built, the fire being resolved).
    """

    turn: int
    current_phase: Phase
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
    #: Cache: the orders each unit may be given now (procedures.orders); dropped by touch().
    orders_cache: dict[str, list[Action]]
    _cache: dict[str, Any]

    def init_fields(self) -> None:
        """The fields of a new game: units on the schedule, garrisons, depth markers drawn."""
        scenario = self.scenario
        self.turn = 1
        self.current_phase = Phase.LANDING
        self.us = {u.id: USState(u.id, u.kind.steps, SCHEDULED, u.turn, u.box) for u in scenario.us}
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
        self.init_caches()
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

    def _copy(self) -> LandingTableCore:
        """A structural copy (clones are on the hot path of search bots and tests)."""
        twin = self._copy_base()
        assert isinstance(twin, LandingTableCore)
        twin.us = {k: attrs.evolve(v) for k, v in self.us.items()}
        twin.ger = {k: attrs.evolve(v) for k, v in self.ger.items()}
        twin.pos = {k: attrs.evolve(v) for k, v in self.pos.items()}
        twin.deck = Deck.from_data(self.deck.to_data())
        twin.cups = {k: Cup(c.contents) for k, c in self.cups.items()}
        twin.cleared = set(self.cleared)
        twin.naval_used = set(self.naval_used)
        twin.attacked = set(self.attacked)
        twin.seen = set(self.seen)
        twin.exits_open = dict(self.exits_open)
        twin.exits_first = dict(self.exits_first)
        twin.stats = dict(self.stats)
        twin.queue = list(self.queue)
        twin.decision = _copy_data(self.decision)
        twin.ctx = _copy_data(self.ctx)
        twin.init_caches()
        return twin

    # -- protocol basics ----------------------------------------------------------
    @property
    def scen(self) -> LandingTableScenario:
        """The scenario (short name used throughout the procedures)."""
        return self.scenario

    @property
    def turn_label(self) -> str:
        return f"Turn {self.turn} ({self.time_of(self.turn)})"

    @property
    def phase(self) -> str:
        return self.current_phase.value

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    # -- caches ---------------------------------------------------------------------
    def init_caches(self) -> None:
        """Empty caches (a new, restored or copied game)."""
        self.orders_cache = {}
        self._cache = {}

    def touch(self) -> None:
        """Units moved or changed: drop every cache derived from the fields."""
        self._cache.clear()
        self.orders_cache.clear()

    def _drop_caches(self) -> None:
        self.touch()

    # -- units ------------------------------------------------------------------------
    def unit(self, uid: str) -> USUnit:
        return self.scenario.us_by_id[uid]

    def strength(self, uid: str) -> int:
        """Attack strength of a unit now (a Naval Fire Marker: the scenario's value)."""
        if uid.startswith("NF"):
            return self.scenario.naval_attack
        return self.unit(uid).kind.strength(self.us[uid].steps)

    def is_leader(self, uid: str) -> bool:
        return self.unit(uid).kind.leader

    def full(self, uid: str) -> bool:
        return self.us[uid].steps == self.unit(uid).kind.steps

    def unit_range(self, uid: str) -> int:
        """Attack range; a reduced 9-2 unit has range 1 (READINGS.md)."""
        k = self.unit(uid).kind
        if k.range == 2 and not self.full(uid):
            return 1
        return k.range

    def weapons(self, uid: str, distance: int) -> frozenset[str]:
        """The weapons a unit (or Naval Fire Marker) brings at ``distance`` (US Weapons Chart)."""
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

    def time_of(self, turn: int) -> str:
        minutes = self.scenario.start_minutes + (turn - 1) * self.scenario.minutes
        return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"

    # -- tide -------------------------------------------------------------------------
    def tide(self, turn: int | None = None) -> str:
        t = self.turn if turn is None else turn
        level = "low"
        for start, lv in self.scenario.tide:
            if start <= t:
                level = lv
        return level

    def flooded_rows(self, turn: int | None = None) -> frozenset[str]:
        """Beach rows under water: those seaward of the current tide row."""
        level = self.tide(turn)
        idx = TIDE_ORDER.index(level)
        return frozenset(TIDE_ROWS[lv] for lv in TIDE_ORDER[:idx])

    def flooded(self, cell: int) -> bool:
        return self.scenario.row_of[cell] in self.flooded_rows()

    def tide_rising(self) -> bool:
        return self.turn > 1 and TIDE_ORDER.index(self.tide()) > TIDE_ORDER.index(
            self.tide(self.turn - 1)
        )

    def obstacle(self, cell: int) -> bool:
        """An uncleared beach-obstacle hex."""
        return cell in self.scenario.obstacle_cells and cell not in self.cleared

    def land_options(self, box: int) -> tuple[int, ...]:
        """The hexes of landing box ``box`` on the row of the tide."""
        return self.scenario.box_cells[(box, self.tide())]

    def plateau(self, cell: int) -> bool:
        """Above the bluff: "high ground" for German mortar fire (READINGS.md)."""
        return self.scenario.row_of[cell] in PLATEAU_ROWS

    # -- occupancy --------------------------------------------------------------------
    def ashore(self) -> list[str]:
        """US units on the map, in order-of-battle order."""
        got = self._cache.get("ashore")
        if got is None:
            got = self._cache["ashore"] = [u for u, s in self.us.items() if s.status == ASHORE]
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
                self.scenario.pos_by_id[pid].cell: pid
                for pid, ps in self.pos.items()
                if ps.unit is not None
            }
            self._cache["german_cells"] = got
        return dict(got)

    def occupied(self, pid: str) -> bool:
        return self.pos[pid].unit is not None

    def communication(self) -> frozenset[int]:
        """Land hexes in German communication: joined to the southern edge (row A) by
        land hexes free of US units (reconstructed: READINGS.md)."""
        got = self._cache.get("comm")
        if got is None:
            board = self.scenario.board
            rows = self.scenario.row_of
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
        return self.scenario.pos_by_id[pid].cell in self.communication()

    def fof_units(self, p: Position, dots: tuple[str, ...] = DOTS) -> list[str]:
        """US units (leaders excluded) in a position's field of fire with one of ``dots``."""
        out: list[str] = []
        for cell, uids in sorted(self.us_at().items()):
            if p.fof.get(cell) in dots:
                out.extend(u for u in uids if not self.is_leader(u))
        return out

    # -- movement ---------------------------------------------------------------------
    def reachable(self, uid: str) -> dict[int, int]:
        """Cells the unit may move to now, with their cost (movement, reconstructed:
        not into German-occupied or flooded hexes; stop next to an occupied position;
        vehicles through a draw only once it is open; a disrupted unit one hex)."""
        key = f"reach:{uid}"
        got = self._cache.get(key)
        if got is not None:
            return dict(got)
        s = self.us[uid]
        k = self.unit(uid).kind
        graph = self.scenario.moves[k.move]
        german = self.german_cells()
        blocked = set(german) | self.scenario.flood_cells[self.tide()]
        stop = self.stop_cells()
        extra = self._gate if k.move == "vehicle" else None
        reach = graph.reachable(s.where, k.mp, blocked=blocked, stop=stop, extra=extra)
        if s.disrupted:
            near = self.scenario.board.neighbours[s.where]
            reach = {c: v for c, v in reach.items() if c in near or c == s.where}
        self._cache[key] = reach
        return dict(reach)

    def _gate(self, a: int, b: int) -> int | None:
        draw = self.scenario.gates.get((a, b))
        if draw is not None and draw not in self.exits_open:
            return None
        return 0

    def stop_cells(self) -> frozenset[int]:
        """Hexes next to an occupied position: a moving unit stops on entering one."""
        got = self._cache.get("stop")
        if got is None:
            board = self.scenario.board
            got = frozenset(n for c in self.german_cells() for n in board.neighbours[c])
            self._cache["stop"] = got
        return frozenset(got)

    # -- naval markers ----------------------------------------------------------------
    def naval_ids(self) -> tuple[str, ...]:
        """The Naval Fire Markers in play this turn."""
        count = sum(n for t, n in self.scenario.naval if t <= self.turn)
        return tuple(f"NF{i}" for i in range(1, count + 1))

    def naval_symbol(self, nid: str) -> str:
        return SYMBOLS[(int(nid[2:]) - 1) % len(SYMBOLS)]

    def naval_targets(self) -> list[str]:
        """WN positions a Naval Fire Marker may fire at: an undisrupted unit with a radio
        (RD) within the scenario's spotting range (reconstructed)."""
        got = self._cache.get("naval_targets")
        if got is None:
            board = self.scenario.board
            spotters = [
                self.us[u].where
                for u in self.ashore()
                if "RD" in self.weapons(u, 1) and not self.us[u].disrupted
            ]
            got = [
                pid
                for cell, pid in sorted(self.german_cells().items())
                if self.scenario.pos_by_id[pid].kind == "wn"
                and any(board.distance(c, cell) <= self.scenario.naval_spot for c in spotters)
            ]
            self._cache["naval_targets"] = got
        return list(got)

    # -- victory ----------------------------------------------------------------------
    def victory_points(self) -> tuple[int, int, int]:
        """(VP, VP positions scoring, VP positions) at this moment (reconstructed victory:
        a VP position clear of Germans that the US holds or where a German unit was
        defeated scores its vp times the scenario's weight; each open exit scores)."""
        vp = 0
        held = total = 0
        us_cells = self.us_at()
        for p in self.scenario.positions:
            if p.vp <= 0:
                continue
            total += 1
            ps = self.pos[p.id]
            if ps.unit is None and (ps.defeated or p.cell in us_cells):
                held += 1
                vp += p.vp * self.scenario.vp_position
        vp += self.scenario.vp_exit * len(self.exits_open)
        return vp, held, total

    # -- mutators ---------------------------------------------------------------------
    def draw_card(self) -> Card:
        """Draw a fire card (it goes to the discards; the deck reshuffles when empty)."""
        cid = self.deck.draw(self.dice)
        self.deck.discard(cid)
        return self.scenario.cards[cid]

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
        s.status = ELIMINATED
        s.where = -1
        s.disrupted = False
        self.note("ddob.eliminated", rule, unit=uid, why=why)
        self.touch()

    def disrupt(self, uid: str, why: str, rule: str) -> None:
        s = self.us[uid]
        if s.status == ASHORE and not s.disrupted:
            s.disrupted = True
            self.note("ddob.disrupted", rule, unit=uid, why=why)

    def place_german(self, gid: str, pid: str, revealed: bool) -> None:
        """A German unit enters an empty position."""
        g = self.ger[gid]
        self.seen.add(gid)
        g.where = pid
        g.revealed = revealed
        g.disrupted = False
        self.pos[pid].unit = gid
        self.touch()

    def shift_german(self, src: str, dst: str) -> None:
        """A unit and its depth marker move from one position to another."""
        a, b = self.pos[src], self.pos[dst]
        gid = a.unit
        assert gid is not None
        b.unit, b.depth, b.depth_revealed = gid, a.depth, a.depth_revealed
        a.unit, a.depth, a.depth_revealed = None, None, False
        self.ger[gid].where = dst
        self.touch()


def _copy_data(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _copy_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_data(v) for v in value]
    return value
