"""The landing phase with pinned fire cards: the Amphibious Landing Table in play."""

from __future__ import annotations

from omaha.landing_table.actions import Land
from omaha.landing_table.procedures import landing, turn
from omaha.landing_table.state import LandingTableState

from .helpers import fresh, legal, place, quiet, schedule, stack_cards, texts


def landing_board(number: int = 1) -> LandingTableState:
    return quiet(fresh(), turn=number, phase="landing")


def test_dog_green_infantry_result_d_drifts_one_box_west() -> None:
    s = landing_board()
    schedule(s, "A/116")  # planned L03, Dog Green
    stack_cards(s, ["C04"])  # result D
    landing.land_unit(s, "A/116")
    assert s.decision == {"kind": "land", "unit": "A/116", "box": 2, "card": "C04"}
    assert legal(s) == ["land A/116 at K3", "land A/116 at K4"]  # low tide row, box L02
    assert "result D on the 1-3 infantry_dg_ch row: drifts 1 box west (L03 -> L02)" in texts(s)[-1]
    landing.land_at(s, "A/116", s.scen.board.cell("K4"))
    assert s.us["A/116"].status == "ashore" and s.us["A/116"].landed_box == 2
    assert s.stats["landed"] == 1 and s.stats["landed_off_target"] == 1


def test_infantry_elsewhere_result_d_lands_where_planned() -> None:
    s = landing_board()
    schedule(s, "E/16")  # L10, Easy Red
    stack_cards(s, ["C04"])
    landing.land_unit(s, "E/16")
    assert s.decision is not None and s.decision["box"] == 10
    landing.land_at(s, "E/16", s.scen.board.cell("K19"))
    assert s.stats["landed_off_target"] == 0


def test_reading_drift_past_the_east_end_lands_a_turn_late_in_the_last_box() -> None:
    s = landing_board()
    schedule(s, "I/16")  # L14
    stack_cards(s, ["C03"])  # result C: drift 9 east
    landing.land_unit(s, "I/16")
    st = s.us["I/16"]
    assert s.decision is None
    assert (st.status, st.turn, st.box, st.no_check) == ("scheduled", 2, 16, True)
    assert "drifts past the east end: its craft comes back to L16 next turn" in texts(s)[-1]
    with s.edit():
        s.turn = 2
    drawn = s.dice.count
    landing.land_unit(s, "I/16")
    assert s.dice.count == drawn  # no new card: no hazard check
    assert s.decision == {"kind": "land", "unit": "I/16", "box": 16, "card": None}


def test_tank_turn_1_results() -> None:
    s = landing_board()
    for uid in ("B/741", "C/741", "B/743", "C/743"):  # DD companies
        schedule(s, uid)
    stack_cards(s, ["C01", "C02", "C03", "C04"])  # A, B, C, D
    landing.land_unit(s, "B/741")  # A: delayed to the turn 2 space
    assert (s.us["B/741"].status, s.us["B/741"].turn) == ("scheduled", 2)
    landing.land_unit(s, "C/741")  # B: eliminated
    assert s.us["C/741"].status == "eliminated"
    landing.land_unit(s, "B/743")  # C: loses a step
    assert s.us["B/743"].steps == 1 and s.decision is not None
    landing.land_at(s, "B/743", s.land_options(4)[0])
    landing.land_unit(s, "C/743")  # D: loses a step and drifts 2 east
    assert s.us["C/743"].steps == 1 and s.decision is not None and s.decision["box"] == 8
    landing.land_at(s, "C/743", s.land_options(8)[0])
    # four DD companies launched (8 steps), two steps came ashore so far
    assert s.stats["dd_launched"] == 8 and s.stats["dd_ashore"] == 2
    assert s.metrics()["dd_tanks_ashore"] == 0.25


def test_delayed_tank_checks_again_on_the_turns_2_3_row() -> None:
    s = landing_board(2)
    schedule(s, "B/741", turn=2)
    with s.edit():
        s.us["B/741"].committed = True  # it was launched on turn 1
    stack_cards(s, ["C02"])  # B on the turns 2-3 tank row: drift 1 east
    landing.land_unit(s, "B/741")
    assert s.decision is not None and s.decision["box"] == 13
    assert "1-3 tank_turn2_3 row: drifts 1 box east" in texts(s)[-1]


def test_dukw_artillery_losses_at_sea() -> None:
    s = landing_board(5)
    for uid in ("A/111", "B/111", "C/111"):
        schedule(s, uid)
    stack_cards(s, ["C01", "C02", "C03"])  # A eliminated, B lose 1, C lose 2
    landing.land_unit(s, "A/111")
    landing.land_unit(s, "B/111")
    landing.land_at(s, "B/111", s.land_options(7)[0])
    landing.land_unit(s, "C/111")
    assert [s.us[u].status for u in ("A/111", "B/111", "C/111")] == [
        "eliminated",
        "ashore",
        "eliminated",
    ]
    assert s.stats["dukw_loaded"] == 6 and s.stats["dukw_lost"] == 5
    assert round(s.metrics()["dukw_guns_lost"], 3) == round(5 / 6, 3)


def test_artillery_turn_15_on_delay_and_out_of_play() -> None:
    s = landing_board(16)
    schedule(s, "62AFA")
    schedule(s, "467AAA-E")
    stack_cards(s, ["C01", "C02"])  # A: 3 turns ahead; B: until 7 June
    landing.land_unit(s, "62AFA")
    assert (s.us["62AFA"].status, s.us["62AFA"].turn) == ("scheduled", 19)
    landing.land_unit(s, "467AAA-E")
    assert s.us["467AAA-E"].status == "removed"
    assert "delayed until 7 June (out of play)" in texts(s)[-1]


def test_infantry_after_turn_14_checks_mines_only() -> None:
    s = landing_board(15)  # high tide: row I, which carries obstacles
    schedule(s, "1/26")
    mine = "C01"  # result A with a mine
    stack_cards(s, [mine])
    landing.land_unit(s, "1/26")
    assert "no landing hazard (mine strikes only)" in texts(s)[-1]
    cell = s.land_options(s.decision["box"])[0]  # type: ignore[index]
    assert s.obstacle(cell)
    landing.land_at(s, "1/26", cell)
    assert s.us["1/26"].steps == 2 and s.stats["mines"] == 1
    assert "strikes a mine" in " ".join(texts(s))


def test_no_mine_strike_on_a_cleared_hex_or_without_the_mine_symbol() -> None:
    s = landing_board(15)
    schedule(s, "1/26")
    schedule(s, "2/26")
    stack_cards(s, ["C01", "C05"])  # C05: result A, no mine
    landing.land_unit(s, "1/26")
    cell = s.land_options(s.decision["box"])[0]  # type: ignore[index]
    with s.edit():
        s.cleared.add(cell)
    landing.land_at(s, "1/26", cell)
    landing.land_unit(s, "2/26")
    other = s.land_options(s.decision["box"])[1]  # type: ignore[index]
    landing.land_at(s, "2/26", other)
    assert s.us["1/26"].steps == 3 and s.us["2/26"].steps == 3 and s.stats["mines"] == 0


def test_no_mines_before_turn_7() -> None:
    s = landing_board(6)  # half tide: row J, obstacles
    schedule(s, "C/7")
    stack_cards(s, ["C04"])  # result D (no effect for DUKWs) ... no mine on C04 either
    landing.land_unit(s, "C/7")
    cell = s.land_options(12)[0]
    assert s.obstacle(cell)
    with s.edit():
        s.decision = {"kind": "land", "unit": "C/7", "box": 12, "card": "C01"}  # a mine card
    landing.land_at(s, "C/7", cell)
    assert s.us["C/7"].steps == 2


def test_rangers_may_drift_up_to_four_boxes_east_on_turns_4_14() -> None:
    s = landing_board(4)
    schedule(s, "5Rgr-1")  # planned L03
    stack_cards(s, ["C01"])  # result A: no effect (**)
    landing.land_unit(s, "5Rgr-1")
    assert s.decision is not None and s.decision["kind"] == "drift"
    assert legal(s) == [f"drift 5Rgr-1 {n}" for n in range(5)]
    landing.drift(s, "5Rgr-1", 2)
    assert s.decision is not None and s.decision["kind"] == "land" and s.decision["box"] == 5
    assert legal(s) == ["land 5Rgr-1 at J9", "land 5Rgr-1 at J10"]  # half tide row


def test_infantry_gets_no_voluntary_drift() -> None:
    s = landing_board(4)
    schedule(s, "I/116")
    stack_cards(s, ["C01"])
    landing.land_unit(s, "I/116")
    assert s.decision is not None and s.decision["kind"] == "land"


def test_hq_and_general_never_check_and_may_drift_with_their_unit() -> None:
    s = landing_board(3)
    for uid in ("L/116", "Canham", "Cota"):
        schedule(s, uid)  # all planned L06, the leaders with L/116
    stack_cards(s, ["C02"])  # L/116: B, drift 2 east (infantry row, Dog White)
    landing.land_unit(s, "L/116")
    landing.land_at(s, "L/116", s.scen.board.cell("K16"))
    drawn = s.dice.count
    landing.land_unit(s, "Canham")
    assert s.decision == {"kind": "follow", "unit": "Canham", "companion": "L/116"}
    assert legal(s) == ["follow Canham no", "follow Canham yes"]
    landing.follow(s, "Canham", True)
    assert s.us["Canham"].where == s.scen.board.cell("K16")
    landing.land_unit(s, "Cota")
    landing.follow(s, "Cota", False)
    assert s.decision is not None and s.decision["box"] == 6  # his own planned box
    assert s.dice.count == drawn  # leaders drew no card
    assert "Canham drifts with L/116" in " ".join(texts(s))


def test_leader_whose_unit_did_not_drift_lands_in_his_box() -> None:
    s = landing_board(3)
    for uid in ("L/116", "Canham"):
        schedule(s, uid)
    stack_cards(s, ["C04"])  # D: no effect
    landing.land_unit(s, "L/116")
    landing.land_at(s, "L/116", s.land_options(6)[0])
    landing.land_unit(s, "Canham")
    assert s.decision is not None and s.decision["kind"] == "land"
    assert "without a landing-hazard check (HQs and generals)" in texts(s)[-1]


def test_units_land_on_the_row_of_the_tide() -> None:
    s = fresh("omaha")
    assert [s.scen.board.labels[c] for c in s.land_options(3)] == ["K5", "K6"]
    with s.edit():
        s.turn = 4
    assert [s.scen.board.labels[c] for c in s.land_options(3)] == ["J5", "J6"]
    with s.edit():
        s.turn = 8
    assert [s.scen.board.labels[c] for c in s.land_options(3)] == ["I5", "I6"]
    with s.edit():
        s.turn = 23
    assert [s.scen.board.labels[c] for c in s.land_options(3)] == ["K5", "K6"]


def test_rising_tide_eliminates_units_left_on_a_flooded_row() -> None:
    s = quiet(fresh(), turn=4, phase="us action")
    place(s, "A/116", "K5")
    place(s, "B/116", "J5")
    turn.end_turn(s)
    assert s.us["A/116"].status == "eliminated" and s.us["B/116"].status == "ashore"
    assert any("rising tide floods row K" in t for t in texts(s))


def test_falling_tide_drowns_nobody() -> None:
    s = quiet(fresh("omaha"), turn=17, phase="us action")
    place(s, "A/116", "J5")
    turn.end_turn(s)
    assert s.us["A/116"].status == "ashore"


def test_all_obstacles_cleared_from_turn_23() -> None:
    s = quiet(fresh("omaha"), turn=22, phase="us action")
    assert s.obstacle(s.scen.board.cell("I5"))
    turn.end_turn(s)
    turn.start_turn(s)
    assert s.turn == 23 and not s.obstacle(s.scen.board.cell("I5"))
    assert any("cleared every obstacle" in t for t in texts(s))


def test_a_full_landing_through_the_protocol() -> None:
    s = fresh(seed=5)
    assert s.pending is not None and s.pending.kind == "land"
    first = s.legal_actions()[0]
    assert isinstance(first, Land)
    s.apply(first)
    assert s.us[first.unit].status == "ashore"
    assert s.us[first.unit].where == s.scen.board.cell(first.hex)
