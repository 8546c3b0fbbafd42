"""Bloody Omaha: the Game object behind the registry, with its agent surface (the
action numbering's field domains, the bounds of a game, the observation layout)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from omaha.errors import DataFileError
from omaha.kernel import search
from omaha.kernel.actions import Action, field_hints
from omaha.kernel.metrics import (
    EXITS_OPENED,
    FIRST_WAVE_ASHORE,
    GERMAN_LOSSES,
    LANDED_OFF_TARGET,
    TIME,
    TURNS_PLAYED,
    US_LOSSES,
    US_WIN,
    Metric,
)
from omaha.kernel.observation import ObservationLayout
from omaha.kernel.protocol import BotFactory, Game, Limits, RandomBot, State

from . import view as views
from .actions import ACTIONS
from .bots import HeuristicBot
from .components.cards import TARGETED
from .components.tokens import EVENT
from .core import ActionCatalogue, BloodyCore
from .observation import BloodyObservation
from .scenario import SHIPPED, BloodyScenario, load_scenario, validate_scenario
from .state import BloodyState


class BloodyGame(Game[BloodyScenario]):
    name = "bloody"
    title = "Bloody Omaha (Lombardy Studios, 2024 playtest)"
    players = ("US",)
    #: Runs of each scenario in the default comparison: an equal share of about a minute
    #: on two cores (process time per run measured 2026-12-02 on a shared machine;
    #: docs/comparison.md), at least 10 (``omaha compare --runs N`` asks for more)
    comparison_runs: ClassVar[Mapping[str, int]] = {"solo": 250}
    metrics = (
        US_WIN,
        EXITS_OPENED,
        FIRST_WAVE_ASHORE,
        LANDED_OFF_TARGET,
        US_LOSSES,
        GERMAN_LOSSES,
        TURNS_PLAYED,
        Metric("victory_level", "level", "0 Defeat, 1 Draw, 2 Historical Victory, 3 Major Victory"),
        Metric("vp", "VP", "victory points at the end (2.3)"),
        Metric("vp_gaps", "VP", "VP from Gaps in Beach squares (2.3.a)"),
        Metric("vp_strongpoints", "VP", "VP from Strongpoint tokens cleared, 2 each (2.3.b)"),
        Metric("vp_encounters", "VP", "VP from Encounter tokens cleared (2.3.c)"),
        Metric("vp_towns_exits", "VP", "bonus VP for cleared Town and Exit squares (2.3.d)"),
        Metric("vp_hedgerows", "VP", "bonus VP for cleared squares H31-H40 (2.3.e)"),
        Metric("vp_reinforcements", "VP", "VP for units kept in the Reinforcements box (2.3.f)"),
        Metric("gaps_made", "gaps", "Beach Obstacles flipped to their Gap side"),
        Metric("strongpoints_cleared", "squares", "Strongpoint squares cleared (of 13)"),
        Metric("units_eliminated", "units", "US units eliminated"),
        Metric("reinforcements_released", "units", "units released from the Reinforcements box"),
        Metric("tanks_ashore", "tanks", "Tank tokens that came ashore"),
        Metric(
            "first_exit_turn", "turn", "turn the first Exit square was cleared (inf: never)", TIME
        ),
        Metric(
            "second_exit_turn",
            "turn",
            "turn the second Exit square was cleared (inf: never)",
            TIME,
        ),
        Metric(
            "first_exit_hours",
            "hours",
            "hours after 06:30 of the start of the turn the first Exit square was cleared, "
            "by the scenario's clock (turn_minutes); never (inf) when none was",
            TIME,
        ),
    )

    def end_hours(self, scenario: str | Path | None = None) -> float | None:
        """The end of the last turn on the scenario's clock (turn 1 at 06:30, each
        ``turn_minutes`` long: the clock of ``first_exit_hours``)."""
        scen = self.load_scenario(scenario)
        return scen.turns * scen.turn_minutes / 60

    def action_classes(self) -> Iterable[type[Action]]:
        return ACTIONS

    def scenarios(self) -> tuple[str, ...]:
        return SHIPPED

    def _load_scenario(self, ref: str) -> BloodyScenario:
        return load_scenario(ref)

    def validate_file(self, path: str | Path) -> list[DataFileError]:
        """Every problem of a scenario file and of the components it names, at once:
        each file against its schema (``scenario.SCHEMAS``), then the checks across files."""
        return list(validate_scenario(str(path)))

    def _state_class(self) -> type[State[BloodyScenario]]:
        return BloodyState

    #: The search agent's default budget (a whole game within the issue's bounds,
    #: docs/bots.md): iterations a searched decision, rollout depth in decisions.
    search_iterations = 3
    search_depth = 400
    #: a heuristic game takes about 20 ms: rollouts play it to the end (the level
    #: itself), the heuristic's three best candidates compared in the same worlds
    search_method = "paired"
    search_width = 3
    search_turn_end = False

    def evaluate(self, state: State[BloodyScenario], player: str) -> float:
        """The position for ``player`` in [0, 1] (view.evaluate)."""
        assert isinstance(state, BloodyCore)
        return views.evaluate(state, player)

    def worth_search(self, state: State[BloodyScenario]) -> bool:
        """Whether the pending decision is searched (view.worth_search)."""
        assert isinstance(state, BloodyCore)
        return views.worth_search(state)

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        return {"random": RandomBot, "heuristic": HeuristicBot, "search": search.factory(self)}

    # -- the agent surface (issue 15) ----------------------------------------------
    def field_domains(self, scenario: BloodyScenario) -> Mapping[str, Sequence[Any]]:
        """Each action class's joint domain: exactly the actions of the scenario's action
        catalogue (``core.ActionCatalogue``), 4,539 in solo, numbered in notation order."""
        return field_domains(scenario)

    def limits(self, scenario: str | Path | None = None) -> Limits:
        return limits(self.load_scenario(scenario))

    def observation_layout(self, scenario: str | Path | None = None) -> ObservationLayout:
        return BloodyObservation.of(self.load_scenario(scenario)).layout


def field_domains(scen: BloodyScenario) -> dict[str, tuple[tuple[Any, ...], ...]]:
    """Each action class's joint domain: the field values of the scenario's catalogued
    actions of that class (``core.ActionCatalogue``, every action the game can ever
    list), in notation order.

    The catalogue offers squares only where the rules allow them: a unit moves, attacks
    from, is added to an attack, engineers work and cards aim only on land (3.2.b-e);
    reinforcements enter at C19-C27 (5.3.f); a Random Event pairs a landed or First Wave
    square (5.2, 6.4) with a neighbouring land square (German tokens and Beach Obstacles
    are only on land); attacks come from a neighbouring land square (8.4.a). Numbers: card
    options 1..the options of each card (9.2), Engineer assets 1..the Game Track (8.5,
    7.0). The classes are numbered in :data:`~omaha.bloody.actions.ACTIONS` order, that of
    their notation, so an action's number is its catalogue code (its place in notation
    order), but for the two ``play`` forms (their notations interleave card by card).
    """
    joint: dict[str, list[tuple[Any, ...]]] = {cls.__name__: [] for cls in ACTIONS}
    names = {cls: tuple(field_hints(cls)) for cls in ACTIONS}
    for action in ActionCatalogue.of(scen).action:
        cls = type(action)
        joint[cls.__name__].append(tuple(getattr(action, name) for name in names[cls]))
    return {name: tuple(rows) for name, rows in joint.items()}


def limits(scen: BloodyScenario) -> Limits:
    """Real bounds of a game of ``scen``, from the rules and the scenario's counts."""
    turns, track = scen.turns, scen.track_max
    n_units, n_land = len(scen.units), len(scen.land)
    most_neighbours = max((len(nb) for nb in scen.land_neighbours), default=0)
    # cards reach the hand only at the set-up (two kept, 4.5) and one a Draw phase (5.1)
    cards_in_game = 2 + (turns - 1)
    card_gain = max(
        (o.amount for c in scen.cards.values() for o in c.options if o.effect == "initiative_now"),
        default=0,
    )
    event_gain = max(
        (e.amount for rows in scen.events.values() for e in rows if e.effect == "initiative_now"),
        default=0,
    )
    # Random Events: one a Random Event phase (5.2) and one a Random Event token (8.1.b)
    events_in_game = turns + sum(1 for f in scen.encounter_tokens if f == EVENT)
    # every Initiative action spends one point of the token (5.3); the token starts a
    # turn at its rating (at most the track) and grows in a turn only by cards and events
    initiative = turns * track + cards_in_game * max(card_gain, 0)
    initiative += events_in_game * max(event_gain, 0)
    decisions = (
        1  # 4.5: the card shuffled back
        + turns * 3  # the landing-card window, the Random Event squares, the end of activation
        + cards_in_game  # each card played once from the hand (9.2)
        + 2 * initiative  # each Initiative action, and a "resolve attack" after an attack
    )

    def card_plays(when: str) -> int:
        """Every (card, option, target) that could be offered at one moment."""
        return sum(
            n_land if o.effect in TARGETED else 1
            for c in scen.cards.values()
            for o in c.options
            if o.when == when
        )

    reinforcements = sum(1 for u in scen.units if u.setup < 0)
    engineer_squares = len(scen.beaches) + len(scen.encounter_squares)  # obstacles and mines
    activation = (
        1  # end activation
        + card_plays("activation")
        + n_units * most_neighbours  # 8.1: a move to each neighbouring square
        + n_units  # 5.3.d: rally
        + reinforcements * len(scen.entry)  # 5.3.f
        + n_land * most_neighbours  # 8.4.a: each target from each neighbouring square
        + engineer_squares * track  # 8.5: 1..token assets
        + scen.tank_count * n_units  # 5.3.e
    )
    event_pairs = sum(
        len(scen.board.neighbours[c]) for c in scen.land | scen.first_wave
    )  # 5.2: a US square and a neighbour
    widest = max(
        3,  # 4.5: the three cards drawn
        1 + card_plays("landing"),  # continue, or a landing card
        event_pairs,
        1 + most_neighbours,  # 8.4.a: resolve, or add a neighbouring square
        activation,
    )
    # chance: a d6 (3.7), the cups of face-down tokens (4.1) and the deck (4.5, 5.1)
    chance = max(6, len(scen.strongpoint_tokens), len(scen.encounter_tokens), len(scen.cards))
    return Limits(max_decisions=decisions, max_legal_actions=widest, max_chance_outcomes=chance)


GAME = BloodyGame()
