"""Fire combat (LnL Omaha: Fire Combat, Fire Results Table, TEC) with pinned cards."""

from __future__ import annotations

from typing import Any

import pytest

import omaha
from omaha.lnl.state import LnlState

from .helpers import cards, legal, play, position, unit


def last(st: LnlState, kind: str = "lnl.fire") -> dict[str, Any]:
    for e in reversed(st.log):
        if e.kind == kind:
            return dict(e.details)
    raise AssertionError(f"no {kind} event")


def test_extended_range_example() -> None:
    """FRT notes: a printed range of 4 reaches 8 hexes at half firepower, not 9."""
    st = position({"1/1/916": "I10", "1/B/116": "H2", "2/B/116": "H1"}, side="German")
    assert st.T.dist[st.cell_of("I10")][st.cell_of("H2")] == 8
    assert st.T.dist[st.cell_of("I10")][st.cell_of("H1")] == 9
    assert st.u(unit(st, "1/1/916")).type.range == 4
    play(st, "fire with 1/1/916")
    assert legal(st) == ["at H2 soft", "cancel"]
    cards(st, 2)
    play(st, "at H2 soft", "resolve")
    fire = last(st)
    assert fire["total"] == 5  # HE 10 halved
    assert fire["column"] == "3"


def test_adjacency_shift_example() -> None:
    """FRT notes: a firer adjacent to the target shifts one right ('6' becomes '12')."""
    st = position({"1/1/916": "H2", "1/B/116": "H3"}, side="German")
    cards(st, 3)
    play(st, "fire with 1/1/916", "at H3 soft", "resolve")
    fire = last(st)
    assert fire["total"] == 10 and fire["shift"] == "+1" and fire["column"] == "12"
    assert fire["result"] == "Disrupted"  # row 3 of the 12 column (the 6 column says NE)
    assert st.dis[unit(st, "1/B/116")]


def test_terrain_fortification_and_crest_shifts_add_up() -> None:
    """TEC: fortification and crest each shift one left; shifts are cumulative."""
    st = position({"1/B/743": "K6", "2/B/743": "K6", "88mm-Gun": "J5"}, side="US")
    play(st, "fire with 1/B/743", "at J5 soft", "add 2/B/743")
    cards(st, 1)
    play(st, "resolve")
    fire = last(st)
    # 12 HE, adjacent +1, fortification -1, crest -1: the 6 column
    assert fire["total"] == 12 and fire["shift"] == "-1" and fire["column"] == "6"


def test_no_attack_left_of_the_3_column() -> None:
    st = position({"EAT-1": "K6", "88mm-Gun": "J5"}, side="US")
    # 2 HE adjacent (+1) into a bunker behind the crest (-2): left of 3
    assert "fire with EAT-1" not in legal(st)


def test_hard_targets_use_ap_minus_armor_and_only_they_are_hit() -> None:
    """Reading: a Disrupted result touches only the class attacked (here the armor)."""
    st = position({"88mm-Gun": "H1", "1/A/743": "H3", "1/B/116": "H3"}, side="German")
    play(st, "fire with 88mm-Gun")
    assert {"at H3 hard", "at H3 soft"} <= set(legal(st))
    cards(st, 2)
    play(st, "at H3 hard", "resolve")
    fire = last(st)
    assert fire["total"] == 18 - 4 and fire["column"] == "12"
    assert fire["units"] == ["1/A/743"]
    assert st.dis[unit(st, "1/A/743")] and not st.dis[unit(st, "1/B/116")]


def test_a_second_disrupted_costs_a_step() -> None:
    st = position({"1/1/916": "H2", "1/B/116": "H3"}, side="German")
    u = unit(st, "1/B/116")
    st.dis[u] = True
    cards(st, 3)
    play(st, "fire with 1/1/916", "at H3 soft", "resolve")
    assert st.steps[u] == 1 and st.dis[u]


def test_loss_disrupts_all_and_the_defender_picks_the_step() -> None:
    """Loss 1 on two units: both disrupted, the owner chooses who loses the step.

    The disruption that comes with a loss is not a second Disrupted: the unit
    already disrupted loses nothing unless chosen.
    """
    st = position({"1/1/916": "H2", "1/B/116": "H3", "2/B/116": "H3"}, side="German")
    a, b = unit(st, "1/B/116"), unit(st, "2/B/116")
    st.dis[a] = True
    cards(st, 1)
    play(st, "fire with 1/1/916", "at H3 soft", "resolve")  # 12 column, card 1: Loss 1
    assert last(st)["result"] == "Loss 1"
    assert st.pending is not None and st.pending.kind == "loss" and st.pending.player == "US"
    assert legal(st) == ["lose 1/B/116", "lose 2/B/116"]
    play(st, "lose 2/B/116")
    assert st.steps[a] == 2 and st.steps[b] == 1
    assert st.dis[a] and st.dis[b]


def test_every_unit_loses_one_step_before_any_loses_two() -> None:
    st = position(
        {"1/1/916": "H2", "2/1/916": "H2", "1/B/116": "H3", "2/B/116": "H3"}, side="German"
    )
    play(st, "fire with 1/1/916", "at H3 soft", "add 2/1/916")
    cards(st, 1)
    play(st, "resolve")  # 20 factors, adjacent: 24 column, card 1: Loss 2
    assert last(st)["result"] == "Loss 2"
    assert st.steps[unit(st, "1/B/116")] == 1 and st.steps[unit(st, "2/B/116")] == 1
    assert st.loss is None  # no choice to make


def test_loss_three_on_two_units_lets_the_defender_choose_the_second_step() -> None:
    st = position(
        {
            "1/1/916": "H2",
            "2/1/916": "H2",
            "3/1/916": "I3",
            "1/916-HVY": "I2",
            "1/B/116": "H3",
            "2/B/116": "H3",
        },
        side="German",
    )
    play(st, "fire with 1/1/916", "at H3 soft", "add 2/1/916", "add 3/1/916", "add 1/916-HVY")
    cards(st, 1)
    play(st, "resolve")  # 44 factors + adjacent: 48 column, card 1: Loss 3
    assert last(st)["result"] == "Loss 3"
    assert legal(st) == ["lose 1/B/116", "lose 2/B/116"]
    play(st, "lose 1/B/116")
    assert st.where[unit(st, "1/B/116")] < 0 and st.steps[unit(st, "2/B/116")] == 1


def test_units_that_fire_are_marked_and_may_not_fire_or_move() -> None:
    st = position({"1/B/116": "H3", "1/1/916": "H5"}, side="US")
    cards(st, 6)
    play(st, "fire with 1/B/116", "at H5 soft", "resolve")
    assert st.fired[unit(st, "1/B/116")]
    assert "fire with 1/B/116" not in legal(st)
    play(st, "end phase")
    assert "move 1/B/116" not in legal(st)


def test_disrupted_units_may_not_fire_and_are_told_why() -> None:
    st = position({"1/B/116": "H3", "1/1/916": "H5"}, side="US")
    with st.edit():
        st.dis[unit(st, "1/B/116")] = True
    assert "fire with 1/B/116" not in legal(st)
    with pytest.raises(omaha.IllegalAction, match="disrupted"):
        play(st, "fire with 1/B/116")


def test_combining_fire() -> None:
    """Same company stacked or adjacent; support units only with units stacked with them."""
    st = position(
        {
            "1/B/116": "H3",
            "2/B/116": "H4",  # same company, adjacent
            "1/F/116": "H3",  # other company, stacked: may not combine
            "1/A/743": "G3",  # support, not stacked with B/116: may not combine
            "2/A/743": "H3",  # support stacked with 1/B/116: may
            "1/1/916": "H5",
        },
        side="US",
    )
    play(st, "fire with 1/B/116", "at H5 soft")
    adds = [a for a in legal(st) if a.startswith("add ")]
    assert adds == ["add 2/A/743", "add 2/B/116"]


def test_units_in_one_hex_firing_at_one_target_must_combine() -> None:
    """Reading: after a unit fires at a target, its hex-mates may not fire at it apart."""
    st = position({"1/B/116": "H3", "2/B/116": "H3", "1/1/916": "H5"}, side="US")
    cards(st, 6)
    play(st, "fire with 1/B/116", "at H5 soft", "resolve")
    assert "fire with 2/B/116" not in legal(st)


def test_a_mortar_may_fire_with_any_german_unit_s_line_of_sight() -> None:
    st = position({"81mm-Mtr": "E7", "1/B/116": "E9"}, side="German")
    assert not st.T.los(st.cell_of("E7"), st.cell_of("E9"))
    assert legal(st) == ["end phase"]
    with st.edit():
        st.put(unit(st, "1/1/916"), st.cell_of("F9"))  # a spotter next to the target
    play(st, "fire with 81mm-Mtr")
    assert "at E9 soft" in legal(st)


def test_ngfs_packets_join_high_explosive_attacks_of_the_fire_phase() -> None:
    st = position({"1/B/116": "H3", "1/1/916": "H5", "1/916AT": "G5"}, side="US", ngfs=4)
    play(st, "fire with 1/B/116", "at H5 soft")
    for _ in range(4):
        play(st, "add ngfs")
    assert "add ngfs" not in legal(st)  # 24 factors, four packets of 6
    cards(st, 6)
    play(st, "resolve")
    assert last(st)["total"] == 4 + 24 and st.ngfs_left == 0
    st2 = position({"1/A/743": "H3", "1/916AT": "H5"}, side="US", ngfs=4)
    play(st2, "fire with 1/A/743", "at H5 hard")
    assert "add ngfs" not in legal(st2)  # NGFS adds HE, not AP


def test_ngfs_bombardment_of_the_916th_at_example() -> None:
    """NGFS: 12 factors on two 916th AT platoons, a card of 1: they are Disrupted."""
    st = position({"1/916AT": "H5", "2/916AT": "H5", "1/B/116": "K9"}, side="US", ngfs=4)
    play(st, "bombard H5", "add ngfs")
    cards(st, 1)
    play(st, "resolve")
    fire = last(st)
    assert fire["total"] == 12 and fire["column"] == "12"
    assert fire["result"] == "Loss 1"  # the table says Loss 1 ...
    for uid in ("1/916AT", "2/916AT"):  # ... the armor is Disrupted instead
        assert st.dis[unit(st, uid)] and st.steps[unit(st, uid)] == 2
    assert st.ngfs_left == 2


def test_bombardment_hits_hard_and_soft_targets_together() -> None:
    st = position({"1/916AT": "H5", "1/1/916": "H5", "1/B/116": "K9"}, side="US", ngfs=4)
    play(st, "bombard H5", "add ngfs")
    cards(st, 1)
    play(st, "resolve")  # Loss 1
    assert st.steps[unit(st, "1/1/916")] == 1  # soft: as the FRT says
    assert st.steps[unit(st, "1/916AT")] == 2 and st.dis[unit(st, "1/916AT")]


def test_a_converted_loss_on_disrupted_armor_costs_a_step() -> None:
    """Reading: the Loss-made-Disrupted is a true Disrupted result."""
    st = position({"1/916AT": "H5", "1/B/116": "K9"}, side="US", ngfs=4)
    st.dis[unit(st, "1/916AT")] = True
    play(st, "bombard H5", "add ngfs")
    cards(st, 1)
    play(st, "resolve")
    assert st.steps[unit(st, "1/916AT")] == 1


def test_ngfs_from_the_sea_is_across_the_bluff_crest() -> None:
    st = position({"1/1/916": "J9", "1/B/116": "L1"}, side="US", ngfs=4)
    play(st, "bombard J9", "add ngfs")
    cards(st, 6)
    play(st, "resolve")
    assert last(st)["shift"] == "-2"  # fortification and crest


def test_the_six_he_card_bonus() -> None:
    st = position({"1/B/116": "H3", "1/1/916": "H5"}, side="US")
    st.bonus["US"] = True
    play(st, "fire with 1/B/116", "at H5 soft")
    assert "add bonus" in legal(st)
    cards(st, 6)
    play(st, "add bonus", "resolve")
    assert last(st)["total"] == 10 and not st.bonus["US"]
