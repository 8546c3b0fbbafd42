"""The heuristic players of the campaign (0640 6 June - 1700 8 June), kept apart from
the 6 June heuristics of :mod:`omaha.tcs.bots`, which they extend.

* :class:`CampaignUS` plays the US heuristic, and marches the 29th ID off the west
  edge in time (2.7b: by 1200 7 June or the game is forfeit): from the evening of 6
  June every 29th ID unit heads for the nearest west edge hex and leaves the map. It
  assigns its TRPs (2.8) to the inland villages and crossroads, and at night lights a
  German hex for the destroyers (an illumination round, then the mission, 2.6b).
* :class:`InlandGerman` plays the German heuristic, and fights inland: each German
  company holds the nearest village or crossroads not yet garrisoned, counterattacks
  one the US holds or threatens when it is close and strong enough, enters its
  reinforcements on the road nearest the threatened ground, keeps the units that hold
  a place in fire mode, and drives its assault guns through an open US shingle
  breach onto the beach (2.5c) when the US left it weakly held (no US tank or
  anti-tank gun in range of it); its ways count only steps a unit can take.
* :class:`HeuristicPlayers` is the ``heuristic`` bot of TCS: these two in a scenario
  that runs past 6 June, :class:`omaha.tcs.bots.HeuristicBot` otherwise (its 6 June
  games unchanged).
"""

from __future__ import annotations

from typing import Any

from omaha.kernel.actions import Action
from omaha.kernel.protocol import SideBots, State
from omaha.tcs.actions import (
    AssignTrp,
    EndTrps,
    Enter,
    ExitWest,
    Illuminate,
    Naval,
    OpSheet,
    Select,
    SelectStack,
    SetMode,
)
from omaha.tcs.bots import (
    HeuristicBot,
    HeuristicGerman,
    HeuristicUS,
    Objectives,
    cost_field,
    field,
    opening,
)
from omaha.tcs.components.turns import parse_time
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.procedures.action import MENUS, STACK, menu_list, stack_movers
from omaha.tcs.procedures.movement import german_may_move, impassable
from omaha.tcs.procedures.sight import seen_from_the_ships

#: The 29th ID starts west at this time on 6 June (a bot's choice: the evening, the night and
#: the morning of 7 June leave it some thirty turns to reach the west edge).
MARCH_WEST = (6, 18 * 60)
#: A company counterattacks a place within this many hexes if it has this many steps.
COUNTER_RANGE = 8
COUNTER_STEPS = 4


def walkable_field(
    s: TcsCore, goals: list[int], *, vehicle: bool, side: str, ma: int
) -> dict[int, int]:
    """Movement cost from every cell to the nearest goal, as :func:`omaha.tcs.bots.field`,
    but only over steps a unit of allowance ``ma`` can take at all (a step dearer than
    the whole allowance, such as a hedgerow into the flooded Aure meadows, is never
    legal: a field through it would hold a unit where it stands)."""
    beach = s.scenario.beach
    graph = beach.vehicle_graph if vehicle else beach.foot_graph
    closed = impassable(s, side, vehicle=vehicle, rifle=not vehicle) | beach.sea(s.tide_hour)
    return cost_field(graph, len(s.scenario.board), goals, closed, longest=ma)


def campaign_scenario(s: TcsCore) -> bool:
    """A scenario that runs past 6 June (the campaign and its one-day scenarios)."""
    return parse_time(s.scenario.turns[-1].label)[0] > 6


def places(s: TcsCore) -> dict[str, tuple[int, ...]]:
    """The ground both sides fight for inland: villages and crossroads (map props)."""
    beach, board = s.scenario.beach, s.scenario.board
    out = dict(beach.villages)
    for c in range(len(board)):
        name = board.prop(c, "crossroads")
        if name is not None:
            out[str(name)] = (c,)
    return dict(sorted(out.items()))


class WestGoals:
    """US goals: the heuristic's objectives, and the west edge for the 29th ID."""

    def __init__(self, s: TcsCore, inner: Objectives, west: bool) -> None:
        self.inner = inner
        self.side = "US"
        self.west = west
        self._fields: dict[bool, dict[int, int]] = {}
        self.s = s

    def of(self, s: TcsCore, i: int) -> dict[int, int]:
        u = s.scenario.oob.units[i]
        if u.is_29th and not self.west and not (s.on_task[i] or u.formation in s.us_implemented):
            # no farther than the shingle under a leader alone: once the leaders go (2.3f)
            # it could not come back to march west (2.3d)
            return self.inner.field_of(self.inner.objective(s, i), "beach")
        if self.west and u.is_29th:
            vehicle = s.unit(i).type.vehicle or s.unit(i).type.move == "tow"
            hit = self._fields.get(vehicle)
            if hit is None:
                edge = sorted(s.scenario.beach.west_edge)
                hit = self._fields[vehicle] = field(s, edge, vehicle=vehicle, side="US")
            return hit
        return self.inner.of(s, i)


class CampaignUS(HeuristicUS):
    """The US heuristic with the 29th ID's march west (2.7b) and the TRPs (2.8)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.choosers[Decision.TRPS] = self._trps
        self.west_goals: dict[tuple[int, str], WestGoals] = {}

    def marching(self, s: TcsCore) -> bool:
        """Whether the 29th ID is on its way west (2.7b)."""
        return parse_time(s.turn_label) >= MARCH_WEST and s.turn <= self.exit_turn(s)

    def exit_turn(self, s: TcsCore) -> int:
        labels = [t.label for t in s.scenario.turns]
        by = s.scenario.tables.exit29_by
        return labels.index(by) if by in labels else len(labels)

    def _act(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """A 29th ID stack on the west edge leaves the map first (2.7b)."""
        if self.marching(s) and MENUS["move"]() in legal:
            west = s.scenario.beach.west_edge
            oob = s.scenario.oob
            for a in menu_list(s, "US", "move"):
                if isinstance(a, SelectStack) and s.cell(a.hex) in west:
                    movers = stack_movers(s, "US", s.cell(a.hex))
                    if movers and oob.units[movers[0]].is_29th:
                        self.pending = a
                        return opening(a)
        return super()._act(s, legal)

    def _move(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """A 29th ID unit of a stack on the west edge is picked out, and leaves (2.7b)."""
        if ExitWest() in legal:
            return ExitWest()
        pid = s.selected
        if self.marching(s) and pid is not None and pid.startswith(STACK):
            oob = s.scenario.oob
            picks = [
                a
                for a in legal
                if isinstance(a, Select)
                and oob.has_unit(a.unit)
                and oob.units[oob.index(a.unit)].is_29th
            ]
            if picks and s.cell(pid[len(STACK) :]) in s.scenario.beach.west_edge:
                return picks[0]
        return super()._move(s, legal)

    def _sheets(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """No new op sheet for the 29th ID, which leaves the map (2.7b): the 1st ID's
        companies take the twelve places (2.3a)."""
        oob = s.scenario.oob
        keep = tuple(
            a
            for a in legal
            if not (
                isinstance(a, OpSheet)
                and any(oob.units[i].is_29th for i in oob.formation_units(a.formation))
            )
        )
        return super()._sheets(s, keep)

    def _missions(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """By day the heuristic's missions; at night, before them, while no destroyer
        mission can be called, an illumination round over the strongest German hex the
        destroyers could then fire on (seen from the ships, no US unit within 8 hexes,
        2.6c), then the destroyer mission on a lit hex (2.6b)."""
        lit = [a for a in legal if isinstance(a, Naval) and s.cell(a.hex) in s.illuminated]
        if s.night and lit:  # the destroyers fire on the hex lit for them
            return max(
                lit,
                key=lambda a: (
                    sum(s.steps[i] for i in s.side_units_at(s.cell(a.hex), "German")),
                    a.hex,
                ),
            )
        if s.night and not any(isinstance(a, Naval) for a in legal):
            near = s.scenario.tables.naval_friendly_within
            us = s.cells_of("US")
            dist = s.scenario.beach.dist
            options = []
            for a in legal:
                if not isinstance(a, Illuminate):
                    continue
                c = s.cell(a.hex)
                if any(dist[c][x] <= near for x in us) or not seen_from_the_ships(s, c):
                    continue
                steps = sum(s.steps[i] for i in s.side_units_at(c, "German"))
                options.append((-steps, a.hex, a))
            if options:
                return min(options)[2]
        return super()._missions(s, legal)

    def _trps(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """TRPs on the inland villages and crossroads, south first (2.8)."""
        options = {a.hex: a for a in legal if isinstance(a, AssignTrp)}
        beach = s.scenario.beach
        for _, cells in sorted(places(s).items(), key=lambda kv: (beach.row[kv[1][0]], kv[0])):
            label = s.label(cells[0])
            if label in options:
                return options[label]
        return EndTrps()

    def goals(self, s: TcsCore) -> Any:
        inner = super().goals(s)
        key = (s.turn, s.phase)
        hit = self.west_goals.get(key)
        if hit is None:
            self.west_goals = {key: WestGoals(s, inner, self.marching(s))}
            hit = self.west_goals[key]
        return hit


class InlandGoals:
    """German goals for one phase: every company's place to hold or retake."""

    def __init__(self, s: TcsCore) -> None:
        self.side = "German"
        self.s = s
        units = s.scenario.units
        self.places = places(s)
        us_cells = s.cells_of("US")
        self.us_units = sorted(i for here in s.side_occupancy("US").values() for i in here)
        german = s.scenario.german
        held: dict[str, int] = {}  # place -> German steps in it
        for name, cells in self.places.items():
            held[name] = sum(s.steps[i] for c in cells for i in s.side_units_at(c, "German"))
        self.threat: dict[str, int] = {
            name: min((s.dist(c, u) for c in cells for u in us_cells), default=99)
            for name, cells in self.places.items()
        }
        self.assigned: dict[str, str] = {}
        self.counter: set[str] = set()
        taken: set[str] = set()
        for f in sorted(german.by_id):
            at = [s.where[i] for i in german.formation(f).units if s.where[i] >= 0]
            movers = [i for i in german.formation(f).units if s.where[i] >= 0]
            if not at or all(units[i].type.kind in ("pillbox", "rocket") for i in movers):
                continue
            steps = sum(s.steps[i] for i in movers)
            here = at[0]
            # a place the US holds or is next to, close and worth a counterattack
            contested = [
                (min(s.dist(here, c) for c in pc), n)
                for n, pc in self.places.items()
                if self.threat[n] <= 1 and min(s.dist(here, c) for c in pc) <= COUNTER_RANGE
            ]
            if contested and steps >= COUNTER_STEPS:
                _, n = min(contested)
                self.assigned[f] = n
                self.counter.add(n)
                continue
            free = [
                (min(s.dist(here, c) for c in pc), n)
                for n, pc in self.places.items()
                if n not in taken and self.threat[n] > 1
            ]
            if free:
                _, n = min(free)
                self.assigned[f] = n
                taken.add(n)
        self._fields: dict[tuple[str, bool, int], dict[int, int]] = {}

    def field_of(self, name: str, vehicle: bool, ma: int) -> dict[int, int]:
        """The way to the place ``name`` for a mover of allowance ``ma``."""
        hit = self._fields.get((name, vehicle, ma))
        if hit is None:
            s = self.s
            board = s.scenario.board
            cells = set(self.places[name])
            us = s.cells_of("US")
            if name in self.counter:  # the hexes next to the US in and around the place
                cells = {n for c in cells for n in (c, *board.neighbours[c])} - us
            hit = self._fields[(name, vehicle, ma)] = walkable_field(
                s, sorted(cells), vehicle=vehicle, side="German", ma=ma
            )
        return hit

    def weakly_held(self, name: str) -> bool:
        """Whether the US left the breach ``name`` weakly held: none of its units on
        the breach's two hexes, and none that can kill a vehicle (point fire: tanks,
        anti-tank guns) within its point range of the landward hex, plus one."""
        s = self.s
        b = s.scenario.beach.breach_by_name[name]
        if s.side_units_at(b.land, "US") or s.side_units_at(b.strand, "US"):
            return False
        for i in self.us_units:
            t = s.unit(i).type
            if t.point and s.dist(s.where[i], b.land) <= t.point_range + 1:
                return False
        return True

    def breach_field(self) -> dict[int, int] | None:
        """2.5c: the strand beyond every open US breach the US left weakly held, for
        the German vehicles: the way to the breach's landward hex, then one step across
        it (the map's vehicle graph has no shingle crossing: a breach is open only in
        play). A breach the US holds with tanks or guns is left alone: the assault guns
        fight with their company instead."""
        s = self.s
        beach = s.scenario.beach
        open_ = [beach.breach_by_name[b] for b in sorted(s.breaches) if self.weakly_held(b)]
        if not open_:
            return None
        hit = self._fields.get(("breach", True, 0))
        if hit is None:
            land = field(s, sorted({b.land for b in open_}), vehicle=True, side="German")
            hit = {c: d + 1 for c, d in land.items()}
            for b in open_:
                hit[b.strand] = 0
            self._fields[("breach", True, 0)] = hit
        return hit

    def of(self, s: TcsCore, i: int) -> dict[int, int]:
        u = s.unit(i)
        vehicle = u.type.vehicle or u.type.move == "tow"
        if u.type.kind == "tank":
            breach = self.breach_field()
            if breach is not None and s.where[i] in breach:
                return breach
        name = self.assigned.get(u.formation)
        if name is None:
            return {s.where[i]: 0}
        return self.field_of(name, vehicle, u.type.ma if u.type.ma > 0 else 99)


class InlandGerman(HeuristicGerman):
    """The German heuristic that holds and retakes the villages and crossroads inland."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.inland: dict[tuple[int, str], InlandGoals] = {}

    def goals(self, s: TcsCore) -> Any:
        key = (s.turn, s.phase)
        hit = self.inland.get(key)
        if hit is None:
            self.inland = {key: InlandGoals(s)}
            hit = self.inland[key]
        return hit

    def _entry(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """Enter on the south edge nearest the most threatened place, on a road if one
        is close (vehicles keep to the roads of the bocage)."""
        options = [a for a in legal if isinstance(a, Enter)]
        if not options:
            return None
        g = self.goals(s)
        beach = s.scenario.beach
        german = s.scenario.german
        if any(s.unit(i).type.vehicle for i in german.formation(options[0].formation).units):
            # vehicles cannot leave a hedgerow field but by road (1.3)
            options = [a for a in options if s.cell(a.hex) in beach.road] or options
        name = min(g.places, key=lambda n: (g.threat[n], n))
        target = g.places[name][0]
        return min(
            options,
            key=lambda a: (
                s.dist(s.cell(a.hex), target) + (0 if s.cell(a.hex) in beach.road else 3),
                a.hex,
            ),
        )

    def _modes(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """Move mode for a stack that is going somewhere, fire mode for one that holds."""
        g = self.goals(s)

        def wanted(c: int) -> str:
            for i in s.side_units_at(c, "German"):
                if not german_may_move(s, i):
                    continue
                f = g.of(s, i)
                if f.get(c, 0) > 0:
                    return "move"
            return "fire"

        for a in legal:
            if isinstance(a, SetMode) and a.mode == wanted(s.cell(a.hex)):
                return a
        return super()._modes(s, legal)


class HeuristicPlayers(SideBots):
    """TCS's ``heuristic`` bot: the campaign's players in a scenario that runs past 6
    June, the 6 June heuristics of :class:`omaha.tcs.bots.HeuristicBot` otherwise."""

    def __init__(self, seed: int = 0) -> None:
        self.day = HeuristicBot(seed)
        self.campaign = SideBots({"US": CampaignUS(seed), "German": InlandGerman(seed + 1)})
        super().__init__(self.day.bots)

    def choose(self, state: State[Any]) -> Action:
        if isinstance(state, TcsCore) and campaign_scenario(state):
            return self.campaign.choose(state)
        return self.day.choose(state)

    def ranked(self, state: State[Any]) -> list[Action]:
        """The ranking of the player that chooses (``omaha.tcs.bots.ranked``)."""
        if isinstance(state, TcsCore) and campaign_scenario(state):
            bot = self.campaign.bots[str(state.current_player())]
            assert isinstance(bot, HeuristicUS | HeuristicGerman)
            return bot.ranked(state)
        return self.day.ranked(state)
