"""Engineers (8.5) and tank tokens (8.3), with pinned dice."""

from __future__ import annotations

import pytest
from bloody_helpers import act, attack, cell, legal_texts, staged, unit

import omaha
from omaha.bloody import rules
from omaha.bloody.core import ASIDE


# ------------------------------------------------------------------ 8.5 engineers
def test_8_5_a_modifiers() -> None:
    assert rules.engineer_modifier(1, 1, False) == 1
    assert rules.engineer_modifier(3, 1, False) == 1
    assert rules.engineer_modifier(4, 1, False) == 0
    assert rules.engineer_modifier(5, 1, False) == 0
    assert rules.engineer_modifier(6, 1, False) == -1
    assert rules.engineer_modifier(4, 3, False) == -2
    assert rules.engineer_modifier(4, 1, True) == 1
    assert rules.engineer_modifier(2, 2, True) == 1


def test_8_5_a_gap_costs_one_initiative_and_the_assets() -> None:
    st = staged(turn=4, units={"E/16": "B7"}, init=5, eng=5, dice=[3])
    vp = st.score().total
    act(st, "engineers at B7 with 2")
    assert st.gap[cell(st, "B7")]
    assert (st.init_token, st.eng_token) == (4, 3)
    assert st.score().total == vp + 1  # 2.3.a
    assert "engineers at B7" not in " ".join(legal_texts(st))


def test_8_5_failure_leaves_the_obstacle() -> None:
    st = staged(turn=4, units={"E/16": "B7"}, dice=[4])
    act(st, "engineers at B7 with 1")  # 4 + 0 = 4: failure
    assert not st.gap[cell(st, "B7")]


def test_8_5_a_strongpoint_fire_counts_while_the_strongpoint_stands() -> None:
    # turn 2 at Dog Green (B2, arrow from S3): +1 turn, +1 fire, -1 second asset
    st = staged(turn=2, units={"A/116": "B2"}, dice=[2])
    act(st, "engineers at B2 with 2")
    ev = next(e for e in st.log if e.kind == "bloody.engineers")
    assert ev.details["total"] == 3 and st.gap[cell(st, "B2")]
    st = staged(turn=2, units={"A/116": "B2"}, tokens={"S3": []}, dice=[2])
    act(st, "engineers at B2 with 2")
    ev = next(e for e in st.log if e.kind == "bloody.engineers")
    assert ev.details["total"] == 2


def test_8_5_from_turn_6_minus_one() -> None:
    st = staged(turn=6, units={"E/16": "B7"}, dice=[4])
    act(st, "engineers at B7 with 1")
    assert st.gap[cell(st, "B7")]


def test_8_5_b_engineers_remove_a_found_mines_token() -> None:
    st = staged(turn=4, units={"E/16": "B7"}, tokens={"H8": [("mines", True)]}, dice=[1])
    act(st, "engineers at H8 with 1")
    assert st.tokens[cell(st, "H8")] == [] and st.cleared(cell(st, "H8"))
    assert st.enc_removed == 1


def test_8_5_reading_any_obstacle_or_found_mines_may_be_attempted() -> None:
    st = staged(turn=4, units={"E/16": "B7"}, tokens={"H8": [("mines", False)]}, eng=2)
    legal = legal_texts(st)
    assert "engineers at B1 with 1" in legal  # no unit needed there
    assert not any(t.startswith("engineers at H8") for t in legal)  # Mines not yet found
    with pytest.raises(omaha.IllegalAction, match="only 2 Engineer"):
        act(st, "engineers at B7 with 3")


# ------------------------------------------------------------------ 8.3 tanks
def test_8_3_reading_a_card_brings_a_tank_ashore_at_a_gap_with_a_unit() -> None:
    st = staged(units={"E/16": "B7", "F/16": "B6"}, gaps=["B7"], hand=["c09"])
    legal = legal_texts(st)
    assert "play c09 option 1 at B7" in legal and "play c09 option 1 at B6" not in legal
    act(st, "play c09 option 1 at B7")
    assert st.tanks[0] == [cell(st, "B7"), unit(st, "E/16")]
    assert "c09" in st.deck.discards


def test_8_3_reading_a_beach_random_event_brings_a_tank() -> None:
    st = staged(
        turn=4,
        units={"E/16": "B7"},
        gaps=["B7"],
        dice=[5],
        step="random_event",
        phase="Random Event",
    )
    act(st, "random event B7 next to B6")
    assert st.tanks[0] == [cell(st, "B7"), unit(st, "E/16")]


def test_8_3_tanks_move_along_cleared_squares_and_leave_the_beach_only_by_an_exit() -> None:
    st = staged(
        units={"E/16": "B7", "A/116": "B2", "F/16": "H8", "G/16": "S6"},
        tokens={"H8": [], "S6": []},
    )
    with st.edit():
        st.tanks[0] = [cell(st, "B7"), unit(st, "E/16")]
    legal = legal_texts(st)
    assert "tank tank1 to A/116" in legal  # along the beach
    assert "tank tank1 to G/16" in legal  # through the cleared E1 exit (S6)
    assert "tank tank1 to F/16" not in legal  # H8 is no exit
    act(st, "tank tank1 to G/16")
    assert st.tanks[0] == [cell(st, "S6"), unit(st, "G/16")] and st.init_token == 4
    # the exit must be cleared
    st = staged(units={"E/16": "B7", "G/16": "B5"}, tokens={"S6": [("sp4", True)]})
    with st.edit():
        st.tanks[0] = [cell(st, "B7"), unit(st, "E/16")]
    assert "tank tank1 to G/16" in legal_texts(st)
    with st.edit():
        st.where[unit(st, "G/16")] = cell(st, "H17")
    assert "tank tank1 to G/16" not in legal_texts(st)


def test_8_3_reading_a_tank_follows_its_unit_only_where_a_tank_may_go() -> None:
    st = staged(units={"E/16": "B5", "F/16": "B5"}, tokens={"S6": [], "H8": []})
    with st.edit():
        st.tanks[0] = [cell(st, "B5"), unit(st, "E/16")]
    act(st, "move E/16 to S6")  # a cleared exit: the tank follows
    assert st.tanks[0] == [cell(st, "S6"), unit(st, "E/16")]
    st = staged(units={"E/16": "B7", "F/16": "B7"}, tokens={"H8": []})
    with st.edit():
        st.tanks[0] = [cell(st, "B7"), unit(st, "E/16")]
    act(st, "move E/16 to H8")  # up the bluff: the tank stays with F/16
    assert st.tanks[0] == [cell(st, "B7"), unit(st, "F/16")]
    act(st, "move F/16 to H8")  # nobody left: it waits on the beach...
    assert st.tanks[0] == [cell(st, "B7"), -1]
    act(st, "move F/16 to B7")  # ...and joins the next unit to arrive
    assert st.tanks[0] == [cell(st, "B7"), unit(st, "F/16")]


def test_8_3_a_tank_advances_after_a_successful_attack_on_an_exit() -> None:
    st = staged(units={"5Rng": "B5"}, tokens={"S6": [("sp4", True)]}, dice=[6])
    with st.edit():
        st.tanks[0] = [cell(st, "B5"), unit(st, "5Rng")]
    attack(st, "S6", "B5")
    assert st.tanks[0] == [cell(st, "S6"), unit(st, "5Rng")]


def test_tanks_start_set_aside() -> None:
    st = staged()
    assert all(w == ASIDE for w, _ in st.tanks)
    assert not any(t.startswith("tank ") for t in legal_texts(st))
