"""TCS Omaha part 2: the German release system and reinforcements (3.1), German op
sheets (3.2), US op sheets after landing (2.3a), unassigned units (2.3g), company
morale recovery and the victory conditions, with pinned dice on staged positions."""

from __future__ import annotations

from routine import answer, play_until
from stage import RELEASE, place, staged, to_act

from omaha.tcs.actions import (
    EndSheets,
    Enter,
    MoveMenu,
    MoveTo,
    NoRelease,
    OpSheet,
    Release,
    ReleaseBattery,
    RollVariable,
    SelectStack,
)
from omaha.tcs.core import LOST
from omaha.tcs.procedures.cleanup import victory_points
from omaha.tcs.procedures.movement import german_may_move
from omaha.tcs.state import TcsState
from omaha.testing import pin_dice


def events(state: TcsState, kind: str) -> list[dict[str, object]]:
    return [dict(e.details) for e in state.log if e.kind == kind]


def at_release(roll: int, pieces: dict[str, str] | None = None) -> TcsState:
    """The release fixture; the 1100 Variable Reinforcement Table roll pinned."""
    state = staged(pieces or {}, scenario=RELEASE)
    pin_dice(state, [roll])
    play_until(state, "release", "1100 6 June", "German")
    return state


# ----------------------------------------------------------------------------- 3.1
def test_release_roll_releases_a_company_or_a_battery() -> None:
    """TCS Omaha 3.1: a roll of 5 on the (reconstructed) table: the German releases a
    company or a battery of his choice, or nothing."""
    state = at_release(5)
    legal = state.legal_actions()
    assert Release("2./916") in legal and ReleaseBattery("1./AR352") in legal
    assert NoRelease() in legal and RollVariable() not in legal
    unit = state.unit_index("2./916.1")
    assert not german_may_move(state, unit)
    pin_dice(state, [1])  # its op sheet roll follows at once (3.2)
    state.apply(Release("2./916"))
    assert "2./916" in state.released
    assert events(state, "tcs.release")[0]["why"] == "Variable Reinforcement Table"


def test_battery_release() -> None:
    """3.1: a released battery has its battery fires (German Battery Composition,
    reconstructed: eight for I./AR 352's batteries)."""
    state = at_release(5)
    state.apply(ReleaseBattery("1./AR352"))
    assert state.batteries == {"1./AR352": 8}


def test_variable_reinforcement_enters_on_the_south_edge() -> None:
    """3.1: a 6 lets the German roll on the second table: 7 is II./915's 5th company; it
    enters at a south edge hex, moves for two turns, then waits for its op sheet."""
    state = at_release(6)
    pin_dice(state, [3, 4])
    state.apply(RollVariable())
    assert "5./915" in state.released
    assert events(state, "tcs.release.variable")[0]["roll"] == 7
    play_until(state, "entry", None, "German")
    edge = state.scenario.beach.south_edge
    assert all(state.cell(a.hex) in edge for a in state.legal_actions())  # type: ignore[attr-defined]
    state.apply(Enter("5./915", "A16.01"))
    unit = state.unit_index("5./915.1")
    assert state.where[unit] == state.cell("A16.01") and not state.fire_mode[unit]
    entered = state.entered["5./915"]
    assert german_may_move(state, unit)
    with state.edit():
        state.turn = entered + 2  # two turns later, no op sheet: it halts (3.1)
    assert not german_may_move(state, unit)


def test_a_reinforcement_already_in_play_is_lost() -> None:
    """3.1: a second-table result for a unit already in play is lost."""
    state = at_release(6)
    with state.edit():
        state.released.add("5./915")
    pin_dice(state, [3, 4])
    state.apply(RollVariable())
    assert events(state, "tcs.release.lost")[0]["why"] == "5./915 is already in play"


def test_automatic_release_by_us_units_within_five_hexes() -> None:
    """3.1: a US ground unit at or within 5 hexes of any unit of an unreleased company
    releases that company at once."""
    state = staged({"E/2/16.1": "A10.12"}, scenario=RELEASE)
    with state.edit():
        state.us_implemented.add("E/2/16")
    to_act(state)
    assert "2./916" not in state.released
    state.apply(MoveMenu())
    state.apply(SelectStack("A10.12"))
    state.apply(MoveTo("A10.11"))  # five hexes from 2./916.2 in A10.06
    assert "2./916" in state.released
    assert events(state, "tcs.release")[0]["why"] == "US units within 5 hexes"


# ----------------------------------------------------------------------------- 3.2
def test_german_op_sheet_roll() -> None:
    """TCS Omaha 3.1, 3.2 (roll reconstructed): a released reserve tries to implement
    its op sheet in each Command Planning Phase, from the one it is released in: 4-6;
    until then it does not move."""
    state = at_release(5)
    unit = state.unit_index("2./916.1")
    pin_dice(state, [3])
    state.apply(Release("2./916"))
    assert events(state, "tcs.sheet.german")[0]["result"] == "not yet"
    assert "2./916" not in state.german_sheets and not german_may_move(state, unit)
    pin_dice(state, [1, 4])  # 1120: the release roll (none), then the op sheet roll
    play_until(state, "modes", "1120 6 June")
    assert "2./916" in state.german_sheets and german_may_move(state, unit)


def test_at_most_six_german_op_sheets() -> None:
    """TCS Omaha 3.2: never more than six German op sheets implemented."""
    state = at_release(5)
    with state.edit():
        state.german_sheets = {f"f{k}" for k in range(6)}
    state.apply(Release("2./916"))  # no op sheet roll is made (no die is pinned)
    assert not events(state, "tcs.sheet.german")


# ----------------------------------------------------------------------------- 2.3a, 2.3g
def test_us_op_sheet_weighted_turns() -> None:
    """TCS Omaha 2.3a with the series Command Prep Table ([tab401], reconstructed rates):
    a company ashore starts an op sheet; not fired upon it gains 3 weighted turns a
    turn and is implemented at 6; its units then move beyond the shingle."""
    state = staged({"E/2/16.1": "A16.12"}, scenario=RELEASE)
    play_until(state, "op sheets", "1100 6 June")
    assert OpSheet("E/2/16") in state.legal_actions()
    state.apply(OpSheet("E/2/16"))
    assert state.us_sheets == {"E/2/16": 0}
    state.apply(EndSheets())
    play_until(state, "op sheets", "1120 6 June")
    assert state.us_sheets == {"E/2/16": 3}
    play_until(state, "action", "1140 6 June")
    assert "E/2/16" in state.us_implemented and not state.us_sheets
    assert events(state, "tcs.sheet.us")[0]["result"] == "implemented"


def test_fired_upon_or_under_a_leader_the_sheet_is_slower() -> None:
    """2.3a: a company fired upon gains 1 weighted turn a turn; under a leader, 1."""
    state = staged({"E/2/16.1": "A16.12", "F/2/16.1": "A20.12"}, scenario=RELEASE)
    play_until(state, "op sheets", "1100 6 June")
    state.apply(OpSheet("E/2/16"))
    state.apply(OpSheet("F/2/16"))
    leader = state.scenario.oob.leader("Ldr-2/16").index
    with state.edit():
        state.fired_upon.add(state.unit_index("E/2/16.1"))
        state.leader_cell[leader] = state.cell("A20.13")
        state.leader_status[leader] = "map"
    play_until(state, "op sheets", "1120 6 June")
    assert state.us_sheets == {"E/2/16": 1, "F/2/16": 1}


def test_unassigned_units_beyond_the_shingle_fall_back() -> None:
    """TCS Omaha 2.3g: a US unit landward of the shingle with no op sheet or leader,
    after three turns of defence (reading: a German within two hexes), retreats."""
    state = staged({"E/2/16.1": "A16.12", "5./916.1": "A16.10"}, scenario=RELEASE)
    unit = state.unit_index("E/2/16.1")
    for turn in ("1100 6 June", "1120 6 June"):
        play_until(state, "modes", turn)
        assert state.where[unit] == state.cell("A16.12")
    play_until(state, "modes", "1140 6 June")
    assert state.where[unit] != state.cell("A16.12")
    assert events(state, "tcs.unassigned")[0]["turns"] == 3


def test_company_morale_recovers_each_hour() -> None:
    """17.0 (reconstructed): on each hour turn every company regains a morale level."""
    state = staged({"E/2/16.1": "A16.12"}, scenario=RELEASE)
    with state.edit():
        state.company_morale["E/2/16"] = 2
    play_until(state, "modes", "1100 6 June")
    assert state.company_morale["E/2/16"] == 1
    play_until(state, "modes", "1120 6 June")
    assert state.company_morale["E/2/16"] == 1  # 1120 is no hour turn


# ----------------------------------------------------------------------------- victory
def test_victory_points_and_level() -> None:
    """The d-day conditions (reconstructed): 10 an exit opened (+5 by 1200), 8 a village
    held with no German in it, 2 a strongpoint held at set-up and now free of German
    units (here WN68, where the fixture's pill boxes stood), -1 per 40 US steps lost;
    levels 35, 10, 0 and below."""
    state = staged({"E/2/16.1": "A12.05"}, scenario=RELEASE)
    village = state.scenario.beach.villages["St-Laurent"]
    place(state, {"E/2/16.1": state.label(village[0])})
    with state.edit():
        state.exits = {"E-1": "1140 6 June", "E-3": "1240 6 June"}
        state.stats["steps_lost_infantry"] = 85
        for i in state.scenario.german.formation("2./916").units:
            state.where[i] = LOST
    assert state.stats["held WN68"] == 1
    points = victory_points(state)
    assert points == {"exits": 25, "villages": 8, "strongpoints": 2, "losses": -2}
    while not state.is_terminal():
        answer(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == "US"
    assert outcome.level == "US marginal victory"
    assert dict(outcome.points)["victory points"] == 33


TWELVE = (
    "A/1/16",
    "B/1/16",
    "C/1/16",
    "A/1/18",
    "B/1/18",
    "C/1/18",
    "A/1/26",
    "B/1/26",
    "C/1/26",
    "E/2/16",
    "F/2/16",
    "G/2/16",
)


def twelve_implemented() -> TcsState:
    """One platoon of each of twelve companies on the strand (no objective near), each
    company's new op sheet implemented; I/3/16 has a sheet ready to implement."""
    pieces = {f"{f}.1": f"A{16 + k % 6}.{12 + k // 6}" for k, f in enumerate(TWELVE)}
    pieces["I/3/16.1"] = "A22.12"
    state = staged(pieces, scenario=RELEASE)
    play_until(state, "op sheets", "1100 6 June")
    with state.edit():
        state.us_implemented = set(TWELVE)
        state.us_sheets = {"I/3/16": state.scenario.series.implement_at}
    return state


def test_twelve_op_sheets_at_any_one_time() -> None:
    """TCS Omaha 2.3a: twelve implemented sheets at one time; a sheet whose company has
    no unit left on the map is over (series 6.11, reviewed first in the Command Phase,
    [tab401]) and its place goes to the next sheet ready."""
    state = twelve_implemented()
    state.apply(EndSheets())
    play_until(state, "op sheets", "1120 6 June")
    assert state.us_sheets == {"I/3/16": 6 + 3} and state.us_implemented == set(TWELVE)
    with state.edit():
        state.where[state.unit_index("E/2/16.1")] = LOST
    state.apply(EndSheets())
    play_until(state, "op sheets", "1140 6 June")
    assert state.us_implemented == (set(TWELVE) - {"E/2/16"}) | {"I/3/16"}
    assert [e["result"] for e in events(state, "tcs.sheet.us")] == [
        "over: no unit of it is left on the map",
        "implemented",
    ]


def test_an_op_sheet_is_complete_at_its_objective() -> None:
    """Series 6.11 as reconstructed for 2.3a: a company whose units on the map all stand
    at or next to an objective hex (here the E-1 exit) has accomplished its sheet: the
    sheet is over, the company is unassigned and may start a new one."""
    state = twelve_implemented()
    with state.edit():
        state.where[state.unit_index("E/2/16.1")] = state.cell("A14.09")
        state.where[state.unit_index("F/2/16.1")] = state.cell("A14.10")  # next to it
    state.apply(EndSheets())
    play_until(state, "op sheets", "1120 6 June")
    assert state.us_implemented == set(TWELVE) - {"E/2/16", "F/2/16"} | {"I/3/16"}
    assert OpSheet("E/2/16") in state.legal_actions()
    assert events(state, "tcs.sheet.us")[0]["result"] == "complete: its units stand at an objective"
