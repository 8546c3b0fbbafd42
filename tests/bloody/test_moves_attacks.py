"""Moving into German squares (8.1, 8.2) and attacks (8.4), with pinned dice."""

from __future__ import annotations

import math

import pytest
from bloody_helpers import act, attack, cell, legal_texts, staged, texts, unit

import omaha
from omaha.bloody import rules
from omaha.bloody.core import DEAD, LOST
from omaha.bloody.procedures import turns


# ------------------------------------------------------------------ 8.1.a numerical tokens
def test_8_1_a_numerical_tokens_disrupt_the_mover_who_stays_out() -> None:
    st = staged(units={"A/116": "B2"}, tokens={"S3": [("sp8", False)]}, clear_tokens=True)
    act(st, "move A/116 to S3")
    a = unit(st, "A/116")
    assert st.where[a] == cell(st, "B2") and st.disrupted[a]
    assert st.tokens[cell(st, "S3")] == [("sp8", True)]
    assert st.init_token == 4
    legal = legal_texts(st)
    assert "attack S3 from B2" in legal and "move A/116 to S3" not in legal
    with pytest.raises(omaha.IllegalAction, match="attack them"):
        act(st, "move A/116 to S3")


def test_8_1_a_reading_a_disrupted_mover_stays_disrupted_and_is_not_eliminated() -> None:
    st = staged(units={"A/116": "B2"}, disrupted=["A/116"], tokens={"S3": [("e0", False)]})
    act(st, "move A/116 to S3")
    a = unit(st, "A/116")
    assert st.where[a] == cell(st, "B2") and st.disrupted[a]


def test_moving_into_a_cleared_square_just_moves() -> None:
    st = staged(units={"E/16": "B7"}, tokens={"H8": []})
    act(st, "move E/16 to H8")
    assert st.where[unit(st, "E/16")] == cell(st, "H8") and st.init_token == 4


# ------------------------------------------------------------------ 8.1.b-e special tokens
def test_8_1_b_random_event_token_uses_the_terrain_table_not_a_card() -> None:
    """Reading: 5.3.a's 'drawing a card' gives way to 8.1.b's d6 on the terrain's table."""
    st = staged(units={"E/16": "B7"}, tokens={"H8": [("event", False)]}, hand=["c01"], dice=[6])
    deck_before = len(st.deck)
    act(st, "move E/16 to H8")
    assert st.where[unit(st, "E/16")] == cell(st, "H8")
    assert st.tokens[cell(st, "H8")] == []
    assert st.enc_removed == 1
    assert st.hand == ["c01"] and len(st.deck) == deck_before
    ev = next(e for e in st.log if e.kind == "bloody.event")
    assert ev.details["table"] == "hedgerow" and ev.dice == (6,)
    assert st.init_rating == 6  # hedgerow 6: Junior leaders take charge, Initiative +1


@pytest.mark.parametrize(
    ("was_disrupted", "roll", "after"),
    [(False, 2, "disrupted"), (True, 3, "eliminated"), (False, 4, "fine"), (True, 4, "disrupted")],
)
def test_8_1_c_mines(was_disrupted: bool, roll: int, after: str) -> None:
    st = staged(
        units={"E/16": "B7"},
        disrupted=["E/16"] if was_disrupted else [],
        tokens={"H8": [("mines", False)]},
        dice=[roll],
    )
    act(st, "move E/16 to H8")
    u = unit(st, "E/16")
    if after == "eliminated":
        assert st.where[u] == DEAD
    else:
        assert st.where[u] == cell(st, "H8")
        assert st.disrupted[u] == (after == "disrupted")
    # only engineers clear Mines: the token stays, and the square is not cleared
    assert st.tokens[cell(st, "H8")] == [("mines", True)]
    assert not st.cleared(cell(st, "H8"))


def test_8_1_d_sniper_moves_the_token_not_the_rating_and_scores() -> None:
    """Reading: the Sniper lowers this turn's Initiative token (8.1.d); the rating is untouched."""
    st = staged(units={"E/16": "B7"}, tokens={"H8": [("sniper", False)]}, init=5, dice=[0, 4])
    act(st, "move E/16 to H8")
    assert st.init_token == 3 and st.init_rating == 5
    assert st.where[unit(st, "E/16")] == cell(st, "H8")
    # Reading: a removed Sniper is an Encounter token cleared from the map: 1 VP
    assert st.score().encounters == 1
    with st.edit():
        turns.draw_phase(st)
    assert st.init_token == st.init_rating == 6


def test_8_1_d_a_sniper_can_end_the_activation_phase() -> None:
    st = staged(units={"E/16": "B7"}, tokens={"H8": [("sniper", False)]}, init=1, dice=[1, 0])
    act(st, "move E/16 to H8")
    assert st.phase != "Activation" or st.turn == 4


def test_8_1_e_stug_knocks_out_a_tank_or_disrupts() -> None:
    st = staged(units={"E/16": "B7"}, tokens={"H8": [("stug", False)]})
    with st.edit():
        st.tanks[0] = [cell(st, "B7"), unit(st, "E/16")]
    act(st, "move E/16 to H8")
    assert st.tanks[0][0] == LOST
    assert not st.disrupted[unit(st, "E/16")]
    assert st.score().encounters == 1
    st = staged(units={"E/16": "B7"}, tokens={"H8": [("stug", False)]})
    act(st, "move E/16 to H8")
    assert st.disrupted[unit(st, "E/16")] and st.where[unit(st, "E/16")] == cell(st, "H8")


# ------------------------------------------------------------------ 8.2 several tokens
def test_8_2_non_numerical_tokens_first_then_numerical() -> None:
    st = staged(units={"G/116": "B3"}, tokens={"S4": [("sp5", False), ("sniper", False)]}, init=5)
    start = len(st.log)
    act(st, "move G/116 to S4")
    log = texts(st, start)
    sniper = next(i for i, t in enumerate(log) if "Sniper removed" in t)
    blocked = next(i for i, t in enumerate(log) if "finds numerical tokens" in t)
    assert sniper < blocked
    assert st.init_token == 3 and st.where[unit(st, "G/116")] == cell(st, "B3")
    assert st.tokens[cell(st, "S4")] == [("sp5", True)]


def test_8_2_reading_mines_under_numerical_tokens_are_found_not_crossed() -> None:
    st = staged(units={"G/116": "B3"}, tokens={"S4": [("sp5", False), ("mines", False)]})
    act(st, "move G/116 to S4")  # no die is rolled: the scripted dice are empty
    assert st.tokens[cell(st, "S4")] == [("sp5", True), ("mines", True)]
    assert st.disrupted[unit(st, "G/116")]


def test_8_2_numerical_tokens_are_added_and_removed_together() -> None:
    st = staged(
        units={"G/116": "B3", "5Rng": "B3"},
        tokens={"S4": [("sp5", True), ("e3", True)]},
        dice=[1],
    )
    attack(st, "S4", "B3")
    ev = next(e for e in st.log if e.kind == "bloody.attack")
    assert ev.details["defence"] == 8
    assert st.tokens[cell(st, "S4")] == []
    assert (st.sp_removed, st.enc_removed) == (1, 1)


# ------------------------------------------------------------------ 8.4 attacks
def test_8_4_d_reading_thresholds() -> None:
    assert rules.attack_result(7, 8) == rules.FAILURE
    assert rules.attack_result(8, 8) == rules.SUCCESS_DISRUPTED
    assert rules.attack_result(15, 8) == rules.SUCCESS_DISRUPTED
    assert rules.attack_result(16, 8) == rules.SUCCESS
    assert rules.attack_result(1, 0) == rules.SUCCESS


def test_8_4_failure_disrupts_or_eliminates_and_nobody_moves() -> None:
    st = staged(
        units={"A/116": "B2", "B/116": "B2"},
        disrupted=["B/116"],
        tokens={"S3": [("sp12", True)]},
        dice=[1],
    )
    attack(st, "S3", "B2")  # 4 + 2 + d6 1 = 7 < 12
    assert st.disrupted[unit(st, "A/116")] and st.where[unit(st, "A/116")] == cell(st, "B2")
    assert st.where[unit(st, "B/116")] == DEAD
    assert st.tokens[cell(st, "S3")] == [("sp12", True)]
    assert st.init_token == 4


def test_8_4_success_disrupted_removes_tokens_advances_and_disrupts() -> None:
    st = staged(units={"A/116": "B2", "B/116": "B2"}, tokens={"S3": [("sp8", True)]}, dice=[1])
    vp = st.score().total
    attack(st, "S3", "B2")  # 8 + 1 = 9: at least 8, under 16
    for uid in ("A/116", "B/116"):
        assert st.where[unit(st, uid)] == cell(st, "S3") and st.disrupted[unit(st, uid)]
    assert st.exits_cleared() == 1
    assert st.metrics()["first_exit_turn"] == 3 and st.metrics()["second_exit_turn"] == math.inf
    # turn 3 begins at 09:30 on the solo game's clock (90-minute turns from 06:30)
    assert st.metrics()["first_exit_hours"] == 3.0
    assert st.score().total == vp + 2 + 1  # Strongpoint token 2 VP, the D1 exit +1 (2.3.b, d)


def test_8_4_success_advances_without_disruption() -> None:
    st = staged(units={"5Rng": "B2", "C/2Rng": "B2"}, tokens={"S3": [("sp6", True)]}, dice=[1])
    attack(st, "S3", "B2")  # 15 + 1 = 16 >= 12
    for uid in ("5Rng", "C/2Rng"):
        assert st.where[unit(st, uid)] == cell(st, "S3") and not st.disrupted[unit(st, uid)]


def test_8_4_a_more_squares_for_more_initiative_only_the_first_advances() -> None:
    st = staged(
        units={"G/116": "B3", "F/116": "S3", "E/116": "S5"},
        tokens={"S4": [("sp9", True)], "S3": [], "S5": []},
        init=5,
        dice=[1],
    )
    act(st, "attack S4 from B3")
    assert "add S3" in legal_texts(st) and "add S5" in legal_texts(st)
    act(st, "add S3")
    act(st, "add S5")
    assert st.init_token == 2
    assert st.step == "activation"  # nothing left to add: the attack resolved itself
    # 12 + 1 = 13 >= 9: Success/Disrupted
    ev = next(e for e in st.log if e.kind == "bloody.attack")
    assert ev.details["strength"] == 12
    assert st.where[unit(st, "G/116")] == cell(st, "S4")
    assert st.where[unit(st, "F/116")] == cell(st, "S3")
    assert all(st.disrupted[unit(st, u)] for u in ("G/116", "F/116", "E/116"))


def test_8_4_b_tanks_add_strength() -> None:
    st = staged(units={"A/116": "B2"}, tokens={"S3": [("sp8", True)]}, dice=[1])
    with st.edit():
        st.tanks[0] = [cell(st, "B2"), unit(st, "A/116")]
    attack(st, "S3", "B2")  # 4 + 3 (tank) + 1 = 8
    ev = next(e for e in st.log if e.kind == "bloody.attack")
    assert ev.details["strength"] == 7 and ev.details["result"] == rules.SUCCESS_DISRUPTED


def test_8_4_a_reading_mixed_commands_take_minus_one() -> None:
    assert rules.mixed_commands([rules.TWENTY_NINTH_ID, rules.RANGERS])
    assert not rules.mixed_commands([rules.FIRST_ID, rules.FIRST_ID])
    st = staged(units={"A/116": "B2", "C/2Rng": "B2"}, tokens={"S3": [("sp10", True)]}, dice=[1])
    attack(st, "S3", "B2")  # 9 + 1 - 1 = 9 < 10: failure
    ev = next(e for e in st.log if e.kind == "bloody.attack")
    assert ev.details["total"] == 9 and ev.details["result"] == rules.FAILURE
    assert "-1 mixed commands" in ev.text


def test_8_4_d_reading_a_token_the_attack_cannot_remove_stops_the_advance() -> None:
    st = staged(
        units={"G/116": "B3", "5Rng": "B3"},
        tokens={"S4": [("sp5", True), ("mines", True)]},
        dice=[6],
    )
    attack(st, "S4", "B3")
    assert st.tokens[cell(st, "S4")] == [("mines", True)]
    assert st.where[unit(st, "G/116")] == cell(st, "B3")
    assert not st.cleared(cell(st, "S4"))
    assert any("no advance" in t for t in texts(st))


def test_attack_needs_a_revealed_numerical_token() -> None:
    st = staged(units={"A/116": "B2"}, tokens={"S3": [("sp8", False)]})
    assert not any(t.startswith("attack") for t in legal_texts(st))
    with pytest.raises(omaha.IllegalAction, match="no revealed numerical token"):
        act(st, "attack S3 from B2")
