"""The typed data core of a TCS Omaha game in progress.

:class:`TcsCore` holds every mutable field of a game, public and typed, with
small queries and mutators (where a unit is, what stands in a hex, lose a step,
wait for a decision). It knows no sequence of play: the procedures of
:mod:`omaha.tcs.procedures` are functions over a core, and
:class:`omaha.tcs.state.TcsState` decides which runs next. Everything here is
plain data that :mod:`omaha.tcs.view` writes to a snapshot with printed labels.

Units of both sides share one numbering (``scenario.units``: the US first, then
the German), so ``where[i]``, ``steps[i]`` and the status lists name any unit.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum, StrEnum
from typing import Any, TypeVar, cast

from omaha.kernel.observation import Journal
from omaha.kernel.protocol import Outcome, State
from omaha.tcs.components.oob import Unit
from omaha.tcs.components.plan import Plan, PlannedBoat, PlannedGroup
from omaha.tcs.components.snapshot import Names
from omaha.tcs.components.tables import BOAT_KINDS, DD
from omaha.tcs.components.turns import parse_time
from omaha.tcs.rules import hour_of
from omaha.tcs.scenario import TcsScenario

# where a unit is, besides a cell index
AWAIT = -1  # in the landing schematic, the transport pool, or not yet arrived (German)
LOST = -2  # lost at sea, off the map or destroyed
EXITED = -3  # left the map (29th ID, 2.7b)
ABOARD = -4  # in an assigned transport boat (2.1m)
CODES = {AWAIT: "await", LOST: "lost", EXITED: "exited", ABOARD: "aboard"}
FROM_CODE = {v: k for k, v in CODES.items()}
SIDES = ("US", "German")
LEADER_STATES = ("unselected", "aboard", "map", "dead", "lost", "removed")
OBSTACLE_STATES = ("mines", "wire", "clear", "cleared", "breached")
NFST_STATES = ("assigned", "working", "radio dead")
T = TypeVar("T")


class Status(IntEnum):
    """A unit's fire-combat state (series 17.0; 1.13a, 2.4a, 3.3f name them)."""

    OK = 0
    SUPPRESSED = 1
    PARALYZED = 2


class Phase(StrEnum):
    """The phases of a turn (sequence of play), and the set-up before play."""

    SETUP = "set-up"
    COMMAND = "Command Planning Phase"
    ARTILLERY = "Aircraft and Artillery Phase"
    MODES = "Mode Determination Phase"
    US_PHASE = "US Action Phase"
    GERMAN_PHASE = "German Action Phase"
    CLEANUP = "Clean-up Phase"


class Decision(StrEnum):
    """The kinds of decision a player may be asked for (``Pending.kind``)."""

    PILLBOX = "pillbox"
    ROCKET_PIT = "rocket pit"
    PLAN = "plan"
    ROCKETS = "rockets"
    NFST = "nfst"
    TIDE = "tide"
    OVERDRAFT = "overdraft"
    RELEASE = "release"
    SHEETS = "op sheets"
    TRANSPORTS = "transports"
    AIR = "air"
    SMOKE = "smoke"
    STRIKE = "strike"
    MISSIONS = "missions"
    CONVERT = "convert"
    MODES = "modes"
    LAND = "land"
    ENTRY = "entry"
    ACT = "action"
    CHOOSE = "choose"
    MOVE = "move"
    FIRE = "fire"
    OVERWATCH = "overwatch"
    TEST = "test"
    TRPS = "trps"


#: The core's fields by how a copy copies them (``TcsCore.copy_into``); the rest are
#: immutable values, or the nested records copied as plain data.
_LISTS = (
    "where", "steps", "carried", "planned_beach", "on_task", "fire_mode", "status", "dug_in",
    "defense_turns", "leader_status", "leader_cell", "leader_boat", "draft_boats",
    "draft_groups", "lctr_targets", "air_loadout", "trps",
)  # fmt: skip
_SETS = (
    "moved", "acted", "fired_point", "spared", "free", "marked", "marked_point", "revealed",
    "road_moved", "fired_upon", "tested", "smoke", "missions", "us_implemented", "released",
    "german_sheets", "illuminated",
)  # fmt: skip
_TABLES = (
    "counters", "overdraft_added", "obstacles", "clear_from", "breaching", "breaches",
    "breach_traffic", "exits", "company_morale", "us_sheets", "entered", "batteries", "stats",
)  # fmt: skip
#: Fields never changed in place (replaced whole): shared by a copy.
IMMUTABLE = (
    "in_setup", "turn", "cursor", "started", "wait", "result", "tide_hour", "selected",
    "plan", "partial", "lctr_done", "air_controller", "continued",
)  # fmt: skip
NESTED = (
    "sd", "combat", "trigger", "open_boat", "transport_open", "landing", "smoke_sessions",
    "air_attacks", "transports", "ammo", "nfst",
)  # fmt: skip
#: every field a copy copies (the kept observation's journal shared copy-on-write)
COPIED = frozenset((*_LISTS, *_SETS, *_TABLES, *IMMUTABLE, *NESTED, "journal"))


#: The entities besides the units a :class:`~omaha.kernel.observation.Journal` names
#: when they change: the map planes', the German release's, and the pools counted on
#: the tracks (ammunition, transports, batteries, US op sheets).
LEADERS, TIDE, SMOKE, OBSTACLES, BREACHES, EXITS, RELEASED, POOLS = (
    "leaders", "tide", "smoke", "obstacles", "breaches", "exits", "released", "pools",
)  # fmt: skip


def _plain(value: Any) -> Any:
    """A copy of JSON-like data (dicts and lists copied, anything else shared)."""
    if type(value) is dict:
        return {k: _plain(v) for k, v in value.items()}
    if type(value) is list:
        return [_plain(v) for v in value]
    return value


class TcsCore(State[TcsScenario]):
    """Every field of a TCS Omaha game in progress (the rules are the procedures')."""

    # where the sequence stands
    in_setup: bool
    turn: int  # index into scenario.turns
    cursor: int  # index into the set-up or turn steps of the state
    started: bool  # the current step has done its automatic part
    sd: dict[str, Any]  # data of the current step (labels only), reset at each step
    wait: tuple[Decision, str, str] | None  # pending decision: kind, player, prompt
    result: Outcome | None
    tide_hour: str
    # every unit of both sides, by unit index
    where: list[int]
    steps: list[int]
    carried: list[bool]  # a gun landed by Dukw keeps it as its carrier
    planned_beach: list[str | None]
    on_task: list[bool]  # US: on an implemented op sheet (2.3a)
    fire_mode: list[bool]  # False: move mode (landed units start in move mode, 2.1l)
    status: list[int]  # Status
    dug_in: list[bool]
    defense_turns: list[int]  # turns in contact while unassigned (2.3g)
    # this phase (reset when a side's Action Phase begins)
    moved: set[str]  # units and leaders that moved
    acted: set[int]  # units that fired their area weapon, assaulted or retreated
    fired_point: set[int]  # units that fired their point weapon (pill boxes: 3.3b)
    spared: set[int]  # squads of pill boxes destroyed this phase: not fired on again (3.3f)
    selected: str | None
    free: set[int]  # units free of command restrictions under a leader (2.3f)
    # this turn (reset in the Clean-up Phase)
    marked: set[int]  # overwatch-marked area weapons (series 15.0)
    marked_point: set[int]  # overwatch-marked point weapons (pill boxes mark apart, 3.3b)
    revealed: set[int]  # fired this turn: seen at long range
    road_moved: set[int]  # moved by road, or through a shingle breach (2.5b)
    fired_upon: set[int]
    tested: set[int]  # units that tested a beach obstacle hex this turn (2.4a)
    # fire in progress and overwatch triggers
    combat: dict[str, Any] | None  # {"side", "target", "stacks": [labels]}
    trigger: dict[str, Any] | None  # {"side" (who may answer), "at": [labels], "kind"}
    # the plan and its step-by-step draft
    plan: Plan | None
    draft_boats: list[PlannedBoat]
    draft_groups: list[PlannedGroup]
    open_boat: dict[str, Any] | None
    partial: str | None  # a unit split across boats that must be completed
    counters: dict[str, int]
    # leaders, by leader index: status and where
    leader_status: list[str]  # unselected, aboard, map, dead, lost, removed
    leader_cell: list[int]
    leader_boat: list[str | None]
    # transports (2.1m): landing turn -> boats; the boat being loaded
    transports: dict[str, list[PlannedBoat]]
    transport_open: dict[str, Any] | None
    # landing in progress: boat id -> fate (cell label, "sunk", "off map", "choose")
    landing: dict[str, Any] | None
    # LCT(R) fires (2.2)
    lctr_targets: list[int]
    #: the US Target Reference Points (2.8), assigned before set-up
    trps: list[int]
    lctr_done: bool
    smoke: set[int]
    smoke_sessions: list[dict[str, Any]]
    # airpower (2.10)
    air_loadout: list[str]
    air_controller: str | None
    air_attacks: list[dict[str, Any]]
    # ammunition pool (2.9): calibre -> [he, smoke, illum]; batteries that fired this turn
    ammo: dict[str, list[int]]
    missions: set[str]  # batteries (and "naval") that fired a mission this turn
    illuminated: set[int]  # hexes lit by illumination rounds this night turn
    #: a game continued from a shorter scenario (procedures.continuation): that
    #: scenario's id and hash, its actions and dice then, and its result
    continued: tuple[str, str, int, int, str] | None
    # NFSTs (2.6d): battalion -> [unit, status]
    nfst: dict[str, list[str]]
    # overdraft (2.11): company -> steps added
    overdraft_added: dict[str, int]
    # beach obstacles (2.4) and shingle breaches (2.5)
    obstacles: dict[int, str]  # cell -> mines, wire, clear, cleared, breached (untested absent)
    clear_from: dict[int, int]  # a clear hex is clear terrain from this turn index (2.4d)
    breaching: dict[int, int]  # a mines and wire hex -> turn index its breach began (2.4b)
    breaches: dict[str, str]  # breach -> turn label it opened (2.5)
    breach_traffic: dict[str, int]  # vehicles through each breach this turn (2.5b)
    exits: dict[str, str]  # draw -> turn label its exit opened (victory)
    # command
    company_morale: dict[str, int]  # formation -> morale levels (1.13a)
    us_sheets: dict[str, int]  # formation -> weighted turns, while implementing (2.3a)
    us_implemented: set[str]  # formations with an implemented new op sheet
    released: set[str]  # German formations released (3.1)
    entered: dict[str, int]  # arriving formation -> turn index it entered (3.1)
    german_sheets: set[str]  # German formations with an implemented op sheet (3.2)
    batteries: dict[str, int]  # released German battery -> battery fires left (3.1)
    # statistics for the metrics
    stats: dict[str, int]

    def init_fields(self) -> None:
        """The fields of a new game, before the German sets up."""
        scenario = self.scenario
        n = len(scenario.units)
        nl = len(scenario.oob.leaders)
        self.in_setup = True
        self.turn = 0
        self.cursor = 0
        self.started = False
        self.sd = {}
        self.wait = None
        self.result = None
        self.tide_hour = hour_of(scenario.turns[0].label.split()[0])
        self.where = [AWAIT] * n
        self.steps = [u.steps for u in scenario.units]
        self.carried = [False] * n
        self.planned_beach = [None] * n
        self.on_task = [False] * n
        self.fire_mode = [u.side == "German" for u in scenario.units]
        self.status = [Status.OK] * n
        self.dug_in = [False] * n
        self.defense_turns = [0] * n
        self.moved, self.acted, self.fired_point, self.spared = set(), set(), set(), set()
        self.selected, self.free = None, set()
        self.marked, self.marked_point, self.revealed = set(), set(), set()
        self.road_moved, self.fired_upon, self.tested = set(), set(), set()
        self.combat, self.trigger = None, None
        self.plan = None
        self.draft_boats, self.draft_groups = [], []
        self.open_boat, self.partial, self.counters = None, None, {}
        self.leader_status = ["unselected"] * nl
        self.leader_cell = [-1] * nl
        self.leader_boat = [None] * nl
        self.transports, self.transport_open = {}, None
        self.landing = None
        self.lctr_targets, self.lctr_done = [], False
        self.trps = []
        self.smoke, self.smoke_sessions = set(), []
        self.air_loadout, self.air_controller, self.air_attacks = [], None, []
        self.ammo, self.missions, self.nfst, self.overdraft_added = {}, set(), {}, {}
        self.illuminated = set()
        self.continued = None
        self.obstacles, self.clear_from, self.breaching = {}, {}, {}
        self.breaches, self.breach_traffic, self.exits = {}, {}, {}
        self.company_morale, self.us_sheets, self.us_implemented = {}, {}, set()
        self.released, self.entered, self.german_sheets = set(), {}, set()
        self.batteries = {}
        self.stats = {}
        self._occupancy: dict[int, list[int]] | None = None
        self._side_occupancy: dict[str, dict[int, list[int]]] | None = None
        self._derived: dict[object, Any] = {}
        #: Memos that outlive :meth:`touch` (:meth:`lasting`): each follows the position
        #: itself when asked (their owners say how, e.g. ``action.sighting_of``); dropped
        #: with everything derived by :meth:`reindex`, never shared with a clone.
        self._lasting: dict[object, Any] = {}
        #: While an observation is kept (:mod:`omaha.tcs.observation`): the units and
        #: records changed since, noted by the mutators below; None while nobody observes.
        self.journal: Journal | None = None

    # -- the clock -------------------------------------------------------------------
    @property
    def turn_label(self) -> str:
        return self.scenario.turns[self.turn].label

    @property
    def turn_time(self) -> str:
        """The current turn's clock time (``"0740"``)."""
        return self.turn_label.split()[0]

    def turn_has(self, flag: str) -> bool:
        return flag in self.scenario.turns[self.turn].flags

    @property
    def day(self) -> int:
        return parse_time(self.turn_label)[0]

    @property
    def night(self) -> bool:
        return "night" in self.scenario.turns[self.turn].flags

    def dist(self, a: int, b: int) -> int:
        """Hex distance between two cells (a table lookup)."""
        return self.scenario.beach.dist[a][b]

    # -- names and places --------------------------------------------------------------
    def label(self, cell: int) -> str:
        return self.scenario.board.label(cell)

    def cell(self, label: str) -> int:
        return self.scenario.board.cell(label)

    def unit(self, i: int) -> Unit:
        return self.scenario.units[i]

    def uid(self, i: int) -> str:
        return self.scenario.units[i].id

    def unit_index(self, uid: str) -> int:
        return self.scenario.unit_ids[uid]

    def has_unit(self, uid: str) -> bool:
        return uid in self.scenario.unit_ids

    def lid(self, k: int) -> str:
        return self.scenario.oob.leaders[k].id

    def side(self, i: int) -> str:
        return self.scenario.units[i].side

    def us_units(self) -> range:
        return range(len(self.scenario.oob.units))

    def german_units(self) -> range:
        return range(len(self.scenario.oob.units), len(self.scenario.units))

    def occupancy(self) -> dict[int, list[int]]:
        """Cell -> units on it (both sides, in unit order; read only). Kept up to date
        by :meth:`place`; rebuilt after :meth:`reindex`."""
        occ = self._occupancy
        if occ is None:
            occ = {}
            for i, w in enumerate(self.where):
                if w >= 0:
                    occ.setdefault(w, []).append(i)
            self._occupancy = occ
        return occ

    def units_at(self, cell: int) -> list[int]:
        return self.occupancy().get(cell, [])

    def side_units_at(self, cell: int, side: str) -> list[int]:
        """The units of ``side`` in a cell (read only)."""
        return self.side_occupancy(side).get(cell, [])

    def side_occupancy(self, side: str) -> dict[int, list[int]]:
        """Cell -> units of ``side`` on it (read only; kept like :meth:`occupancy`)."""
        occs = self._side_occupancy
        if occs is None:
            units = self.scenario.units
            occs = self._side_occupancy = {"US": {}, "German": {}}
            for c, here in self.occupancy().items():
                for i in here:
                    occs[units[i].side].setdefault(c, []).append(i)
        return occs[side]

    def occupied_us(self) -> dict[int, list[int]]:
        """Cell -> US unit indices on it."""
        n_us = len(self.scenario.oob.units)
        out: dict[int, list[int]] = {}
        for c, here in self.occupancy().items():
            us = [i for i in here if i < n_us]
            if us:
                out[c] = us
        return out

    def german_cells(self) -> set[int]:
        return set(self.cells_of("German"))

    @property
    def pillboxes(self) -> list[int]:
        """Cells of the pill boxes still in play (their number sets 2.1i/2.1k)."""
        where = self.where
        return sorted(where[i] for i in self.scenario.german.pillboxes if where[i] >= 0)

    @property
    def pits(self) -> list[int]:
        """Cells of the rocket pits still in play (3.4)."""
        where = self.where
        return sorted(where[i] for i in self.scenario.german.pits if where[i] >= 0)

    def living_leaders_on_map(self) -> list[int]:
        return [k for k, s in enumerate(self.leader_status) if s == "map"]

    def derived(self, key: object, make: Callable[[], T]) -> T:
        """A value derived from where the units stand and the state of the obstacles,
        breaches and tide, computed once until :meth:`touch` (the one invalidation
        place: every change of those calls it)."""
        memo = self._derived
        if key in memo:
            return cast(T, memo[key])
        value = memo[key] = make()
        return value

    @property
    def lasting(self) -> dict[object, Any]:
        """The memos kept across changes, by key (see ``_lasting``)."""
        return self._lasting

    def peek(self, key: object) -> Any:
        """What :meth:`derived` holds under ``key`` now, or None."""
        return self._derived.get(key)

    def cells_of(self, side: str) -> frozenset[int]:
        """Cells holding a unit of ``side``."""

        return self.derived(("cells", side), lambda: frozenset(self.side_occupancy(side)))

    # -- small mutators ----------------------------------------------------------------
    def touch(self) -> None:
        """Forget what is derived from where the units stand, the obstacles, breaches and
        tide (after any change of them)."""
        self._derived = {}

    def reindex(self) -> None:
        """Forget everything derived, the occupancy too (after ``where`` was written
        directly: a restored snapshot, a test's edit)."""
        self._occupancy = self._side_occupancy = None
        self._derived = {}
        self._lasting = {}
        self.journal = None

    def _drop_caches(self) -> None:
        self.reindex()

    def place(self, i: int, where: int) -> None:
        """Put unit ``i`` in a cell (or a code: LOST, AWAIT, ...); the occupancy follows
        (its lists are replaced, never changed, so a caller's list stays as it was)."""
        old = self.where[i]
        self.where[i] = where
        self.touch()
        if old == where:
            return
        journal = self.journal
        if journal is not None and (old >= 0 or where >= 0):  # off the map shows nothing
            journal.add(i)
        side = self.scenario.units[i].side
        for occ in (self._occupancy, (self._side_occupancy or {}).get(side)):
            if occ is None:
                continue
            if old >= 0:
                rest = [x for x in occ[old] if x != i]
                if rest:
                    occ[old] = rest
                else:
                    del occ[old]
            if where >= 0:
                occ[where] = sorted([*occ.get(where, ()), i])

    def bump(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n

    def lose_unit(self, i: int, kind: str, rule: str, **details: Any) -> None:
        """A unit is lost whole (logged as ``kind`` under ``rule``)."""
        u = self.scenario.units[i]
        self.count_loss(i, self.steps[i])
        self.note(kind, rule, player=u.side, unit=u.id, steps=self.steps[i], **details)
        self.place(i, LOST)
        self.set_steps(i, 0)

    # What the observation shows changes only through ``place`` and the mutators below:
    # each notes the change in the journal while an observation is kept.
    def set_steps(self, i: int, steps: int) -> None:
        """Unit ``i`` has ``steps`` steps."""
        journal = self.journal
        if journal is not None and self.steps[i] != steps:
            journal.add(i)
        self.steps[i] = steps

    def set_status(self, i: int, status: Status) -> None:
        """Unit ``i`` is OK, suppressed or paralyzed (17.0)."""
        journal = self.journal
        if journal is not None and self.status[i] != status:
            journal.add(i)
        self.status[i] = status

    def set_fire_mode(self, i: int, fire: bool) -> None:
        """Unit ``i`` is in fire mode (True) or move mode (4.0)."""
        journal = self.journal
        if journal is not None and self.fire_mode[i] != fire:
            journal.add(i)
        self.fire_mode[i] = fire

    def set_dug_in(self, i: int, dug_in: bool) -> None:
        journal = self.journal
        if journal is not None and self.dug_in[i] != dug_in:
            journal.add(i)
        self.dug_in[i] = dug_in

    def set_moving(self, i: int) -> None:
        """Unit ``i`` moved: in move mode and no longer dug in (4.0)."""
        journal = self.journal
        if journal is not None and (self.fire_mode[i] or self.dug_in[i]):
            journal.add(i)
        self.fire_mode[i] = False
        self.dug_in[i] = False

    def mark(self, i: int, point: bool = False) -> None:
        """Unit ``i``'s area weapon (``point``: its point weapon) is marked by the
        overwatch fire it made (15.0)."""
        journal = self.journal
        if journal is not None:
            journal.add(i)
        (self.marked_point if point else self.marked).add(i)

    def clear_marks(self) -> None:
        """The overwatch markers come off (Clean-up Phase)."""
        journal = self.journal
        if journal is not None:
            journal.update(self.marked)
            journal.update(self.marked_point)
        self.marked, self.marked_point = set(), set()

    def release_formation(self, formation: str) -> None:
        """A German formation is released (3.1)."""
        self.released.add(formation)
        self._note_record(RELEASED)
        if self.journal is not None:  # its units no longer wait for it
            units = self.scenario.units
            self.journal.update(u.index for u in units if u.formation == formation)

    def set_leader_status(self, k: int, status: str) -> None:
        self.leader_status[k] = status
        self._note_record(LEADERS)
        self.touch()

    def set_leader_cell(self, k: int, cell: int) -> None:
        self.leader_cell[k] = cell
        self._note_record(LEADERS)
        self.touch()

    def set_tide(self, hour: str) -> None:
        """The tide line moves (1.12a)."""
        self.tide_hour = hour
        self._note_record(TIDE)
        self.touch()

    def add_smoke(self, cell: int) -> None:
        self.smoke.add(cell)
        self._note_record(SMOKE)
        self.touch()

    def illuminate(self, cells: set[int]) -> None:
        """Hexes lit for the rest of the turn (the series' night, reconstructed)."""
        self.illuminated = self.illuminated | cells
        self.touch()

    def clear_smoke(self) -> None:
        self.smoke = set()
        self._note_record(SMOKE)
        self.touch()

    def set_obstacle(self, cell: int, state: str) -> None:
        """A beach obstacle hex's state (2.4): one of ``OBSTACLE_STATES``."""
        self.obstacles[cell] = state
        self._note_record(OBSTACLES)
        self.touch()

    def open_breach(self, name: str) -> None:
        """A shingle breach opens this turn (2.5a)."""
        self.breaches[name] = self.turn_label
        self._note_record(BREACHES)
        self.touch()

    def open_exit(self, draw: str) -> None:
        """A draw exit opens this turn."""
        self.exits[draw] = self.turn_label
        self._note_record(EXITS)

    def add_ammo(self, calibre: str, he: int, smoke: int = 0, illum: int = 0) -> None:
        """Battery fires added to (or, negative, taken from) a calibre's pool (2.9)."""
        pool = self.ammo.setdefault(calibre, [0, 0, 0])
        pool[0] += he
        pool[1] += smoke
        pool[2] += illum
        self._note_record(POOLS)

    def set_battery_fires(self, battery: str, fires: int) -> None:
        """A released German battery's fires left (3.1)."""
        self.batteries[battery] = fires
        self._note_record(POOLS)

    def board_transport(self, land: str, boat: PlannedBoat) -> None:
        """A transport boat joins the landing of turn ``land`` (2.1m)."""
        self.transports.setdefault(land, []).append(boat)
        self._note_record(POOLS)

    def land_transports(self, land: str) -> None:
        """The transports of turn ``land`` have landed (2.1m)."""
        self.transports.pop(land, None)
        self._note_record(POOLS)

    def implement_sheet(self, formation: str) -> None:
        """A US formation's new op sheet is implemented (2.3a)."""
        self.us_implemented.add(formation)
        self._note_record(POOLS)

    def complete_sheet(self, formation: str) -> None:
        """A US formation's new op sheet is over (completed or lapsed), freeing its
        place among the 12 (2.3a, series 6.11)."""
        self.us_implemented.discard(formation)
        self._note_record(POOLS)

    def _note_record(self, name: str) -> None:
        journal = self.journal
        if journal is not None:
            journal.add(name)

    def count_loss(self, i: int, steps: int) -> None:
        u = self.scenario.units[i]
        if u.side == "US":
            self.bump(f"steps_lost_{u.type.name}", steps)
        else:
            self.bump("german_steps_lost", steps)

    def set_wait(self, kind: Decision, player: str, prompt: str) -> bool:
        """Record the decision the current step waits for; returns False (not done)."""
        self.wait = (kind, player, prompt)
        return False

    # -- copies -------------------------------------------------------------------------
    def copy_into(self, twin: TcsCore) -> None:
        """Give ``twin`` (a shallow copy of this core) its own copy of every mutable
        field: lists and sets of plain values copied, tables of lists one level down,
        the few nested records (step data, fire, triggers, boats being loaded, the
        landing) as plain data; the plan, boats and outcome are immutable and shared."""
        mine, theirs = self.__dict__, twin.__dict__
        theirs.update({name: mine[name][:] for name in _LISTS})
        theirs.update({name: set(mine[name]) for name in _SETS})
        theirs.update({name: dict(mine[name]) for name in _TABLES})
        twin.transports = {k: v[:] for k, v in self.transports.items()}
        twin.ammo = {k: v[:] for k, v in self.ammo.items()}
        twin.nfst = {k: v[:] for k, v in self.nfst.items()}
        twin.sd = _plain(self.sd)
        twin.combat = _plain(self.combat)
        twin.trigger = _plain(self.trigger)
        twin.open_boat = _plain(self.open_boat)
        twin.transport_open = _plain(self.transport_open)
        twin.landing = _plain(self.landing)
        twin.smoke_sessions = _plain(self.smoke_sessions)
        twin.air_attacks = _plain(self.air_attacks)
        twin._derived = {}  # memos of this position: the twin starts afresh
        twin._lasting = {}  # they hold this core
        # the kept observation shared until one of the two changes it (copy on write)
        twin.journal = None if self.journal is None else self.journal.copy()
        occ, sides = self._occupancy, self._side_occupancy  # their lists are never changed
        twin._occupancy = None if occ is None else dict(occ)
        twin._side_occupancy = None if sides is None else {k: dict(o) for k, o in sides.items()}

    # -- soundness (issue 10) ------------------------------------------------------------
    def snapshot_names(self) -> Names:
        """What the names in a saved state of this scenario may be."""
        scen = self.scenario
        return Names(
            cells=frozenset(scen.board.labels),
            places=FROM_CODE,
            units=scen.unit_ids,
            leaders={ld.id for ld in scen.oob.leaders},
            sides=SIDES,
            decisions={str(d) for d in Decision},
            boat_kinds=BOAT_KINDS,
            calibres={r.calibre for r in scen.tables.batteries}
            | {a.calibre for a in scen.tables.additions},
            leader_states=LEADER_STATES,
            obstacle_states=OBSTACLE_STATES,
            statuses=range(len(Status)),
            menus=("move", "fire", "point", "assault", "retreat"),  # procedures.action.MENUS
        )

    def invariants(self) -> list[str]:
        """What the rules guarantee of the fields, checked (a tampered snapshot is refused):
        steps within each unit's printed strength (2.11), units on hexes of the map or in
        a place off it, markers naming units, leaders and hexes that are there, German
        release records naming German formations (3.1), breaches and exits of this map."""
        out: list[str] = []
        try:
            self._check_units(out)
            self._check_leaders(out)
            self._check_records(out)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            out.append(f"unreadable ({type(exc).__name__}: {exc})")
        return out

    def _check_units(self, out: list[str]) -> None:
        scen = self.scenario
        n = len(scen.units)
        cells = len(scen.board)
        lengths = {len(self.where), len(self.steps), len(self.carried), len(self.planned_beach)}
        lengths |= {len(self.on_task), len(self.fire_mode), len(self.status), len(self.dug_in)}
        if lengths | {len(self.defense_turns)} != {n}:
            out.append("the unit records do not match the order of battle")
            return
        if not 0 <= self.turn < len(scen.turns):
            out.append(f"turn {self.turn} is not on the turn track (0..{len(scen.turns) - 1})")
        if self.tide_hour not in scen.beach.tide_lines:
            out.append(f"tide {self.tide_hour!r} is not a tide line of the map")
        beaches = {s.beach for s in scen.beach.sectors}
        for u in scen.units:
            i = u.index
            w, s = self.where[i], self.steps[i]
            if not (0 <= w < cells or w in CODES):
                out.append(f"{u.id} is at {w}, not on the map nor off it")
            if not 0 <= s <= u.steps:
                out.append(f"{u.id} has {s} steps (0..{u.steps})")
            elif w >= 0 and s == 0:
                out.append(f"{u.id} is on the map with no steps")
            if self.status[i] not in range(len(Status)):
                out.append(f"{u.id} has status {self.status[i]}")
            if self.planned_beach[i] is not None and self.planned_beach[i] not in beaches:
                out.append(f"{u.id} is planned for beach {self.planned_beach[i]!r}")
            if u.side == "German" and (self.carried[i] or self.on_task[i]):
                out.append(f"{u.id} is German but carried or on a US op sheet")
            if self.defense_turns[i] < 0:
                out.append(f"{u.id} has {self.defense_turns[i]} turns of defence")
        fixed = (*scen.german.pillboxes, *scen.german.pits)
        for i in fixed:
            if not self.fire_mode[i]:
                out.append(f"{scen.units[i].id} never leaves fire mode (3.3c, 3.4)")
        if self.partial is not None and not self.has_unit(self.partial):
            out.append(f"the unit being split ({self.partial!r}) is not in the order of battle")

    def _check_leaders(self, out: list[str]) -> None:
        scen = self.scenario
        nl = len(scen.oob.leaders)
        if not len(self.leader_status) == len(self.leader_cell) == len(self.leader_boat) == nl:
            out.append("the leader records do not match the order of battle")
            return
        cells = len(scen.board)
        for ld in scen.oob.leaders:
            k = ld.index
            st, c = self.leader_status[k], self.leader_cell[k]
            if st not in LEADER_STATES:
                out.append(f"leader {ld.id} is {st!r}")
            if not -1 <= c < cells or (st == "map" and c < 0):
                out.append(f"leader {ld.id} is {st!r} but placed at {c}")
            if st == "aboard" and self.leader_boat[k] is None:
                out.append(f"leader {ld.id} is {st!r} with boat {self.leader_boat[k]!r}")

    def _check_records(self, out: list[str]) -> None:
        scen = self.scenario
        beach = scen.beach
        cells = range(len(scen.board))
        ids = scen.unit_ids
        leaders = {ld.id for ld in scen.oob.leaders}
        nturns = len(scen.turns)
        turn_labels = {t.label for t in scen.turns}
        german = {f.id for f in scen.german.formations}
        us_formations = {f for f, _ in scen.oob.formations}
        batteries = {b.id: b.fires for b in scen.german.batteries}
        names = self.snapshot_names()
        n = len(scen.units)
        marks = [self.acted, self.fired_point, self.spared, self.free, self.marked]
        marks += [self.marked_point, self.revealed, self.road_moved, self.fired_upon, self.tested]
        if any(not 0 <= i < n for m in marks for i in m):
            out.append("a marker names a unit that is not in the order of battle")
        if any(x not in ids and x not in leaders for x in self.moved):
            out.append("a moved marker names no unit or leader")
        if self.selected is not None:
            sel = self.selected
            if not (sel in ids or sel in leaders or (sel[:1] == "@" and sel[1:] in names.cells)):
                out.append(f"the selected {sel!r} is no unit, leader or stack")
        for c in (*self.smoke, *self.lctr_targets):
            if c not in cells:
                out.append(f"smoke or a rocket target at {c}, not a hex")
        obstacle_cells = set(beach.obstacles)
        for c, v in self.obstacles.items():
            if c not in obstacle_cells or v not in OBSTACLE_STATES:
                out.append(f"obstacle record {c}: {v!r} is not a beach obstacle hex's")
        for memo in (self.clear_from, self.breaching):
            for c, t in memo.items():
                if c not in obstacle_cells or not 0 <= t <= nturns:
                    out.append(f"an obstacle hex {c} is marked from turn {t}")
        for name, label in self.breaches.items():
            if name not in beach.breach_by_name or label not in turn_labels:
                out.append(f"breach {name!r} opened {label!r}: no such breach or turn")
        if any(b not in beach.breach_by_name for b in self.breach_traffic):
            out.append("breach traffic names a breach not on the map")
        for name, label in self.exits.items():
            if name not in beach.exits or label not in turn_labels:
                out.append(f"exit {name!r} opened {label!r}: no such exit or turn")
        if any(f not in german for f in (*self.released, *self.entered, *self.german_sheets)):
            out.append("a German release record names no German formation")
        if any(not 0 <= t <= self.turn for t in self.entered.values()):
            out.append("a formation entered on a turn not yet played")
        if any(f not in us_formations for f in (*self.us_sheets, *self.us_implemented)):
            out.append("a US op sheet names no US formation")
        if any(f not in us_formations and f not in german for f in self.company_morale):
            out.append("a company morale record names no formation")
        for b, left in self.batteries.items():
            if b not in batteries or not 0 <= left <= batteries[b]:
                out.append(f"battery {b!r} has {left} fires left")
        if any(c not in names.calibres for c in self.ammo):
            out.append("an ammunition pool of a calibre no battery fires")
        for bn, (uid, st) in self.nfst.items():
            if uid not in ids or st not in NFST_STATES:
                out.append(f"NFST of {bn}: {uid!r} {st!r}")
        if any(label not in turn_labels for label in self.transports):
            out.append("a transport landing on a turn not on the track")
        boats = [*self.draft_boats, *(b for bs in self.transports.values() for b in bs)]
        if self.plan is not None:
            boats += self.plan.boats
        for boat in boats:
            if any(u not in ids for u, _ in boat.load) or boat.kind not in (*BOAT_KINDS, DD):
                out.append(f"boat {boat.id} is not sound (its kind, or units not in the game)")
