"""Bots for TCS Omaha: random (the kernel's), and heuristic players for each side.

* :class:`HeuristicUS` commits the scenario's historical landing plan (the US
  default), aims the LCT(R)s at pill boxes, loads the follow-on transports in a
  historical order (2.1m) for the draws, takes one bomb-laden and one gunship
  A-20, smokes the pill boxes, advances landward with the tide; then fights its
  way off the beach: tests the obstacle hexes in front of the draws, breaches
  the mines, starts op sheets for the companies ashore, knocks out pill boxes
  with tank fire, artillery, destroyers and infantry assaults, brings tanks to
  the draws' breaches, and pushes free units inland to the exits and villages.
* :class:`HeuristicGerman` sets up at the historical pill box locations (1.7),
  keeps its pill boxes (no voluntary conversion) firing at the biggest landed
  stacks and its guns at tanks, fires the rocket pits at crowded hexes, answers
  moves with overwatch, releases the reserve nearest the fighting, and
  counterattacks with released companies that hold an op sheet.

Each is one-sided (``IllegalAction`` for the other side); ``TcsGame.lineup``
pairs them. :class:`HeuristicBot` plays both sides. Bots have their own dice
and never touch the state's.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.dice import RandomDice
from omaha.kernel.movement import MovementGraph
from omaha.kernel.protocol import SideBots, State
from omaha.tcs.actions import (
    Advance,
    AirLoadout,
    Assault,
    AssignNfst,
    Back,
    BombHex,
    BombUnit,
    Breach,
    CloseBoat,
    EndAction,
    EndConversions,
    EndMissions,
    EndModes,
    EndOverdraft,
    EndPlan,
    EndRockets,
    EndSheets,
    EndSmoke,
    EndTests,
    EndTransports,
    Enter,
    ExitWest,
    HoldStrike,
    LandAt,
    Load,
    LoadSteps,
    Mission,
    MoveTo,
    Naval,
    NoOverwatch,
    OpenTransport,
    OpSheet,
    Overdraft,
    Overwatch,
    OverwatchAt,
    PlacePillbox,
    PlaceRocketPit,
    PointFire,
    Release,
    ReleaseBattery,
    Resolve,
    Retreat,
    Rockets,
    RollVariable,
    Select,
    SelectStack,
    SetMode,
    SmokeCheck,
    Stay,
    Strike,
    Target,
    Test,
    UsePlan,
    UseSetup,
    With,
    WithAll,
)
from omaha.tcs.core import AWAIT, Decision, TcsCore
from omaha.tcs.procedures.action import MENUS, STACK, menu_list, overwatch_answers, stack_movers
from omaha.tcs.procedures.movement import (
    command_free,
    first_steps,
    german_may_move,
    impassable,
)
from omaha.tcs.rules import hour_of

#: Follow-on landing order for transports: formation prefixes by priority, and
#: the beach each goes to (reconstructed from the historical build-up: the 18th
#: RCT and 115th RCT at E-1 on Easy Red, the 26th RCT, then artillery and armour).
TRANSPORT_ORDER: tuple[tuple[str, str], ...] = (
    ("/115", "EasyRed-T"),
    ("115", "EasyRed-T"),
    ("/1/18", "EasyRed-T"),
    ("/3/18", "EasyRed-T"),
    ("/18", "EasyRed-T"),
    ("18", "EasyRed-T"),
    ("/16", "EasyRed-T"),
    ("16", "EasyRed-T"),
    ("7FA", "EasyRed-T"),
    ("/1/26", "FoxGreen-T"),
    ("/2/26", "FoxGreen-T"),
    ("/3/26", "FoxGreen-T"),
    ("/26", "FoxGreen-T"),
    ("26", "FoxGreen-T"),
    ("81CM", "EasyRed-T"),
    ("32FA", "EasyRed-T"),
    ("33FA", "FoxGreen-T"),
    ("5FA", "EasyRed-T"),
    ("186FA", "EasyRed-T"),
    ("62AFA", "EasyRed-T"),
    ("741", "EasyRed-T"),
    ("745", "FoxGreen-T"),
)


def _rank(uid: str) -> tuple[int, str]:
    formation = uid.split(".")[0]
    for k, (key, _) in enumerate(TRANSPORT_ORDER):
        if formation.endswith(key):
            return k, uid
    return len(TRANSPORT_ORDER), uid


def _box_for(uid: str) -> str:
    k, _ = _rank(uid)
    return TRANSPORT_ORDER[k][1] if k < len(TRANSPORT_ORDER) else "EasyRed-T"


def _tcs(state: State[Any]) -> TcsCore:
    if not isinstance(state, TcsCore):
        raise IllegalAction("this bot plays TCS Omaha only")
    return state


Chooser = Callable[[TcsCore, tuple[Action, ...]], Action | None]


class HeuristicUS:
    """The US of 6 June: the historical landing, then off the beach through the draws."""

    side = "US"

    def __init__(self, seed: int = 0) -> None:
        self.rng = RandomDice(seed)
        #: how the bot answers each kind of decision (the first legal action otherwise)
        self.choosers: dict[Decision, Chooser] = {
            Decision.PLAN: self._plan,
            Decision.ROCKETS: self._rockets,
            Decision.NFST: self._nfst,
            Decision.TIDE: self._tide,
            Decision.OVERDRAFT: self._overdraft,
            Decision.TRANSPORTS: self._transports,
            Decision.AIR: self._air,
            Decision.SMOKE: self._smoke,
            Decision.LAND: self._land,
            Decision.STRIKE: self._strike,
            Decision.SHEETS: self._sheets,
            Decision.MISSIONS: self._missions,
            Decision.MODES: self._modes,
            Decision.ACT: self._act,
            Decision.CHOOSE: self._choose,
            Decision.MOVE: self._move,
            Decision.FIRE: self._fire,
            Decision.OVERWATCH: self._overwatch,
            Decision.TEST: self._test,
        }
        self.plans: dict[tuple[int, str], Objectives] = {}
        self.fields = Fields()
        #: the objective each company is sent to (kept until it is reached)
        self.assigned: dict[str, str] = {}
        self.pending: Action | None = None  # what an opened Action Phase list is for

    def choose(self, state: State[Any]) -> Action:
        s = _tcs(state)
        if s.current_player() != self.side:
            raise IllegalAction(f"the heuristic US bot does not play the {s.current_player()}")
        legal = s.legal_actions()
        pick = self.choosers.get(s.wait[0]) if s.wait else None
        choice = pick(s, legal) if pick is not None else None
        return choice if choice is not None else legal[0]

    # -- set-up ---------------------------------------------------------------
    def _plan(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        if UsePlan("historical") in legal:
            return UsePlan("historical")
        if CloseBoat() in legal:
            return CloseBoat()
        return EndPlan() if EndPlan() in legal else None

    def _rockets(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        for c in s.pillboxes:
            a = Rockets(s.label(c))
            if a in legal and c not in s.lctr_targets:
                return a
        return EndRockets()

    def _nfst(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        planned = s.plan.units_aboard() if s.plan else {}
        options = [a for a in legal if isinstance(a, AssignNfst)]
        for a in options:
            if a.unit in planned:
                return a
        return options[0] if options else None

    # -- the turn ----------------------------------------------------------------
    def _tide(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        options = [a for a in legal if isinstance(a, Advance)]
        if not options:
            return None
        start = s.cell(options[0].start)
        beach = s.scenario.beach

        def key(a: Advance) -> tuple[int, int, str]:
            c = s.cell(a.to)
            return beach.row[c], abs(beach.col[c] - beach.col[start]), a.to

        return min(options, key=key)

    def _overdraft(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        adds = [a for a in legal if isinstance(a, Overdraft)]
        return adds[0] if adds else EndOverdraft()

    def _transports(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        loads = [a for a in legal if isinstance(a, Load | LoadSteps)]
        if loads:
            return min(loads, key=lambda a: _rank(a.unit))
        if CloseBoat() in legal:
            return CloseBoat()
        opens = [a for a in legal if isinstance(a, OpenTransport)]
        if s.partial is not None and opens:
            want = _box_for(s.partial)
            return next((a for a in opens if a.box == want), opens[0])
        planned = s.plan.units_aboard() if s.plan else {}
        waiting = sorted(
            (
                u.id
                for u in s.scenario.oob.units
                if s.where[u.index] == AWAIT and not u.dd and u.id not in planned
            ),
            key=_rank,
        )
        if not waiting or not opens:
            return EndTransports()
        first = waiting[0]
        cls = s.scenario.oob.unit(first).type.load_class
        kind = "LCI" if cls == 1 and any(a.kind == "LCI" for a in opens) else "LCT"
        box = _box_for(first)
        for a in opens:
            if a.kind == kind and a.box == box:
                return a
        return EndTransports()

    def _air(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        return AirLoadout(1)

    def _smoke(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """Smoke the pill box hexes and their neighbours (they blind the beach defence)."""
        board = s.scenario.board
        near = set(s.pillboxes)
        for p in s.pillboxes:
            near.update(board.neighbours[p])
        checks = [a for a in legal if isinstance(a, SmokeCheck) and s.cell(a.hex) in near]
        return checks[0] if checks else EndSmoke()

    def _land(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        options = [a for a in legal if isinstance(a, LandAt)]
        if not options:
            return None
        beach = s.scenario.beach
        # towards the middle of the options (the draws lie mid-beach); ties west
        cols = sorted(beach.col[s.cell(a.hex)] for a in options)
        mid = cols[len(cols) // 2]
        return min(options, key=lambda a: (abs(beach.col[s.cell(a.hex)] - mid), a.hex))

    def _strike(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        bombs = [a for a in legal if isinstance(a, BombUnit)]
        if bombs:
            return bombs[0]
        hits = [a for a in legal if isinstance(a, Strike | BombHex)]
        if not hits:
            return HoldStrike()
        us = s.cells_of("US")
        dist = s.scenario.beach.dist

        def nearest(a: Action) -> tuple[int, str]:
            row = dist[s.cell(a.hex)]  # type: ignore[attr-defined]
            return (min((row[w] for w in us), default=99), a.hex)  # type: ignore[attr-defined]

        return min(hits, key=nearest)

    # -- the battle --------------------------------------------------------------
    def _sheets(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """Start an op sheet for every rifle company at the shingle or beyond (2.3a): a
        sheet being implemented costs nothing, and one ready waits for a free place
        among the 12 (a sheet over frees one, series 6.11)."""
        beach = s.scenario.beach
        oob = s.scenario.oob
        for a in legal:
            members = oob.formation_units(a.formation) if isinstance(a, OpSheet) else ()
            if any(oob.units[i].type.kind == "rifle" for i in members) and any(
                s.where[i] in beach.land or s.where[i] in beach.strand_by_shingle for i in members
            ):
                return a
        return EndSheets()

    def _missions(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """Batteries and destroyers at the pill boxes nearest the draws, then at German
        infantry."""
        return best_mission(s, legal, "US")

    def _modes(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """Move mode for stacks that will advance, fire mode for those that hold."""
        beach = s.scenario.beach

        radius = s.scenario.tables.leader_radius
        leaders = [s.leader_cell[k] for k in s.living_leaders_on_map()]

        def wanted(c: int) -> str:
            here = s.side_units_at(c, "US")
            near = any(s.dist(c, x) <= radius for x in leaders)
            free = near or any(command_free(s, i) for i in here)
            if c in beach.strand:
                blocked = c in beach.strand_by_shingle and not free
                return "fire" if blocked else "move"
            return "move" if free else "fire"

        for a in legal:
            if isinstance(a, SetMode) and a.mode == "move" and wanted(s.cell(a.hex)) == "move":
                return a
        return EndModes()

    def _act(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        self.pending = act(s, legal, "US", self.goals(s), moves_first=True)
        return opening(self.pending)

    def _choose(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        return self.pending if self.pending in legal else Back()

    def _move(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        return move(s, legal, self.goals(s))

    def _fire(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        return fire(legal)

    def _overwatch(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        return overwatch(s, legal)

    def _test(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """Test every obstacle hex it can, breach every known minefield (2.4)."""
        options = [a for a in legal if isinstance(a, Test | Breach)]
        if not options:
            return EndTests()
        return min(options, key=lambda a: (draw_gap(s, s.cell(a.hex)), str(a)))

    def ranked(self, state: State[Any]) -> list[Action]:
        """The legal actions best first, its choice first (``ranked``)."""
        return ranked(self, state)

    def goals(self, s: TcsCore) -> Objectives:
        key = (s.turn, s.phase)
        hit = self.plans.get(key)
        if hit is None:
            self.plans = {key: Objectives(s, self.assigned, self.fields)}
            hit = self.plans[key]
        return hit


class HeuristicGerman:
    """The German of 6 June: hold the beach with pill boxes, counterattack when released."""

    side = "German"

    def __init__(self, seed: int = 0) -> None:
        self.rng = RandomDice(seed)
        self.choosers: dict[Decision, Chooser] = {
            Decision.PILLBOX: self._pillbox,
            Decision.ROCKET_PIT: self._pit,
            Decision.STRIKE: self._strike,
            Decision.RELEASE: self._release,
            Decision.ENTRY: self._entry,
            Decision.MISSIONS: self._missions,
            Decision.CONVERT: lambda s, legal: EndConversions(),
            Decision.MODES: self._modes,
            Decision.ACT: self._act,
            Decision.CHOOSE: self._choose,
            Decision.MOVE: self._move,
            Decision.FIRE: lambda s, legal: fire(legal),
            Decision.OVERWATCH: lambda s, legal: overwatch(s, legal),
        }
        self.plans: dict[tuple[int, str], Goals] = {}
        self.pending: Action | None = None  # what an opened Action Phase list is for

    def choose(self, state: State[Any]) -> Action:
        s = _tcs(state)
        if s.current_player() != self.side:
            raise IllegalAction(f"the heuristic German bot does not play the {s.current_player()}")
        legal = s.legal_actions()
        pick = self.choosers.get(s.wait[0]) if s.wait else None
        choice = pick(s, legal) if pick is not None else None
        return choice if choice is not None else legal[0]

    def _pillbox(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        if UseSetup("historical") in legal:
            return UseSetup("historical")
        setups = [a for a in legal if isinstance(a, UseSetup)]
        if setups:  # the scenario's own set-up (e1-draw: its pill boxes at the E-1 draw)
            return setups[0]
        sites = [PlacePillbox(s.label(c)) for c in s.scenario.beach.pillbox_sites]
        return next((a for a in sites if a in legal), None)

    def _pit(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        return next((a for a in legal if isinstance(a, PlaceRocketPit)), None)

    def _strike(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        bombs = [a for a in legal if isinstance(a, BombUnit)]
        if bombs:
            return bombs[0]
        hits = [a for a in legal if isinstance(a, Strike | BombHex)]
        if hits:
            return max(hits, key=lambda a: (stack_steps(s, s.cell(a.hex), "US"), a.hex))
        return HoldStrike()

    def _release(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """The reserve nearest the US, else roll for a reinforcement, else a battery."""
        us = [c for c in s.cells_of("US")]
        reserves = [a for a in legal if isinstance(a, Release)]
        if reserves and us:

            def gap(a: Release) -> int:
                cells = [s.where[i] for i in s.scenario.german.formation(a.formation).units]
                return min(s.dist(c, u) for c in cells if c >= 0 for u in us)

            return min(reserves, key=lambda a: (gap(a), a.formation))
        if RollVariable() in legal:
            return RollVariable()
        batteries = [a for a in legal if isinstance(a, ReleaseBattery)]
        return batteries[0] if batteries else None

    def _entry(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """Enter where the US has come farthest inland."""
        beach = s.scenario.beach
        inland = [c for c in s.cells_of("US") if c in beach.land] or list(s.cells_of("US"))
        options = [a for a in legal if isinstance(a, Enter)]
        if not options or not inland:
            return None
        return min(options, key=lambda a: (min(s.dist(s.cell(a.hex), c) for c in inland), a.hex))

    def _missions(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        return best_mission(s, legal, "German")

    def _modes(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """Fire mode, except the companies free to counterattack."""

        def wanted(c: int) -> str:
            here = s.side_units_at(c, "German")
            return (
                "move"
                if any(
                    german_may_move(s, i) and s.unit(i).formation in s.german_sheets for i in here
                )
                else "fire"
            )

        for a in legal:
            if isinstance(a, SetMode) and a.mode == wanted(s.cell(a.hex)):
                return a
        return EndModes()

    def _act(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        self.pending = act(s, legal, "German", self.goals(s))
        return opening(self.pending)

    def _choose(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        return self.pending if self.pending in legal else Back()

    def _move(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        return move(s, legal, self.goals(s))

    def ranked(self, state: State[Any]) -> list[Action]:
        """The legal actions best first, its choice first (``ranked``)."""
        return ranked(self, state)

    def goals(self, s: TcsCore) -> Goals:
        key = (s.turn, s.phase)
        hit = self.plans.get(key)
        if hit is None:
            self.plans = {key: Goals(s, "German")}
            hit = self.plans[key]
        return hit


class HeuristicBot(SideBots):
    """The heuristic players of both sides: the US lands the historical plan, tests the
    beach obstacles, breaches the shingle, aims its companies at every draw still shut and
    every village, moves before it fires and keeps out of the next tide; the German keeps
    its pill boxes firing, releases the reserve nearest the US and counterattacks with
    released companies."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__({"US": HeuristicUS(seed), "German": HeuristicGerman(seed + 1)})

    def ranked(self, state: State[Any]) -> list[Action]:
        """The side to move's ranking (``ranked``): its choice first."""
        player = state.current_player()
        if player is None:
            raise IllegalAction("the game is over")
        bot = self.bots[player]
        assert isinstance(bot, HeuristicUS | HeuristicGerman)
        return bot.ranked(state)


# ====================================================================== shared judgement
def stack_steps(s: TcsCore, cell: int, side: str) -> int:
    return sum(s.steps[i] for i in s.side_units_at(cell, side))


def draw_gap(s: TcsCore, cell: int) -> int:
    """Columns from a cell to the nearest draw (where the US wants off the beach)."""
    beach = s.scenario.beach
    col = beach.col[cell]
    return min((abs(col - beach.col[c]) for c in beach.exits.values()), default=0)


def field(s: TcsCore, goals: list[int], *, vehicle: bool, side: str) -> dict[int, int]:
    """Movement cost from every cell to the nearest goal (a multi-source search over the
    map's graph, through what is passable now: a goal is reached even where it is
    closed)."""
    beach = s.scenario.beach
    graph = beach.vehicle_graph if vehicle else beach.foot_graph
    return cost_field(graph, len(s.scenario.board), goals, _closed(s, side, vehicle))


def _closed(s: TcsCore, side: str, vehicle: bool) -> frozenset[int]:
    """What :func:`field` does not enter: what the side cannot enter now, and the sea."""
    closed = impassable(s, side, vehicle=vehicle, rifle=not vehicle)
    return closed | s.scenario.beach.sea(s.tide_hour)


def cost_field(
    graph: MovementGraph,
    n: int,
    goals: Iterable[int],
    closed: frozenset[int],
    longest: int | None = None,
) -> dict[int, int]:
    """The search of :func:`field`; with ``longest``, a step dearer than it is never
    taken (a step no unit of that allowance can make)."""
    steps = graph.steps
    limit = (1 << 30) if longest is None else longest
    far = 1 << 30
    best = [far] * n
    for g in goals:
        best[g] = 0
    for c in closed:
        if best[c]:
            best[c] = -1  # closed: never entered (no cost is below -1)
    heap = [(0, g) for g in sorted(goals)]
    heapq.heapify(heap)
    while heap:
        d, a = heapq.heappop(heap)
        if d > best[a]:
            continue
        for b, c in steps(a):
            nd = d + c
            if c <= limit and nd < best[b]:
                best[b] = nd
                heapq.heappush(heap, (nd, b))
    return {c: d for c, d in enumerate(best) if 0 <= d < far}


class Fields:
    """The movement fields a bot has worked out, by all they are worked out from (the
    graph, the goals, the closed hexes): a later phase with the same goals and the same
    hexes closed gets the same costs. Each asking gets its own dict, as from
    :func:`field` (:func:`move` tells the objectives of a stack's units apart by their
    field's identity). Owned by one bot; bounded."""

    LIMIT = 2_000

    def __init__(self) -> None:
        self._kept: dict[tuple[MovementGraph, tuple[int, ...], frozenset[int]], dict[int, int]]
        self._kept = {}

    def field(self, s: TcsCore, goals: list[int], *, vehicle: bool, side: str) -> dict[int, int]:
        """:func:`field`, kept."""
        beach = s.scenario.beach
        graph = beach.vehicle_graph if vehicle else beach.foot_graph
        key = (graph, tuple(sorted(set(goals))), _closed(s, side, vehicle))
        hit = self._kept.get(key)
        if hit is None:
            if len(self._kept) >= self.LIMIT:
                self._kept.clear()
            hit = self._kept[key] = cost_field(graph, len(s.scenario.board), key[1], key[2])
        return dict(hit)


def focus_draw(s: TcsCore) -> str:
    """The draw the US is nearest to opening: fewest pill boxes covering its breach and
    German units near it, then the most US units close to it."""
    beach = s.scenario.beach
    units = s.scenario.units
    us = [s.where[i] for i in s.us_units() if s.where[i] >= 0]

    def score(draw: str) -> tuple[int, int, str]:
        if draw in s.exits:
            return (99, 0, draw)
        b = beach.breach_by_name[draw]
        pillboxes = sum(
            1
            for i in s.scenario.german.pillboxes
            if s.where[i] >= 0 and s.dist(s.where[i], b.strand) <= units[i].type.range
        )
        germans = sum(
            1 for i in s.german_units() if s.where[i] >= 0 and s.dist(s.where[i], b.land) <= 5
        )
        near = sum(1 for c in us if s.dist(c, b.strand) <= 6)
        return (pillboxes * 2 + germans, -near, draw)

    draws = [d for d in sorted(beach.exits) if d in beach.breach_by_name]
    return min(draws, key=score) if draws else ""


class Goals:
    """Where each kind of unit of one side heads this phase (worked out once a phase)."""

    def __init__(self, s: TcsCore, side: str) -> None:
        self.side = side
        self.block: frozenset[int] = frozenset()
        beach = s.scenario.beach
        board = s.scenario.board
        german = s.cells_of("German")
        us = s.cells_of("US")
        if side == "US":
            draw = self.draw = focus_draw(s)
            self.block = blockers(s, draw)
            b = beach.breach_by_name.get(draw)
            shingle_goals = [
                n
                for c in beach.obstacles
                if s.obstacles.get(c) in (None, "mines") and draw_gap(s, c) <= 5
                for n in board.neighbours[c]
                if n in beach.strand
            ]
            inland: set[int] = set(beach.exits.values())
            tanks: list[int] = []
            if b is not None and s.obstacles.get(b.land) == "wire":
                shingle_goals.append(b.land)  # 2.4c: infantry clears the wire by crossing it
            if b is not None:
                near = [c for c in german if s.dist(c, b.land) <= 6]
                inland = {n for c in near for n in board.neighbours[c] if c not in us}
                inland |= set(b.security) | {beach.exits[draw]}
                if s.obstacles.get(b.land) == "wire":
                    inland = {b.land}  # the breach's mouth first: vehicles need it cleared
                tanks = [c for c in board.within(b.strand, 2) if c in beach.strand]
            self.foot_beach = field(s, shingle_goals or tanks, vehicle=False, side=side)
            self.foot_inland = field(s, sorted(inland - german), vehicle=False, side=side)
            self.tanks = field(s, tanks or [beach.exits[draw]], vehicle=True, side=side)
            self.vehicle_inland = field(s, list(beach.exits.values()), vehicle=True, side=side)
        else:
            targets = sorted({n for c in us if c in beach.land for n in board.neighbours[c]} - us)
            self.foot_inland = field(s, targets, vehicle=False, side=side) if targets else {}
            self.foot_beach = self.foot_inland
            self.tanks = self.vehicle_inland = {}

    def of(self, s: TcsCore, i: int) -> dict[int, int]:
        u = s.unit(i)
        vehicle = u.type.vehicle or u.type.move == "tow"
        beach = s.scenario.beach
        if self.side == "German":
            return self.foot_inland
        if vehicle:
            return self.vehicle_inland if s.where[i] in beach.land else self.tanks
        if command_free(s, i):
            return self.foot_inland
        return self.foot_beach


def next_sea(s: TcsCore) -> frozenset[int]:
    """The hexes that are sea while the next hour's tide line holds (1.12a): no goal of
    a unit on the strand lies there (it would drown or be pushed)."""
    beach = s.scenario.beach
    hours = sorted(beach.tide_lines)
    now = hour_of(s.turn_time)
    later = [h for h in hours if h > now]
    return beach.sea(later[0]) if later else frozenset()


def objective_done(s: TcsCore, name: str) -> bool:
    """A draw whose exit is open, or a village held (a US unit in it and no German)."""
    beach = s.scenario.beach
    if name in beach.exits:
        return name in s.exits
    cells = beach.villages[name]
    return any(s.side_units_at(c, "US") for c in cells) and not any(
        s.side_units_at(c, "German") for c in cells
    )


class Objectives:
    """Where each US company heads this phase: every draw still shut and every village
    not held has companies aimed at it (each company keeps its objective until it is
    reached; with two companies or more for each objective, one with none gets the
    nearest company still free; the others go to the nearest objective, counting those
    already sent there). Units free to move beyond the shingle head for their objective, the others
    for the obstacles and shingle in front of it; vehicles for the draw's breach, then
    the exits; nothing stays where the next tide covers."""

    #: hexes of distance an objective's load of companies counts as, each
    SPREAD = 6

    def __init__(self, s: TcsCore, assigned: dict[str, str], fields: Fields | None = None) -> None:
        self.side = "US"
        self.fields = Fields() if fields is None else fields  # the bot's, kept across phases
        beach = s.scenario.beach
        self.s = s
        victory = s.scenario.victory
        names = [d for d in sorted(beach.exits) if d in beach.breach_by_name]
        if victory is not None and victory.village_points > 0:
            names += sorted(beach.villages)
        live = [n for n in names if not objective_done(s, n)] or names
        self.names = live
        self.anchor = {n: self._anchor(s, n) for n in names}
        self.avoid = next_sea(s)
        self.assigned = assigned
        oob = s.scenario.oob
        companies: dict[str, int] = {}
        for i in s.us_units():
            c = s.where[i]
            if c >= 0:
                companies.setdefault(oob.units[i].formation, c)
        for f in [f for f, n in assigned.items() if n not in live or f not in companies]:
            del assigned[f]
        load = {n: 0 for n in live}
        for n in assigned.values():
            load[n] += 1
        # with two companies or more for each objective, first every objective without
        # one gets the nearest company still free (with fewer, they mass)
        free = [f for f in sorted(companies) if f not in assigned]
        spread = len(companies) >= 2 * len(live)
        while spread and free and any(load[n] == 0 for n in live):
            _, n, f = min(
                (s.dist(companies[f], self.anchor[n]), n, f)
                for n in live
                if load[n] == 0
                for f in free
            )
            assigned[f] = n
            load[n] += 1
            free.remove(f)
        for f in sorted(companies):
            if f in assigned:
                continue
            c = companies[f]
            best = min(live, key=lambda n: (s.dist(c, self.anchor[n]) + self.SPREAD * load[n], n))
            assigned[f] = best
            load[best] += 1
        self._fields: dict[tuple[str, str], dict[int, int]] = {}

    def _anchor(self, s: TcsCore, name: str) -> int:
        beach = s.scenario.beach
        if name in beach.breach_by_name:
            return beach.breach_by_name[name].land
        return sorted(beach.villages[name])[0]

    def _draw_for(self, name: str) -> str:
        """The draw in front of an objective (itself for a draw)."""
        beach = self.s.scenario.beach
        if name in beach.breach_by_name:
            return name
        col = beach.col[self.anchor[name]]
        draws = [d for d in sorted(beach.exits) if d in beach.breach_by_name]
        return min(draws, key=lambda d: (abs(beach.col[beach.breach_by_name[d].land] - col), d))

    def objective(self, s: TcsCore, i: int) -> str:
        f = s.scenario.oob.units[i].formation
        return self.assigned.get(f) or self.names[0]

    def field_of(self, name: str, kind: str) -> dict[int, int]:
        hit = self._fields.get((name, kind))
        if hit is None:
            hit = self._fields[(name, kind)] = self._make(name, kind)
        return hit

    def _make(self, name: str, kind: str) -> dict[int, int]:
        s = self.s
        beach = s.scenario.beach
        board = s.scenario.board
        german = s.cells_of("German")
        us = s.cells_of("US")
        draw = self._draw_for(name)
        b = beach.breach_by_name[draw]
        tanks = [c for c in board.within(b.strand, 2) if c in beach.strand]
        dry_tanks = [c for c in tanks if c not in self.avoid] or tanks
        if kind == "beach":
            goals = [
                n
                for c in beach.obstacles
                if s.obstacles.get(c) in (None, "mines")
                and abs(beach.col[c] - beach.col[b.land]) <= 5
                for n in board.neighbours[c]
                if n in beach.strand and n not in self.avoid
            ]
            if s.obstacles.get(b.land) == "wire":
                goals.append(b.land)  # 2.4c: infantry clears the wire by crossing it
            return self.fields.field(s, goals or dry_tanks, vehicle=False, side="US")
        if kind == "tanks":
            return self.fields.field(s, dry_tanks, vehicle=True, side="US")
        if kind == "vehicle_inland":
            cells = [beach.exits[draw]] if name == draw else list(beach.villages[name])
            return self.fields.field(s, cells, vehicle=True, side="US")
        # foot, inland: the German units that hold the objective, then the objective
        inland: set[int]
        if name != draw:
            village = set(beach.villages[name])
            close = [c for c in german if min(s.dist(c, v) for v in village) <= 2]
            inland = village | {n for c in close for n in board.neighbours[c]}
        elif s.obstacles.get(b.land) == "wire":
            inland = {b.land}  # the breach's mouth first: vehicles need it cleared
        else:
            close = [c for c in german if s.dist(c, b.land) <= 6]
            inland = {n for c in close for n in board.neighbours[c] if c not in us}
            inland |= set(b.security) | {beach.exits[draw]}
        return self.fields.field(s, sorted(inland - german - self.avoid), vehicle=False, side="US")

    def of(self, s: TcsCore, i: int) -> dict[int, int]:
        u = s.unit(i)
        name = self.objective(s, i)
        if u.type.vehicle or u.type.move == "tow":
            inland = s.where[i] in s.scenario.beach.land
            return self.field_of(name, "vehicle_inland" if inland else "tanks")
        if command_free(s, i):
            return self.field_of(name, "inland")
        return self.field_of(name, "beach")


def blockers(s: TcsCore, draw: str) -> frozenset[int]:
    """Cells of the German units that keep the breach of ``draw`` shut (2.5a): pill
    boxes whose guns reach it, German units within 5 hexes."""
    beach = s.scenario.beach
    b = beach.breach_by_name.get(draw)
    if b is None:
        return frozenset()
    units = s.scenario.units
    out = set()
    for i in s.german_units():
        c = s.where[i]
        if c < 0:
            continue
        near = min(s.dist(c, b.strand), s.dist(c, b.land))
        reach = units[i].type.point_range + 1 if units[i].type.kind == "pillbox" else 5
        if near <= reach:
            out.add(c)
    return frozenset(out)


def best_mission(s: TcsCore, legal: tuple[Action, ...], side: str) -> Action | None:
    options = [a for a in legal if isinstance(a, Mission | Naval)]
    if not options:
        return EndMissions() if EndMissions() in legal else None
    units = s.scenario.units
    block = blockers(s, focus_draw(s)) if side == "US" else frozenset()

    def value(a: Action) -> tuple[int, int, str]:
        c = s.cell(a.hex)  # type: ignore[attr-defined]
        here = [i for i in s.units_at(c) if units[i].side != side]
        pillboxes = sum(1 for i in here if units[i].type.kind == "pillbox")
        steps = sum(s.steps[i] for i in here)
        focus = 20 if c in block else 0
        return (-(pillboxes * 4 + steps + focus), 0 if isinstance(a, Naval) else 1, str(a))

    return min(options, key=value)


def act(
    s: TcsCore,
    legal: tuple[Action, ...],
    side: str,
    goals: Goals | Objectives,
    *,
    moves_first: bool = False,
) -> Action:
    """The action phase, in order: point fire with a chance, assaults that should win,
    area fire at the strongest target, moves toward the goals, then the end; with
    ``moves_first``, assaults, then the moves, then the fires of the stacks that stay (a
    stack that fires has acted and would stay where it is). The choice may be one of a
    list the Action Phase opens first (see :func:`opening`)."""
    units = s.scenario.units

    def listed(menu: str) -> tuple[Action, ...]:
        return menu_list(s, side, menu) if MENUS[menu]() in legal else ()

    def point() -> Action | None:
        points = [a for a in listed("point") if isinstance(a, PointFire)]
        if not points:
            return None

        def odds(a: PointFire) -> tuple[int, str]:
            i, t = s.unit_index(a.unit), s.unit_index(a.target)
            return (
                units[t].type.defense - units[i].type.point + s.dist(s.where[i], s.where[t]) // 3,
                str(a),
            )

        best = min(points, key=odds)
        return best if odds(best)[0] <= 3 else None

    def assault() -> Action | None:
        for a in listed("assault"):
            if isinstance(a, Assault):
                start, target = s.cell(a.start), s.cell(a.hex)
                mine = sum(
                    s.steps[i] for i in s.side_units_at(start, side) if units[i].type.infantry_type
                )
                theirs = sum(
                    s.steps[i] if units[i].type.target == "area" else 2
                    for i in s.units_at(target)
                    if units[i].side != side
                )
                if mine >= theirs + 3:
                    return a
        return None

    def area() -> Action | None:
        targets = [a for a in listed("fire") if isinstance(a, Target)]
        if not targets:
            return None

        def weight(a: Target) -> tuple[int, str]:
            c = s.cell(a.hex)
            area = sum(
                s.steps[i]
                for i in s.units_at(c)
                if units[i].side != side and units[i].type.target == "area"
            )
            return (-area, a.hex)

        best = min(targets, key=weight)
        return best if weight(best)[0] < 0 else None

    def moving() -> Action | None:
        far = 1 << 30
        for a in listed("move"):
            if isinstance(a, SelectStack):
                c = s.cell(a.hex)
                for i in stack_movers(s, side, c):
                    f = goals.of(s, i)
                    here = f.get(c, far)
                    if any(f.get(d, far) < here for d in first_steps(s, i)):
                        return a
        return None

    order = (assault, moving, point, area) if moves_first else (point, assault, area, moving)
    for step in order:
        choice = step()
        if choice is not None:
            return choice
    return EndAction()


def opening(choice: Action) -> Action:
    """The Action Phase choice that opens the list holding ``choice`` (itself if none)."""
    for menu, kinds in (
        ("move", SelectStack | Select),
        ("point", PointFire),
        ("assault", Assault),
        ("fire", Target),
        ("retreat", Retreat),
    ):
        if isinstance(choice, kinds):
            return MENUS[menu].of()
    return choice


def move(s: TcsCore, legal: tuple[Action, ...], goals: Goals | Objectives) -> Action:
    pid = s.selected
    if pid is None or pid.startswith("Ldr-"):
        return Stay()
    if ExitWest() in legal:
        return ExitWest()
    far = 1 << 30
    if pid.startswith(STACK):
        start = s.cell(pid[len(STACK) :])
        side = s.wait[1] if s.wait else "US"
        movers = stack_movers(s, side, start)
        if not movers:
            return Stay()
        fields = [goals.of(s, i) for i in movers]
        f = fields[0]
        here = f.get(start, far)
        moves = [a for a in legal if isinstance(a, MoveTo)]
        if all(x is f for x in fields) and moves:
            best = min(moves, key=lambda a: (f.get(s.cell(a.hex), far), a.hex))
            if f.get(s.cell(best.hex), far) < here:
                return best
        for i, fi in zip(movers, fields, strict=True):
            if any(fi.get(d, far) < fi.get(start, far) for d in first_steps(s, i)):
                pick = Select(s.uid(i))
                return pick if pick in legal else (moves[0] if moves else Stay())
        return Stay()
    else:
        i = s.unit_index(pid)
        f = goals.of(s, i)
        here = f.get(s.where[i], 1 << 30)
    moves = [a for a in legal if isinstance(a, MoveTo)]
    if not moves:
        return Stay()
    best = min(moves, key=lambda a: (f.get(s.cell(a.hex), 1 << 30), a.hex))
    return best if f.get(s.cell(best.hex), 1 << 30) < here else Stay()


def fire(legal: tuple[Action, ...]) -> Action:
    """Every stack that can join the fire joins it, then it is resolved."""
    if WithAll() in legal:
        return WithAll()
    joins = [a for a in legal if isinstance(a, With)]
    return joins[0] if joins else Resolve()


def overwatch(s: TcsCore, legal: tuple[Action, ...]) -> Action:
    """Fire at every trigger with the stack that hits hardest (where several hexes
    triggered it, first the hex that stack fires at)."""
    if not any(isinstance(a, Overwatch | OverwatchAt) for a in legal):
        return NoOverwatch()
    units = s.scenario.units
    side = s.trigger["side"] if s.trigger else "US"

    def power(a: int) -> int:
        return -sum(
            units[i].area_firepower(s.steps[i]) + units[i].type.point
            for i in s.side_units_at(a, side)
        )

    answers = overwatch_answers(s)
    best = min(
        (power(a), f"{s.label(a)} at {label}", label, a)
        for label, stacks in answers
        for a in stacks
    )
    if any(isinstance(a, OverwatchAt) for a in legal):
        return OverwatchAt.of(best[2])
    return Overwatch.of(s.label(best[3]))


# ====================================================================== the search's candidates
def ranked(bot: HeuristicUS | HeuristicGerman, state: State[Any]) -> list[Action]:
    """The legal actions best first for the search agent's paired comparison: the bot's
    choice (``choose``, asked once as a decision would be), then its runners-up by its
    own measure (a moving unit's or stack's steps by the distance left on its goal's
    field, then staying), then the rest in listing order. Reads only: the goals it
    measures by are the ones its choice worked out this phase."""
    first = bot.choose(state)
    s = _tcs(state)
    legal = s.legal_actions()
    out, seen = [first], {str(first)}
    for a in _runners_up(bot, s, legal, first):
        if str(a) not in seen and a in legal:
            out.append(a)
            seen.add(str(a))
    out.extend(a for a in legal if str(a) not in seen)
    return out


def _runners_up(
    bot: HeuristicUS | HeuristicGerman, s: TcsCore, legal: tuple[Action, ...], first: Action
) -> list[Action]:
    """The moves by the field :func:`move` measured for its choice (none when it did
    not measure one: a leader, no unit selected, the goals not worked out yet)."""
    if not s.wait or s.wait[0] != Decision.MOVE or (s.turn, s.phase) not in bot.plans:
        return []
    pid = s.selected
    if pid is None or pid.startswith("Ldr-") or isinstance(first, ExitWest):
        return []
    goals = bot.plans[(s.turn, s.phase)]
    if pid.startswith(STACK):
        side = s.wait[1] if s.wait else "US"
        movers = stack_movers(s, side, s.cell(pid[len(STACK) :]))
        if not movers:
            return []
        lead = movers[0]
    else:
        lead = s.unit_index(pid)
    f = goals.of(s, lead)
    far = 1 << 30
    moves = [a for a in legal if isinstance(a, MoveTo)]
    moves.sort(key=lambda a: (f.get(s.cell(a.hex), far), a.hex))
    return [*moves, Stay()]
