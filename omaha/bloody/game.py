"""Bloody Omaha: the Game object behind the registry."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from omaha.kernel.actions import Action
from omaha.kernel.metrics import (
    EXITS_OPENED,
    FIRST_WAVE_ASHORE,
    GERMAN_LOSSES,
    LANDED_OFF_TARGET,
    TURNS_PLAYED,
    US_LOSSES,
    US_WIN,
    Metric,
)
from omaha.kernel.protocol import BotFactory, Game, RandomBot, State

from .actions import ACTIONS
from .bots import HeuristicBot
from .scenario import SHIPPED, BloodyScenario, load_scenario
from .state import BloodyState


class BloodyGame(Game[BloodyScenario]):
    name = "bloody"
    title = "Bloody Omaha (Lombardy Studios, 2024 playtest)"
    players = ("US",)
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
        Metric("first_exit_turn", "turn", "turn the first Exit square was cleared (0: never)"),
        Metric("second_exit_turn", "turn", "turn the second Exit square was cleared (0: never)"),
    )

    def action_classes(self) -> Iterable[type[Action]]:
        return ACTIONS

    def scenarios(self) -> tuple[str, ...]:
        return SHIPPED

    def _load_scenario(self, ref: str) -> BloodyScenario:
        return load_scenario(ref)

    def _state_class(self) -> type[State[BloodyScenario]]:
        return BloodyState

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        return {"random": RandomBot, "heuristic": HeuristicBot}


GAME = BloodyGame()
