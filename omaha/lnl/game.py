"""The LnL Omaha game object: metadata, scenarios, bots and metrics."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from omaha.kernel import metrics as common
from omaha.kernel.actions import Action
from omaha.kernel.metrics import Metric
from omaha.kernel.protocol import BotFactory, Game, State
from omaha.lnl import bots
from omaha.lnl.actions import ACTIONS
from omaha.lnl.scenario import SHIPPED, LnlScenario, load_scenario
from omaha.lnl.state import LnlState


class LnlGame(Game[LnlScenario]):
    """Omaha: The Battle for the Beach (Lock 'n Load / Armchair General)."""

    name = "lnl"
    title = "Omaha: The Battle for the Beach (LnL)"
    players = ("US", "German")
    metrics = (
        common.US_WIN,
        common.OBJECTIVES_HELD,
        common.US_LOSSES,
        common.GERMAN_LOSSES,
        common.TURNS_PLAYED,
        Metric(
            "first_wave_ashore",
            "fraction",
            "share of the set-up landing force's steps that reached the beach alive "
            "(steps held when each unit first entered a beach or land hex; 1 when a "
            "scenario has no landing)",
        ),
        Metric(
            "dd_tanks_ashore",
            "fraction",
            "share of the landed 743rd DD tank platoons that reached the beach "
            "(1 when a scenario lands none)",
        ),
        Metric(
            "exits_opened",
            "exits",
            "draws (D-1 Vierville, D-3 Les Moulins) whose hexes the US controls at the end",
        ),
        Metric("victory_hexes_held", "hexes", "victory hexes the US controls at the end"),
        Metric("us_points", "points", "US victory points (hexes held, or the scenario's points)"),
        Metric("fortifications_taken", "hexes", "fortification hexes the US controls at the end"),
        Metric("us_steps_lost", "steps", "US steps lost"),
        Metric("german_steps_lost", "steps", "German steps lost"),
        Metric("at916_entered", "0/1", "1 if the 916th AT came onto the map"),
    )

    def action_classes(self) -> Iterable[type[Action]]:
        return ACTIONS

    def scenarios(self) -> tuple[str, ...]:
        return SHIPPED

    def _load_scenario(self, ref: str) -> LnlScenario:
        return load_scenario(ref)

    def _state_class(self) -> type[State[LnlScenario]]:
        return LnlState

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        return {
            "random": bots.LnlRandomBot,
            "solitaire": bots.SolitaireGerman,
            "heuristic": bots.HeuristicUS,
        }

    def bot_sides(self, bot: str) -> tuple[str, ...]:
        """The solitaire guidelines play the German side; the heuristic plays the US."""
        one_sided = {"solitaire": ("German",), "heuristic": ("US",)}
        return one_sided.get(bot) or super().bot_sides(bot)

    def lineup(self, bot: str) -> dict[str, str]:
        """``heuristic`` and ``solitaire`` each pair the heuristic US with the solitaire German."""
        if bot in ("heuristic", "solitaire"):
            return {"US": "heuristic", "German": "solitaire"}
        return super().lineup(bot)
