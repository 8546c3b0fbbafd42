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

import bisect
import enum
import weakref
from collections.abc import Mapping
from typing import Any

import attrs

from omaha.kernel.actions import Action
from omaha.kernel.decks import Cup, Deck
from omaha.kernel.events import register_templates
from omaha.kernel.observation import Journal
from omaha.kernel.protocol import Outcome, State
from omaha.landing_table import rules
from omaha.landing_table.actions import Move
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


class Phase(enum.StrEnum):
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
#: The observation's entities besides the US units (their ids, and ``("act", id)``
#: whether one waits for its orders), the positions
#: (``("pos", i)``, and ``("fof", i)`` the field of fire of one held) and the obstacle
#: hexes (``("hex", c)``): the turn, phase and fire card, the flooded hexes, the open
#: exits and the Naval Fire Markers.
CLOCK, TIDE, EXITS, NAVAL = ("clock",), ("tide",), ("exits",), ("naval",)


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

    def copy(self) -> USState:
        return USState(
            self.id,
            self.steps,
            self.status,
            self.turn,
            self.box,
            self.where,
            self.no_check,
            self.disrupted,
            self.acted,
            self.landed_box,
            self.landed_turn,
            self.committed,
        )


@attrs.define
class GermanState:
    """A German unit: ``where`` is a position id or one of :data:`GERMAN_PLACES`."""

    id: str
    where: str
    revealed: bool = True
    disrupted: bool = False

    def copy(self) -> GermanState:
        return GermanState(self.id, self.where, self.revealed, self.disrupted)


@attrs.define
class PositionState:
    """What stands in a German position: its unit and depth marker."""

    unit: str | None = None
    depth: str | None = None
    depth_revealed: bool = False
    defeated: bool = False

    def copy(self) -> PositionState:
        return PositionState(self.unit, self.depth, self.depth_revealed, self.defeated)


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

    Writing a unit, German unit or position goes through :meth:`own_us`,
    :meth:`own_ger` and :meth:`own_pos` (a clone shares the records with its
    original until one of them writes), and changes that move units, the queue, the
    attacks declared, cleared obstacles and open exits go through the mutators, which
    keep the caches right and note what changed in ``journal`` for a kept observation.
    Tests and tools write the fields directly inside ``state.edit()``.
    """

    turn: int
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
    #: Pure tables of the scenario (shared by every game of it).
    lookup: Lookup
    _phase: Phase
    _phase_text: str
    _label: tuple[int, str]
    # Records shared with a clone are copied before a write: what this core owns.
    _owned_us: set[str]
    _owned_ger: set[str]
    _owned_pos: set[str]
    _owned_deck: bool
    _owned_cups: set[str]
    # Caches derived from the fields (see _forget_units, _forget_germans, touch).
    _ashore: tuple[str, ...]
    _at: dict[int, tuple[str, ...]]
    _german_at: dict[int, str] | None
    _german_sorted: tuple[tuple[int, str], ...]
    _german_key: int
    _stop: frozenset[int] | None
    _comm: frozenset[int] | None
    _naval_targets: tuple[str, ...] | None
    #: Cache: US steps per hex (:meth:`steps_in`), an entry dropped when a unit enters or
    #: leaves its hex or loses steps there (:meth:`_steps_changed`), all of it by touch.
    _steps_at: dict[int, int]
    #: Cache: the orders a unit may be given now (procedures.orders), dropped on any change.
    orders_cache: dict[str, tuple[Action, ...]]
    #: While an observation is kept (:mod:`.observation`): the entities changed since,
    #: noted by the mutators; None while nobody observes.
    journal: Journal | None = None

    def init_fields(self) -> None:
        """The fields of a new game: units on the schedule, garrisons, depth markers drawn."""
        scenario = self.scenario
        self.lookup = lookup_for(scenario)
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
        for gid in scenario.germans:
            self.ger[gid] = GermanState(gid, "reserve")
        for gid in scenario.division:
            self.ger[gid] = GermanState(gid, "division", revealed=False)
        self.init_caches()
        for p in scenario.positions:
            if p.garrison is not None:
                g = self.ger[p.garrison]
                g.where = p.id
                g.revealed = p.kind == "wn"
                self.pos[p.id].unit = p.garrison
                self.seen.add(p.garrison)
            if p.depth:
                cup = "716" if p.kind == "wn" else "352"
                self.pos[p.id].depth = self.draw_from(cup)
        self.touch()

    def __deepcopy__(self, memo: dict[int, Any]) -> LandingTableCore:
        """``copy.deepcopy`` (OpenSpiel clones its states so) is the structural copy."""
        return self._copy()

    def _copy(self) -> LandingTableCore:
        """A structural copy: records are shared until either side writes one."""
        twin = self._copy_base()
        assert isinstance(twin, LandingTableCore)
        for core in (self, twin):
            core._owned_us = set()
            core._owned_ger = set()
            core._owned_pos = set()
            core._owned_deck = False
            core._owned_cups = set()
        twin.us = dict(self.us)
        twin.ger = dict(self.ger)
        twin.pos = dict(self.pos)
        twin.cups = dict(self.cups)
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
        twin._at = dict(self._at)  # values are tuples, replaced on change
        twin.orders_cache = {}
        twin._steps_at = dict(self._steps_at)  # entries are dropped in place
        # the kept observation shared until one of the two changes it (copy on write)
        twin.journal = self.journal.copy() if self.journal is not None else None
        return twin

    # -- protocol basics ----------------------------------------------------------
    @property
    def scen(self) -> LandingTableScenario:
        """The scenario (short name used throughout the procedures)."""
        return self.scenario

    @property
    def current_phase(self) -> Phase:
        return self._phase

    @current_phase.setter
    def current_phase(self, phase: Phase) -> None:
        self._phase = phase
        self._phase_text = phase.value
        if self.journal is not None:  # the tide, the markers in play, who waits for orders
            self.journal.update((CLOCK, TIDE, NAVAL))
            for uid in self.queue:
                self._note_queued(uid)

    @property
    def turn_label(self) -> str:
        label = self._label
        if label[0] != self.turn:
            label = self._label = (self.turn, f"Turn {self.turn} ({self.time_of(self.turn)})")
        return label[1]

    @property
    def phase(self) -> str:
        return self._phase_text

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    # -- ownership of shared records ---------------------------------------------------
    def own_us(self, uid: str) -> USState:
        """US unit ``uid``, for writing (every write to a unit goes through here or
        :meth:`set_acted`)."""
        if self.journal is not None:
            self.journal.add(uid)
            if self._phase is Phase.US_ACTION:  # where it waits for its orders
                self.journal.add(("act", uid))
        if uid in self._owned_us:
            return self.us[uid]
        s = self.us[uid] = self.us[uid].copy()
        self._owned_us.add(uid)
        return s

    def set_acted(self, uid: str, acted: bool) -> None:
        """Whether unit ``uid`` has had its orders this US action phase: a field the
        observation does not read (it follows the queue), so the unit is not noted as
        written for it, as :meth:`own_us` notes every other write."""
        if uid not in self._owned_us:
            self.us[uid] = self.us[uid].copy()
            self._owned_us.add(uid)
        self.us[uid].acted = acted

    def own_ger(self, gid: str) -> GermanState:
        """German unit ``gid``, for writing."""
        if self.journal is not None:  # shown at its position
            i = self.lookup.pos_index.get(self.ger[gid].where)
            if i is not None:
                self.journal.add(("pos", i))
        if gid in self._owned_ger:
            return self.ger[gid]
        g = self.ger[gid] = self.ger[gid].copy()
        self._owned_ger.add(gid)
        return g

    def own_pos(self, pid: str) -> PositionState:
        """Position ``pid``, for writing."""
        if self.journal is not None:
            i = self.lookup.pos_index[pid]
            self.journal.update((("pos", i), ("fof", i)))  # (held or left)
        if pid in self._owned_pos:
            return self.pos[pid]
        ps = self.pos[pid] = self.pos[pid].copy()
        self._owned_pos.add(pid)
        return ps

    def own_everything(self) -> None:
        """Own every record (before writes that do not go through the own_* methods)."""
        for uid in self.us:
            self.own_us(uid)
        for gid in self.ger:
            self.own_ger(gid)
        for pid in self.pos:
            self.own_pos(pid)
        self._own_deck()
        for name in self.cups:
            self._own_cup(name)

    def _own_deck(self) -> Deck:
        if not self._owned_deck:
            self.deck = Deck.from_data(self.deck.to_data())  # the reshuffle count too
            self._owned_deck = True
        return self.deck

    def _own_cup(self, name: str) -> Cup:
        if name not in self._owned_cups:
            self.cups[name] = Cup(self.cups[name].contents)
            self._owned_cups.add(name)
        return self.cups[name]

    # -- caches -------------------------------------------------------------------------
    def init_caches(self) -> None:
        """Empty caches and fresh ownership (a new or restored game)."""
        self.lookup = lookup_for(self.scenario)
        self._label = (0, "")
        self._owned_us = set(self.us)
        self._owned_ger = set(self.ger)
        self._owned_pos = set(self.pos)
        self._owned_deck = True
        self._owned_cups = set(self.cups)
        self.touch()

    def touch(self) -> None:
        """Anything may have changed: rebuild the occupancy and drop every cache."""
        index = self.lookup.oob_index
        ashore = [u for u, s in self.us.items() if s.status == ASHORE]
        ashore.sort(key=index.__getitem__)
        self._ashore = tuple(ashore)
        at: dict[int, list[str]] = {}
        for uid in ashore:
            at.setdefault(self.us[uid].where, []).append(uid)
        self._at = {cell: tuple(uids) for cell, uids in at.items()}
        self._comm = None
        self._steps_at = {}
        self.journal = None
        self._forget_germans()

    def _drop_caches(self) -> None:
        """``state.edit()``: the block may write any record directly."""
        self.own_everything()
        self.touch()

    def forget_orders(self) -> None:
        """Something a unit's orders depend on changed (attacks declared, obstacles cleared)."""
        self.orders_cache = {}

    def _forget_units(self) -> None:
        """US units changed (steps, status, place, disruption)."""
        self._naval_targets = None
        self.orders_cache = {}

    # -- mutators: the queue, attacks declared, obstacles cleared ------------------------
    def _note_queued(self, uid: str) -> None:
        """A US unit or Naval Fire Marker joined or left the queue (whether it waits for
        its orders shows); a position's place in the German queue shows nothing."""
        assert self.journal is not None
        if uid in self.us:
            self.journal.add(("act", uid))
        elif uid.startswith("NF"):
            self.journal.add(NAVAL)

    def set_queue(self, queue: list[str]) -> None:
        """Who acts next in this phase, in order (units, markers or positions)."""
        if self.journal is not None:
            for uid in (*self.queue, *queue):
                self._note_queued(uid)
        self.queue = queue

    def pop_queue(self) -> str:
        """The first of the queue, taken off it."""
        uid = self.queue.pop(0)
        if self.journal is not None:
            self._note_queued(uid)
        return uid

    def unqueue(self, uid: str) -> None:
        """``uid`` no longer waits in the queue."""
        if uid in self.queue:
            self.queue.remove(uid)
            if self.journal is not None:
                self._note_queued(uid)

    def next_turn(self) -> None:
        """The next turn begins."""
        self.turn += 1
        if self.journal is not None:
            self.journal.add(CLOCK)

    def set_card(self, card: str | None) -> None:
        """The fire card on the table (None: none)."""
        self.card = card
        if self.journal is not None:
            self.journal.add(CLOCK)

    def declare_attack(self, pid: str) -> None:
        """Position ``pid`` is attacked this US action phase (once a phase)."""
        self.attacked.add(pid)
        if self.journal is not None:
            self.journal.add(("pos", self.lookup.pos_index[pid]))
        self.forget_orders()

    def clear_attacks(self) -> None:
        """A new US action phase: no position has been attacked in it."""
        if self.journal is not None:
            self.journal.update(("pos", self.lookup.pos_index[pid]) for pid in self.attacked)
        self.attacked = set()
        self.forget_orders()

    def clear_obstacles(self, cells: set[int]) -> None:
        """The obstacles of ``cells`` are cleared."""
        self.cleared |= cells
        if self.journal is not None:
            self.journal.update(("hex", c) for c in cells)
        self.forget_orders()

    def _forget_germans(self) -> None:
        """German occupancy, the tide or the open exits changed."""
        self._german_at = None
        self._stop = None
        self._forget_units()

    # -- units ------------------------------------------------------------------------
    def unit(self, uid: str) -> USUnit:
        return self.scenario.us_by_id[uid]

    def strength(self, uid: str) -> int:
        """Attack strength of a unit now (a Naval Fire Marker: the scenario's value)."""
        if uid.startswith("NF"):
            return self.scenario.naval_attack
        return self.scenario.us_by_id[uid].kind.strength(self.us[uid].steps)

    def is_leader(self, uid: str) -> bool:
        return uid in self.lookup.leaders

    def full(self, uid: str) -> bool:
        return self.us[uid].steps == self.scenario.us_by_id[uid].kind.steps

    def unit_range(self, uid: str) -> int:
        """Attack range; a reduced 9-2 unit has range 1 (READINGS.md)."""
        k = self.scenario.us_by_id[uid].kind
        if k.range == 2 and self.us[uid].steps != k.steps:
            return 1
        return k.range

    def weapons(self, uid: str, distance: int) -> frozenset[str]:
        """The weapons a unit (or Naval Fire Marker) brings at ``distance`` (US Weapons Chart)."""
        if uid.startswith("NF"):
            return rules.unit_weapons("naval", True, distance)
        u = self.scenario.us_by_id[uid]
        return rules.unit_weapons(
            u.kind.cls,
            self.us[uid].steps == u.kind.steps,
            distance,
            range2=u.kind.range == 2,
            reduced=u.kind.reduced,
        )

    def time_of(self, turn: int) -> str:
        minutes = self.scenario.start_minutes + (turn - 1) * self.scenario.minutes
        return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"

    def distance(self, a: int, b: int) -> int:
        """Hexes between two cells."""
        return self.lookup.distances(a)[b]

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
        return cell in self.scenario.flood_cells[self.tide()]

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
    def ashore(self) -> tuple[str, ...]:
        """US units on the map, in order-of-battle order."""
        return self._ashore

    def us_at(self) -> Mapping[int, tuple[str, ...]]:
        """US units ashore by cell, in order-of-battle order (leaders included)."""
        return self._at

    def steps_in(self, cell: int) -> int:
        """US steps in a hex, leaders not counted (concentrated target)."""
        got = self._steps_at.get(cell)
        if got is None:
            leaders = self.lookup.leaders
            us = self.us
            got = self._steps_at[cell] = sum(
                us[u].steps for u in self._at.get(cell, ()) if u not in leaders
            )
        return got

    def german_cells(self) -> Mapping[int, str]:
        """Occupied positions by cell."""
        got = self._german_at
        if got is None:
            by_id = self.scenario.pos_by_id
            got = self._german_at = {
                by_id[pid].cell: pid for pid, ps in self.pos.items() if ps.unit is not None
            }
            self._german_sorted = tuple(sorted(got.items()))
            index = self.lookup.pos_index
            self._german_key = sum(1 << index[pid] for pid in got.values())
        return got

    def german_by_cell(self) -> tuple[tuple[int, str], ...]:
        """Occupied positions as (cell, position) pairs, by cell."""
        if self._german_at is None:
            self.german_cells()
        return self._german_sorted

    def occupied(self, pid: str) -> bool:
        return self.pos[pid].unit is not None

    def communication(self) -> frozenset[int]:
        """Land hexes in German communication: joined to the southern edge (row A) by
        land hexes free of US units (reconstructed: READINGS.md)."""
        got = self._comm
        if got is None:
            links = self.lookup.land_links
            us_cells = self._at
            seen = bytearray(len(links))
            todo = [c for c in self.lookup.south_edge if c not in us_cells]
            for c in todo:
                seen[c] = 1
            while todo:
                for n in links[todo.pop()]:
                    if not seen[n] and n not in us_cells:
                        seen[n] = 1
                        todo.append(n)
            got = self._comm = frozenset(c for c, flag in enumerate(seen) if flag)
        return got

    def in_communication(self, pid: str) -> bool:
        return self.scenario.pos_by_id[pid].cell in self.communication()

    def fof_units(self, p: Position, dots: tuple[str, ...] = DOTS) -> list[str]:
        """US units (leaders excluded) in a position's field of fire with one of ``dots``."""
        out: list[str] = []
        leaders = self.lookup.leaders
        fof = p.fof
        for cell, uids in sorted(self._at.items()):
            if fof.get(cell) in dots:
                out.extend(u for u in uids if u not in leaders)
        return out

    def fof_steps(self, p: Position, dots: tuple[str, ...] = DOTS) -> int:
        """US steps (leaders excluded) in a position's field of fire with one of ``dots``."""
        leaders = self.lookup.leaders
        fof = p.fof
        us = self.us
        total = 0
        for cell, uids in self._at.items():
            if fof.get(cell) in dots:
                total += sum(us[u].steps for u in uids if u not in leaders)
        return total

    # -- movement ---------------------------------------------------------------------
    def reachable(self, uid: str) -> Mapping[int, int]:
        """Cells the unit may move to now, with their cost (movement, reconstructed:
        not into German-occupied or flooded hexes; stop next to an occupied position;
        vehicles through a draw only once it is open; a disrupted unit one hex)."""
        s = self.us[uid]
        k = self.scenario.us_by_id[uid].kind
        vehicle = k.move == "vehicle"
        key = self._reach_key(uid)
        tide = key[1]
        memo = self.lookup.reach_memo
        reach = memo.get(key)
        if reach is None:
            graph = self.scenario.moves[k.move]
            blocked = set(self._german_at or ()) | self.scenario.flood_cells[tide]
            extra = self._gate if vehicle else None
            reach = graph.reachable(
                s.where, k.mp, blocked=blocked, stop=self.stop_cells(), extra=extra
            )
            if len(memo) >= REACH_MEMO_SIZE:
                memo.clear()
            memo[key] = reach
        if s.disrupted:
            near = self.scenario.board.neighbours[s.where]
            return {c: v for c, v in reach.items() if c in near or c == s.where}
        return reach

    def _reach_key(self, uid: str) -> tuple[int, str, tuple[str, ...], int, str, int]:
        """What :meth:`reachable` depends on but the unit's disruption: German occupancy,
        tide, open draws (vehicles), the unit's hex and movement kind and allowance."""
        k = self.scenario.us_by_id[uid].kind
        if self._german_at is None:
            self.german_cells()
        gates = tuple(sorted(self.exits_open)) if k.move == "vehicle" else ()
        return (self._german_key, self.tide(), gates, self.us[uid].where, k.move, k.mp)

    def move_orders(self, uid: str) -> tuple[Action, ...]:
        """``move uid to H`` for every hex :meth:`reachable` but its own, by cell (made
        once for a unit, its disruption and what its reach depends on)."""
        s = self.us[uid]
        key = (uid, s.disrupted, *self._reach_key(uid))
        memo = self.lookup.move_memo
        got = memo.get(key)
        if got is None:
            here, move = s.where, self.lookup.move
            got = tuple(move(uid, c) for c in sorted(self.reachable(uid)) if c != here)
            if len(memo) >= REACH_MEMO_SIZE:
                memo.clear()
            memo[key] = got
        return got

    def _gate(self, a: int, b: int) -> int | None:
        draw = self.scenario.gates.get((a, b))
        if draw is not None and draw not in self.exits_open:
            return None
        return 0

    def stop_cells(self) -> frozenset[int]:
        """Hexes next to an occupied position: a moving unit stops on entering one."""
        got = self._stop
        if got is None:
            board = self.scenario.board
            got = self._stop = frozenset(
                n for c in self.german_cells() for n in board.neighbours[c]
            )
        return got

    # -- naval markers ----------------------------------------------------------------
    def naval_ids(self) -> tuple[str, ...]:
        """The Naval Fire Markers in play this turn."""
        count = sum(n for t, n in self.scenario.naval if t <= self.turn)
        return self.lookup.naval_ids[:count]

    def naval_symbol(self, nid: str) -> str:
        return SYMBOLS[(int(nid[2:]) - 1) % len(SYMBOLS)]

    def naval_targets(self) -> list[str]:
        """WN positions a Naval Fire Marker may fire at: an undisrupted unit with a radio
        (RD) within the scenario's spotting range (reconstructed)."""
        got = self._naval_targets
        if got is None:
            lookup, us = self.lookup, self.us
            radio, full, reach = lookup.radio, lookup.full_steps, lookup.wn_spotted_from
            spotted = 0  # the WNs (bits by position index) the units that spots() names see
            for uid in self._ashore:
                s = us[uid]
                if not s.disrupted and radio[uid][0 if s.steps == full[uid] else 1]:
                    spotted |= reach[s.where]
            index = lookup.pos_index
            got = self._naval_targets = tuple(
                pid for _, pid in self.german_by_cell() if spotted >> index[pid] & 1
            )
        return list(got)

    def spots(self, s: USState) -> bool:
        """Whether a unit ashore spots for the Naval Fire Markers: undisrupted, with a radio
        (RD) at its strength now (reconstructed: :meth:`naval_targets` tests the same)."""
        return not s.disrupted and self.lookup.radio[s.id][0 if self.full(s.id) else 1]

    # -- victory ----------------------------------------------------------------------
    def victory_points(self) -> tuple[int, int, int]:
        """(VP, VP positions scoring, VP positions) at this moment (reconstructed victory:
        a VP position clear of Germans that the US holds or where a German unit was
        defeated scores its vp times the scenario's weight; each open exit scores)."""
        vp = 0
        held = total = 0
        us_cells = self._at
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

    # -- mutators: cards and cups ---------------------------------------------------------
    def draw_card(self) -> Card:
        """Draw a fire card (it goes to the discards; the deck reshuffles when empty)."""
        deck = self._own_deck()
        cid = deck.draw(self.dice)
        deck.discard(cid)
        return self.scenario.cards[cid]

    def draw_from(self, cup: str) -> str:
        """Draw a token from a cup (716, 352: depth markers; division: 352nd units)."""
        return self._own_cup(cup).draw(self.dice)

    def put_in(self, cup: str, token: str) -> None:
        self._own_cup(cup).put(token)

    # -- mutators: US units -----------------------------------------------------------------
    def land(self, uid: str, cell: int) -> USState:
        """A unit comes ashore at ``cell`` (undisrupted)."""
        s = self.own_us(uid)
        if s.status == ASHORE:
            self._leave(uid, s.where)
        s.status = ASHORE
        s.where = cell
        s.disrupted = False
        self._enter(uid, cell)
        return s

    def move(self, uid: str, cell: int) -> None:
        """A unit ashore moves to ``cell``."""
        s = self.own_us(uid)
        self._leave(uid, s.where)
        s.where = cell
        self._enter(uid, cell)

    def set_disrupted(self, uid: str, disrupted: bool) -> None:
        self.own_us(uid).disrupted = disrupted
        self._forget_units()

    def lose_steps(self, uid: str, n: int, why: str, rule: str) -> None:
        """Take ``n`` steps from a US unit; at none left it is eliminated."""
        s = self.own_us(uid)
        taken = min(n, s.steps)
        s.steps -= taken
        self.stats["us_steps_lost"] += taken
        self._steps_changed(s.where)
        self._forget_units()
        if s.steps <= 0:
            self.eliminate(uid, why, rule, count=False)
        else:
            self.note("ddob.loses", rule, unit=uid, steps=taken, why=why, left=s.steps)

    def eliminate(self, uid: str, why: str, rule: str, count: bool = True) -> None:
        s = self.own_us(uid)
        if count:
            self.stats["us_steps_lost"] += s.steps
        if s.status == ASHORE:
            self._leave(uid, s.where)
        s.steps = 0
        s.status = ELIMINATED
        s.where = -1
        s.disrupted = False
        self._forget_units()
        self.note("ddob.eliminated", rule, unit=uid, why=why)

    def disrupt(self, uid: str, why: str, rule: str) -> None:
        s = self.us[uid]
        if s.status == ASHORE and not s.disrupted:
            self.set_disrupted(uid, True)
            self.note("ddob.disrupted", rule, unit=uid, why=why)

    def _enter(self, uid: str, cell: int) -> None:
        index = self.lookup.oob_index
        self._ashore = _insert(self._ashore, uid, index)
        here = self._at.get(cell)
        self._at[cell] = (uid,) if here is None else _insert(here, uid, index)
        if here is None:
            self._comm = None
        self._steps_changed(cell)
        self._forget_units()
        self._note_vp(cell)

    def _leave(self, uid: str, cell: int) -> None:
        self._ashore = tuple(u for u in self._ashore if u != uid)
        left = tuple(u for u in self._at[cell] if u != uid)
        if left:
            self._at[cell] = left
        else:
            del self._at[cell]
            self._comm = None
        self._steps_changed(cell)
        self._forget_units()
        self._note_vp(cell)

    def _note_vp(self, cell: int) -> None:
        """A unit entered or left ``cell``: the VP its position scores may change."""
        if self.journal is not None:
            i = self.lookup.vp_position_at.get(cell)
            if i is not None:
                self.journal.add(("pos", i))

    def _steps_changed(self, cell: int) -> None:
        """The US steps in ``cell`` changed: drop its :meth:`steps_in` entry."""
        self._steps_at.pop(cell, None)

    # -- mutators: German units -----------------------------------------------------------
    def place_german(self, gid: str, pid: str, revealed: bool) -> None:
        """A German unit enters an empty position."""
        g = self.own_ger(gid)
        self.seen.add(gid)
        g.where = pid
        g.revealed = revealed
        g.disrupted = False
        self.own_pos(pid).unit = gid
        self._forget_germans()

    def shift_german(self, src: str, dst: str) -> None:
        """A unit and its depth marker move from one position to another."""
        a, b = self.own_pos(src), self.own_pos(dst)
        gid = a.unit
        assert gid is not None
        b.unit, b.depth, b.depth_revealed = gid, a.depth, a.depth_revealed
        a.unit, a.depth, a.depth_revealed = None, None, False
        self.own_ger(gid).where = dst
        self._forget_germans()

    def remove_german(self, pid: str, where: str, revealed: bool) -> str:
        """The unit in ``pid`` leaves it (to ``where``) with its depth marker; returns it."""
        ps = self.own_pos(pid)
        gid = ps.unit
        assert gid is not None
        g = self.own_ger(gid)
        g.where = where
        g.revealed = revealed
        g.disrupted = False
        ps.unit = None
        ps.depth = None
        ps.depth_revealed = False
        self._forget_germans()
        return gid

    def exits_changed(self) -> None:
        """An exit opened or closed: vehicles may cross other draws."""
        if self.journal is not None:
            self.journal.add(EXITS)
        self._forget_germans()


def _insert(uids: tuple[str, ...], uid: str, index: Mapping[str, int]) -> tuple[str, ...]:
    """``uids`` (in order-of-battle order) with ``uid`` added in its place."""
    at = bisect.bisect(uids, index[uid], key=index.__getitem__)
    return (*uids[:at], uid, *uids[at:])


def _copy_data(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _copy_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_data(v) for v in value]
    return value


#: Entries kept in the lookup's reach and move memos before they are emptied.
REACH_MEMO_SIZE = 50_000


def _has_radio(u: USUnit, full: bool) -> bool:
    kind = u.kind
    weapons = rules.unit_weapons(kind.cls, full, 1, range2=kind.range == 2, reduced=kind.reduced)
    return "RD" in weapons


class Lookup:
    """Pure tables of one scenario, built on first use and shared by every game of it:
    order-of-battle indices, distances, and the actions of the game, made once."""

    def __init__(self, scen: LandingTableScenario) -> None:
        board = scen.board
        self._board = board
        self.oob_index: dict[str, int] = {u.id: i for i, u in enumerate(scen.us)}
        self.pos_index: dict[str, int] = {p.id: i for i, p in enumerate(scen.positions)}
        #: The position scoring VP on each cell that has one (by its index).
        self.vp_position_at = {p.cell: i for i, p in enumerate(scen.positions) if p.vp > 0}
        #: Reachable cells by (occupied positions, tide, open exits for vehicles, start,
        #: movement class, allowance): movement is a pure function of these.
        self.reach_memo: dict[tuple[int, str, tuple[str, ...], int, str, int], dict[int, int]] = {}
        #: :meth:`LandingTableCore.move_orders` by unit, disruption and reach key.
        self.move_memo: dict[tuple[Any, ...], tuple[Action, ...]] = {}
        self.leaders = frozenset(u.id for u in scen.us if u.kind.leader)
        #: The longest attack range of any unit.
        self.longest_range = max((k.range for k in scen.kinds.values()), default=0)
        land_rows = set(TIDE_ROWS.values())
        self.land: tuple[bool, ...] = tuple(r not in land_rows for r in scen.row_of)
        self.south_edge = tuple(c for c in range(len(board)) if scen.row_of[c] == "A")
        #: The land neighbours of every cell (German communication runs over land).
        self.land_links: tuple[tuple[int, ...], ...] = tuple(
            tuple(n for n in board.neighbours[c] if self.land[n]) for c in range(len(board))
        )
        count = sum(n for _, n in scen.naval)
        self.naval_ids = tuple(f"NF{i}" for i in range(1, count + 1))
        #: The intense field of fire of every position.
        self.intense: dict[str, frozenset[int]] = {
            p.id: frozenset(c for c, dot in p.fof.items() if dot == "intense")
            for p in scen.positions
        }
        self._distances: dict[int, tuple[int, ...]] = {}
        self._attack_from: dict[tuple[int, int], frozenset[int]] = {}
        self._within: dict[tuple[int, int], frozenset[int]] = {}
        self._targets_from: dict[tuple[int, int], frozenset[int]] = {}
        #: Whether each unit carries a radio (RD) at full strength and reduced.
        self.radio: dict[str, tuple[bool, bool]] = {
            u.id: (_has_radio(u, True), _has_radio(u, False)) for u in scen.us
        }
        #: Per cell, the WN positions (bits by position index) a unit there spots for
        #: the Naval Fire Markers (within the scenario's spotting range).
        spotted_from = [0] * len(board)
        for i, p in enumerate(scen.positions):
            if p.kind == "wn":
                for c in self.within(p.cell, scen.naval_spot):
                    spotted_from[c] |= 1 << i
        self.wn_spotted_from = tuple(spotted_from)
        self.full_steps = {u.id: u.kind.steps for u in scen.us}
        #: The units with a radio (RD) at some strength (they may spot for the markers).
        self.spotters = frozenset(uid for uid, has in self.radio.items() if any(has))
        #: The cell of every printed label.
        self.cells: dict[str, int] = {label: i for i, label in enumerate(board.labels)}
        self._actions: dict[tuple[Any, ...], Action] = {}
        self._moves: dict[str, dict[int, Action]] = {}

    def distances(self, a: int) -> tuple[int, ...]:
        """Hexes from ``a`` to every cell, indexed by cell."""
        got = self._distances.get(a)
        if got is None:
            got = self._distances[a] = tuple(self._board.distances_from(a).tolist())
        return got

    def within(self, cell: int, reach: int) -> frozenset[int]:
        """Cells at most ``reach`` hexes from ``cell``."""
        key = (cell, reach)
        got = self._within.get(key)
        if got is None:
            distances = self.distances(cell)
            got = self._within[key] = frozenset(
                c for c in range(len(distances)) if distances[c] <= reach
            )
        return got

    def attack_from(self, target: int, reach: int) -> frozenset[int]:
        """Cells 1 to ``reach`` hexes from ``target`` from which an attack on it is not
        prohibited by the Terrain Defense Table."""
        key = (target, reach)
        got = self._attack_from.get(key)
        if got is None:
            board = self._board
            distances = self.distances(target)
            got = self._attack_from[key] = frozenset(
                c
                for c in range(len(board))
                if 1 <= distances[c] <= reach and not rules.approach(board, c, target).prohibited
            )
        return got

    def targets_from(self, here: int, reach: int) -> frozenset[int]:
        """Cells 1 to ``reach`` hexes from ``here`` that a unit there may attack
        (the Terrain Defense Table does not prohibit it)."""
        key = (here, reach)
        got = self._targets_from.get(key)
        if got is None:
            board = self._board
            distances = self.distances(here)
            got = self._targets_from[key] = frozenset(
                c
                for c in range(len(board))
                if 1 <= distances[c] <= reach and not rules.approach(board, here, c).prohibited
            )
        return got

    def move(self, uid: str, cell: int) -> Action:
        """The action ``move uid to cell``, made once."""
        moves = self._moves.get(uid)
        if moves is None:
            moves = self._moves[uid] = {}
        got = moves.get(cell)
        if got is None:
            got = moves[cell] = Move(uid, self._board.labels[cell])
        return got

    def action(self, cls: type[Action], *fields: Any) -> Action:
        """The action ``cls(*fields)``, made once (actions are frozen values)."""
        key = (cls, *fields)
        got = self._actions.get(key)
        if got is None:
            got = self._actions[key] = cls(*fields)
        return got


_LOOKUPS: weakref.WeakKeyDictionary[LandingTableScenario, Lookup] = weakref.WeakKeyDictionary()


def lookup_for(scen: LandingTableScenario) -> Lookup:
    """The tables of ``scen`` (built once)."""
    got = _LOOKUPS.get(scen)
    if got is None:
        got = _LOOKUPS[scen] = Lookup(scen)
    return got
