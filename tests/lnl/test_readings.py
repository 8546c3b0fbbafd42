"""Readings of points the rules text leaves open, each pinned by a test."""

from __future__ import annotations

from pathlib import Path

from omaha.lnl.scenario import SCENARIOS
from omaha.lnl.state import LnlState

from .helpers import GAME, legal, play, position, unit


def test_setup_is_one_unit_a_waterline_hex_engineers_exempt() -> None:
    st = GAME.new_state("beach", seed=0)
    assert isinstance(st, LnlState)
    st.apply(GAME.bots["solitaire"](seed=0).choose(st))  # the German set-up
    play(st, "place 1/B/116 at L5")
    assert "place 2/B/116 at L5" not in legal(st)
    assert {a.split(" at ")[1] for a in legal(st)} == {f"L{c}" for c in range(1, 19)} - {"L5"}
    while st.uid(st.place_queue[0]) != "EAT-1":
        first = legal(st)[0]
        play(st, first)
    assert "place EAT-1 at L5" in legal(st)


def test_units_landed_this_turn_do_not_assault() -> None:
    """Reading: landing turn units (armor too) do not close assault."""
    st = position({"1/A/743": "L9", "2/A/743": "L9", "75mm-Gun": "K9"}, phase="assault", turn=1)
    with st.edit():
        for uid in ("1/A/743", "2/A/743"):
            st.placed[unit(st, uid)] = 1
    assert legal(st) == ["end phase"]


def test_a_reinforcement_entering_by_road_pays_the_road() -> None:
    st = position({"1/B/116": "K9"}, side="German", phase="move", turn=5)
    with st.edit():
        st.due = {unit(st, "1/916AT"): 5}
    play(st, "enter 1/916AT at A6")
    assert st.group is not None and st.group.spent[unit(st, "1/916AT")] == 1


def test_equal_points_in_the_bonus_scenario_are_a_draw(tmp_path: Path) -> None:
    """Reading: no tie rule is given; with 9 points a tie cannot happen, equal is a draw."""
    text = (SCENARIOS / "vierville.toml").read_text().replace("points = 3", "points = 2")
    p = tmp_path / "even.toml"
    p.write_text(text)
    st = position(
        {"1/B/116": "F7", "1/1/916": "A11"},
        scenario=str(p),
        side="German",
        phase="assault",
        turn=10,
    )
    for label in ("F6", "F8"):
        st.control[st.cell_of(label)] = "German"
    play(st, "end phase")
    out = st.outcome()
    assert out is not None and out.winner is None and out.level == "draw"


def test_the_engineer_platoon_is_an_engineer() -> None:
    scen = GAME.load_scenario("vierville")
    eng = scen.unit("Eng-Plt")  # type: ignore[attr-defined]
    assert eng.type.engineer and eng.type.support and eng.side == "US"


def test_a_gun_may_not_move_even_when_allowed() -> None:
    st = position({"88mm-Gun": "H5", "1/B/116": "C3"}, side="German", phase="move")
    assert "move 88mm-Gun" not in legal(st)


def test_landed_units_do_not_opportunity_fire_in_the_german_turn() -> None:
    for landed, expected in ((1, False), (0, True)):
        st = position({"1/B/116": "L8", "1/1/916": "K10"}, side="German", phase="move", turn=1)
        with st.edit():
            st.placed[unit(st, "1/B/116")] = landed
        play(st, "move 1/1/916", "step K9")  # next to the platoon in the water
        assert (st.opp is not None) == expected


def test_the_german_set_up_leaves_out_the_916th_at_and_2_916() -> None:
    st = GAME.new_state("beach", seed=0)
    assert isinstance(st, LnlState)
    german = [st.uid(u) for u in st.place_queue if st.u(u).side == "German"]
    assert "1/916AT" not in german and "1/2/916" not in german and "88mm-Gun" in german
    assert german == [st.uid(u) for u in st.place_queue][: len(german)]  # Germans first
    hexes = {a.split(" at ")[1] for a in legal(st)}
    assert "M5" not in hexes and "L5" in hexes and "A1" in hexes  # any non-ocean hex
