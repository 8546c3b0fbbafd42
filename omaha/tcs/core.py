"""The typed data core of a TCS Omaha game in progress.

:class:`TcsCore` holds every mutable field of a game, public and typed, with
small queries and mutators (where a unit is, lose a unit, note a statistic,
wait for a decision). It knows no sequence of play: the procedures of
:mod:`omaha.tcs.procedures` are functions over a core, and
:class:`omaha.tcs.state.TcsState` decides which runs next. Everything here is
plain data that :mod:`omaha.tcs.view` writes to a snapshot with printed labels.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from omaha.kernel.protocol import Outcome, State
from omaha.tcs.components.plan import Plan, PlannedBoat, PlannedGroup
from omaha.tcs.components.turns import parse_time
from omaha.tcs.rules import hour_of
from omaha.tcs.scenario import TcsScenario

# where a unit is, besides a cell index
AWAIT = -1  # in the landing schematic or the transport pool
LOST = -2  # lost at sea, off the map or destroyed
EXITED = -3  # left the map (29th ID, 2.7b)
ABOARD = -4  # in an assigned transport boat (2.1m)
CODES = {AWAIT: "await", LOST: "lost", EXITED: "exited", ABOARD: "aboard"}
FROM_CODE = {v: k for k, v in CODES.items()}


class Decision(StrEnum):
    """The kinds of decision a player may be asked for (``Pending.kind``)."""

    PILLBOX = "pillbox"
    ROCKET_PIT = "rocket pit"
    PLAN = "plan"
    ROCKETS = "rockets"
    NFST = "nfst"
    TIDE = "tide"
    OVERDRAFT = "overdraft"
    TRANSPORTS = "transports"
    AIR = "air"
    SMOKE = "smoke"
    LAND = "land"
    STRIKE = "strike"
    MOVE = "move"


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
    # German pieces
    pillboxes: list[int]
    pits: list[int]
    # US units, by unit index
    where: list[int]
    steps: list[int]
    carried: list[bool]  # a gun landed by Dukw keeps it as its carrier
    planned_beach: list[str | None]
    on_task: list[bool]
    moved: set[str]
    selected: str | None
    free: set[int]
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
    # ammunition pool (2.9): calibre -> [he, smoke, illum]
    ammo: dict[str, list[int]]
    # NFSTs (2.6d): battalion -> [unit, status]
    nfst: dict[str, list[str]]
    # overdraft (2.11): company -> steps added
    overdraft_added: dict[str, int]
    # statistics for the metrics
    stats: dict[str, int]

    def init_fields(self) -> None:
        """The fields of a new game, before the German sets up."""
        scenario = self.scenario
        n = len(scenario.oob.units)
        nl = len(scenario.oob.leaders)
        self.in_setup = True
        self.turn = 0
        self.cursor = 0
        self.started = False
        self.sd = {}
        self.wait = None
        self.result = None
        self.tide_hour = hour_of(scenario.turns[0].label.split()[0])
        self.pillboxes, self.pits = [], []
        self.where = [AWAIT] * n
        self.steps = [u.steps for u in scenario.oob.units]
        self.carried = [False] * n
        self.planned_beach = [None] * n
        self.on_task = [False] * n
        self.moved, self.selected, self.free = set(), None, set()
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
        self.ammo, self.nfst, self.overdraft_added = {}, {}, {}
        self.stats = {}

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

    # -- names and places --------------------------------------------------------------
    def label(self, cell: int) -> str:
        return self.scenario.board.label(cell)

    def cell(self, label: str) -> int:
        return self.scenario.board.cell(label)

    def uid(self, i: int) -> str:
        return self.scenario.oob.units[i].id

    def unit_index(self, uid: str) -> int:
        return self.scenario.oob.index(uid)

    def lid(self, k: int) -> str:
        return self.scenario.oob.leaders[k].id

    def occupied_us(self) -> dict[int, list[int]]:
        """Cell -> US unit indices on it."""
        out: dict[int, list[int]] = {}
        for i, w in enumerate(self.where):
            if w >= 0:
                out.setdefault(w, []).append(i)
        return out

    def german_cells(self) -> set[int]:
        return set(self.pillboxes) | set(self.pits)

    def living_leaders_on_map(self) -> list[int]:
        return [k for k, s in enumerate(self.leader_status) if s == "map"]

    # -- small mutators ----------------------------------------------------------------
    def bump(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n

    def lose_unit(self, i: int, kind: str, rule: str, **details: Any) -> None:
        """A US unit is lost whole (logged as ``kind`` under ``rule``)."""
        u = self.scenario.oob.units[i]
        self.bump(f"steps_lost_{u.type.name}", self.steps[i])
        self.note(kind, rule, player="US", unit=u.id, steps=self.steps[i], **details)
        self.where[i], self.steps[i] = LOST, 0

    def set_wait(self, kind: Decision, player: str, prompt: str) -> bool:
        """Record the decision the current step waits for; returns False (not done)."""
        self.wait = (kind, player, prompt)
        return False
