"""The TCS Omaha game: its name, players, metrics, scenarios and bots."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from omaha.errors import DataFileError
from omaha.kernel import search
from omaha.kernel.actions import Action
from omaha.kernel.metrics import (
    DD_TANKS_ASHORE,
    DUKW_GUNS_LOST,
    EXITS_OPENED,
    FIRST_EXIT_HOURS,
    FIRST_WAVE_ASHORE,
    GERMAN_LOSSES,
    LANDED_OFF_TARGET,
    TURNS_PLAYED,
    US_LOSSES,
    US_WIN,
    Metric,
)
from omaha.kernel.observation import ObservationLayout
from omaha.kernel.protocol import BotFactory, Game, Limits, RandomBot, State
from omaha.tcs import view as views
from omaha.tcs.actions import ACTIONS
from omaha.tcs.components.tables import BOAT_KINDS, DD, UNIT_TYPES
from omaha.tcs.core import TcsCore
from omaha.tcs.observation import TcsObservation
from omaha.tcs.procedures.boats import MAX_CANCELS
from omaha.tcs.procedures.fire import BattleResolver, FireResolver
from omaha.tcs.procedures.inland import HeuristicPlayers
from omaha.tcs.rules import hour_of
from omaha.tcs.scenario import SHIPPED, TcsScenario, load_scenario, validate_scenario
from omaha.tcs.state import TcsState


def _metrics() -> tuple[Metric, ...]:
    own = [
        Metric("steps_landed", "steps", "US steps that reached the beach"),
        Metric("steps_lost", "steps", "US steps lost at sea, off the map or to the tide"),
        Metric("dd_tanks_launched", "tanks", "DD tanks that set out swimming (2.1e)"),
        Metric("dd_tanks_landed", "tanks", "DD tanks that reached the beach"),
        Metric("dukw_guns_loaded", "guns", "guns loaded in Dukws (2.1f)"),
        Metric("dukw_guns_landed", "guns", "guns that reached the beach by Dukw"),
        Metric("leaders_landed", "leaders", "leaders that reached the beach (2.3f)"),
        Metric("leaders_alive", "leaders", "leaders selected and still alive at the end"),
        Metric("units_correct_beach", "units", "assault units landed on their planned beach"),
        Metric("units_wrong_beach", "units", "assault units landed on another beach"),
        Metric("battery_fires_he", "fires", "HE battery fires in the ammunition pool (2.9)"),
        Metric("battery_fires_smoke", "fires", "smoke battery fires in the pool (2.9)"),
        Metric("illum_rounds", "rounds", "illumination rounds in the pool (2.9)"),
        Metric("pillboxes", "pill boxes", "German pill boxes in play at the end (2.1k)"),
        Metric("nfst_working", "teams", "NFSTs ashore with a working radio (2.6d)"),
        Metric("pillboxes_destroyed", "pill boxes", "German pill boxes destroyed (3.3f)"),
        Metric("obstacles_tested", "hexes", "beach obstacle hexes tested (2.4)"),
        Metric("breaches_opened", "breaches", "shingle breaches opened (2.5)"),
    ]
    for t in UNIT_TYPES:
        own.append(Metric(f"steps_landed_{t}", "steps", f"{t} steps that reached the beach"))
        own.append(Metric(f"steps_lost_{t}", "steps", f"{t} steps lost"))
    for k in (*BOAT_KINDS, DD):
        own.append(Metric(f"boats_sent_{k}", "boats", f"{k} boats that ran for the beach"))
        own.append(Metric(f"boats_lost_{k}", "boats", f"{k} boats lost on the run-in (2.1i)"))
    landed_off = Metric(
        LANDED_OFF_TARGET.name,
        LANDED_OFF_TARGET.unit,
        LANDED_OFF_TARGET.meaning + " (assault-wave units; transports never scatter)",
    )
    return (
        US_WIN,
        EXITS_OPENED,
        GERMAN_LOSSES,
        FIRST_EXIT_HOURS,
        FIRST_WAVE_ASHORE,
        DD_TANKS_ASHORE,
        DUKW_GUNS_LOST,
        landed_off,
        US_LOSSES,
        TURNS_PLAYED,
        *own,
    )


class TcsGame(Game[TcsScenario]):
    """TCS Omaha: the American landing system and the battle for the beach."""

    name = "tcs"
    title = "TCS Omaha (The Gamers, 1991)"
    players = ("US", "German")
    metrics = _metrics()
    #: Runs of each scenario in the default comparison: an equal share of about a minute
    #: on two cores (process time per run measured 2026-12-02 on a shared machine;
    #: docs/comparison.md), at least 10 (``omaha compare --runs N`` asks for more), but
    #: for the two scenarios past 6 June, whose games cost about 20 s (campaign) and 6 s
    #: (june7) of CPU each: 2 and 3 runs, their n stated in the table
    comparison_runs: ClassVar[Mapping[str, int]] = {
        "landing": 10,
        "e1-draw": 30,
        "d-day": 10,
        "campaign": 2,
        "june7": 3,
    }

    def __init__(self, resolver: FireResolver | None = None) -> None:
        super().__init__()
        #: resolves the attacks of rockets, A-20s and batteries (``UnresolvedFire`` studies
        #: the landing system alone)
        self.resolver: FireResolver = resolver if resolver is not None else BattleResolver()

    def not_modelled(self, scenario: str | Path | None = None) -> Mapping[str, str]:
        """The landing system's metrics where a scenario starts ashore, ``us_win`` where
        it has no victory conditions (:func:`omaha.tcs.views.not_modelled`)."""
        return views.not_modelled(self.load_scenario(scenario))

    def end_hours(self, scenario: str | Path | None = None) -> float | None:
        """The time of the scenario's last turn (the clock of ``first_exit_hours``)."""
        return views.hours_after_h(self.load_scenario(scenario).turns[-1].label)

    def action_classes(self) -> Iterable[type[Action]]:
        return ACTIONS

    def scenarios(self) -> tuple[str, ...]:
        return SHIPPED

    def _load_scenario(self, ref: str) -> TcsScenario:
        return load_scenario(ref)

    def validate_file(self, path: str | Path) -> list[DataFileError]:
        """Every problem of a scenario file and of the components it names, at once:
        each file against its schema (``scenario.SCHEMAS``), then what building the
        scenario finds across files."""
        return list(validate_scenario(str(path)))

    def _state_class(self) -> type[State[TcsScenario]]:
        return TcsState

    #: The search agent's default budget (a whole game within the issue's bounds,
    #: docs/bots.md): iterations a searched decision, rollout depth in decisions.
    search_iterations = 4
    search_depth = 16

    def evaluate(self, state: State[TcsScenario], player: str) -> float:
        """The position for ``player`` in [0, 1] (view.evaluate)."""
        assert isinstance(state, TcsCore)
        return views.evaluate(state, player)

    def worth_search(self, state: State[TcsScenario]) -> bool:
        """Whether the pending decision is searched (view.worth_search)."""
        assert isinstance(state, TcsCore)
        return views.worth_search(state)

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """``heuristic`` plays both sides (the US and German heuristics of bots.py; in a
        scenario past 6 June, the campaign's players of procedures/inland.py)."""
        return {
            "random": RandomBot,
            "heuristic": HeuristicPlayers,
            "search": search.factory(self),
        }

    # -- the agent surface (issue 15) ----------------------------------------------
    def field_domains(self, scenario: TcsScenario) -> Mapping[str, Sequence[Any]]:
        """Every value an action field can take in ``scenario`` (READINGS.md, "Agents")."""
        return field_domains(scenario)

    def limits(self, scenario: str | Path | None = None) -> Limits:
        return limits(self.load_scenario(scenario))

    def observation_layout(self, scenario: str | Path | None = None) -> ObservationLayout:
        return TcsObservation.of(self.load_scenario(scenario)).layout


def field_domains(scen: TcsScenario) -> dict[str, tuple[Any, ...]]:
    """The finite domain of every action field, in board and counter order.

    Hexes are the map's cells (pill boxes and rocket pits only where 3.3g and 3.4
    let them set up; obstacle tests and breaches on the obstacle hexes, 2.4).
    Pairs of fields are numbered jointly where the rules tie them: an assault goes
    into a neighbouring hex (series 22.0), the tide advances pieces to a neighbouring
    strand hex (1.12a), a boat lands on the tide line of its landing hour (2.1l,
    2.1m), a point weapon fires at an enemy point target (12.0), a released
    reinforcement enters on the south edge (3.1), an NFST rides an infantry unit
    of its battalion (2.6d). Overwatch is two single-hex steps (15.0).
    """
    board, beach, t = scen.board, scen.beach, scen.tables
    labels = board.labels
    cells = tuple(labels)
    us = scen.oob.units
    units = scen.units
    german = scen.german
    strand = sorted(beach.strand)
    joint_assault = tuple(
        (labels[b], labels[a]) for a in range(len(board)) for b in board.neighbours[a]
    )
    advance = tuple(
        (labels[a], labels[b]) for a in strand for b in board.neighbours[a] if b in beach.strand
    )
    point_pairs = tuple(
        (u.id, v.id)
        for u in units
        if u.type.point > 0
        for v in units
        if v.side != u.side and v.type.target == "point"
    )
    formations = tuple(f for f, _ in scen.oob.formations) + tuple(f.id for f in german.formations)
    rows = {r.unit for r in t.batteries}
    us_batteries = sorted(
        {u.formation for u in us if u.type.kind == "gun" and rows & {u.formation, u.battalion}}
    )
    batteries = (*us_batteries, *(b.id for b in german.batteries))
    infantry = sorted({u.battalion for u in us if u.type.name == "infantry" and u.battalion})
    nfst = tuple(
        (bn, u.id) for bn in infantry for u in us if u.battalion == bn and u.type.name == "infantry"
    )
    most_steps = max((u.steps for u in us), default=1)
    return {
        "hex": cells,
        "start": cells,
        "at": cells,
        "unit": tuple(u.id for u in units),
        "PlacePillbox.hex": tuple(
            labels[c]
            for c in range(len(board))
            if beach.pillbox_allowed(c, variant=scen.pillbox_variant)
        ),
        "PlaceRocketPit.hex": tuple(
            labels[c] for c in range(len(board)) if beach.rocket_pit_allowed(c)
        ),
        "UseSetup.name": tuple(sorted(scen.setups)),
        "UsePlan.name": tuple(sorted(scen.plans)),
        "wave": tuple(w.number for w in t.waves),
        "kind": (*BOAT_KINDS, DD),
        "box": tuple(sorted(beach.assault_boxes)),
        "OpenTransport.kind": tuple(k for k, _ in t.transport_boats),
        "OpenTransport.box": tuple(sorted(beach.transport_boxes)),
        "Load.unit": tuple(u.id for u in us),
        "LoadSteps.unit": tuple(u.id for u in us),
        "steps": tuple(range(1, most_steps + 1)),
        "Overdraft.unit": tuple(u.id for u in us),
        "AssignNfst": nfst,
        "Advance": advance,
        "AirLoadout.bombers": tuple(range(t.air_aircraft + 1)),
        "LandAt": landing_choices(scen),
        "Select.unit": tuple(u.id for u in units) + tuple(ld.id for ld in scen.oob.leaders),
        "formation": formations,
        "Enter": tuple(
            (f.id, labels[c])
            for f in german.formations
            if f.status == "reinforcement"
            for c in beach.south_edge
        ),
        "battery": tuple(b.id for b in german.batteries),
        "Mission.battery": batteries,
        "Convert.unit": tuple(units[i].id for i in german.pillboxes),
        "mode": ("fire", "move"),
        "PointFire": point_pairs,
        "Assault": joint_assault,
        "Test.hex": tuple(labels[c] for c in sorted(beach.obstacles)),
        "Breach.hex": tuple(labels[c] for c in sorted(beach.obstacles)),
    }


def boats_at_most(scen: TcsScenario) -> int:
    """The most boats (and swimming DD tanks) of the assault waves (2.1g, 2.1e), and of
    one transport landing (2.1m)."""
    t = scen.tables
    dd_steps = sum(u.steps for u in scen.oob.units if u.dd)
    waves = sum(w.count(k) for w in t.waves for k in BOAT_KINDS) + dd_steps
    return waves + sum(n for _, n in t.transport_boats)


def limits(scen: TcsScenario) -> Limits:
    """Real bounds of a game of ``scen``, counted from the sequence of play (state.py)
    and the scenario's counters (READINGS.md, "Agents"); loose, never exceeded.

    In an Action Phase every act makes a unit act, move, fire its point weapon or be
    spared for good (the sets of core.py grow; each unit at most once a phase, a
    leader moves once); between two acts a side opens at most the five lists and
    leaves each with ``back`` once (action.py); a fire combat adds each stack once;
    each act draws at most one overwatch answer of two steps. The set-up lays out
    each boat and loads each step at most once an attempt, with MAX_CANCELS fresh
    starts.
    """
    board, t = scen.board, scen.tables
    cells, units, turns = len(board), len(scen.units), len(scen.turns)
    leaders = len(scen.oob.leaders)
    us = scen.oob.units
    us_steps = sum(u.steps for u in us)
    boats = boats_at_most(scen)
    formations = len(scen.oob.formations) + len(scen.german.formations)
    batteries = len(field_domains(scen)["Mission.battery"])
    obstacles = len(scen.beach.obstacles)
    pillboxes, pits = scen.n_pillboxes, scen.n_rocket_pits
    # -- set-up (3.3g, 3.4, 2.1, 2.2a, 2.6d)
    setup = pillboxes + pits + 1  # placements one by one, or a shipped set-up
    attempt = 3 * boats + us_steps + 1  # open, add an LCA, close; a step a load; end
    setup += (MAX_CANCELS + 1) * attempt + 2 * MAX_CANCELS  # and the empty boats
    setup += t.lctr_count + 1 + len(us)  # LCT(R) targets, NFSTs
    # -- one turn
    acts = 4 * units + leaders + 1  # the sets that grow, and ``end action``
    per_act = 2 * 5 + 3 + 2  # five lists opened and left, open-choose-pick-move, overwatch
    action_phases = 2 * (acts * per_act + units)  # + each stack joining a fire combat
    command = (
        len(us)
        + leaders  # tide: each hex of US pieces the sea covers (1.12a)
        + us_steps
        + 1  # overdraft steps (2.11)
        + formations
        + batteries
        + 2  # release (3.1)
        + 2 * (formations + 1)  # op sheets of both sides (2.3a, 3.2)
        + (MAX_CANCELS + 1) * (3 * boats + us_steps + 1)
        + 2 * MAX_CANCELS  # transports
        + 1  # the A-20 loadout (2.10)
    )
    artillery = (
        2 * t.air_aircraft
        + 1  # strikes
        + cells
        + 1  # smoke checks, each hex once (2.2a)
        + batteries
        + 3  # missions and the destroyer (2.6, 2.8, 3.1)
    )
    modes = pillboxes + 1 + 2 * (units + 1)  # conversions (3.3e), each stack once a side
    landing = boats  # a landing hex for each boat where the rules leave a choice
    tests = 2 * obstacles + 1  # tests and breaches (2.4)
    entry = formations  # reinforcements enter (3.1)
    per_turn = action_phases + command + artillery + modes + landing + tests + entry
    decisions = setup + turns * per_turn
    # -- the widest decision
    space = field_domains(scen)
    widest = max(
        len(space["PlaceRocketPit.hex"]) + len(space["PlacePillbox.hex"]) + 1 + len(scen.setups),
        cells + 1,  # LCT(R) targets, smoke checks, targets, the move list, overwatch
        len(us) + 2 * len(space["wave"]) * len(space["kind"]) * len(space["box"]) + 3,  # plan
        2 * cells + 1,  # strikes and bombs; modes
        batteries * cells + cells + 1,  # missions and the destroyer
        len(space["Assault"]) + 1,
        len(space["PointFire"]) + 1,
        units + leaders + 1,  # retreats, units of a stack
        len(space["LandAt"]),
        len(space["Enter"]),
        formations + batteries + 2,
    )
    # chance: a die (every roll is one d6), or the boat a leader rides (2.3f)
    chance = max(6, boats)
    return Limits(max_decisions=decisions, max_legal_actions=widest, max_chance_outcomes=chance)


def landing_choices(scen: TcsScenario) -> tuple[tuple[str, str], ...]:
    """(boat, hex) for every landing hex a boat may be offered (2.1l, 2.1m): boats of
    an assault wave on the tide line of the wave's hour, transports on the line of
    the hour they land. Boat ids as the plan numbers them: ``1.05`` (wave 1, fifth
    boat), ``1.DD03`` (a swimming DD tank), ``T.02`` (the plan's first transport
    landing), ``T0900.01`` (a transport landing at 0900)."""
    if not scen.landing:
        return ()
    beach, t, labels = scen.beach, scen.tables, scen.board.labels
    dd_steps = sum(u.steps for u in scen.oob.units if u.dd)
    transports = sum(n for _, n in t.transport_boats)

    def line(hour: str) -> list[str]:
        return [labels[c] for _, c in sorted(beach.line(hour).items())]

    out: list[tuple[str, str]] = []
    for w in t.waves:
        hexes = line(hour_of(w.turn))
        boats = sum(w.count(k) for k in BOAT_KINDS)
        ids = [f"{w.number}.{n:02d}" for n in range(1, boats + 1)]
        ids += [f"{w.number}.DD{n:02d}" for n in range(1, dd_steps + 1)]
        out += [(b, x) for b in ids for x in hexes]
    hours = sorted({hour_of(turn.label.split()[0]) for turn in scen.turns})
    later = [h for h in hours if h >= t.transport_first_hour]
    first = sorted({x for h in later for x in line(h)})
    out += [(f"T.{n:02d}", x) for n in range(1, transports + 1) for x in first]
    # from the first transport hour on, every later hour turn (7-8 June too); a boat's
    # number counts on from the same hour of an earlier day (transports.next_id)
    opened = False
    days: dict[str, int] = {}
    for turn in scen.turns:
        opened = opened or turn.label.split()[0] >= t.transport_first_hour
        if "hour" in turn.flags and opened:
            hhmm = turn.label.split()[0]
            days[hhmm] = days.get(hhmm, 0) + 1
            numbers = range(transports * (days[hhmm] - 1) + 1, transports * days[hhmm] + 1)
            out += [(f"T{hhmm}.{n:02d}", x) for n in numbers for x in line(hhmm)]
    return tuple(dict.fromkeys(out))


GAME = TcsGame()
