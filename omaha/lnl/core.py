"""The LnL Omaha state's data and the helpers every part of the rules shares.

Inside the rules a unit is its index in the scenario's unit list and a hex is a
board index; labels appear only in actions, the log and snapshots. The state is a
handful of flat lists (location, steps, markers per unit) plus the decision in
progress, kept in small records (an attack being put together, a moving stack,
a loss to allocate, a retreat, an advance, an air strike, units to place).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from omaha.errors import IllegalAction
from omaha.kernel.protocol import Outcome, State
from omaha.lnl import rules
from omaha.lnl.cards import ActionDeck
from omaha.lnl.scenario import LnlScenario, UnitDef

OFF = -1  #: not yet on the map
ELIM = -2  #: eliminated
SIDES = ("US", "German")


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


@attrs.define
class OppWindow:
    """After a moving stack enters a hex: the other side may fire once at it."""

    side: str
    cell: int
    movers: list[int]


@attrs.define
class MoveGroup:
    """Units moving together; ``start`` is -1 for a reinforcement entering the map."""

    units: list[int]
    start: int
    cell: int
    spent: dict[int, int]
    serial: int
    stepped: bool = False


@attrs.define
class LossTask:
    """Steps still to take from ``units`` (the defender's choice, one at a time)."""

    side: str
    units: list[int]
    remaining: int
    hits: dict[int, int]


@attrs.define
class RetreatTask:
    side: str
    queue: list[int]


@attrs.define
class AdvanceTask:
    side: str
    units: list[int]
    cell: int


@attrs.define
class StrikeTask:
    side: str
    he: int
    event: str


class Core(State[LnlScenario]):
    """Fields and shared helpers; the rules live in the mixins built on it."""

    #: Stop at the end of a fire, movement or close assault phase with nothing left
    #: to do instead of moving on (tests and analyses set it, with ``auto_single``
    #: off, to look at a position before the next phase changes it).
    hold_phases: bool = False

    scen: LnlScenario
    T: rules.StaticTables
    turn: int
    side: str
    stage: str
    loc: list[int]
    steps: list[int]
    dis: list[bool]
    fired: list[bool]
    placed: list[int]
    moved: list[bool]
    assaulted: list[bool]
    ashore: list[int]
    entered: list[bool]
    occ: dict[int, list[int]]
    control: list[str]
    deck: ActionDeck
    last_card: str
    ngfs_left: int
    bonus: dict[str, bool]
    perms: set[str]
    fired_at: set[tuple[int, int, str]]
    due: dict[int, int]
    events_done: set[str]
    entered_by: dict[int, dict[int, int]]
    serial: int
    place_queue: list[int]
    place_mode: str
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

    # -- set-up of the fields ------------------------------------------------
    def _init_fields(self) -> None:
        scen = self.scen
        n = len(scen.units)
        self.turn = 0
        self.side = "German"
        self.stage = "setup"
        self.loc = [OFF] * n
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

    # -- provided by the mixins and the state ------------------------------------
    def open_opp_window(self) -> None:
        """After a stack enters a hex, let the other side fire at it (combat mixin)."""
        raise NotImplementedError

    def _busy(self) -> bool:
        """Whether a decision other than the phase's own is in progress."""
        return self._busy_except_place() or bool(self.place_queue)

    def _busy_except_place(self) -> bool:
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
            raise IllegalAction(f"there is no unit {uid!r} in this scenario")
        return idx

    def label(self, cell: int) -> str:
        return self.scen.board.labels[cell]

    def cell_of(self, label: str) -> int:
        try:
            return self.scen.board.cell(label)
        except ValueError:
            raise IllegalAction(f"{label!r} is not a hex of the map") from None

    def he(self, u: int) -> int:
        return self.scen.units[u].type.he[0 if self.steps[u] >= 2 else 1]

    def ap(self, u: int) -> int:
        return self.scen.units[u].type.ap[0 if self.steps[u] >= 2 else 1]

    def ca(self, u: int) -> int:
        return self.scen.units[u].type.ca[0 if self.steps[u] >= 2 else 1]

    def alive(self, u: int) -> bool:
        return self.loc[u] >= 0

    def units_of(self, side: str) -> list[int]:
        """Units of a side on the map, in index order."""
        return [u.idx for u in self.scen.units if u.side == side and self.loc[u.idx] >= 0]

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

    # -- placing and removing ----------------------------------------------------
    def put(self, u: int, cell: int) -> None:
        """Put a unit in a hex (arrival, step, retreat, advance) and take control of it."""
        self.memo = {}
        old = self.loc[u]
        if old >= 0:
            here = self.occ[old]
            here.remove(u)
            if not here:
                del self.occ[old]
        self.loc[u] = cell
        lst = self.occ.setdefault(cell, [])
        lst.append(u)
        lst.sort()
        unit = self.scen.units[u]
        self.entered[u] = True
        self.control[cell] = unit.side
        if unit.side == "US" and self.ashore[u] < 0 and self.T.terrain[cell] != "part_ocean":
            self.ashore[u] = self.steps[u]

    def take(self, u: int) -> None:
        """Take a unit off the map (eliminated)."""
        self.memo = {}
        old = self.loc[u]
        if old >= 0:
            here = self.occ[old]
            here.remove(u)
            if not here:
                del self.occ[old]
        self.loc[u] = ELIM
        self.dis[u] = False
        self.fired[u] = False
        if self.group is not None and u in self.group.units:
            self.group.units.remove(u)
        if self.opp is not None and u in self.opp.movers:
            self.opp.movers.remove(u)

    def lose_step(self, u: int, rule: str, why: str) -> None:
        """Flip a unit, or remove it when it loses its last step (LnL Omaha: Fire Combat)."""
        if self.loc[u] < 0:
            return
        self.memo = {}
        self.steps[u] -= 1
        self.steps_lost[self.u(u).side] += 1
        if self.steps[u] <= 0:
            self.steps[u] = 0
            self.take(u)
            self.note("lnl.elim", rule, player=self.u(u).side, unit=self.uid(u), why=why)
        else:
            self.note("lnl.step", rule, player=self.u(u).side, unit=self.uid(u), why=why)

    def eliminate(self, u: int, rule: str, why: str) -> None:
        if self.loc[u] < 0:
            return
        self.steps_lost[self.u(u).side] += self.steps[u]
        self.steps[u] = 0
        self.take(u)
        self.note("lnl.elim", rule, player=self.u(u).side, unit=self.uid(u), why=why)

    def disrupt(self, u: int, rule: str) -> None:
        """A Disrupted result: a marker, or a step for a unit already disrupted."""
        if self.loc[u] < 0:
            return
        self.memo = {}
        if self.dis[u]:
            self.lose_step(u, rule, "disrupted again")
        else:
            self.dis[u] = True

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
        return self.scen.all_cards[card].value, card

    # -- rule predicates ----------------------------------------------------------------
    def placement_restricted(self, u: int) -> bool:
        """Landed this turn (LnL Omaha: Setting up the Game): no move; no fire unless armor.

        Reading: "the turn" is the whole game turn, so a unit landed this turn may
        not opportunity-fire in the German movement phase either.
        """
        return self.placed[u] == self.turn and self.turn > 0

    def can_fire(self, u: int) -> bool:
        """On the map, no Fired or Disrupted marker, and not barred by its landing turn."""
        if self.loc[u] < 0 or self.fired[u] or self.dis[u]:
            return False
        return not (self.placement_restricted(u) and not self.scen.units[u].armor_unit)

    def reach(self, u: int, target: int) -> int:
        """How ``u`` may fire at hex ``target``: 0 not at all, 1 full, 2 halved.

        LnL Omaha: Fire Combat, FRT notes (up to twice the printed range at half
        firepower), Mortars (a German mortar may use any German unit's line of sight).
        Reading: the spotter may be any German unit on the map, disrupted or not.
        """
        here = self.loc[u]
        t = self.scen.units[u].type
        d = self.T.dist[here][target]
        if d > 2 * t.range or d == 0:
            return 0
        if not self.T.los(here, target):
            if not t.mortar:
                return 0
            side = self.scen.units[u].side
            if not any(
                self.T.los(c, target)
                for c, xs in self.occ.items()
                if self.scen.units[xs[0]].side == side
            ):
                return 0
        return 2 if d > t.range else 1

    def may_combine(self, units: list[int]) -> bool:
        """LnL Omaha: Fire Combat: who may add their fire together.

        Units of one company combine when stacked or in adjacent hexes; support
        units (armor, engineers, gun batteries) combine with units they are stacked
        with. Reading: the company's firing hexes must form one connected group
        (each next to another), and every unit of another company must be a
        support unit stacked with one of the company's units.
        """
        if len(units) <= 1:
            return True
        defs = self.scen.units
        for company in sorted({defs[x].company for x in units}):
            core = [x for x in units if defs[x].company == company]
            core_cells = {self.loc[x] for x in core}
            ok = all(
                defs[x].company == company or (defs[x].type.support and self.loc[x] in core_cells)
                for x in units
            )
            if ok and self._connected(core_cells):
                return True
        return False

    def assault_group_ok(self, units: list[int]) -> bool:
        """LnL Omaha: Close Assault: one company, plus support units stacked with it."""
        if len(units) <= 1:
            return True
        defs = self.scen.units
        for company in sorted({defs[x].company for x in units}):
            core_cells = {self.loc[x] for x in units if defs[x].company == company}
            if all(
                defs[x].company == company or (defs[x].type.support and self.loc[x] in core_cells)
                for x in units
            ):
                return True
        return False

    def _connected(self, cells: set[int]) -> bool:
        if len(cells) <= 1:
            return True
        todo = [next(iter(cells))]
        seen = {todo[0]}
        while todo:
            c = todo.pop()
            for n in self.T.neighbours[c]:
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(cells)

    # -- snapshots of the shared records -------------------------------------------------
    def _labels(self, cells: Iterable[int]) -> list[str]:
        return [self.label(c) for c in cells]

    def _ids(self, units: Iterable[int]) -> list[str]:
        return [self.uid(u) for u in units]

    def _dump_tasks(self) -> dict[str, Any]:
        a, o, g = self.attack, self.opp, self.group
        return {
            "attack": None
            if a is None
            else {
                "side": a.side,
                "mode": a.mode,
                "firers": self._ids(a.firers),
                "target": self.label(a.target) if a.target >= 0 else None,
                "kind": a.kind,
                "ngfs": a.ngfs,
                "bonus": a.bonus,
            },
            "opp": None
            if o is None
            else {"side": o.side, "cell": self.label(o.cell), "movers": self._ids(o.movers)},
            "group": None
            if g is None
            else {
                "units": self._ids(g.units),
                "start": self.label(g.start) if g.start >= 0 else None,
                "cell": self.label(g.cell) if g.cell >= 0 else None,
                "spent": {self.uid(x): v for x, v in sorted(g.spent.items())},
                "serial": g.serial,
                "stepped": g.stepped,
            },
            "loss": None
            if self.loss is None
            else {
                "side": self.loss.side,
                "units": self._ids(self.loss.units),
                "remaining": self.loss.remaining,
                "hits": {self.uid(x): v for x, v in sorted(self.loss.hits.items())},
            },
            "retreat": None
            if self.retreat is None
            else {"side": self.retreat.side, "queue": self._ids(self.retreat.queue)},
            "advance": None
            if self.advance is None
            else {
                "side": self.advance.side,
                "units": self._ids(self.advance.units),
                "cell": self.label(self.advance.cell),
            },
            "strike": None
            if self.strike is None
            else {"side": self.strike.side, "he": self.strike.he, "event": self.strike.event},
        }

    def _restore_tasks(self, data: dict[str, Any]) -> None:
        ix = self.scen.unit_index
        b = self.scen.board
        a = data["attack"]
        self.attack = (
            None
            if a is None
            else Attack(
                a["side"],
                a["mode"],
                [ix[x] for x in a["firers"]],
                b.cell(a["target"]) if a["target"] is not None else -1,
                a["kind"],
                a["ngfs"],
                a["bonus"],
            )
        )
        o = data["opp"]
        self.opp = (
            None
            if o is None
            else OppWindow(o["side"], b.cell(o["cell"]), [ix[x] for x in o["movers"]])
        )
        g = data["group"]
        self.group = (
            None
            if g is None
            else MoveGroup(
                [ix[x] for x in g["units"]],
                b.cell(g["start"]) if g["start"] is not None else -1,
                b.cell(g["cell"]) if g["cell"] is not None else -1,
                {ix[k]: v for k, v in g["spent"].items()},
                g["serial"],
                g["stepped"],
            )
        )
        lo = data["loss"]
        self.loss = (
            None
            if lo is None
            else LossTask(
                lo["side"],
                [ix[x] for x in lo["units"]],
                lo["remaining"],
                {ix[k]: v for k, v in lo["hits"].items()},
            )
        )
        r = data["retreat"]
        self.retreat = None if r is None else RetreatTask(r["side"], [ix[x] for x in r["queue"]])
        ad = data["advance"]
        self.advance = (
            None
            if ad is None
            else AdvanceTask(ad["side"], [ix[x] for x in ad["units"]], b.cell(ad["cell"]))
        )
        s = data["strike"]
        self.strike = None if s is None else StrikeTask(s["side"], s["he"], s["event"])
