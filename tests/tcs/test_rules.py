"""TCS Omaha procedures of rules.py, each with pinned values."""

from __future__ import annotations

import pytest

from omaha.tcs import rules
from omaha.tcs.components.tables import Tables
from omaha.tcs.components.turns import is_hour_turn
from omaha.tcs.rules import (
    Loss,
    air_attacks,
    aircraft_available,
    battery_fires,
    bomb_hits,
    designator,
    german_uses_sortie,
    hour_of,
    leader_killed,
    leaders_available,
    majority_hex,
    miller_rounds,
    most_laden_first,
    nfst_works,
    overdraft_room,
    pillbox_modifier,
    random_losses,
    smoke_left,
    spread_pool,
    survival_check,
    survival_key,
    weighted_turn_rate,
)


def test_pillbox_modifier_bands(tables: Tables) -> None:
    """2.1i/2.1k: 0-5 -1, 6-13 0, 14-20 +1, 21+ +2."""
    got = {n: pillbox_modifier(n, tables) for n in (0, 5, 6, 13, 14, 20, 21, 35)}
    assert got == {0: -1, 5: -1, 6: 0, 13: 0, 14: 1, 20: 1, 21: 2, 35: 2}
    with pytest.raises(ValueError):
        pillbox_modifier(-1, tables)


@pytest.mark.parametrize(
    ("key", "roll", "pillboxes", "survives"),
    [
        ("LCA", 11, 20, True),  # 12
        ("LCA", 12, 20, False),  # 13
        ("LCA", 12, 10, True),  # 12 unmodified
        ("LCA", 11, 21, False),  # 13 with +2
        ("LCT", 10, 20, True),  # 11
        ("LCT", 11, 20, False),  # 12
        ("Rhino", 11, 6, True),  # 11 with 0
        ("Rhino", 12, 0, True),  # 12-1 = 11
        ("LCI", 10, 21, False),  # 12
        ("DUKW_class2", 5, 21, True),  # unmodified
        ("DUKW_class2", 6, 0, False),
        ("DUKW_class1", 8, 21, True),
        ("DUKW_class1", 9, 0, False),
        ("DD", 4, 21, True),
        ("DD", 5, 0, False),
    ],
)
def test_survival_ranges(
    key: str, roll: int, pillboxes: int, survives: bool, tables: Tables
) -> None:
    """2.1i: LCA 2-12, Rhino/LCI/LCT 2-11 (modified), Dukw 2-5/2-8, DD 2-4 (not modified)."""
    check = survival_check(key, roll, pillboxes, tables)
    assert check.survives is survives
    if key.startswith(("DUKW", "DD")):
        assert check.modifier == 0


def test_reading_modified_roll_below_two_survives(tables: Tables) -> None:
    """Reading: only the top of a range sinks; a 2 with -1 (few pill boxes) survives."""
    check = survival_check("LCA", 2, 3, tables)
    assert check.total == 1 and check.survives
    with pytest.raises(ValueError):
        survival_check("LCA", 13, 3, tables)


def test_survival_key_for_dukw_loads() -> None:
    """2.1i; reading: a mixed class I and II Dukw load rolls on the class II range."""
    assert survival_key("DUKW", [1, 1]) == "DUKW_class1"
    assert survival_key("DUKW", [2]) == "DUKW_class2"
    assert survival_key("DUKW", [1, 2]) == "DUKW_class2"
    assert survival_key("DUKW", []) == "DUKW_class1"
    assert survival_key("LCA", [1]) == "LCA"


def test_random_losses_a_1_16_example() -> None:
    """2.1j: A/1/16 in two LCAs (9 + 8 points); the 9-point LCA sinks; the cup gives
    the first platoon (eliminated), then the second (loses four steps, one left)."""
    pool = [
        ("A/1/16.1", 5, 1),
        ("A/1/16.2", 5, 1),
        ("A/1/16.3", 5, 1),
        ("A/1/16.mg", 1, 1),
        ("A/1/16.mtr", 1, 1),
    ]
    picks = iter([0, 0])  # the cup is sorted: .1 first, then .2 first among the rest

    def draw(n: int) -> int:
        return next(picks)

    losses = random_losses(pool, 9, draw)
    assert losses == [Loss("A/1/16.1", 5, True), Loss("A/1/16.2", 4, False)]


def test_random_losses_whole_units_first_and_overshoot() -> None:
    """2.1j: a drawn unit is eliminated whole before the next is touched; reading: a
    2-point step is not split, so the loss may exceed the boat's load by one point."""
    pool = [("AT.1", 2, 2), ("inf", 5, 1)]
    assert random_losses(pool, 3, lambda n: 0) == [Loss("AT.1", 2, True)]
    assert random_losses(pool, 5, lambda n: 0) == [Loss("AT.1", 2, True), Loss("inf", 1, False)]
    assert random_losses([("AT.1", 3, 2)], 3, lambda n: 0) == [Loss("AT.1", 2, False)]
    # more lost than aboard: everything goes
    assert sum(x.steps for x in random_losses(pool, 30, lambda n: n - 1)) == 7


def test_most_laden_first() -> None:
    assert most_laden_first([8, 9, 9]) == [1, 2, 0]


def test_spread_pool_and_majority_hex() -> None:
    """Survivors of a pooled group fill the surviving boats in plan order; a split unit
    comes together in the hex of the boat that brought most of its steps (reading)."""
    pool = [("p1", 5, 1), ("p2", 5, 1), ("mg", 1, 1)]
    assert spread_pool(pool, [9, 2]) == [[("p1", 5), ("p2", 4)], [("p2", 1), ("mg", 1)]]
    assert spread_pool(pool, [8]) == [[("p1", 5), ("p2", 5), ("mg", 1)]]  # last boat takes all
    assert majority_hex([(10, 4), (20, 1)]) == 10
    assert majority_hex([(10, 1), (20, 4)]) == 20
    assert majority_hex([(10, 2), (20, 2)]) == 10


def test_tide_hours() -> None:
    """1.12/2.1l: a line holds for its whole hour; hour turns move the tide (1.12a)."""
    assert hour_of("0740") == "0700"
    assert hour_of("0640") == "0600"
    assert hour_of("1000") == "1000"
    assert is_hour_turn("0900") and not is_hour_turn("0920")
    with pytest.raises(ValueError):
        hour_of("7:40")


def test_leader_selection_table(tables: Tables) -> None:
    """2.3f: 2-4: 3, 5-6: 4, 7-8: 5, 9-10: 7, 11: 8, 12: 9 (reading of '9-1011')."""
    got = [leaders_available(r, tables) for r in range(2, 13)]
    assert got == [3, 3, 3, 4, 4, 5, 5, 7, 7, 8, 9]


def test_leader_loss_and_weighted_turns(tables: Tables) -> None:
    """2.3f: killed on a 12; 2.3a: under a leader weighted turns accrue at 1 a turn."""
    assert leader_killed(12, tables)
    assert not any(leader_killed(r, tables) for r in range(2, 12))
    assert weighted_turn_rate(True, 3) == 1
    assert weighted_turn_rate(False, 3) == 3


def test_miller_table(tables: Tables) -> None:
    """2.2b: two dice read as tens and units."""
    cases = {11: 0, 12: 0, 13: 1, 21: 1, 22: 2, 33: 2, 34: 3, 45: 3, 46: 4, 55: 4}
    cases |= {56: 5, 63: 5, 64: 6, 65: 6, 66: 7}
    assert {d: miller_rounds(d, tables) for d in cases} == cases
    for bad in (10, 17, 67, 70):
        with pytest.raises(ValueError):
            miller_rounds(bad, tables)


def test_designator_and_smoke(tables: Tables) -> None:
    """2.2a: designator direction and distance x3; impacts use smoke markers first."""
    assert designator(1, 2, 3, tables) == ("N", 6)
    assert designator(4, 6, 3, tables) == ("S", 18)
    assert smoke_left(10, 3) == 7
    assert smoke_left(10, 14) == 0


def test_battery_fires(tables: Tables) -> None:
    """2.9: rounds per gun x guns landed / divisor, fractions dropped, +1 illum."""
    assert battery_fires(4, 4, tables) == rules.BatteryFires(20, 3, 1)  # a full FA battery
    assert battery_fires(3, 4, tables) == rules.BatteryFires(15, 2, 1)  # 60/4, 9/4
    assert battery_fires(6, 6, tables) == rules.BatteryFires(20, 3, 1)  # cannon company
    assert battery_fires(8, 8, tables) == rules.BatteryFires(20, 3, 1)  # 62nd battery
    assert battery_fires(1, 8, tables) == rules.BatteryFires(2, 0, 1)
    assert battery_fires(0, 4, tables) == rules.BatteryFires(0, 0, 0)


def test_airpower_rolls(tables: Tables) -> None:
    """2.10: aircraft on 8+; the German uses the sortie on 8+, +1 on 6 June (reading:
    the bonus goes to the German roll)."""
    assert aircraft_available(8, tables) and not aircraft_available(7, tables)
    assert german_uses_sortie(7, True, tables)
    assert not german_uses_sortie(7, False, tables)
    assert german_uses_sortie(8, False, tables)
    assert not german_uses_sortie(6, True, tables)


def test_air_attacks_and_bomb_hit(tables: Tables) -> None:
    """2.10a: bomb laden = 3 strafes at 5 + 1 bomb at 36 (or 8+ hit roll); gunship =
    4 strafes at 15; each aircraft configured separately."""
    attacks = air_attacks(["bomb", "gunship"], tables)
    assert [(a.aircraft, a.kind, a.firepower) for a in attacks] == [
        (1, "strafe", 5),
        (1, "strafe", 5),
        (1, "strafe", 5),
        (1, "bomb", 36),
        (2, "strafe", 15),
        (2, "strafe", 15),
        (2, "strafe", 15),
        (2, "strafe", 15),
    ]
    bomb = attacks[3]
    assert bomb_hits(8, bomb) and not bomb_hits(7, bomb)
    assert not bomb_hits(12, attacks[0])


def test_nfst_and_overdraft(tables: Tables) -> None:
    """2.6d: radio works on a 6. 2.11: up to 5 steps per company, no unit above full."""
    assert nfst_works(6, tables) and not nfst_works(5, tables)
    assert overdraft_room(steps_now=2, full=5, added_to_company=0, tables=tables) == 3
    assert overdraft_room(steps_now=0, full=5, added_to_company=2, tables=tables) == 3
    assert overdraft_room(steps_now=5, full=5, added_to_company=0, tables=tables) == 0
    assert overdraft_room(steps_now=1, full=5, added_to_company=5, tables=tables) == 0
