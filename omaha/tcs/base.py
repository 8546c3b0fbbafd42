"""Fields and helpers shared by the parts of :class:`omaha.tcs.state.TcsState`.

The state is split in mixins (set-up steps, turn steps, protocol glue) over
this base so each file stays readable; everything here is plain data that
``_dump``/``_restore`` write with printed labels.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from omaha.kernel.actions import Action
from omaha.kernel.protocol import Outcome, State
from omaha.tcs.plan import Plan, PlannedBoat, PlannedGroup
from omaha.tcs.scenario import TcsScenario, parse_time

# where a unit is, besides a cell index
AWAIT = -1  # in the landing schematic or the transport pool
LOST = -2  # lost at sea, off the map or destroyed
EXITED = -3  # left the map (29th ID, 2.7b)
ABOARD = -4  # in an assigned transport boat (2.1m)
CODES = {AWAIT: "await", LOST: "lost", EXITED: "exited", ABOARD: "aboard"}
FROM_CODE = {v: k for k, v in CODES.items()}

SETUP_STEPS: tuple[tuple[str, str], ...] = (
    ("set-up", "german_setup"),
    ("set-up", "us_plan"),
    ("set-up", "leader_selection"),
    ("set-up", "rockets"),
    ("set-up", "nfst"),
)
TURN_STEPS: tuple[tuple[str, str], ...] = (
    ("Command Planning Phase", "tide"),
    ("Command Planning Phase", "leaders_out"),
    ("Command Planning Phase", "ammo"),
    ("Command Planning Phase", "overdraft"),
    ("Command Planning Phase", "transports"),
    ("Command Planning Phase", "air"),
    ("US Action Phase", "leader_losses"),
    ("US Action Phase", "lctr"),
    ("US Action Phase", "smoke"),
    ("US Action Phase", "assault"),
    ("US Action Phase", "landing_choices"),
    ("US Action Phase", "transport_landing"),
    ("US Action Phase", "transport_choices"),
    ("US Action Phase", "air_strikes"),
    ("US Action Phase", "move"),
    ("German Action Phase", "german"),
    ("end of turn", "end"),
)

STAT_KEYS = (
    "wave1_planned",
    "wave1_landed",
    "steps_committed",
    "dd_launched",
    "dd_landed",
    "dukw_guns_loaded",
    "dukw_guns_lost",
    "dukw_guns_landed",
    "units_correct_beach",
    "units_wrong_beach",
    "leaders_landed",
    "nfst_working",
)


class TcsBase(State[TcsScenario]):
    """Typed fields of a TCS Omaha game in progress (see :mod:`omaha.tcs.state`)."""

    scen: TcsScenario
    # where the sequence stands
    in_setup: bool
    turn: int  # index into scen.turns
    cursor: int  # index into SETUP_STEPS or TURN_STEPS
    started: bool  # the current step has done its automatic part
    sd: dict[str, Any]  # data of the current step (labels only), reset at each step
    wait: tuple[str, str, str] | None  # pending decision: kind, player, prompt
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
    # landing in progress: boat id -> fate (cell, -1 sunk, -2 off map, -9 to choose)
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

    # -- helpers -----------------------------------------------------------------
    @property
    def turn_time(self) -> str:
        """The current turn's clock time (``"0740"``)."""
        return self.scen.turns[self.turn].label.split()[0]

    def turn_has(self, flag: str) -> bool:
        return flag in self.scen.turns[self.turn].flags

    @property
    def day(self) -> int:
        return parse_time(self.scen.turns[self.turn].label)[0]

    def label(self, cell: int) -> str:
        return self.scen.board.label(cell)

    def cell(self, label: str) -> int:
        return self.scen.board.cell(label)

    def uid(self, i: int) -> str:
        return self.scen.oob.units[i].id

    def unit_index(self, uid: str) -> int:
        return self.scen.oob.index(uid)

    def bump(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n

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

    def _lid(self, k: int) -> str:
        return self.scen.oob.leaders[k].id

    def _lose_unit(self, i: int, kind: str, rule: str, **details: Any) -> None:
        u = self.scen.oob.units[i]
        self.bump(f"steps_lost_{u.type.name}", self.steps[i])
        self.note(kind, rule, player="US", unit=u.id, steps=self.steps[i], **details)
        self.where[i], self.steps[i] = LOST, 0

    # -- provided by the mixins (declared here for the type checker) -----------------
    def _loadable(self, kind: str, room: int, pool: str) -> Iterator[Action]:
        raise NotImplementedError

    def _capacity(self, kind: str, lcas: int = 1) -> int:
        raise NotImplementedError

    def _next_id(self, prefix: str) -> str:
        raise NotImplementedError

    def _transport_steps(self) -> dict[str, int]:
        raise NotImplementedError

    def _transport_used(self, kind: str) -> int:
        raise NotImplementedError

    def _plan_units(self) -> set[str]:
        raise NotImplementedError

    def _check_task(self, i: int) -> None:
        raise NotImplementedError

    def set_wait(self, kind: str, player: str, prompt: str) -> bool:
        """Record the decision the current step waits for; returns False (not done)."""
        self.wait = (kind, player, prompt)
        return False
