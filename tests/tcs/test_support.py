"""TCS Omaha part 2: beach obstacles (2.4), shingle breaches (2.5), the draw exits,
artillery and destroyer missions (2.6, 2.8, 3.1), each with pinned dice on a staged
position (stage.py)."""

from __future__ import annotations

from routine import play_until
from stage import place, staged, to_act

from omaha.kernel.hexes import Hex
from omaha.tcs.actions import (
    Breach,
    EndAction,
    EndTests,
    Mission,
    MoveMenu,
    MoveTo,
    Naval,
    SelectStack,
)
from omaha.tcs.actions import Test as ObstacleTest
from omaha.tcs.components.beach import COMPASS
from omaha.tcs.core import Status
from omaha.tcs.procedures.artillery import naval_targets
from omaha.tcs.procedures.movement import unit_destinations
from omaha.tcs.procedures.obstacles import breach_problems, exit_open
from omaha.tcs.state import TcsState
from omaha.testing import pin_dice


def events(state: TcsState, kind: str) -> list[dict[str, object]]:
    return [dict(e.details) for e in state.log if e.kind == kind]


def to_tests(state: TcsState) -> None:
    """End the US Action Phase: the obstacle tests come next (2.4a)."""
    to_act(state)
    state.apply(EndAction())
    assert state.wait is not None and state.wait[:2] == ("test", "US")


# ----------------------------------------------------------------------------- 2.4
def test_obstacle_test_mines_then_a_breach() -> None:
    """TCS Omaha 2.4, 2.4a, 2.4b: at the end of its Action Phase an infantry unit next to an
    untested obstacle hex tests it: 3 is mines and wire (closed); it may begin a breach
    at once, which is made at the end of the next friendly Action Phase if an infantry
    unit is still next to the hex."""
    state = staged({"E/2/16.1": "A16.14"})
    to_tests(state)
    legal = state.legal_actions()
    assert ObstacleTest("A16.13") in legal and EndTests() in legal
    pin_dice(state, [3])
    state.apply(ObstacleTest("A16.13"))
    c = state.cell("A16.13")
    assert state.obstacles[c] == "mines"
    assert events(state, "tcs.obstacle.test")[0]["result"] == "mines and wire"
    assert ObstacleTest("A17.13") not in state.legal_actions()  # one hex a unit a turn
    begun = state.turn
    state.apply(Breach("A16.13"))
    assert state.breaching[c] == begun
    i = state.unit_index("E/2/16.1")
    assert c not in unit_destinations(state, i)  # never forced (2.4b)
    play_until(state, "op sheets", "1120 6 June")  # the next US Action Phase is over
    assert state.obstacles[c] == "breached"
    assert events(state, "tcs.obstacle.breached")[0]["hex"] == "A16.13"


def test_wire_is_cleared_by_the_first_infantry_crossing() -> None:
    """TCS Omaha 2.4a, 2.4c: a roll of 5 is wire only: the first infantry unit entering
    the hex spends half its allowance more and clears it (here from the flat behind:
    1 MP for the hex and 2 for the wire; across the shingle, 1 + 2 + 2, it could not)."""
    state = staged({"E/2/16.1": "A16.14", "E/2/16.2": "A16.12"})
    to_tests(state)
    pin_dice(state, [5])
    state.apply(ObstacleTest("A16.13"))
    c = state.cell("A16.13")
    assert state.obstacles[c] == "wire"
    play_until(state, "action", "1100 6 June")
    with state.edit():
        state.us_implemented.add("E/2/16")  # free beyond the shingle (2.3a)
    i, j = state.unit_index("E/2/16.1"), state.unit_index("E/2/16.2")
    assert unit_destinations(state, j)[c] == 1 + 2
    assert c not in unit_destinations(state, i)
    state.apply(MoveMenu())
    state.apply(SelectStack("A16.12"))
    state.apply(MoveTo("A16.13"))
    assert state.obstacles[c] == "cleared"
    assert events(state, "tcs.wire.cleared")[0]["unit"] == "E/2/16.2"


def test_a_clear_hex_opens_next_turn() -> None:
    """TCS Omaha 2.4a, 2.4d: a roll of 6 is no obstacle, clear terrain from the next turn."""
    state = staged({"E/2/16.1": "A16.14"})
    to_tests(state)
    pin_dice(state, [6])
    tested = state.turn
    state.apply(ObstacleTest("A16.13"))
    c = state.cell("A16.13")
    assert state.obstacles[c] == "clear" and state.clear_from[c] == tested + 1
    play_until(state, "action", "1100 6 June")
    with state.edit():
        state.us_implemented.add("E/2/16")
    assert c in unit_destinations(state, state.unit_index("E/2/16.1"))


# ----------------------------------------------------------------------------- 2.5, exits
E1 = {"strand": "A14.14", "land": "A14.13", "security": ("A14.10", "A14.12")}


def test_shingle_breach_conditions() -> None:
    """TCS Omaha 2.5a: a potential breach opens when no pill box covers it (reading:
    sees a hex beside it within its gun's range), both security hexes are held, a US
    tank is within 3 hexes and no German unit within 5; each condition is named."""
    state = staged({"PB-01": "A13.11", "5./916.1": "A14.08"})
    assert breach_problems(state, "E-1") == [
        "a pill box covers it",
        "a security hex is not held",
        "no tank within 3 hexes",
        "German units within 5 hexes",
    ]
    place(
        state,
        {
            "E/2/16.1": "A14.10",
            "E/2/16.2": "A14.12",
            "A/741.1": "A14.15",
            "PB-01": "A2.12",
            "5./916.1": "A14.03",
        },
    )
    assert breach_problems(state, "E-1") == []
    to_tests(state)
    state.apply(EndTests())  # the US Phase End opens it (2.5a)
    assert state.breaches["E-1"] == "1040 6 June"
    assert events(state, "tcs.breach.open")[0]["breach"] == "E-1"


def test_the_exit_opens_with_breach_mouth_draw_and_top() -> None:
    """Reconstructed (victory): the E-1 exit is open when its breach is open, the
    obstacle hex at its mouth is passable, no German unit is in the draw or on the
    exit hex, and a US unit holds the exit hex (checked at the end of the turn)."""
    state = staged({"E/2/16.1": "A14.09", "5./916.1": "A14.11"})
    with state.edit():
        state.breaches["E-1"] = "1040 6 June"
        state.obstacles[state.cell("A14.13")] = "breached"
    assert not exit_open(state, "E-1")  # a German in the draw
    place(state, {"5./916.1": "A14.03"})
    assert exit_open(state, "E-1")
    with state.edit():
        state.obstacles[state.cell("A14.13")] = "mines"
    assert not exit_open(state, "E-1")
    with state.edit():
        state.obstacles[state.cell("A14.13")] = "cleared"
    play_until(state, "op sheets", "1100 6 June")
    assert state.exits == {"E-1": "1040 6 June"}
    assert state.metrics()["exits_opened"] == 1
    assert state.metrics()["first_exit_hours"] == 4 + 10 / 60  # 1040 is 4h10 after 0630


# ----------------------------------------------------------------------------- missions
def at_next_missions(state: TcsState, player: str = "US") -> None:
    play_until(state, "missions", "1100 6 June", player)


def test_battery_mission_adjusts_and_fires_for_effect() -> None:
    """2.8, 2.9 and 18.0 (reconstructed): A/7FA (105mm) fires on a grenadier platoon
    spotted by E/2/16.1. Designator: direction 1, distance 1 (x1); the observer sees
    the adjustment point, one hex off: needs 4, rolls 4: fire for effect, Area A (the
    target and its neighbours); Miller 46: 3 rounds, 3 x 3 = 9 firepower (column 7)
    on a platoon dug in since the end of 1040 (-1, fire mode): roll 11 - 1 = 10, one
    step. One battery fire leaves the pool."""
    state = staged(
        {"A/7FA.guns": "A16.14", "E/2/16.1": "A16.08", "5./916.1": "A16.05"},
        fire=["5./916.1"],
    )
    with state.edit():
        state.ammo["105mm"] = [5, 0, 0]
    at_next_missions(state)
    assert Mission("A/7FA", "A16.05") in state.legal_actions()
    pin_dice(state, [1, 1, 2, 2, 4, 6, 5, 6, 1, 1])
    state.apply(Mission("A/7FA", "A16.05"))
    mission = events(state, "tcs.mission")[0]
    assert mission["distance"] == 1 and mission["observer"] == "A16.08"
    assert mission["result"] == "adjustment 4 (needs 4): fire for effect"
    fire = events(state, "tcs.fire.area")[0]
    assert fire["firepower"] == 9 and fire["roll"] == 11 and fire["modifier"] == "-1"
    assert state.steps[state.unit_index("5./916.1")] == 2
    assert state.ammo["105mm"][0] == 4


def test_a_failed_adjustment_checks_fire_and_keeps_the_ammunition() -> None:
    """18.0 ([op7]): adjustment roll 3 < 4: the mission checks fire; the battery fire
    returns to the pool."""
    state = staged(
        {"A/7FA.guns": "A16.14", "E/2/16.1": "A16.08", "5./916.1": "A16.05"},
        fire=["5./916.1"],
    )
    with state.edit():
        state.ammo["105mm"] = [5, 0, 0]
    at_next_missions(state)
    pin_dice(state, [1, 1, 1, 2])
    state.apply(Mission("A/7FA", "A16.05"))
    assert events(state, "tcs.mission")[0]["result"].endswith("checks fire")  # type: ignore[union-attr]
    assert state.ammo["105mm"][0] == 5
    assert state.status[state.unit_index("5./916.1")] == Status.OK


def test_destroyer_missions() -> None:
    """TCS Omaha 2.6, 2.6a-2.6c: from 0940, one a turn, on a target with no US unit within
    8 hexes, seen from a north edge hex by an observer 10 m up; the designator
    distance is doubled by day (2.6b)."""
    state = staged({"E/2/16.1": "A16.15", "5./916.1": "A16.11"}, fire=["5./916.1"])
    target = state.cell("A16.11")
    assert target not in naval_targets(state)  # the US unit is 5 hexes off
    place(state, {"E/2/16.1": "A30.15"})
    assert target in naval_targets(state)
    at_next_missions(state)
    assert Naval("A16.11") in state.legal_actions()
    h = state.scenario.board.hex(target)
    dq, dr = COMPASS[state.scenario.tables.directions[0]]
    point = state.scenario.board.at(Hex(h.q + 2 * dq, h.r + 2 * dr))
    assert point is not None
    pin_dice(state, [1, 1, 6, 6, 6, 6, 6, 6, 1, 1])
    state.apply(Naval("A16.11"))
    mission = events(state, "tcs.mission")[0]
    assert mission["distance"] == 2 and mission["observer"] == "the ships"
    assert mission["point"] == state.label(point)
    assert Naval("A16.11") not in state.legal_actions()  # one a turn


def test_released_german_battery_fires() -> None:
    """TCS Omaha 3.1: a released battery calls its fires in the Aircraft and Artillery
    Phase on a hex a German unit spots; here the adjustment roll (2, needs 4) fails:
    it checks fire and keeps its battery fire."""
    state = staged(
        {"5./916.1": "A16.05", "E/2/16.1": "A16.08", "E/2/16.2": "A22.15"}, fire=["5./916.1"]
    )
    with state.edit():
        state.batteries["1./AR352"] = 8
    at_next_missions(state, "German")
    assert Mission("1./AR352", "A16.08") in state.legal_actions()
    pin_dice(state, [1, 1, 1, 1] + [1] * 40)
    state.apply(Mission("1./AR352", "A16.08"))
    assert events(state, "tcs.mission")[0]["battery"] == "1./AR352"
    assert state.batteries["1./AR352"] == 8  # checked fire: the battery fire returns
