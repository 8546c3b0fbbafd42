"""The :class:`Game` object of D-Day at Omaha Beach behind the registry, with its agent
surface (the action numbering's field domains, the bounds of a game, the observation)."""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from omaha.errors import DataFileError
from omaha.kernel import metrics as common
from omaha.kernel import search
from omaha.kernel.actions import Action
from omaha.kernel.metrics import Metric
from omaha.kernel.observation import ObservationLayout
from omaha.kernel.protocol import BotFactory, Game, Limits, RandomBot, State
from omaha.landing_table import rules
from omaha.landing_table import view as views
from omaha.landing_table.actions import ACTIONS
from omaha.landing_table.bots import HeuristicBot
from omaha.landing_table.components.charts import CHARTS
from omaha.landing_table.core import LandingTableCore
from omaha.landing_table.observation import LandingTableObservation
from omaha.landing_table.procedures.orders import MAX_ATTACKERS
from omaha.landing_table.scenario import (
    SHIPPED,
    LandingTableScenario,
    build,
    load_scenario,
    problems,
    resolve_files,
)
from omaha.landing_table.state import LandingTableState


class LandingTableGame(Game[LandingTableScenario]):
    """D-Day at Omaha Beach (Decision Games, 2009): the published charts, a reconstructed game."""

    name = "landing_table"
    title = "D-Day at Omaha Beach (Decision Games, 2009): landing table and fire charts"
    players = ("US",)
    #: Runs of each scenario in the default comparison: an equal share of about a minute
    #: on two cores (process time per run measured 2026-12-02 on a shared machine;
    #: docs/comparison.md), at least 10 (``omaha compare --runs N`` asks for more)
    comparison_runs: ClassVar[Mapping[str, int]] = {"omaha": 20, "first_wave": 100}
    metrics = (
        common.US_WIN,
        common.FIRST_WAVE_ASHORE,
        common.LANDED_OFF_TARGET,
        common.US_LOSSES,
        common.GERMAN_LOSSES,
        common.DD_TANKS_ASHORE,
        common.DUKW_GUNS_LOST,
        common.EXITS_OPENED,
        common.OBJECTIVES_HELD,
        common.TURNS_PLAYED,
        common.FIRST_EXIT_HOURS,
        Metric("vp", "VP", "US victory points at the end (reconstructed victory conditions)"),
        Metric("exits_by_1200", "exits", "exits open at 12:00 (end of turn 11)"),
        Metric("exits_by_1700", "exits", "exits open at 17:00 (end of turn 21)"),
        Metric("wn_cleared", "positions", "WN strongpoints without a German unit at the end"),
        Metric("mine_strikes", "units", "landing units that struck a mine"),
        Metric("heroes_used", "markers", "Hero wildcards spent"),
    )

    def not_modelled(self, scenario: str | Path | None = None) -> Mapping[str, str]:
        """The exit counts at clock times after a scenario's end
        (:func:`omaha.landing_table.views.not_modelled`)."""
        return views.not_modelled(self.load_scenario(scenario))

    def end_hours(self, scenario: str | Path | None = None) -> float | None:
        """The end of the scenario's last turn (the clock of ``first_exit_hours``)."""
        return (views.end_minutes(self.load_scenario(scenario)) - views.H_HOUR) / 60

    def action_classes(self) -> Iterable[type[Action]]:
        return ACTIONS

    def scenarios(self) -> tuple[str, ...]:
        return SHIPPED

    def _load_scenario(self, ref: str) -> LandingTableScenario:
        return load_scenario(ref)

    def validate_file(self, path: str | Path) -> list[DataFileError]:
        """Every problem of a scenario file and of the components it names, at once
        (the schemas); when they find none, the first the loaders meet (labels on the
        map, landing boxes)."""
        try:
            files = resolve_files(path)
        except DataFileError as exc:
            return [exc]
        found: list[DataFileError] = list(problems(files))
        if not found:
            try:
                build(files, str(path))
            except DataFileError as exc:
                found.append(exc)
        return found

    def _state_class(self) -> type[State[LandingTableScenario]]:
        return LandingTableState

    #: The search agent's default budget (a whole game within the issue's bounds,
    #: docs/bots.md): iterations a searched decision, rollout depth in decisions.
    search_iterations = 3
    search_depth = 16
    #: The paired comparison of the heuristic's 3 best candidates (``ranked``) at the
    #: decisions that matter (view.worth_search): 3 worlds a searched decision.
    search_method = "paired"
    search_width = 3
    #: With 3 worlds a standard error is a rough guess: an override needs the gain
    #: above zero by 2.92 of them (Student's t with 2 degrees of freedom, one-sided 95%).
    search_margin = 2.92

    def evaluate(self, state: State[LandingTableScenario], player: str) -> float:
        """The position for ``player`` in [0, 1] (view.evaluate)."""
        assert isinstance(state, LandingTableCore)
        return views.evaluate(state, player)

    def worth_search(self, state: State[LandingTableScenario]) -> bool:
        """Whether the pending decision is searched (view.worth_search)."""
        assert isinstance(state, LandingTableCore)
        return views.worth_search(state)

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        return {"random": RandomBot, "heuristic": HeuristicBot, "search": search.factory(self)}

    # -- the agent surface (issue 15) ----------------------------------------------
    def field_domains(self, scenario: LandingTableScenario) -> Mapping[str, Sequence[Any]]:
        return field_domains(scenario)

    def limits(self, scenario: str | Path | None = None) -> Limits:
        return limits(self.load_scenario(scenario))

    def observation_layout(self, scenario: str | Path | None = None) -> ObservationLayout:
        return LandingTableObservation.of(self.load_scenario(scenario)).layout


def naval_ids(scen: LandingTableScenario) -> tuple[str, ...]:
    """Every Naval Fire Marker of the scenario (``NF1`` ...), in the order they arrive."""
    return tuple(f"NF{i}" for i in range(1, sum(n for _, n in scen.naval) + 1))


def field_domains(scen: LandingTableScenario) -> dict[str, tuple[Any, ...]]:
    """The finite domain of every action field, in order-of-battle, map and file order.

    ``unit`` (hold, add to an attack) is any US unit or Naval Fire Marker; the other
    classes take only the units that can ever give them: a Ranger drifts (landing
    table note **), a leader follows, a unit with a barrage range or a marker
    barrages, an engineer clears, a unit with attack strength attacks. A unit lands
    on a hex of some landing box at some tide; it moves to any hex of the map.
    """
    labels = scen.board.labels
    us = tuple(u.id for u in scen.us)
    kinds = {u.id: u.kind for u in scen.us}
    naval = naval_ids(scen)
    landing = sorted({c for cells in scen.box_cells.values() for c in cells})
    return {
        "unit": us + naval,
        "Land.unit": us,
        "Land.hex": tuple(labels[c] for c in landing),
        "Drift.unit": tuple(u for u in us if kinds[u].cls == "ranger"),
        "Drift.boxes": tuple(range(CHARTS.ranger_drift + 1)),
        "Follow.leader": tuple(u.id for u in scen.us if u.kind.leader and u.with_),
        "Hit.unit": us,
        "Move.unit": tuple(u for u in us if kinds[u].mp > 0),
        "Move.hex": tuple(labels),
        "target": tuple(p.id for p in scen.positions),
        "Attack.unit": tuple(u for u in us if max(kinds[u].attack) > 0),
        "Barrage.unit": tuple(u for u in us if kinds[u].barrage > 0) + naval,
        "Clear.unit": tuple(u for u in us if kinds[u].clears),
        "Attrition.unit": tuple(u for u in us if not kinds[u].leader),
    }


_LIMITS: weakref.WeakKeyDictionary[LandingTableScenario, Limits] = weakref.WeakKeyDictionary()


def limits(scen: LandingTableScenario) -> Limits:
    """Real bounds of a game of ``scen``, from the procedures and the scenario's counts."""
    got = _LIMITS.get(scen)
    if got is not None:
        return got
    n_us, n_pos, naval = len(scen.us), len(scen.positions), len(naval_ids(scen))
    leaders = sum(1 for u in scen.us if u.kind.leader and u.with_)
    rangers = sum(1 for u in scen.us if u.kind.cls == "ranger")
    hits = max(rules.hit_limit(t, 1, 1) for t in range(1, scen.turns + 1))
    decisions = (
        n_us + rangers + leaders  # each unit comes ashore once: a Ranger's drift, a leader's follow
        + scen.turns * (
            n_pos * (hits + 1)  # each position fires once a German phase: its hits, a leader hit
            + n_us + naval  # one order (or "add" to an attack) per unit and marker a turn
            + 2 * n_pos  # each position attacked once a turn: resolve, attrition
        )
    )  # fmt: skip
    orders = 1 + _widest_move(scen) + 2 * n_pos + 2  # hold, moves, attacks, barrages, clear, end
    widest = max(
        max(len(cells) for cells in scen.box_cells.values()),  # land: the hexes of a box
        CHARTS.ranger_drift + 1,  # drift 0..4 boxes
        2,  # follow yes/no
        n_us,  # hit: the units tied at the hit limit
        orders,
        n_us + naval - 1 + 2,  # attack: every other unit or marker may join; resolve (with hero)
        MAX_ATTACKERS + 1,  # attrition: an adjacent attacker, or none
    )
    # chance: the fire card deck, the depth marker cups, the Division cup (every 352nd
    # unit may come back to it); nothing else is drawn or rolled
    division = sum(1 for g in scen.germans.values() if g.division == "352")
    chance = max(len(scen.cards), *(len(c) for c in scen.depth_cups.values()), division)
    got = _LIMITS[scen] = Limits(decisions, widest, chance)
    return got


def _widest_move(scen: LandingTableScenario) -> int:
    """The most hexes a unit of any class can move to from one hex, nothing in the way."""
    widest = 0
    for key in sorted({(u.kind.move, u.kind.mp) for u in scen.us}):
        graph = scen.moves[key[0]]
        for cell in range(len(scen.board)):
            widest = max(widest, len(graph.reachable(cell, key[1])) - 1)
    return widest
