"""Readings of READINGS.md not covered by the chart, landing, German and US tests."""

from __future__ import annotations

from omaha.landing_table.components.charts import GERMAN_ACTIONS
from omaha.landing_table.procedures import attack, barrage, german, orders
from omaha.landing_table.rules import approach
from omaha.landing_table.state import LandingTableState

from .helpers import card, cells_with, fresh, place, quiet, stack_cards, texts


def board(turn: int = 10) -> LandingTableState:
    return quiet(fresh("omaha"), turn=turn, phase="us action")


def test_every_action_of_the_summary_has_a_procedure() -> None:
    assert set(german.SUMMARY_ACTIONS) == GERMAN_ACTIONS


def test_reading_attack_hexside_through_a_corner() -> None:
    s = board()
    b = s.scen.board
    wn74 = b.cell("H2")
    # J2's thread enters WN74's hex at the corner of I2 and I3: both are sheer cliff sides
    corner = approach(b, b.cell("J2"), wn74)
    assert corner.sides is None and corner.prohibited
    assert approach(b, b.cell("I2"), wn74).prohibited and approach(b, b.cell("I3"), wn74).prohibited
    # I4's corner lies between H3 (an unmarked side) and I3 (a cliff): not prohibited
    open_corner = approach(b, b.cell("I4"), wn74)
    assert open_corner.sides is None and not open_corner.prohibited
    assert not approach(b, b.cell("H3"), wn74).prohibited
    # a corner and a side are two directions (flanking), with no hexside benefit
    place(s, "A/743", "I4")
    place(s, "1/18", "H3")
    plan = attack.evaluate_attack(s, "WN74", ["A/743", "1/18"], hero=False)
    assert plan["directions"] == 2 and plan["same_side"] is None


def test_reading_a_reduced_9_2_has_range_1() -> None:
    s = board()
    place(s, "D/116", "F20")  # two hexes from WN64 (F22)
    assert s.unit_range("D/116") == 2 and orders.can_attack(s, "D/116", "WN64")
    place(s, "D/116", "F20", steps=1)
    assert s.unit_range("D/116") == 1 and not orders.can_attack(s, "D/116", "WN64")


def test_reading_an_attack_reveals_a_face_down_unit_a_barrage_does_not() -> None:
    s = board()
    assert not s.ger["6/916"].revealed  # R-Hamel's unit, face down
    place(s, "B/111", "H11")  # a DUKW battery within barrage range of E11
    place(s, "1/18", "E10")
    assert "R-Hamel" in orders.barrage_targets(s, "B/111")
    stack_cards(s, ["C01"], extra=[0, 0])
    barrage.barrage(s, "B/111", "R-Hamel")
    assert not s.ger["6/916"].revealed
    start = len(s.log)
    attack.start(s, "1/18", "R-Hamel")
    attack.resolve(s, hero=False)
    assert "6/916 at R-Hamel: revealed by the attack" in texts(s, start)[0]


def test_reading_gains_depth_draws_from_the_defenders_division_cup() -> None:
    s = board()
    place(s, "GAT-W", "E10")  # engineers (2 strong) against 6/916 alone: far too weak
    stack_cards(s, [], extra=[0])
    in_716, in_352 = len(s.cups["716"]), len(s.cups["352"])
    attack.start(s, "GAT-W", "R-Hamel")
    attack.resolve(s, hero=False)
    assert any("R-Hamel gains a depth marker" in t for t in texts(s))
    assert s.pos["R-Hamel"].depth in s.scen.depth_cups["352"]
    assert (len(s.cups["716"]), len(s.cups["352"])) == (in_716, in_352 - 1)


def test_reading_gains_depth_only_in_german_communication() -> None:
    s = board()
    b = s.scen.board
    wn74 = b.cell("H2")
    land = [c for c in b.neighbours[wn74] if s.scen.row_of[c] not in ("I", "J", "K")]
    units = ["GAT-W", "1/18", "2/18", "3/18", "1/115", "2/115"][: len(land)]
    for uid, cell in zip(units, land, strict=True):
        place(s, uid, b.labels[cell])
    assert not s.in_communication("WN74")
    stack_cards(s, [])  # no die may be drawn
    start = len(s.log)
    attack.start(s, "GAT-W", "WN74")
    attack.resolve(s, hero=False)
    assert "german gains depth" in texts(s, start)[0]
    assert s.pos["WN74"].depth is None and s.dice.count == 0


def test_reading_a_leader_in_the_field_counts_for_the_action_summary_column() -> None:
    s = quiet(fresh("omaha"), turn=18, phase="german action")
    place(s, "Cota", cells_with(s.scen.pos_by_id["WN70"], "intense", "H")[0])
    start = len(s.log)
    german.act(s, "WN70", card(action="F"))
    assert "occupied, US units in its field of fire): action F -> fire" in texts(s, start)[0]
    assert s.us["Cota"].status == "ashore"  # no leader icon: the fire does not hit him
