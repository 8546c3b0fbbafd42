"""Every row and note of the published DDOB charts, applied by omaha.landing_table.rules.

The expected values are typed in from the chart text, not read from charts.toml, so
a wrong record in the data file fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import omaha
from omaha.kernel.data import parse_toml
from omaha.landing_table import rules
from omaha.landing_table.components import charts
from omaha.landing_table.components.charts import LandingEffect

# ---------------------------------------------------------------------------
# Amphibious Landing Table
# ---------------------------------------------------------------------------
# (row, letter) -> (effect, steps, drift, turns, to_turn, ranger option)
BAND_1_3 = {
    ("tank_turn1", "A"): ("delay_to", 0, 0, 0, 2, False),
    ("tank_turn1", "B"): ("eliminated", 0, 0, 0, 0, False),
    ("tank_turn1", "C"): ("lose", 1, 0, 0, 0, False),
    ("tank_turn1", "D"): ("lose_drift", 1, 2, 0, 0, False),
    ("tank_turn2_3", "A"): ("none", 0, 0, 0, 0, False),
    ("tank_turn2_3", "B"): ("drift", 0, 1, 0, 0, False),
    ("tank_turn2_3", "C"): ("lose", 1, 0, 0, 0, False),
    ("tank_turn2_3", "D"): ("drift", 0, 3, 0, 0, False),
    ("infantry", "A"): ("drift", 0, 4, 0, 0, False),
    ("infantry", "B"): ("drift", 0, 2, 0, 0, False),
    ("infantry", "C"): ("drift", 0, 9, 0, 0, False),
    ("infantry", "D"): ("none", 0, 0, 0, 0, False),
    ("infantry_dg_ch", "A"): ("none", 0, 0, 0, 0, False),
    ("infantry_dg_ch", "B"): ("drift", 0, 1, 0, 0, False),
    ("infantry_dg_ch", "C"): ("drift", 0, 4, 0, 0, False),
    ("infantry_dg_ch", "D"): ("drift", 0, -1, 0, 0, False),
}
BAND_4_14 = {
    ("infantry", "A"): ("none", 0, 0, 0, 0, True),
    ("infantry", "B"): ("drift", 0, 1, 0, 0, False),
    ("infantry", "C"): ("drift", 0, 4, 0, 0, False),
    ("infantry", "D"): ("drift", 0, -1, 0, 0, False),
    ("dukw", "A"): ("eliminated", 0, 0, 0, 0, False),
    ("dukw", "B"): ("lose", 1, 0, 0, 0, False),
    ("dukw", "C"): ("lose", 2, 0, 0, 0, False),
    ("dukw", "D"): ("none", 0, 0, 0, 0, False),
    ("artillery", "A"): ("delay", 0, 0, 3, 0, False),
    ("artillery", "B"): ("drift", 0, 2, 0, 0, False),
    ("artillery", "C"): ("lose", 1, 0, 0, 0, False),
    ("artillery", "D"): ("none", 0, 0, 0, 0, False),
}
BAND_15 = {
    ("infantry", "A"): ("no_check", 0, 0, 0, 0, False),
    ("infantry", "B"): ("no_check", 0, 0, 0, 0, False),
    ("infantry", "C"): ("no_check", 0, 0, 0, 0, False),
    ("infantry", "D"): ("no_check", 0, 0, 0, 0, False),
    ("dukw", "A"): ("eliminated", 0, 0, 0, 0, False),
    ("dukw", "B"): ("lose", 1, 0, 0, 0, False),
    ("dukw", "C"): ("lose", 2, 0, 0, 0, False),
    ("dukw", "D"): ("none", 0, 0, 0, 0, False),
    ("artillery", "A"): ("delay", 0, 0, 3, 0, False),
    ("artillery", "B"): ("remove", 0, 0, 0, 0, False),
    ("artillery", "C"): ("none", 0, 0, 0, 0, False),
    ("artillery", "D"): ("lose", 1, 0, 0, 0, False),
}


def _check(effect: LandingEffect, expected: tuple[str, int, int, int, int, bool]) -> None:
    kind, steps, drift, turns, to_turn, ranger = expected
    assert (effect.effect, effect.steps, effect.drift, effect.turns, effect.to_turn) == (
        kind,
        steps,
        drift,
        turns,
        to_turn,
    )
    assert effect.ranger_option is ranger
    assert effect.source.startswith("DDOB Amphibious Landing Table")


@pytest.mark.parametrize(("key", "expected"), sorted(BAND_1_3.items()))
def test_landing_table_turns_1_to_3(key: tuple[str, str], expected: tuple) -> None:  # type: ignore[type-arg]
    row, letter = key
    turns = {"tank_turn1": (1,), "tank_turn2_3": (2, 3)}.get(row, (1, 2, 3))
    for turn in turns:
        _check(rules.landing_result(turn, row, letter), expected)


@pytest.mark.parametrize(("key", "expected"), sorted(BAND_4_14.items()))
def test_landing_table_turns_4_to_14(key: tuple[str, str], expected: tuple) -> None:  # type: ignore[type-arg]
    for turn in (4, 9, 14):
        _check(rules.landing_result(turn, *key), expected)


@pytest.mark.parametrize(("key", "expected"), sorted(BAND_15.items()))
def test_landing_table_turns_15_on(key: tuple[str, str], expected: tuple) -> None:  # type: ignore[type-arg]
    for turn in (15, 22, 32):
        _check(rules.landing_result(turn, *key), expected)


def test_landing_bands() -> None:
    assert [rules.landing_band(t) for t in (1, 3, 4, 14, 15, 32)] == [
        "1-3",
        "1-3",
        "4-14",
        "4-14",
        "15+",
        "15+",
    ]


def test_reading_dukw_and_artillery_on_turns_1_to_3_use_their_4_14_rows() -> None:
    assert rules.landing_result(2, "dukw", "A").effect == "eliminated"
    assert rules.landing_result(3, "artillery", "A") == rules.landing_result(4, "artillery", "A")


def test_landing_rows_by_unit_class_turn_and_sector() -> None:
    row = rules.landing_row
    assert row("hq", 1, "DG") is None and row("general", 5, "ER") is None  # Notes: no check
    assert row("tank", 1, "ER") == "tank_turn1"
    assert row("tank", 2, "ER") == row("tank", 3, "DG") == "tank_turn2_3"
    assert row("tank", 4, "ER") is None  # Reading: no tank row after turn 3
    assert row("infantry", 1, "DG") == row("infantry", 3, "CH") == "infantry_dg_ch"
    assert row("ranger", 1, "CH") == "infantry_dg_ch"
    assert row("infantry", 1, "ER") == "infantry"
    assert row("ranger", 2, "DW") == "infantry"  # Reading: Rangers elsewhere are infantry
    assert row("engineer", 1, "DG") == row("heavy", 2, "DG") == "infantry_dg_ch"
    assert row("infantry", 4, "DG") == row("ranger", 20, "CH") == "infantry"
    assert row("dukw", 5, "DW") == "dukw"
    assert row("artillery", 5, "ER") == row("anti_aircraft", 9, "DG") == "artillery"
    assert row("anti_tank", 20, "ER") == "artillery"
    with pytest.raises(ValueError, match="unknown unit class"):
        row("cavalry", 1, "ER")


def test_bad_letter_and_missing_row_are_refused() -> None:
    with pytest.raises(ValueError, match="not a landing result"):
        rules.landing_result(1, "infantry", "E")
    with pytest.raises(ValueError, match="no row 'tank_turn1' for turn 5"):
        rules.landing_result(5, "tank_turn1", "A")


def test_note_mines_turns_7_to_22_and_all_cleared_on_23() -> None:
    assert [t for t in range(1, 33) if rules.mine_turn(t)] == list(range(7, 23))
    assert not rules.obstacles_all_cleared(22)
    assert rules.obstacles_all_cleared(23) and rules.obstacles_all_cleared(32)


def test_drift_box_and_the_east_and_west_ends() -> None:
    assert rules.drift_box(3, 4, 16) == (7, 0)
    assert rules.drift_box(3, -1, 16) == (2, 0)
    assert rules.drift_box(1, -1, 16) == (1, 0)  # Reading: cliffs west of box 1
    assert rules.drift_box(10, 9, 16) == (16, 3)  # Reading: past the east end, reported
    assert rules.drift_box(16, 0, 16) == (16, 0)


def test_note_rangers_may_drift_up_to_four_boxes_east() -> None:
    a_4_14 = rules.landing_result(6, "infantry", "A")
    assert rules.ranger_may_drift("ranger", a_4_14) == 4
    assert rules.ranger_may_drift("infantry", a_4_14) == 0
    assert rules.ranger_may_drift("ranger", rules.landing_result(6, "infantry", "B")) == 0
    # Reading: the ** mark is on the 4-14 cell only
    assert rules.ranger_may_drift("ranger", rules.landing_result(1, "infantry_dg_ch", "A")) == 0


def test_landing_effects_describe_themselves() -> None:
    assert rules.landing_result(1, "tank_turn1", "D").describe() == (
        "loses 1 step and drifts 2 boxes east"
    )
    assert rules.landing_result(1, "infantry_dg_ch", "D").describe() == "drifts 1 box west"
    assert rules.landing_result(20, "artillery", "B").describe() == (
        "delayed until 7 June (out of play)"
    )


# ---------------------------------------------------------------------------
# German Fire Chart
# ---------------------------------------------------------------------------
def _fx(dot: str, firer: str, armoured: bool, matches: bool) -> tuple[bool, bool, bool] | None:
    eff = rules.fire_effect(dot, firer, armoured, matches)
    return None if eff is None else (eff.lose, eff.disrupt, eff.one)


@pytest.mark.parametrize("armoured", [False, True])
@pytest.mark.parametrize("matches", [False, True])
def test_intense_fire_hits_every_type_and_symbol(armoured: bool, matches: bool) -> None:
    assert _fx("intense", "position", armoured, matches) == (True, False, False)
    assert _fx("intense", "unrevealed", armoured, matches) == (True, True, False)


def test_intense_ambush_one_unit_of_any_type_with_the_symbol() -> None:
    assert _fx("intense", "ambush", True, True) == (True, False, True)
    assert _fx("intense", "ambush", False, True) == (True, False, True)
    assert _fx("intense", "ambush", False, False) is None


def test_steady_fire_hits_non_armoured_units_with_the_symbol() -> None:
    assert _fx("steady", "position", False, True) == (True, False, False)
    assert _fx("steady", "position", True, True) is None
    assert _fx("steady", "position", False, False) is None
    assert _fx("steady", "unrevealed", False, True) == (True, True, False)
    assert _fx("steady", "unrevealed", True, True) is None
    assert _fx("steady", "ambush", True, True) == (False, True, True)
    assert _fx("steady", "ambush", True, False) is None


def test_sporadic_fire_disrupts_non_armoured_units_with_the_symbol() -> None:
    assert _fx("sporadic", "position", False, True) == (False, True, False)
    assert _fx("sporadic", "position", True, True) is None
    assert _fx("sporadic", "position", False, False) is None


def test_reading_sporadic_blank_cells() -> None:
    # the unrevealed cell continues the merged sporadic cell; an ambush does nothing
    assert _fx("sporadic", "unrevealed", False, True) == (False, True, False)
    assert _fx("sporadic", "unrevealed", True, True) is None
    assert _fx("sporadic", "ambush", False, True) is None
    assert _fx("sporadic", "ambush", True, True) is None


def test_note_concentrated_target() -> None:
    assert rules.matches_target("circle", ("circle",), 1)
    assert not rules.matches_target("square", ("circle",), 4)
    assert rules.matches_target("square", ("circle",), 5)  # five or more steps in the hex


def test_note_armour_bonus() -> None:
    assert rules.counts_as_armoured(True, False)
    assert not rules.counts_as_armoured(True, True)
    assert not rules.counts_as_armoured(False, True)
    armoured = rules.counts_as_armoured(True, True)
    assert _fx("steady", "position", armoured, True) == (True, False, False)


def test_note_hit_limits_by_turn_band() -> None:
    assert rules.hit_limit(1, 1, 0) == 1
    assert rules.hit_limit(16, 1, 1) == 2
    assert rules.hit_limit(17, 1, 0) == 2
    assert rules.hit_limit(32, 1, 1) == 4
    assert rules.hit_limit(20, 0, 0) == 0


def test_note_selection_priorities() -> None:
    key = rules.selection_key
    cands = [
        (key("sporadic", 1, 2), "spor"),
        (key("steady", 3, 2), "steady far"),
        (key("steady", 1, 1), "steady near small"),
        (key("steady", 1, 2), "steady near big"),
        (key("intense", 6, 1), "intense"),
    ]
    sure, tied, need = rules.select_hits(cands, 3)
    assert sure == ("intense", "steady near big", "steady near small")
    assert (tied, need) == ((), 0)
    # most steps first, then the player's choice among what still ties
    ties = [(key("steady", 2, 2), "a"), (key("steady", 2, 2), "b"), (key("steady", 2, 2), "c")]
    assert rules.select_hits(ties, 2) == ((), ("a", "b", "c"), 2)
    assert rules.select_hits([(key("intense", 1, 1), "x"), *ties], 2) == (
        ("x",),
        ("a", "b", "c"),
        1,
    )
    assert rules.select_hits(ties, 0) == ((), (), 0)
    assert rules.select_hits(ties, 5) == (("a", "b", "c"), (), 0)


# ---------------------------------------------------------------------------
# US Weapons Chart
# ---------------------------------------------------------------------------
INF = {"BZ", "BG", "BR", "DE", "MO", "RD"}


def test_weapons_by_unit_type() -> None:
    w = rules.unit_weapons
    assert w("infantry", True, 1) == INF
    assert w("ranger", True, 1) == INF
    assert w("heavy", True, 1) == INF | {"MG"}  # 9-2 adjacent
    assert w("heavy", True, 2) == {"BZ", "BR", "MO", "RD", "MG"}  # 9-2 non-adjacent
    assert w("anti_aircraft", True, 1) == {"MG", "BR"}
    assert w("tank", True, 4) == {"AR", "BZ"}
    assert w("tank", True, 3) == {"AR", "BZ", "MG", "BR"}  # within 3 hexes
    assert w("artillery", True, 5) == {"AR", "MO", "DE"}
    assert w("dukw", True, 5) == {"AR", "MO", "DE"}
    assert w("anti_tank", True, 2) == {"AR", "BZ"}
    assert w("naval", True, 9) == {"NA", "AR", "DE"}
    assert w("hq", True, 1) == {"RD"}
    assert w("general", True, 1) == {"RD"}  # Reading: a general counts as an HQ


def test_reading_reduced_infantry_brings_its_reduced_weapons() -> None:
    assert rules.unit_weapons("infantry", False, 1, reduced=("BR", "RD")) == {"BR", "RD"}
    assert rules.unit_weapons("heavy", False, 1, range2=True, reduced=("MO",)) == {"MO"}
    with pytest.raises(ValueError):
        rules.unit_weapons("cavalry", True, 1)


def test_weapons_requirements_flanking_and_the_hero() -> None:
    chk = rules.check_weapons
    assert chk({"BG", "DE"}, INF, 1).ok
    v = chk({"AR", "DE"}, INF, 1)
    assert not v.ok and v.missing == ("AR",)
    hero = chk({"AR", "DE"}, INF, 1, hero=True)
    assert hero.ok and hero.hero_used and hero.missing == ("AR",)
    assert not chk({"AR", "NA"}, INF, 1, hero=True).ok  # one missing weapon only
    assert not chk({"FL"}, INF, 1).ok  # FL: not by possession
    assert chk({"FL"}, set(), 2).ok  # ... but by two attack directions
    assert not chk({"FL", "DE"}, INF, 1, hero=True).ok  # the Hero never stands in for FL
    assert chk({"FL", "AR"}, INF, 2, hero=True).ok
    assert not chk({"FL", "AR"}, INF, 2).ok


# ---------------------------------------------------------------------------
# US Barrage Table
# ---------------------------------------------------------------------------
BARRAGE = {
    # (colour, symbol, depth): results for strength 1-2, 3-5, 6+
    (False, False, True): ("none", "none", "none"),
    (False, False, False): ("none", "none", "none"),
    (False, True, True): ("none", "none", "disrupt"),
    (False, True, False): ("none", "disrupt", "disrupt"),  # Reading: merged 3-5 / 6+
    (True, False, True): ("none", "disrupt", "disrupt"),
    (True, False, False): ("disrupt", "disrupt", "disrupt"),  # Reading: merged all three
    (True, True, True): ("disrupt", "disrupt", "disrupt_remove_depth"),
    (True, True, False): ("disrupt", "disrupt", "disrupt_remove_depth"),
}


@pytest.mark.parametrize(("key", "expected"), sorted(BARRAGE.items()))
def test_barrage_table(key: tuple[bool, bool, bool], expected: tuple[str, str, str]) -> None:
    for strength, want in zip((1, 3, 6), expected, strict=True):
        assert rules.barrage_result(*key, strength) == want
    for strength, want in zip((2, 5, 12), expected, strict=True):
        assert rules.barrage_result(*key, strength) == want


def test_barrage_with_no_strength_does_nothing() -> None:
    assert rules.barrage_result(True, True, False, 0) == "none"


# ---------------------------------------------------------------------------
# Terrain Defense Table
# ---------------------------------------------------------------------------
def test_terrain_in_the_defender_hex() -> None:
    m = rules.defense_multipliers
    assert m("buildings", None) == m("bocage", None) == (2, 2)
    assert m("woods", None) == m("orchard", None) == (2, 1)
    assert m("pavilion", None) == m("draw", None) == m("high_ground", None) == (1, 1)
    assert m("beach", None) == (1, 1)  # unmarked


def test_terrain_across_the_hexside() -> None:
    m = rules.defense_multipliers
    assert m("beach", ("slope",)) == m("beach", ("bluff_down",)) == (2, 2)
    assert m("beach", ("shingle",)) == m("flat", ("at_ditch",)) == m("flat", ("at_wall",)) == (2, 1)
    assert m("beach", ("seawall",)) == m("beach", ("hedge",)) == m("beach", ("unmarked",)) == (1, 1)


def test_worked_example_effects_are_not_cumulative() -> None:
    # a German unit in bocage attacked through a slope hexside is only doubled
    assert rules.defense_multipliers("bocage", ("slope",)) == (2, 2)
    # Reading: per column: woods (2, 1) across shingle (2, 1) stays (2, 1)
    assert rules.defense_multipliers("woods", ("shingle",)) == (2, 1)
    assert rules.defense_multipliers("high_ground", ("shingle",)) == (2, 1)


def test_hexside_benefit_only_through_one_hexside() -> None:
    # the caller passes None when the attackers come through different sides
    assert rules.defense_multipliers("high_ground", None) == (1, 1)


def test_prohibited_attacks_and_bluff_direction() -> None:
    assert rules.side_name("bluff", "up") == "bluff_up"
    assert rules.side_name("bluff", "down") == "bluff_down"
    assert rules.side_name("slope", "up") == "slope"
    for side in ("sheer_cliff", "scaleable_cliff", "bluff_up"):
        assert rules.attack_prohibited((side,))
    assert not rules.attack_prohibited(("bluff_down", "slope", "shingle", "unmarked"))


# ---------------------------------------------------------------------------
# US Attack Results Chart
# ---------------------------------------------------------------------------
def test_strength_comparisons() -> None:
    c = rules.compare_strengths
    assert [c(a, 5, False) for a in (4, 5, 6, 9, 10, 11)] == [
        "less_or_equal",
        "less_or_equal",
        "greater",
        "greater",
        "double",
        "double",
    ]
    assert [c(a, 5, True) for a in (4, 5, 6, 9, 10)] == [
        "less",
        "equal",
        "greater",
        "greater",
        "double",
    ]


ATTACK_NO = {
    ("less_or_equal", "alone"): ("us_disrupted", "german_gains_depth"),
    ("less_or_equal", "unrevealed"): ("us_disrupted", "german_unrevealed"),
    ("less_or_equal", "revealed"): ("us_disrupted",),
    ("greater", "alone"): ("german_gains_depth",),
    ("greater", "unrevealed"): ("us_disrupted",),
    ("greater", "revealed"): ("none",),
    ("double", "alone"): ("german_disrupted",),
    ("double", "unrevealed"): ("german_disrupted",),
    ("double", "revealed"): ("german_disrupted", "optional_attrition"),
}
ATTACK_YES = {
    ("less", "alone"): ("german_gains_depth",),
    ("less", "unrevealed"): ("us_disrupted",),
    ("less", "revealed"): ("none",),
    ("equal", "alone"): ("german_disrupted",),
    ("equal", "unrevealed"): ("none",),
    ("equal", "revealed"): ("german_disrupted",),
    ("greater", "alone"): ("german_defeated",),
    ("greater", "unrevealed"): ("reveal_compare",),
    ("greater", "revealed"): ("depth_eliminated", "german_disrupted"),
    ("double", "alone"): ("german_defeated",),
    ("double", "unrevealed"): ("reveal_compare",),  # Reading: blank continues the cell above
}


@pytest.mark.parametrize(("key", "expected"), sorted(ATTACK_NO.items()))
def test_attack_without_the_required_weapons(
    key: tuple[str, str], expected: tuple[str, ...]
) -> None:
    for turn in (1, 20):
        assert rules.attack_results(False, *key, turn) == expected


@pytest.mark.parametrize(("key", "expected"), sorted(ATTACK_YES.items()))
def test_attack_with_the_required_weapons(key: tuple[str, str], expected: tuple[str, ...]) -> None:
    for turn in (1, 20):
        assert rules.attack_results(True, *key, turn) == expected


def test_double_against_revealed_depth_splits_by_turn() -> None:
    for turn in (1, 16):
        assert rules.attack_results(True, "double", "revealed", turn) == (
            "depth_eliminated",
            "german_disrupted",
        )
    for turn in (17, 32):
        assert rules.attack_results(True, "double", "revealed", turn) == (
            "depth_eliminated",
            "german_defeated",
        )


def test_reveal_and_compare_again() -> None:
    # unit 8, marker 2: 12 > 10 (not double): the revealed column, greater
    assert rules.reveal_results("2", 12, 8, 2, 5) == ("depth_eliminated", "german_disrupted")
    # 20 >= 2 x 10: double, by turn band
    assert rules.reveal_results("2", 20, 8, 2, 5) == ("depth_eliminated", "german_disrupted")
    assert rules.reveal_results("2", 20, 8, 2, 20) == ("depth_eliminated", "german_defeated")
    # with the marker the attack is only equal, or less
    assert rules.reveal_results("3", 11, 8, 3, 5) == ("german_disrupted",)
    assert rules.reveal_results("3", 10, 8, 3, 5) == ("none",)


def test_footnote_1_tactical_reinforcement_defeats_the_unit() -> None:
    assert rules.reveal_results("TR", 9, 8, 0, 5) == ("depth_eliminated", "german_defeated")
    assert rules.reveal_results("TR", 30, 8, 0, 20) == ("depth_eliminated", "german_defeated")


# ---------------------------------------------------------------------------
# German Action Summary
# ---------------------------------------------------------------------------
SUMMARY = {
    # letter: (WN: us in fof, no us, unoccupied), (reinforcement: us, no us, unoccupied)
    "F": (("fire", "no_action", "no_action"), ("fire", "no_action", "no_action")),
    "R": (("fire", "no_action", "reoccupy"), ("resupply_fire", "redeploy", "reinforce")),
    "M": (("fire", "mortar_fire", "no_action"), ("fire", "mortar_fire", "no_action")),
    "P": (("fire", "no_action", "no_action"), ("patrol_all", "patrol_one", "no_action")),
    "A": (("fire", "artillery_fire", "no_action"), ("advance_or_fire", "advance", "ambush")),
}


@pytest.mark.parametrize("letter", sorted(SUMMARY))
def test_german_action_summary(letter: str) -> None:
    for position, row in zip(("wn", "reinforcement"), SUMMARY[letter], strict=True):
        got = tuple(rules.german_action(letter, position, s) for s in charts.STATUSES)
        assert got == row, (letter, position)


def test_action_summary_from_turn_17_and_its_printed_distances() -> None:
    assert not rules.uses_action_summary(16) and rules.uses_action_summary(17)
    params = charts.CHARTS.action_params
    assert params["mortar_range"] == 5
    assert params["mortar_high_ground_wn"] == 2
    assert params["mortar_high_ground_reinforcement"] == 3
    assert params["patrol_range"] == 3
    assert params["reinforcement_unoccupied_within"] == 2


def test_optional_german_armour_column() -> None:
    assert [rules.armour_action(x) for x in "FRMPA"] == [
        ("fire_or_move", 4),
        ("overrun", 4),
        ("move_or_fire", 4),
        ("position_and_fire", 3),
        ("aimed_fire", 4),
    ]


# ---------------------------------------------------------------------------
# The chart file itself
# ---------------------------------------------------------------------------
CHART_TEXT = Path(charts.CHARTS_FILE).read_text(encoding="utf-8")


def test_every_chart_record_is_published_not_reconstructed() -> None:
    assert charts.CHARTS.sources
    for component, key, source in charts.CHARTS.sources:
        assert not source.reconstructed, (component, key)
        assert source.text.startswith("DDOB "), (component, key)


def test_bad_chart_files_name_file_key_and_problem() -> None:
    broken = CHART_TEXT.replace(
        'result = "D"\neffect = "lose_drift"', 'result = "E"\neffect = "lose_drift"'
    )
    with pytest.raises(
        omaha.ScenarioError, match=r"charts\.toml: landing\[3\]\.result: 'E' is not one of"
    ):
        charts.charts_from_node(parse_toml(broken, "charts.toml"))
    missing = CHART_TEXT.replace(
        'dot = "sporadic"\nfirer = "ambush"', 'dot = "sporadic"\nfirer = "position"'
    )
    with pytest.raises(omaha.ScenarioError, match="the cell sporadic / ambush is missing"):
        charts.charts_from_node(parse_toml(missing, "charts.toml"))
    typo = CHART_TEXT.replace(
        "[[barrage]]\ncolour = false\nsymbol = false",
        "[[barrage]]\ncolor = false\nsymbol = false",
        1,
    )
    with pytest.raises(omaha.ScenarioError, match=r"barrage\[0\]\.color: unknown key"):
        charts.charts_from_node(parse_toml(typo, "charts.toml"))
    weapon = CHART_TEXT.replace('weapons = ["MG", "BR"]', 'weapons = ["MG", "XX"]')
    with pytest.raises(omaha.ScenarioError, match="'XX' is not a weapon code"):
        charts.charts_from_node(parse_toml(weapon, "charts.toml"))


def test_reading_row_icons_are_the_fire_dots() -> None:
    assert [rules.dot_for_symbol(x) for x in "●⊕○"] == ["intense", "steady", "sporadic"]
    with pytest.raises(ValueError, match="not a fire dot"):
        rules.dot_for_symbol("★")
