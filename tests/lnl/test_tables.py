"""The published tables and the readings of their edges (LnL Omaha: FRT, CAT, TEC)."""

from __future__ import annotations

import pytest

from omaha.lnl import rules


@pytest.mark.parametrize(
    ("total", "column"),
    [(3, 3), (5, 3), (6, 6), (10, 6), (12, 12), (17, 12), (18, 18), (24, 24), (35, 24)],
)
def test_a_total_between_columns_uses_the_lower_one(total: int, column: int) -> None:
    """Reading: 10 factors fire on the 6 column."""
    assert rules.frt_label(rules.frt_final(total, 0) or 0) == str(column)


def test_more_than_48_uses_48_then_shifts() -> None:
    assert rules.frt_label(rules.frt_final(60, 0) or 0) == "48"
    assert rules.frt_label(rules.frt_final(60, -1) or 0) == "36"  # cap first, then shift
    assert rules.frt_label(rules.frt_final(48, +2) or 0) == "48"  # no column right of 48


def test_below_three_needs_a_right_shift() -> None:
    """Less than 3 factors may fire only if adjacency or opportunity shifts reach 3."""
    assert rules.frt_final(2, 0) is None
    assert rules.frt_label(rules.frt_final(2, +1) or 0) == "3"
    assert rules.frt_label(rules.frt_final(1, +2) or 0) == "6"
    assert rules.frt_final(0, +2) is None  # nothing to fire with
    assert rules.frt_final(-3, +2) is None  # AP that does not beat the armor


def test_terrain_shifts_may_not_push_left_of_three() -> None:
    assert rules.frt_final(3, -1) is None
    assert rules.frt_label(rules.frt_final(6, -1) or 0) == "3"


def test_adjacency_shift_example() -> None:
    """FRT notes: shift the final column one right ('6' becomes '12')."""
    assert rules.frt_label(rules.frt_final(6, +1) or 0) == "12"


def test_halved_fire_keeps_half_points_until_the_sum() -> None:
    """Reading: each halved factor keeps its half; the sum drops its fraction."""
    assert rules.fire_total([(5, True)]) == 2
    assert rules.fire_total([(5, True), (5, True)]) == 5
    assert rules.fire_total([(5, True), (6, False)]) == 8
    assert rules.fire_total([(8, True)]) == 4


def test_frt_rows() -> None:
    assert rules.frt_result(1, 1) == "D" and rules.frt_result(1, 7) == "L3"
    assert rules.frt_result(2, 2) == "D" and rules.frt_result(2, 4) == "L1"
    assert all(rules.frt_result(6, c) == "NE" for c in range(1, 8))  # row 6: NE everywhere
    assert rules.loss_steps("L2") == 2 and rules.loss_steps("D") == 0


@pytest.mark.parametrize(
    ("att", "dfn", "odds"),
    [(8, 4, "2-1"), (10, 4, "2-1"), (12, 4, "3-1"), (4, 4, "1-1"), (2, 4, "1-2"), (30, 4, "6-1")],
)
def test_close_assault_odds_examples(att: int, dfn: int, odds: str) -> None:
    """LnL Omaha: Close Assault: 8 v 4 is 2-1, 10 v 4 still 2-1, 12 v 4 is 3-1."""
    pos = rules.cat_position(att, dfn)
    assert pos is not None and rules.CAT_COLUMNS[pos] == odds


def test_odds_between_one_to_two_and_one_to_one_round_down() -> None:
    """Reading: 3 v 4 drops its fraction to 1-2 (the defender's side)."""
    pos = rules.cat_position(3, 4)
    assert pos is not None and rules.CAT_COLUMNS[pos] == "1-2"


def test_less_than_one_to_two_is_not_allowed() -> None:
    assert rules.cat_position(1, 3) is None
    assert rules.cat_position(0, 3) is None


def test_cat_shifts() -> None:
    # 1-1 with a disrupted defender becomes 3-1 (CAT notes)
    assert rules.CAT_COLUMNS[rules.cat_final(1, +2) or 0] == "3-1"
    assert rules.cat_final(0, -1) is None  # left of 1-2: no assault
    assert rules.cat_final(6, +1) == 6  # 6-1 is the last column
    assert rules.CAT_COLUMNS[rules.cat_final(rules.cat_position(28, 4), -1) or 0] == "5-1"


def test_cat_rows() -> None:
    assert rules.cat_result(1, 0) == "DR" and rules.cat_result(3, 0) == "AElim"
    assert rules.cat_result(1, 3) == "DElim" and rules.cat_result(4, 3) == "AR"
    assert all(rules.cat_result(6, c) == "NE" for c in range(7))


def test_movement_costs() -> None:
    """LnL Omaha: TEC and Movement."""

    def cost(terrain: str, **kw: bool) -> int | None:
        args = {"road_to_road": False, "crest": False, "ranger": False, "armor": False}
        args.update(kw)
        return rules.enter_cost(
            terrain,
            engineers=kw.get("engineers", False),
            **{k: v for k, v in args.items() if k != "engineers"},
        )

    assert cost("woods") == 3 and cost("farmland") == 2 and cost("open") == 1
    assert cost("town") == 2 and cost("beach") == 2
    assert cost("woods", road_to_road=True) == 1
    assert cost("beach", engineers=True) == 1
    assert cost("part_ocean") == 2  # Reading: as the beach
    assert cost("ocean") is None
    assert cost("open", crest=True) is None
    assert cost("open", crest=True, ranger=True) == 2
    assert (
        rules.enter_cost(
            "farmland",
            road_to_road=False,
            crest=False,
            ranger=False,
            armor=False,
            engineers=False,
            farmland_infantry_cost=1,
        )
        == 1
    )
