"""Shared fixtures for the TCS Omaha tests: the shipped tables, OOB, map, and a
short test scenario ("mini": overcast, no shipped plan) that tests drive with
plans built in code and scripted dice."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from omaha import testing
from omaha.kernel.boardfile import load_board
from omaha.tcs import GAME
from omaha.tcs.actions import CommitPlan, EndRockets, UseSetup
from omaha.tcs.components.beach import Beach
from omaha.tcs.components.oob import Oob, load_oob
from omaha.tcs.components.plan import Plan, PlanRules
from omaha.tcs.components.tables import DATA, Tables, default_tables
from omaha.tcs.scenario import TcsScenario
from omaha.tcs.state import TcsState

HERE = Path(__file__).parent
MINI = HERE / "data" / "mini.toml"
sys.path.insert(0, str(HERE))

from routine import settle  # noqa: E402


@pytest.fixture(scope="session")
def tables() -> Tables:
    return default_tables()


@pytest.fixture(scope="session")
def oob(tables: Tables) -> Oob:
    return load_oob(tables)


@pytest.fixture(scope="session")
def beach(tables: Tables) -> Beach:
    return Beach(load_board(DATA / "map.toml"), tables)


@pytest.fixture(scope="session")
def rules(oob: Oob, tables: Tables, beach: Beach) -> PlanRules:
    return PlanRules(oob, tables, beach)


@pytest.fixture(scope="session")
def landing() -> TcsScenario:
    scen = GAME.load_scenario("landing")
    assert isinstance(scen, TcsScenario)
    return scen


Starter = Callable[..., TcsState]


@pytest.fixture
def start() -> Starter:
    """A mini-scenario game past set-up: historical German set-up, ``plan`` committed,
    the battle's routine decisions passed until the landing system's next one.

    ``dice`` are every die the game rolls until then.
    """

    def make(plan: Plan, dice: Sequence[int] = (), scenario: Path = MINI) -> TcsState:
        state = testing.start(GAME, scenario, dice=dice)
        assert isinstance(state, TcsState)
        state.apply(UseSetup("historical"))
        state.apply(CommitPlan(plan.tokens()))
        if state.wait and state.wait[0] == "rockets":
            state.apply(EndRockets())
        settle(state)
        return state

    return make
