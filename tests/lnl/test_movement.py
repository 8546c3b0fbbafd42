"""Movement (LnL Omaha: Movement, TEC, Stacking, Special Units) and placement limits."""

from __future__ import annotations

import pytest

import omaha

from .helpers import legal, play, position, unit


def steps(st: omaha.State) -> list[str]:
    return sorted(a.split()[1] for a in legal(st) if a.startswith("step "))  # type: ignore[arg-type]


def last_move(st: omaha.State) -> dict[str, object]:
    return next(dict(e.details) for e in reversed(st.log) if e.kind == "lnl.move")


def test_up_the_vierville_draw_by_road() -> None:
    st = position({"1/B/116": "K7"}, phase="move")
    play(st, "move 1/B/116", "step J6")  # off the beach onto the draw road: open, 1
    assert last_move(st)["cost"] == 1
    play(st, "step I6", "step H5")  # road to road, 1 each
    assert last_move(st)["left"] == 0
    assert steps(st) == []


def test_beach_costs_two_but_one_with_or_over_engineers() -> None:
    st = position({"1/B/116": "L5", "2/B/116": "L6", "EAT-1": "L6", "EAT-2": "K8"}, phase="move")
    play(st, "move 1/B/116", "step K5")
    assert last_move(st)["cost"] == 2
    play(st, "stop", "move 2/B/116", "with EAT-1", "step K6")
    assert last_move(st)["cost"] == 1  # moving with engineers
    st2 = position({"1/B/116": "K9", "EAT-2": "K8"}, phase="move")
    play(st2, "move 1/B/116", "step K8")
    assert last_move(st2)["cost"] == 1  # moving over engineers in a beach hex


def test_only_rangers_cross_a_crest_and_pay_one_more() -> None:
    st = position({"1/B/116": "K8", "A/5Rgr": "K9"}, phase="move")
    play(st, "move 1/B/116")
    assert "J8" not in steps(st) and "J7" not in steps(st)
    play(st, "stop", "move A/5Rgr", "step J8")
    assert last_move(st)["cost"] == 2


def test_terrain_costs_and_impassable_sea() -> None:
    st = position({"1/F/116": "E7", "1/B/116": "L5"}, phase="move")
    play(st, "move 1/F/116", "step E8")
    assert last_move(st)["cost"] == 3  # woods
    play(st, "stop", "move 1/B/116")
    assert not {"M4", "M5"} & set(steps(st))  # ocean
    play(st, "step L4")
    assert last_move(st)["cost"] == 2  # Reading: part ocean/beach costs what the beach does


def test_town_road_and_farmland() -> None:
    st = position({"1/B/116": "F6", "1/A/743": "E7"}, phase="move")
    play(st, "move 1/B/116", "step F7")  # town, but road to road
    assert last_move(st)["cost"] == 1
    play(st, "stop", "move 1/A/743", "step D7")
    assert last_move(st)["cost"] == 2  # farmland


def test_bonus_scenario_farmland_costs_infantry_one_and_armor_two() -> None:
    st = position({"1/B/116": "E7", "2/A/743": "E5"}, phase="move", scenario="vierville")
    play(st, "move 1/B/116", "step D7")
    assert last_move(st)["cost"] == 1
    play(st, "stop", "move 2/A/743", "step E4")
    assert last_move(st)["cost"] == 1  # open
    play(st, "step E3")
    assert last_move(st)["cost"] == 2


def test_no_entering_enemy_hexes_and_two_counters_a_hex() -> None:
    st = position(
        {"1/B/116": "H3", "2/B/116": "H4", "3/B/116": "H4", "EAT-1": "H4", "1/1/916": "G3"},
        phase="move",
    )
    play(st, "move 1/B/116")
    assert "G3" not in steps(st)  # enemy
    assert "H4" not in steps(st)  # two counters there already (the engineer does not count)
    st2 = position({"EAT-2": "H3", "2/B/116": "H4", "3/B/116": "H4"}, phase="move")
    play(st2, "move EAT-2")
    assert "H4" in steps(st2)  # engineers do not count against stacking


def test_units_that_began_together_move_together_to_a_hex() -> None:
    st = position({"1/B/116": "H3", "2/B/116": "H3"}, phase="move")
    play(st, "move 1/B/116", "step H4", "stop", "move 2/B/116")
    assert "H4" not in steps(st)  # Reading: a separate mover may not enter it
    st2 = position({"1/B/116": "H3", "2/B/116": "H3"}, phase="move")
    play(st2, "move 1/B/116", "with 2/B/116", "step G3", "drop 2/B/116", "step G4")
    assert st2.label(st2.where[unit(st2, "2/B/116")]) == "G3"
    assert st2.label(st2.where[unit(st2, "1/B/116")]) == "G4"


def test_disrupted_and_fired_units_do_not_move() -> None:
    st = position({"1/B/116": "H3", "2/B/116": "H2", "3/B/116": "H4"}, phase="move")
    with st.edit():
        st.dis[unit(st, "1/B/116")] = True
        st.fired[unit(st, "2/B/116")] = True
    assert [a for a in legal(st) if a.startswith("move")] == ["move 3/B/116"]
    with pytest.raises(omaha.IllegalAction, match="disrupted"):
        play(st, "move 1/B/116")


def test_landing_turn_limits() -> None:
    """Non-armor may neither move nor fire on their landing turn; armor may fire only."""
    st = position({"1/B/116": "L7", "1/B/743": "L8", "1/1/916": "K9"}, phase="fire", turn=1)
    with st.edit():
        for uid in ("1/B/116", "1/B/743"):
            st.placed[unit(st, uid)] = 1
    assert [a for a in legal(st) if a.startswith("fire")] == ["fire with 1/B/743"]
    play(st, "end phase")
    assert legal(st) == ["end phase"]
    with st.edit():
        st.turn = 2
    assert {"move 1/B/116", "move 1/B/743"} <= set(legal(st))


def test_the_whole_group_pays_each_step() -> None:
    st = position({"1/B/743": "K7", "1/B/116": "K7"}, phase="move")
    play(st, "move 1/B/743", "with 1/B/116", "step J6", "step I6", "step H5")
    assert steps(st) == []  # the platoon's 3 MF are spent; the tank must drop it to go on
    play(st, "drop 1/B/116")
    assert "G6" in steps(st)
