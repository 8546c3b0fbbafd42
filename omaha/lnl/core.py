"""The LnL Omaha data core: every field of a game in progress, and the small queries
and mutators the procedures share (where a unit is, put it somewhere, lose a step).

Inside the rules a unit is its index in the scenario's unit list and a hex is a
board index; labels appear only in actions, the log and snapshots. The state is a
handful of flat lists (location, steps, markers per unit) plus the decision in
progress, kept in small records (an attack being put together, a moving stack,
a loss to allocate, a retreat, an advance, an air strike, units to place).
The sequence of play lives in :mod:`omaha.lnl.state`, the procedures in
:mod:`omaha.lnl.procedures`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, Literal, TypeVar, cast

import attrs

from omaha.errors import IllegalAction
from omaha.kernel.observation import Journal
from omaha.kernel.protocol import Outcome, State
from omaha.lnl.components.counters import UnitDef
from omaha.lnl.components.deck import ActionDeck
from omaha.lnl.components.map import MapTables
from omaha.lnl.scenario import LnlScenario

OFF = -1  #: not yet on the map
ELIM = -2  #: eliminated
SIDES = ("US", "German")
#: Reading R34 (READINGS.md): attacks and close assaults put together and cancelled in
#: one phase, after which no other may be opened that phase (a game stays finite).
MAX_CANCELS = 50
#: Reading R35 (READINGS.md): a game turn is 37.5 minutes, the middle of the fifteen
#: minutes to one hour the rules give a turn (LnL Omaha: introduction); turn 1 begins
#: at H-hour, 06:30.
TURN_HOURS = 0.625


class Phase(StrEnum):
    """Where a game turn stands (LnL Omaha: Outline of Play): set-up, then for each side
    the action card (Americans only) and its event, disruption removal, the landings
    (Americans only), fire, movement and close assault; "over" once the game ends."""

    SETUP = "setup"
    CARD = "card"
    EVENT = "event"
    RALLY = "rally"
    LANDING = "landing"
    FIRE = "fire"
    MOVE = "move"
    ASSAULT = "assault"
    OVER = "over"


#: Which decision is pending: a task in progress (a loss to allocate, a retreat, ...)
#: or, with none, the phase's own ("phase": start an attack, a move, end the phase).
Decision = Literal[
    "loss", "retreat", "advance", "assault", "attack", "opp", "move", "strike", "place", "phase"
]


#: The kind (``Pending.kind``) of each decision other than a phase's own.
KIND_OF: dict[Decision, str] = {
    "loss": "loss",
    "retreat": "retreat",
    "advance": "advance",
    "assault": "assault",
    "attack": "fire",
    "opp": "opportunity fire",
    "move": "move",
    "strike": "air strike",
    "place": "place",
}


R = TypeVar("R")
_MISSING = object()


def other(side: str) -> str:
    return "German" if side == "US" else "US"


@attrs.define
class Attack:
    """A fire attack or close assault being put together."""

    side: str
    mode: str  # fire | opp | bombard | assault
    firers: list[int]
    target: int = -1
    kind: str = ""  # soft | hard | both (fire); "" for an assault
    ngfs: int = 0
    bonus: bool = False

    def copy(self) -> Attack:
        return Attack(
            self.side, self.mode, list(self.firers), self.target, self.kind, self.ngfs, self.bonus
        )


@attrs.define
class OppWindow:
    """After a moving stack enters a hex: the other side may fire once at it."""

    side: str
    cell: int
    movers: list[int]

    def copy(self) -> OppWindow:
        return OppWindow(self.side, self.cell, list(self.movers))


@attrs.define
class MoveGroup:
    """Units moving together; ``start`` is -1 for a reinforcement entering the map."""

    units: list[int]
    start: int
    cell: int
    spent: dict[int, int]
    serial: int
    stepped: bool = False

    def copy(self) -> MoveGroup:
        return MoveGroup(
            list(self.units), self.start, self.cell, dict(self.spent), self.serial, self.stepped
        )


@attrs.define
class LossTask:
    """Steps still to take from ``units`` (the defender's choice, one at a time)."""

    side: str
    units: list[int]
    remaining: int
    hits: dict[int, int]

    def copy(self) -> LossTask:
        return LossTask(self.side, list(self.units), self.remaining, dict(self.hits))


@attrs.define
class RetreatTask:
    """Units that must retreat after a close assault, in order."""

    side: str
    queue: list[int]

    def copy(self) -> RetreatTask:
        return RetreatTask(self.side, list(self.queue))


@attrs.define
class AdvanceTask:
    """Attackers that may advance into the hex ``cell`` they emptied."""

    side: str
    units: list[int]
    cell: int

    def copy(self) -> AdvanceTask:
        return AdvanceTask(self.side, list(self.units), self.cell)


@attrs.define
class StrikeTask:
    """An air strike a card event gives ``side``."""

    side: str
    he: int
    event: str

    def copy(self) -> StrikeTask:
        return StrikeTask(self.side, self.he, self.event)


class LnlCore(State[LnlScenario]):
    """Every field of a game of LnL Omaha in progress, with small queries and mutators.

    The fields are public: procedures read and change them, and tests and tools
    stage positions through them inside ``state.edit()``.
    """

    #: Stop at the end of a fire, movement or close assault phase with nothing left
    #: to do instead of moving on (tests and analyses set it, with ``auto_single``
    #: off, to look at a position before the next phase changes it).
    hold_phases: bool = False

    #: The scenario (the same object as ``scenario``) and its map's facts.
    scen: LnlScenario
    T: MapTables
    turn: int
    side: str
    current_phase: Phase
    # per unit, by index
    where: list[int]  #: board index, OFF or ELIM
    steps: list[int]
    dis: list[bool]  #: Disrupted marker
    fired: list[bool]  #: Fired marker
    placed: list[int]  #: the turn it landed (0: not landed)
    moved: list[bool]  #: moved this movement phase
    assaulted: list[bool]  #: took part in a close assault this phase
    ashore: list[int]  #: steps it had when it first reached land (-1: not yet)
    entered: list[bool]  #: has been on the map
    occ: dict[int, list[int]]  #: units in each occupied hex, in index order
    control: list[str]  #: per hex: the side that last entered it ("" nobody)
    deck: ActionDeck
    last_card: str  #: the last event card drawn
    ngfs_left: int  #: NGFS packets left this turn
    cancels: int  #: attacks cancelled this phase (reading R34)
    first_exit: int  #: the game turn at whose end a draw exit was first open (0: none yet)
    bonus: dict[str, bool]  #: a +6 HE card ready, per side
    perms: set[str]  #: German movement allowed by a card this turn ("all", "armor")
    fired_at: set[tuple[int, int, str]]  #: (firing hex, target hex, kind) this phase
    due: dict[int, int]  #: reinforcements: unit -> turn it is due
    events_done: set[str]  #: one-off events already played
    entered_by: dict[int, dict[int, int]]  #: start hex -> hex entered -> move serial
    serial: int  #: number of the last move started
    place_queue: list[int]  #: units to place, in order
    place_mode: str  #: setup | landing | row
    attack: Attack | None
    opp: OppWindow | None
    group: MoveGroup | None
    loss: LossTask | None
    retreat: RetreatTask | None
    advance: AdvanceTask | None
    strike: StrikeTask | None
    result: Outcome | None
    steps_lost: dict[str, int]
    #: Results of pure queries (fire groups) valid until the state next changes.
    memo: dict[tuple[Any, ...], Any]
    #: Fire groups by everything they depend on (a pure function's results, valid in
    #: any position, so kept across changes and shared with clones).
    groups_cache: dict[tuple[Any, ...], tuple[tuple[int, ...], ...]]
    #: Each side's fire plan with the fields it was worked out from, kept across
    #: positions and brought up to date by :func:`omaha.lnl.procedures.fire.kept_plan`
    #: alone (its values are never changed in place, so clones share them).
    fire_plans: dict[str, Any]
    #: While an observation is kept (:mod:`omaha.lnl.observation`): the entities
    #: changed since in what it shows, noted by the mutators below; None while
    #: nobody observes.
    journal: Journal | None

    # -- set-up of the fields ------------------------------------------------
    def init_fields(self) -> None:
        """Every field as at the start of a game (before the set-up is placed)."""
        scen = self.scen = self.scenario
        self.T = scen.tables
        n = len(scen.units)
        self.turn = 0
        self.side = "German"
        self.current_phase = Phase.SETUP
        self.where = [OFF] * n
        self.steps = [u.type.steps for u in scen.units]
        self.dis = [False] * n
        self.fired = [False] * n
        self.placed = [0] * n
        self.moved = [False] * n
        self.assaulted = [False] * n
        self.ashore = [-1] * n
        self.entered = [False] * n
        self.occ = {}
        self.control = [""] * len(scen.board)
        for c in scen.victory_points:
            self.control[c] = scen.initial_control
        self.deck = ActionDeck(c.id for c in scen.cards)
        self.last_card = ""
        self.ngfs_left = 0
        self.cancels = 0
        self.first_exit = 0
        self.bonus = {"US": False, "German": False}
        self.perms = set()
        self.fired_at = set()
        self.due = {}
        self.events_done = set()
        self.entered_by = {}
        self.serial = 0
        self.place_queue = []
        self.place_mode = ""
        self.attack = None
        self.opp = None
        self.group = None
        self.loss = None
        self.retreat = None
        self.advance = None
        self.strike = None
        self.result = None
        self.steps_lost = {"US": 0, "German": 0}
        self.memo = {}
        self.groups_cache = {}
        self.fire_plans = {}
        self.journal = None

    def forget_queries(self) -> None:
        """Forget the cached queries of the position (``memo``); the one place they
        are dropped, after any change of the fields they read."""
        self.memo = {}

    def _drop_caches(self) -> None:
        """After fields changed behind the mutators' back (``edit()``): the cached
        queries, and the observation kept with its journal (built again at next use)."""
        self.forget_queries()
        self.journal = None

    def cached(self, key: tuple[Any, ...], compute: Callable[[], R]) -> R:
        """The result of a pure query of this position (a procedure's or a bot's),
        computed once and kept in ``memo`` until the state next changes.

        The result is shared: callers must not change it in place.
        """
        hit = self.memo.get(key, _MISSING)
        if hit is _MISSING:
            hit = self.memo[key] = compute()
        return cast(R, hit)

    def __deepcopy__(self, memo: dict[int, Any]) -> LnlCore:
        """``copy.deepcopy`` (what OpenSpiel's clone uses) is the structural copy."""
        return self._copy()

    def _copy(self) -> LnlCore:
        """A structural copy: every mutable field copied, the cached queries kept
        (they describe the same position; their values are never changed in place)."""
        twin = self._copy_base()
        assert isinstance(twin, LnlCore)
        twin.where = self.where[:]
        twin.steps = self.steps[:]
        twin.dis = self.dis[:]
        twin.fired = self.fired[:]
        twin.placed = self.placed[:]
        twin.moved = self.moved[:]
        twin.assaulted = self.assaulted[:]
        twin.ashore = self.ashore[:]
        twin.entered = self.entered[:]
        twin.occ = {c: xs[:] for c, xs in self.occ.items()}
        twin.control = self.control[:]
        twin.deck = self.deck.copy()
        twin.bonus = dict(self.bonus)
        twin.perms = set(self.perms)
        twin.fired_at = set(self.fired_at)
        twin.due = dict(self.due)
        twin.events_done = set(self.events_done)
        twin.entered_by = {c: dict(m) for c, m in self.entered_by.items()}
        twin.place_queue = self.place_queue[:]
        twin.attack = None if self.attack is None else self.attack.copy()
        twin.opp = None if self.opp is None else self.opp.copy()
        twin.group = None if self.group is None else self.group.copy()
        twin.loss = None if self.loss is None else self.loss.copy()
        twin.retreat = None if self.retreat is None else self.retreat.copy()
        twin.advance = None if self.advance is None else self.advance.copy()
        twin.strike = None if self.strike is None else self.strike.copy()
        twin.steps_lost = dict(self.steps_lost)
        twin.memo = dict(self.memo)
        twin.fire_plans = dict(self.fire_plans)
        # the kept observation shared until one of the two changes it (copy on write)
        twin.journal = None if self.journal is None else self.journal.copy()
        return twin

    # -- the decision in progress ------------------------------------------------
    def decision(self) -> Decision:
        """Which decision is pending; the first task in progress comes first."""
        if self.loss is not None:
            return "loss"
        if self.retreat is not None:
            return "retreat"
        if self.advance is not None:
            return "advance"
        if self.attack is not None:
            return "assault" if self.attack.mode == "assault" else "attack"
        if self.opp is not None:
            return "opp"
        if self.group is not None:
            return "move"
        if self.strike is not None:
            return "strike"
        if self.place_queue:
            return "place"
        return "phase"

    def decision_kind(self) -> str:
        """The kind of the pending decision (``pending.kind``, without its prompt): a
        phase's own decision is named by its phase, a task by :data:`KIND_OF`."""
        decision = self.decision()
        return self.current_phase if decision == "phase" else KIND_OF[decision]

    def _player_to_move(self) -> str | None:
        """The player who carries out the pending decision (``pending.player``, without
        working out its prompt; the kernel's ``current_player`` asks it once a decision):
        None once the game is over; the side owning the first task in progress, in the
        order of :meth:`decision`; the player placing; else the phasing player."""
        if self.result is not None:
            return None
        if self.loss is not None:
            return self.loss.side
        if self.retreat is not None:
            return self.retreat.side
        if self.advance is not None:
            return self.advance.side
        if self.attack is not None:
            return self.attack.side
        if self.opp is not None:
            return self.opp.side
        if self.group is not None:
            return self.side
        if self.strike is not None:
            return self.strike.side
        if self.place_queue:
            return self.scen.units[self.place_queue[0]].side
        return self.side

    def busy(self) -> bool:
        """Whether a decision other than the phase's own is in progress."""
        return self.busy_except_place() or bool(self.place_queue)

    def busy_except_place(self) -> bool:
        return any(
            t is not None
            for t in (
                self.loss,
                self.retreat,
                self.advance,
                self.attack,
                self.opp,
                self.group,
                self.strike,
            )
        )

    # -- units -----------------------------------------------------------------
    def u(self, idx: int) -> UnitDef:
        return self.scen.units[idx]

    def uid(self, idx: int) -> str:
        return self.scen.units[idx].id

    def unit_index(self, uid: str) -> int:
        idx = self.scen.unit_index.get(uid)
        if idx is None:
            raise IllegalAction(f'"{uid}" is not a unit of this scenario')
        return idx

    def label(self, cell: int) -> str:
        return self.scen.board.labels[cell]

    def cell_of(self, label: str) -> int:
        try:
            return self.scen.board.cell(label)
        except ValueError:
            raise IllegalAction(f'"{label}" is not a hex of this map') from None

    def he(self, u: int) -> int:
        return self.scen.units[u].type.he[0 if self.steps[u] >= 2 else 1]

    def ap(self, u: int) -> int:
        return self.scen.units[u].type.ap[0 if self.steps[u] >= 2 else 1]

    def ca(self, u: int) -> int:
        return self.scen.units[u].type.ca[0 if self.steps[u] >= 2 else 1]

    def alive(self, u: int) -> bool:
        return self.where[u] >= 0

    def units_of(self, side: str) -> list[int]:
        """Units of a side on the map, in index order."""
        key = ("units", side)
        hit = self.memo.get(key)
        if hit is None:
            where = self.where
            hit = self.memo[key] = [
                u.idx for u in self.scen.units if u.side == side and where[u.idx] >= 0
            ]
        return list(hit)

    def at(self, cell: int) -> list[int]:
        return self.occ.get(cell, [])

    def side_at(self, cell: int) -> str:
        here = self.occ.get(cell)
        return self.scen.units[here[0]].side if here else ""

    def enemy_at(self, cell: int, side: str) -> bool:
        here = self.occ.get(cell)
        return here is not None and self.scen.units[here[0]].side != side

    def stack_count(self, cell: int) -> int:
        """Counters against the stacking limit (engineers do not count)."""
        return sum(1 for x in self.occ.get(cell, ()) if not self.scen.units[x].type.engineer)

    def room_for(self, cell: int, movers: Iterable[int]) -> bool:
        """LnL Omaha: Stacking: at most two counters a hex, engineers not counted."""
        extra = sum(1 for x in movers if not self.scen.units[x].type.engineer)
        return extra == 0 or self.stack_count(cell) + extra <= 2

    def undisrupted_enemy_adjacent(self, cell: int, side: str) -> bool:
        for n in self.T.neighbours[cell]:
            for x in self.occ.get(n, ()):
                if self.scen.units[x].side != side and not self.dis[x]:
                    return True
        return False

    # -- placing, removing and marking --------------------------------------------
    # Every change of what the observation shows of a unit (its hex, steps, markers,
    # landing turn, due turn) or of a hex's control goes through these mutators, which
    # note it in the journal while an observation is kept (``journal`` is not None).
    def put(self, u: int, cell: int) -> None:
        """Put a unit in a hex (arrival, step, retreat, advance) and take control of it."""
        self.forget_queries()
        old = self.where[u]
        if old >= 0:
            here = self.occ[old]
            here.remove(u)
            if not here:
                del self.occ[old]
        self.where[u] = cell
        lst = self.occ.setdefault(cell, [])
        lst.append(u)
        lst.sort()
        unit = self.scen.units[u]
        self.entered[u] = True
        self.control[cell] = unit.side
        if unit.side == "US" and self.ashore[u] < 0 and self.T.terrain[cell] != "part_ocean":
            self.ashore[u] = self.steps[u]
        journal = self.journal
        if journal is not None:
            journal.add(u)
            if self.T.is_victory[cell]:
                journal.add(("hex", cell))

    def take(self, u: int) -> None:
        """Take a unit off the map (eliminated)."""
        self.forget_queries()
        old = self.where[u]
        if old >= 0:
            here = self.occ[old]
            here.remove(u)
            if not here:
                del self.occ[old]
        self.where[u] = ELIM
        self.dis[u] = False
        self.fired[u] = False
        if self.group is not None and u in self.group.units:
            self.group.units.remove(u)
        if self.opp is not None and u in self.opp.movers:
            self.opp.movers.remove(u)
        if self.journal is not None:
            self.journal.add(u)

    def lose_step(self, u: int, rule: str, why: str) -> None:
        """Flip a unit, or remove it when it loses its last step (LnL Omaha: Fire Combat)."""
        if self.where[u] < 0:
            return
        self.forget_queries()
        self.steps[u] -= 1
        if self.journal is not None:
            self.journal.add(u)
        self.steps_lost[self.u(u).side] += 1
        if self.steps[u] <= 0:
            self.steps[u] = 0
            self.take(u)
            self.note("lnl.elim", rule, player=self.u(u).side, unit=self.uid(u), why=why)
        else:
            self.note("lnl.step", rule, player=self.u(u).side, unit=self.uid(u), why=why)

    def eliminate(self, u: int, rule: str, why: str) -> None:
        if self.where[u] < 0:
            return
        self.steps_lost[self.u(u).side] += self.steps[u]
        self.steps[u] = 0
        self.take(u)  # notes the unit in the journal
        self.note("lnl.elim", rule, player=self.u(u).side, unit=self.uid(u), why=why)

    def disrupt(self, u: int, rule: str) -> None:
        """A Disrupted result: a marker, or a step for a unit already disrupted."""
        if self.where[u] < 0:
            return
        self.forget_queries()
        if self.dis[u]:
            self.lose_step(u, rule, "disrupted again")
        else:
            self.set_disrupted(u, True)

    def set_disrupted(self, u: int, on: bool) -> None:
        """Put a Disrupted marker on a unit (``on``: LnL Omaha: Fire Combat) or take it
        off (LnL Omaha: Disruption Removal Phase)."""
        self.dis[u] = on
        if self.journal is not None:
            self.journal.add(u)

    def set_fired(self, u: int, on: bool) -> None:
        """Put a Fired marker on a unit (``on``) or take it off (LnL Omaha: Outline of Play)."""
        self.fired[u] = on
        if self.journal is not None:
            self.journal.add(u)

    def set_moved(self, u: int) -> None:
        """A unit has moved this movement phase (it may not move again)."""
        self.moved[u] = True
        if self.journal is not None:
            self.journal.add(u)

    def set_assaulted(self, u: int) -> None:
        """A unit took part in a close assault this phase (reading R26)."""
        self.assaulted[u] = True
        if self.journal is not None:
            self.journal.add(u)

    def clear_moved(self) -> None:
        """A movement phase begins: no unit has moved yet."""
        self._clear_marks(self.moved)

    def clear_assaulted(self) -> None:
        """A close assault phase begins: no unit has assaulted yet."""
        self._clear_marks(self.assaulted)

    def _clear_marks(self, marks: list[bool]) -> None:
        """Every unit's mark in ``marks`` off, each unit that had one noted in the journal."""
        journal = self.journal
        for u, was in enumerate(marks):
            if was:
                marks[u] = False
                if journal is not None:
                    journal.add(u)

    def set_placed(self, u: int, turn: int) -> None:
        """A unit landed on game turn ``turn`` (LnL Omaha: Setting up the Game)."""
        self.placed[u] = turn
        if self.journal is not None:
            self.journal.add(u)

    def set_due(self, u: int, turn: int | None) -> None:
        """A reinforcement is due on game turn ``turn`` (None: no longer due)."""
        if turn is None:
            self.due.pop(u, None)
        else:
            self.due[u] = turn
        if self.journal is not None:
            self.journal.add(u)

    # -- the position -------------------------------------------------------------
    # What the observation's position tracks show (the game turn, the player turn, the
    # phase, NGFS packets left, attacks cancelled, +6 HE cards, German movement
    # permissions, cards left) changes through these mutators, or in the sequence of
    # play next to a call of set_phase or position_changed, which note the whole
    # position in the journal.
    def set_turn(self, turn: int) -> None:
        """Game turn ``turn`` begins: the units that landed on the last one (or on this
        one) change what they show (landed this turn)."""
        was, self.turn = self.turn, turn
        if self.journal is not None:
            self.journal.add("position")
            self.journal.update(u for u, t in enumerate(self.placed) if t in (was, turn))

    def position_changed(self) -> None:
        """Note in the journal (if an observation is kept) that the position changed."""
        if self.journal is not None:
            self.journal.add("position")

    def set_phase(self, phase: Phase) -> None:
        """The sequence of play moves on to ``phase`` (LnL Omaha: Outline of Play)."""
        self.current_phase = phase
        if self.journal is not None:
            self.journal.add("position")

    def count_cancel(self) -> None:
        """An attack or close assault put together was cancelled (reading R34)."""
        self.cancels += 1
        if self.journal is not None:
            self.journal.add("position")

    def spend_support(self, side: str, ngfs: int, bonus: bool) -> None:
        """An attack spent ``ngfs`` NGFS packets and, with ``bonus``, the side's +6 HE
        card (LnL Omaha: Naval Gunfire Support)."""
        self.ngfs_left -= ngfs
        if bonus:
            self.bonus[side] = False
        if self.journal is not None:
            self.journal.add("position")

    def grant_bonus(self, side: str) -> None:
        """A card event gives ``side`` a +6 HE card until the end of the game turn."""
        self.bonus[side] = True
        if self.journal is not None:
            self.journal.add("position")

    def permit(self, kind: str) -> None:
        """A card event lets German units move this turn: ``all`` or ``armor``."""
        self.perms.add(kind)
        if self.journal is not None:
            self.journal.add("position")

    def exits_open(self) -> list[str]:
        """The draw exits whose every hex the Americans control (reading R35)."""
        return [
            k for k, cells in self.T.exits.items() if all(self.control[c] == "US" for c in cells)
        ]

    def held(self) -> list[int]:
        """Victory hexes the Americans control (LnL Omaha: Winning)."""
        return [c for c in self.T.victory if self.control[c] == "US"]

    def points(self) -> dict[str, int]:
        pts = {"US": 0, "German": 0}
        for c, p in self.scen.victory_points.items():
            side = self.control[c]
            if side in pts:
                pts[side] += p
        return pts

    # -- the action card ------------------------------------------------------------
    def card_value(self, purpose: str, *, event_draw: bool = False) -> tuple[int, str]:
        """Draw an action card (or roll a d6 in the d6 option) for ``purpose``.

        LnL Omaha: Action Cards: a die may replace the card for disruption removal,
        fire combat and close assault, never for the event drawn each turn.
        Returns the value and the card id ("" for a die).
        """
        if self.scen.d6 and not event_draw:
            return self.dice.d6(), ""
        card = self.deck.draw(self.dice)
        if self.journal is not None:  # a card fewer left
            self.journal.add("position")
        return self.scen.all_cards[card].value, card

    # -- rule predicates ----------------------------------------------------------------
    def placement_restricted(self, u: int) -> bool:
        """Landed this turn (LnL Omaha: Setting up the Game): no move; no fire unless armor.

        Reading R1 (READINGS.md): the turn is the whole game turn.
        """
        return self.placed[u] == self.turn and self.turn > 0

    def may_open_attack(self) -> bool:
        """Whether another attack or close assault may be opened this phase: not after
        :data:`MAX_CANCELS` were cancelled in it (reading R34, READINGS.md)."""
        return self.cancels < MAX_CANCELS

    def can_fire(self, u: int) -> bool:
        """On the map, no Fired or Disrupted marker, and not barred by its landing turn."""
        if self.where[u] < 0 or self.fired[u] or self.dis[u]:
            return False
        turn = self.turn  # placement_restricted(u), written out (asked tens of times a step)
        return not (self.placed[u] == turn and turn > 0 and not self.scen.units[u].armor_unit)

    # -- labels ---------------------------------------------------------------------------
    def labels(self, cells: Iterable[int]) -> list[str]:
        return [self.label(c) for c in cells]

    def ids(self, units: Iterable[int]) -> list[str]:
        return [self.uid(u) for u in units]
