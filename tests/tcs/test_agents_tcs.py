"""TCS Omaha's agent surface (issue 15): the action numbering and its narrowed domains,
the bounds of a game (no endless loop through a menu or the landing schematic), the
observation and what each side may see in it, and the graded returns."""

from __future__ import annotations

import numpy as np
import pytest
from stage import BATTLE, staged, to_act

from omaha.kernel.protocol import Outcome
from omaha.tcs import GAME
from omaha.tcs.actions import (
    Advance,
    Assault,
    Back,
    ClearPlan,
    CloseBoat,
    EndRockets,
    FireMenu,
    LandAt,
    Load,
    MoveMenu,
    OpenBoat,
    Overwatch,
    OverwatchAt,
    PlacePillbox,
    PointFire,
    Rockets,
    UseSetup,
)
from omaha.tcs.game import boats_at_most, field_domains
from omaha.tcs.procedures.boats import MAX_CANCELS
from omaha.tcs.state import TcsState
from omaha.testing import start


def test_the_numbering_fits_and_narrows_pairs_to_what_the_rules_allow() -> None:
    """Pairs of hexes are numbered jointly: an assault only into a neighbouring hex
    (22.0), the tide only to a neighbouring strand hex (1.12a); a boat lands on the
    tide line of its hour (2.1l); pill boxes set up only where 3.3g allows."""
    scen = GAME.load_scenario("d-day")
    space = GAME.action_space("d-day")
    assert space.size <= 100_000
    board = scen.board
    a, b = board.cell("A16.05"), board.cell("A16.06")
    assault = Assault("A16.06", "A16.05")
    assert GAME.decode(GAME.encode(assault, "d-day"), "d-day") == assault
    assert b in board.neighbours[a]
    with pytest.raises(ValueError, match="outside its domain"):
        GAME.encode(Assault("A16.09", "A16.05"), "d-day")  # not neighbours
    domains = field_domains(scen)
    assert all(x in scen.beach.strand for pair in domains["Advance"] for x in map(board.cell, pair))
    assert len(domains["PlacePillbox.hex"]) < len(board) // 2
    with pytest.raises(ValueError, match="outside its domain"):
        GAME.encode(PlacePillbox("A1.01"), "d-day")  # far inland of 3.3g's reach
    wave1 = {x for boat, x in domains["LandAt"] if boat == "1.01"}
    assert wave1 == {board.label(c) for c in scen.beach.line("0600").values()}
    assert {type(GAME.decode(i, "d-day")) for i in range(0, space.size, 97)} >= {
        LandAt,
        PointFire,
    }
    for code in range(0, space.size, 101):
        assert GAME.encode(GAME.decode(code, "d-day"), "d-day") == code


def test_overwatch_is_numbered_by_one_hex_a_step() -> None:
    for action in (Overwatch("A16.05"), OverwatchAt("A17.07")):
        assert GAME.decode(GAME.encode(action, "d-day"), "d-day") == action


def test_a_list_left_with_back_is_not_offered_again_until_a_unit_acts() -> None:
    """The Action Phase cannot loop (READINGS.md, "Agents"): after ``back`` the fire list
    is gone from the menu; once a stack has moved, every list is offered again."""
    state = staged(
        {"E/2/16.1": "A16.07", "5./916.1": "A16.05", "F/2/16.1": "A22.15"},
        fire=["E/2/16.1", "5./916.1"],
    )
    with state.edit():
        state.us_implemented.add("F/2/16")
    to_act(state)
    assert FireMenu() in state.legal_actions() and MoveMenu() in state.legal_actions()
    state.apply(FireMenu())
    state.apply(Back())
    assert FireMenu() not in state.legal_actions()
    state.apply(MoveMenu())
    state.apply(Back())
    assert MoveMenu() not in state.legal_actions()


def plan_state() -> TcsState:
    state = start(GAME, "landing", seed=2)
    assert isinstance(state, TcsState)
    state.apply(UseSetup("historical"))
    assert state.wait is not None and state.wait[0] == "plan"
    return state


def test_the_schematic_is_cleared_or_a_boat_closed_empty_a_few_times_only() -> None:
    """Clearing the landing schematic, or closing a boat empty, are cancels: after
    MAX_CANCELS of them neither is offered, and a boat that could take no unit is
    not opened."""
    state = plan_state()
    for _ in range(MAX_CANCELS):
        state.apply(OpenBoat(1, "LCT", "EasyRed"))
        assert CloseBoat() in state.legal_actions()  # empty: a cancel
        state.apply(CloseBoat())
    state.apply(OpenBoat(1, "LCT", "EasyRed"))
    assert CloseBoat() not in state.legal_actions()  # nothing aboard, no cancel left
    load = next(a for a in state.legal_actions() if isinstance(a, Load))
    state.apply(load)
    assert CloseBoat() in state.legal_actions()
    state.apply(CloseBoat())
    assert ClearPlan() not in state.legal_actions()


def test_random_games_stay_within_the_limits() -> None:
    for scenario in GAME.scenarios():
        limits = GAME.limits(scenario)
        assert limits.max_chance_outcomes == max(6, boats_at_most(GAME.load_scenario(scenario)))
        state = GAME.new_state(scenario, seed=11)
        bot = GAME.bots["random"](seed=11)
        decisions = 0
        while not state.is_terminal():
            assert len(state.legal_actions()) <= limits.max_legal_actions
            state.apply(bot.choose(state))
            decisions += 1
        assert decisions <= limits.max_decisions


def test_the_observation_counts_steps_by_side_and_kind_and_marks_the_sea() -> None:
    state = staged(
        {"E/2/16.1": "A16.07", "5./916.1": "A16.05", "A/741.1": "A16.07"},
        fire=["5./916.1"],
        steps={"E/2/16.1": 3},
    )
    layout = GAME.observation_layout(str(BATTLE))
    obs = state.observation("US")
    assert obs.shape == (layout.size,) and obs.dtype == np.float32
    c, g = state.cell("A16.07"), state.cell("A16.05")
    assert layout.plane(obs, "us_infantry")[c] == 3
    assert layout.plane(obs, "us_vehicles")[c] == state.steps[state.unit_index("A/741.1")]
    assert layout.plane(obs, "german_infantry")[g] == state.steps[state.unit_index("5./916.1")]
    assert layout.plane(obs, "german_fire_mode")[g] == 1
    assert layout.plane(obs, "us_fire_mode")[c] == 0
    sea = layout.plane(obs, "sea")
    assert set(np.flatnonzero(sea)) == set(state.scenario.beach.sea(state.tide_hour))
    on_map = sum(s for i, s in enumerate(state.steps) if state.where[i] >= 0)
    planes = [p for p in layout.planes if p.startswith(("us_", "german_")) and "_" in p]
    steps = sum(
        layout.plane(obs, p).sum()
        for p in planes
        if p.split("_", 1)[1] in ("infantry", "weapons", "vehicles", "artillery", "fortifications")
    )
    assert steps == on_map
    assert "lctr_target" in dict(layout.meanings)


def test_the_german_sees_neither_the_lctr_targets_nor_the_us_transports() -> None:
    state = plan_state()
    state.apply(GAME.parse_action("plan historical"))
    while state.wait is not None and state.wait[0] == "rockets":
        options = [a for a in state.legal_actions() if isinstance(a, Rockets)]
        state.apply(options[0] if options else EndRockets())
    layout = GAME.observation_layout("landing")
    targets = layout.plane(state.observation("US"), "lctr_target")
    assert targets.sum() > 0
    assert layout.plane(state.observation("German"), "lctr_target").sum() == 0
    us, german = state.observation("US"), state.observation("German")
    assert us[layout.track_index("german_released")] == 0  # the US never sees it
    assert german[layout.track_index("us_boats_afloat")] == 0


def test_returns_are_graded_by_victory_level() -> None:
    """READINGS.md, "Agents": d-day's four levels give 1, 0.5, -0.5, -1 to the US."""
    state = GAME.new_state("d-day", seed=1)
    expected = {
        "US decisive victory": 1.0,
        "US marginal victory": 0.5,
        "German marginal victory": -0.5,
        "German decisive victory": -1.0,
    }
    assert GAME.zero_sum and GAME.utility_range == (-1.0, 1.0)
    for level, us in expected.items():
        winner = "US" if us > 0 else "German"
        with state.edit():
            state.result = Outcome(winner, level)
        assert state.returns() == {"US": us, "German": -us}
    landing = GAME.new_state("landing", seed=1)
    with landing.edit():
        landing.result = Outcome(None, "the landing is over")
    assert landing.returns() == {"US": 0.0, "German": 0.0}


def test_whole_plans_are_listed_so_plans_is_empty() -> None:
    """The shipped set-ups and landing plans are listed actions ('setup historical',
    'plan historical'), numbered like any other: State.plans() has nothing to add."""
    state = GAME.new_state("landing", seed=1)
    assert state.plans() == {}
    assert UseSetup("historical") in state.legal_actions()
    assert GAME.decode(GAME.encode(UseSetup("historical"))) == UseSetup("historical")


def test_advance_pairs_are_neighbours() -> None:
    scen = GAME.load_scenario("landing")
    for start_label, to in field_domains(scen)["Advance"][:50]:
        assert scen.board.cell(to) in scen.board.neighbours[scen.board.cell(start_label)]
    assert GAME.encode(Advance(*field_domains(scen)["Advance"][0]), "landing") >= 0
