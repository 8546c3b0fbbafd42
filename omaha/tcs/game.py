"""The TCS Omaha game: its name, players, metrics, scenarios and bots."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from omaha.kernel.actions import Action
from omaha.kernel.metrics import (
    DD_TANKS_ASHORE,
    DUKW_GUNS_LOST,
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
from omaha.tcs.actions import ACTIONS
from omaha.tcs.bots import HeuristicBot
from omaha.tcs.components.tables import BOAT_KINDS, DD, UNIT_TYPES
from omaha.tcs.procedures.fire import BattleResolver, FireResolver
from omaha.tcs.scenario import SHIPPED, TcsScenario, load_scenario
from omaha.tcs.state import TcsState

#: defined here until the kernel has it (same name and meaning)
FIRST_EXIT_HOURS = Metric(
    "first_exit_hours", "hours", "hours after 06:30 of the first exit opened; NaN if none"
)


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
    #: A heuristic game of the battle takes 1-2 s of CPU (landing about 1.1 s, d-day about
    #: 1.9 s, e1-draw 0.05 s): fewer runs of the two long ones keep the default comparison
    #: near a minute on two cores (``omaha compare --runs N`` asks for more)
    comparison_runs: ClassVar[Mapping[str, int]] = {"landing": 25, "d-day": 20}

    def __init__(self, resolver: FireResolver | None = None) -> None:
        super().__init__()
        #: resolves the attacks of rockets, A-20s and batteries (``UnresolvedFire`` studies
        #: the landing system alone)
        self.resolver: FireResolver = resolver if resolver is not None else BattleResolver()

    def action_classes(self) -> Iterable[type[Action]]:
        return ACTIONS

    def scenarios(self) -> tuple[str, ...]:
        return SHIPPED

    def _load_scenario(self, ref: str) -> TcsScenario:
        return load_scenario(ref)

    def _state_class(self) -> type[State[TcsScenario]]:
        return TcsState

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """``heuristic`` plays both sides (the US and German heuristics of bots.py)."""
        return {"random": RandomBot, "heuristic": HeuristicBot}


GAME = TcsGame()
