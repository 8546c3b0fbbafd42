"""The :class:`Game` object of D-Day at Omaha Beach behind the registry."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from omaha.kernel import metrics as common
from omaha.kernel.actions import Action
from omaha.kernel.metrics import Metric
from omaha.kernel.protocol import BotFactory, Game, RandomBot, State
from omaha.landing_table.actions import ACTIONS
from omaha.landing_table.bots import HeuristicBot
from omaha.landing_table.scenario import SHIPPED, LandingTableScenario, load_scenario
from omaha.landing_table.state import LandingTableState


class LandingTableGame(Game[LandingTableScenario]):
    """D-Day at Omaha Beach (Decision Games, 2009): the published charts, a reconstructed game."""

    name = "landing_table"
    title = "D-Day at Omaha Beach (Decision Games, 2009): landing table and fire charts"
    players = ("US",)
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
        Metric("vp", "VP", "US victory points at the end (reconstructed victory conditions)"),
        Metric("exits_by_1200", "exits", "exits open at 12:00 (end of turn 11)"),
        Metric("exits_by_1700", "exits", "exits open at 17:00 (end of turn 21)"),
        Metric("wn_cleared", "positions", "WN strongpoints without a German unit at the end"),
        Metric("mine_strikes", "units", "landing units that struck a mine"),
        Metric("heroes_used", "markers", "Hero wildcards spent"),
    )

    def action_classes(self) -> Iterable[type[Action]]:
        return ACTIONS

    def scenarios(self) -> tuple[str, ...]:
        return SHIPPED

    def _load_scenario(self, ref: str) -> LandingTableScenario:
        return load_scenario(ref)

    def _state_class(self) -> type[State[LandingTableScenario]]:
        return LandingTableState

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        return {"random": RandomBot, "heuristic": HeuristicBot}
