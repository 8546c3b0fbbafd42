"""Player cards (9.0) and Random Events (5.2, 8.1.b), with pinned dice."""

from __future__ import annotations

import pytest
from bloody_helpers import act, cell, legal_texts, staged, texts, unit

import omaha
from omaha.bloody.core import DEAD
from omaha.bloody.procedures import cards


# ------------------------------------------------------------------ 9.2 windows and discards
def test_9_2_options_by_turn_window_and_discard() -> None:
    # c02: Turn 2-5 Initiative token +2 | Turn 6+ Initiative rating +1
    st = staged(turn=3, units={"A/116": "B2"}, hand=["c02"], init=3)
    legal = legal_texts(st)
    assert "play c02 option 1" in legal and "play c02 option 2" not in legal
    act(st, "play c02 option 1")
    assert st.init_token == 5 and st.init_rating == 3
    assert "c02" not in st.hand and "c02" in st.deck.discards
    st = staged(turn=6, units={"A/116": "B2"}, hand=["c02"], init=6)
    legal = legal_texts(st)
    assert "play c02 option 2" in legal and "play c02 option 1" not in legal
    act(st, "play c02 option 2")
    # Reading: a rating change moves the marker; this turn's token stays (7.4, 7.5)
    assert (st.init_rating, st.init_token) == (7, 6)


def test_9_2_one_option_per_card() -> None:
    st = staged(turn=4, units={"A/116": "B2"}, hand=["c15"], tokens={"S3": [("sp3", True)]})
    act(st, "play c15 option 2 at S3")
    assert "c15" not in st.hand
    assert not any(t.startswith("play c15") for t in legal_texts(st))
    with pytest.raises(omaha.IllegalAction, match="not in your hand"):
        act(st, "play c15 option 1 at S3")


def test_cards_cost_no_initiative_and_can_be_played_at_zero() -> None:
    st = staged(turn=3, units={"A/116": "B2"}, hand=["c17"], init=0)
    assert legal_texts(st) == {"end activation", "play c17 option 2"}
    act(st, "play c17 option 2")
    assert st.init_token == 1


@pytest.mark.parametrize(
    ("card", "option", "target", "check"),
    [
        ("c01", 1, None, lambda st: st.init_rating == 6),
        ("c06", 1, None, lambda st: st.eng_token == 7),
        ("c08", 1, None, lambda st: st.eng_rating == 6),
        ("c07", 1, None, lambda st: st.eng_token == 6),
        ("c16", 1, None, lambda st: st.attack_bonus == 3),
        ("c03", 1, "B2", lambda st: not st.disrupted[unit(st, "A/116")]),
        ("c04", 2, "S3", lambda st: st.tokens[cell(st, "S3")] == [] and st.sp_removed == 1),
        ("c14", 2, "S4", lambda st: all(r for _, r in st.tokens[cell(st, "S4")])),
        ("c14", 1, "H8", lambda st: st.tokens[cell(st, "H8")] == [] and st.enc_removed == 1),
        ("c11", 1, "B5", lambda st: st.gap[cell(st, "B5")]),
    ],
)
def test_9_1_card_effects(card: str, option: int, target: str | None, check: object) -> None:
    st = staged(
        turn=4,
        units={"A/116": "B2", "E/16": "B7", "G/116": "B3"},
        disrupted=["A/116"],
        hand=[card],
        tokens={"S3": [("sp4", True)], "S4": [("sp6", False)], "H8": [("mines", True)]},
    )
    where = f" at {target}" if target else ""
    act(st, f"play {card} option {option}{where}")
    assert check(st)  # type: ignore[operator]


def test_naval_fire_takes_the_strongest_token_within_its_reach() -> None:
    st = staged(
        turn=4,
        units={"G/116": "B3"},
        hand=["c05"],
        tokens={"S4": [("sp8", True), ("e3", True)], "S3": [("sp7", True)]},
    )
    legal = legal_texts(st)
    assert "play c05 option 1 at S4" in legal  # the Encounter 3 is within 6
    assert "play c05 option 1 at S3" not in legal  # not next to a landed unit
    act(st, "play c05 option 1 at S4")
    assert st.tokens[cell(st, "S4")] == [("sp8", True)]


def test_landing_options_wait_for_the_drift_phase() -> None:
    st = staged(turn=2, units={"A/116": "B2"}, hand=["c12"])
    assert not any(t.startswith("play c12") for t in legal_texts(st))
    with st.edit():
        st.where[unit(st, "B/116")] = cell(st, "C11")
        st.begin_drift_phase()
    assert st.step == "landing_cards"
    assert [str(a) for a in cards.playable(st, "landing")] == ["play c12 option 1"]


# ------------------------------------------------------------------ 5.2 the Random Event phase
def rep(turn: int, units: dict[str, str], dice: list[int], **kw: object):  # type: ignore[no-untyped-def]
    return staged(
        turn=turn, units=units, dice=dice, step="random_event", phase="Random Event", **kw
    )  # type: ignore[arg-type]


def test_5_2_choose_a_us_square_next_to_a_german_token() -> None:
    st = rep(
        3, {"E/16": "B7", "A/116": "C11"}, [], clear_tokens=True, tokens={"H8": [("e1", False)]}
    )
    pairs = {(st.board.labels[u], st.board.labels[g]) for u, g in st.event_pairs()}
    assert pairs == {("B7", "B6"), ("B7", "B8"), ("B7", "H8")}
    assert legal_texts(st) == {f"random event {u} next to {g}" for u, g in pairs}


def test_5_2_no_eligible_square_skips_the_phase() -> None:
    st = staged(turn=3, units={"E/16": "H28"}, clear_tokens=True, dice=[])
    with st.edit():
        st.begin_random_event_phase()
    assert st.step == "activation"
    assert any("no Random Event" in t for t in texts(st))


@pytest.mark.parametrize(
    ("terrain_square", "roll", "check"),
    [
        ("B7", 1, lambda st: st.where[unit(st, "E/16")] == DEAD and st.disrupted[unit(st, "F/16")]),
        ("B7", 2, lambda st: st.disrupted[unit(st, "F/16")]),
        ("B7", 4, lambda st: not st.disrupted[unit(st, "E/16")]),
        ("B7", 6, lambda st: st.gap[cell(st, "B6")]),
        ("H8", 2, lambda st: st.init_token == 4 and st.init_rating == 5),
        ("H8", 6, lambda st: st.init_rating == 6),
    ],
)
def test_5_2_the_table_of_the_us_square_terrain(
    terrain_square: str, roll: int, check: object
) -> None:
    german = "B6" if terrain_square == "B7" else "T1"
    st = rep(
        4,
        {"E/16": terrain_square, "F/16": terrain_square},
        [roll],
        disrupted=["E/16"],
        tokens={"H8": [], "T1": [("e2", False)]},
    )
    act(st, f"random event {terrain_square} next to {german}")
    assert check(st)  # type: ignore[operator]
    assert st.phase == "Activation"


def test_5_2_remove_weakest_is_capped() -> None:
    st = rep(
        4, {"G/16": "S7"}, [6], tokens={"S7": [], "H17": [("e4", False)], "S6": [("sp6", True)]}
    )
    act(st, "random event S7 next to H17")  # strongpoint 6: a garrison surrenders (4 or less)
    assert st.tokens[cell(st, "H17")] == []
    st = rep(4, {"G/16": "S7"}, [6], tokens={"S7": [], "S6": [("sp6", True)]})
    act(st, "random event S7 next to S6")
    assert st.tokens[cell(st, "S6")] == [("sp6", True)]  # 6 is more than 4


def test_6_4_first_wave_row_drift_event() -> None:
    st = rep(2, {"B/116": "C2"}, [3])
    # the only pair resolves itself: channel 3 drifts the craft one square east
    act(st, "random event C2 next to B2")
    assert st.where[unit(st, "B/116")] == cell(st, "C3")


def test_reading_obstacles_count_as_german_tokens_for_5_2() -> None:
    st = rep(3, {"E/16": "B7"}, [], clear_tokens=True)
    assert st.event_pairs()  # only obstacles around: still a Random Event
    with st.edit():
        st.gap = {b: True for b in st.scen.beaches}
    assert st.event_pairs() == []
