"""omaha: four published Omaha Beach wargames under one rules protocol.

>>> import omaha
>>> game = omaha.load("lnl")                      # doctest: +SKIP
>>> state = game.new_state(seed=7)                # doctest: +SKIP
>>> state.apply(state.legal_actions()[0])         # doctest: +SKIP
"""

from omaha.errors import (
    DataFileError,
    IllegalAction,
    RecordError,
    ScenarioError,
    StateCorrupted,
    UnreadableAction,
)
from omaha.kernel.actions import Action
from omaha.kernel.dice import RandomDice, ScriptedDice
from omaha.kernel.metrics import Metric
from omaha.kernel.protocol import Game, Outcome, State
from omaha.kernel.records import GameRecord
from omaha.kernel.view import Pending, View
from omaha.registry import games, load, register

__version__ = "0.1.0"

__all__ = [
    "Action",
    "DataFileError",
    "Game",
    "GameRecord",
    "IllegalAction",
    "Metric",
    "Outcome",
    "Pending",
    "RandomDice",
    "RecordError",
    "ScenarioError",
    "ScriptedDice",
    "State",
    "StateCorrupted",
    "UnreadableAction",
    "View",
    "games",
    "load",
    "register",
]
