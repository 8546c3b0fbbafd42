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

from omaha.kernel.protocol import Outcome, State
from omaha.tcs.components.oob import Unit
from omaha.tcs.components.plan import Plan, PlannedBoat, PlannedGroup
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
T = TypeVar("T")


class Status(IntEnum):
    """A unit's fire-combat state (series 17.0; 1.13a, 2.4a, 3.3f name them)."""

    OK = 0
    SUPPRESSED = 1
    PARALYZED = 2


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
        self.smoke, self.smoke_sessions = set(), []
        self.air_loadout, self.air_controller, self.air_attacks = [], None, []
        self.ammo, self.missions, self.nfst, self.overdraft_added = {}, set(), {}, {}
        self.obstacles, self.clear_from, self.breaching = {}, {}, {}
        self.breaches, self.breach_traffic, self.exits = {}, {}, {}
        self.company_morale, self.us_sheets, self.us_implemented = {}, {}, set()
        self.released, self.entered, self.german_sheets = set(), {}, set()
        self.batteries = {}
        self.stats = {}
        self._occupancy: dict[int, list[int]] | None = None
        self._side_occupancy: dict[str, dict[int, list[int]]] | None = None
        self._derived: dict[object, Any] = {}

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
        self.steps[i] = 0

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
