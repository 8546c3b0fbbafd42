"""US actions with pinned values: movement, the attack chart, barrage, naval fire, engineers."""

from __future__ import annotations

import pytest

import omaha
from omaha.landing_table.actions import Attack, EndActions, Join, Move, Resolve, ResolveHero
from omaha.landing_table.procedures import attack, barrage, orders
from omaha.landing_table.rules import approach
from omaha.landing_table.state import LandingTableState

from .helpers import fresh, legal, place, quiet, stack_cards, texts


def board(turn: int = 10, scenario: str = "omaha") -> LandingTableState:
    return quiet(fresh(scenario), turn=turn, phase="us action")


def give_orders(s: LandingTableState, *uids: str) -> None:
    """Give the listed units their orders now, the first one first."""
    with s.edit():
        s.queue = list(uids)
        s.decision = {"kind": "orders", "unit": uids[0]}


def attack_with(s: LandingTableState, target: str, *uids: str, hero: bool = False) -> list[str]:
    start = len(s.log)
    attack.start(s, uids[0], target)
    for u in uids[1:]:
        attack.join(s, u)
    attack.resolve(s, hero)
    return texts(s, start)


# ---------------------------------------------------------------------------
# orders and movement
# ---------------------------------------------------------------------------
def test_orders_list_hold_moves_attacks_and_end() -> None:
    s = board()
    place(s, "E/16", "F21")
    give_orders(s, "E/16")
    options = legal(s)
    assert options[0] == "add E/16" or "hold E/16" in options
    assert "attack WN64 with E/16" in options and "end actions" in options
    assert "move E/16 to E21" in options
    assert not any(o.startswith("attack WN65") for o in options)  # out of range


def test_units_stop_next_to_occupied_positions() -> None:
    s = board()
    place(s, "E/16", "E19")
    reach = {s.scen.board.labels[c] for c in s.reachable("E/16")}
    assert "E21" in reach  # next to WN64 (F22): entered, then stop
    assert "E23" not in reach  # would need to pass through a hex next to it


def test_disrupted_units_move_one_hex_and_do_not_attack() -> None:
    s = board()
    place(s, "E/16", "F21", disrupted=True)
    give_orders(s, "E/16")
    options = legal(s)
    assert not any(o.startswith("attack") for o in options)
    cells = [s.scen.board.cell(o.split()[-1]) for o in options if o.startswith("move")]
    here = s.us["E/16"].where
    assert cells and all(s.scen.board.distance(here, c) == 1 for c in cells)
    with pytest.raises(omaha.IllegalAction, match="E/16 is disrupted: it may hold or move one hex"):
        s.apply(Attack("WN64", "E/16"))


def test_orders_go_unit_by_unit() -> None:
    s = board()
    place(s, "E/16", "F21")
    place(s, "F/16", "F23")
    give_orders(s, "E/16", "F/16")
    with pytest.raises(omaha.IllegalAction, match="it is E/16's turn, not F/16's"):
        s.apply(Move("F/16", "E23"))


def test_vehicles_stay_below_the_shingle_until_a_draw_is_open() -> None:
    s = board()
    place(s, "A/743", "I24")
    place(s, "E/16", "I24")
    tank = {s.scen.board.labels[c] for c in s.reachable("A/743")}
    foot = {s.scen.board.labels[c] for c in s.reachable("E/16")}
    assert "H24" in foot and "H24" not in tank and "H23" not in tank  # the shingle
    s2 = board()
    place(s2, "A/743", "H20")  # at the mouth of E-1, behind its anti-tank ditch
    with s2.edit():
        s2.pos["WN65"].unit = s2.pos["WN64"].unit = None
    assert "G20" not in {s2.scen.board.labels[c] for c in s2.reachable("A/743")}
    with s2.edit():
        s2.exits_open["E-1"] = 10
    assert "G20" in {s2.scen.board.labels[c] for c in s2.reachable("A/743")}


def test_rangers_climb_the_scaleable_cliff_infantry_does_not() -> None:
    s = board()
    place(s, "A/2Rgr", "I5")
    place(s, "B/116", "I4")
    assert s.scen.board.cell("H4") in s.reachable("A/2Rgr")
    assert s.scen.board.cell("H3") not in s.reachable("B/116")


def test_engineers_clear_obstacles() -> None:
    s = board(turn=2, scenario="first_wave")
    place(s, "GAT-W", "I9")
    give_orders(s, "GAT-W")
    assert "clear obstacles with GAT-W" in legal(s)
    orders.clear_obstacles(s, "GAT-W")
    assert not s.obstacle(s.scen.board.cell("I9"))
    assert s.us["GAT-W"].acted


# ---------------------------------------------------------------------------
# the attack chart in play
# ---------------------------------------------------------------------------
def test_attack_with_weapons_greater_defeats_a_lone_unit() -> None:
    s = board()
    place(s, "1/18", "F21")  # 12, full infantry: BG DE ...
    place(s, "D/116", "F23")  # 9-2 adjacent
    log = attack_with(s, "WN64", "1/18", "D/116")
    assert "strength 21 vs 18 (unit 18x1); weapons yes; greater / alone: german defeated" in log[0]
    assert s.pos["WN64"].unit is None and s.pos["WN64"].defeated
    assert s.ger["WN64"].where == "eliminated" and s.stats["german_units_defeated"] == 1


def test_attack_without_weapons_disrupts_adjacent_attackers_and_gains_depth() -> None:
    s = board()
    place(s, "A/743", "F21")  # a tank: AR BZ MG BR, adjacent
    place(s, "D/116", "F20")  # a 9-2 two hexes away
    stack_cards(s, [], extra=[0])  # the depth marker drawn from the 716th cup
    log = attack_with(s, "WN64", "A/743", "D/116")
    assert "weapons no (missing BG, DE)" in log[0] and "less or equal / alone" in log[0]
    assert s.us["A/743"].disrupted and not s.us["D/116"].disrupted
    assert s.pos["WN64"].depth == "1" and not s.pos["WN64"].depth_revealed


def test_reveal_and_compare_again_tactical_reinforcement() -> None:
    s = board()
    with s.edit():
        s.pos["WN62"].depth = "TR"
    for uid, hx in (("1/18", "F25"), ("2/18", "F27"), ("3/18", "E26")):
        place(s, uid, hx)  # three directions: FL met
    log = attack_with(s, "WN62", "1/18", "2/18", "3/18")
    assert "greater / unrevealed: reveal compare" in log[0]
    assert "revealed: Tactical Reinforcement" in log[1] and "german defeated" in log[1]
    assert s.pos["WN62"].unit is None and s.pos["WN62"].depth is None


def test_reveal_and_compare_again_with_a_strength() -> None:
    s = board()
    with s.edit():
        s.pos["WN62"].depth = "2"
    for uid, hx in (("1/18", "F25"), ("2/18", "F27"), ("3/18", "E26")):
        place(s, uid, hx)
    log = attack_with(s, "WN62", "1/18", "2/18", "3/18")
    assert "depth marker at WN62 revealed: 2; now 36 vs 26: greater" in log[1]
    assert s.pos["WN62"].unit == "WN62" and s.pos["WN62"].depth is None
    assert s.ger["WN62"].disrupted


@pytest.mark.parametrize(("turn", "defeated"), [(10, False), (17, True)])
def test_double_against_revealed_depth_by_turn_band(turn: int, defeated: bool) -> None:
    s = board(turn=turn)
    with s.edit():
        s.pos["WN67"].depth, s.pos["WN67"].depth_revealed = "1", True
    place(s, "1/18", "D14")
    place(s, "2/18", "D16")
    log = attack_with(s, "WN67", "1/18", "2/18")
    assert "24 vs 11" in log[0] and "double / revealed" in log[0]
    assert s.pos["WN67"].depth is None
    assert (s.pos["WN67"].unit is None) is defeated


def test_optional_attrition() -> None:
    s = board()
    with s.edit():
        s.pos["WN67"].depth, s.pos["WN67"].depth_revealed = "1", True
    for uid, hx in (("1/18", "D14"), ("2/18", "D16"), ("3/18", "C15")):
        place(s, uid, hx, steps=2)  # reduced: BR, RD only (no MO)
    log = attack_with(s, "WN67", "1/18", "2/18", "3/18")
    assert "weapons no (missing MO)" in log[0] and "german disrupted, optional attrition" in log[0]
    assert s.decision == {"kind": "attrition", "units": ["1/18", "2/18", "3/18"]}
    assert legal(s) == ["attrition 1/18", "attrition 2/18", "attrition 3/18", "no attrition"]
    attack.attrition(s, "2/18")
    assert s.us["2/18"].steps == 1 and s.pos["WN67"].depth is None
    assert s.ger["WN67"].disrupted


def test_the_hero_stands_in_for_one_missing_weapon_but_not_flanking() -> None:
    s = board()
    place(s, "A/743", "I19")  # AR
    place(s, "1/18", "H18")
    give_orders(s, "A/743", "1/18")
    s.apply(Attack("WN65", "A/743"))
    s.apply(Join("1/18"))
    assert "resolve with hero" in legal(s)  # NA missing
    heroes = s.heroes
    s.apply(ResolveHero())
    assert s.heroes == heroes - 1 and s.stats["heroes_used"] == 1
    assert any("Hero stands in for NA" in t for t in texts(s))
    s2 = board()
    place(s2, "1/18", "E13")  # WN68 needs DE and FL; one direction only
    give_orders(s2, "1/18")
    s2.apply(Attack("WN68", "1/18"))
    assert "resolve with hero" not in legal(s2)


def test_hexside_benefit_only_when_all_attack_through_one_side() -> None:
    s = board()
    place(s, "A/743", "I19")
    place(s, "1/18", "I19")
    with s.edit():
        s.ctx = {"target": "WN65", "attackers": ["A/743", "1/18"]}
    plan = attack.attack_plan(s)
    assert (plan["unit_mult"], plan["same_side"], plan["directions"]) == (2, ("shingle",), 1)
    with s.edit():
        s.us["1/18"].where = s.scen.board.cell("H18")
    plan = attack.attack_plan(s)
    assert (plan["unit_mult"], plan["same_side"], plan["directions"]) == (1, None, 2)


def test_attacks_up_a_cliff_are_prohibited() -> None:
    s = board()
    b = s.scen.board
    assert approach(b, b.cell("I2"), b.cell("H2")).prohibited
    place(s, "C/2Rgr", "I2")
    place(s, "A/743", "K3")  # a tank 3 hexes away: its thread also comes up the cliff
    assert not orders.can_attack(s, "C/2Rgr", "WN74") and not orders.can_attack(s, "A/743", "WN74")
    give_orders(s, "C/2Rgr")
    with pytest.raises(omaha.IllegalAction, match="cannot attack WN74 across that hexside"):
        s.apply(Attack("WN74", "C/2Rgr"))
    place(s, "B/2Rgr", "H3")  # on the cliff top beside it
    assert orders.can_attack(s, "B/2Rgr", "WN74")


def test_at_most_three_attackers_and_one_attack_per_position() -> None:
    s = board()
    for uid, hx in (("1/18", "F21"), ("2/18", "F23"), ("3/18", "E22"), ("1/115", "E23")):
        place(s, uid, hx)
    give_orders(s, "1/18", "2/18", "3/18", "1/115")
    s.apply(Attack("WN64", "1/18"))
    assert legal(s) == ["add 1/115", "add 2/18", "add 3/18", "resolve"]
    s.apply(Join("2/18"))
    with s.edit():
        s.pos["WN64"].depth = "3"  # the position stands after the attack
    s.apply(Join("3/18"))  # three attackers: "resolve" is the only choice, taken at once
    forced = [e for e in s.log if e.kind == "kernel.forced"]
    assert forced and forced[-1].details["action"] == "resolve"
    assert s.pos["WN64"].unit == "WN64"
    assert s.decision == {"kind": "orders", "unit": "1/115"}
    assert "attack WN64 with 1/115" not in legal(s)  # attacked once this phase
    with pytest.raises(omaha.IllegalAction, match="already been attacked this turn"):
        s.apply(Attack("WN64", "1/115"))


def test_barrage_reads_the_card_colour_and_the_unit_symbol() -> None:
    s = board()
    place(s, "B/111", "I21")  # a DUKW battery (strength 6, square) within 8 of WN64
    cid = next(
        c
        for c, k in sorted(s.scen.cards.items())
        if "red" in k.colours and k.symbol == s.unit("B/111").symbol
    )
    stack_cards(s, [cid])
    with s.edit():
        s.pos["WN64"].depth = "2"
    barrage.barrage(s, "B/111", "WN64")
    assert s.ger["WN64"].disrupted and s.pos["WN64"].depth is None  # 6+: depth removed
    assert "colour yes, symbol yes, depth yes, strength 6: disrupt remove depth" in texts(s)[-1]


def test_barrage_with_nothing_shown_has_no_effect() -> None:
    s = board()
    place(s, "B/111", "I21")
    sym = s.unit("B/111").symbol
    cid = next(
        c for c, k in sorted(s.scen.cards.items()) if "red" not in k.colours and k.symbol != sym
    )
    stack_cards(s, [cid])
    barrage.barrage(s, "B/111", "WN64")
    assert not s.ger["WN64"].disrupted


def test_naval_fire_needs_a_radio_nearby_and_one_marker_per_attack() -> None:
    s = board()
    assert s.naval_ids() == ("NF1", "NF2", "NF3", "NF4")
    assert s.naval_targets() == []
    place(s, "1/18", "F21")  # full infantry: RD, next to WN64
    assert "WN64" in s.naval_targets() and "WN66" not in s.naval_targets()
    assert all(s.scen.pos_by_id[p].kind == "wn" for p in s.naval_targets())
    give_orders(s, "1/18", "NF1", "NF2")
    s.apply(Attack("WN64", "1/18"))
    assert legal(s) == ["add NF1", "add NF2", "resolve"]
    s.apply(Join("NF1"))  # then "resolve" is the only choice (NF2 may not join): taken at once
    assert any(t.startswith("attack on WN64: 1/18, NF1 strength 18 vs 18") for t in texts(s))
    assert "NF1" in s.naval_used and s.decision == {"kind": "orders", "unit": "NF2"}


def test_end_actions_ends_the_phase() -> None:
    s = board(turn=3, scenario="first_wave")
    place(s, "E/16", "F21")
    place(s, "F/16", "F23")
    give_orders(s, "E/16", "F/16")
    s.apply(EndActions())
    assert s.us["E/16"].acted is False and s.us["F/16"].acted is False  # never asked
    assert any("turn 4 begins" in t for t in texts(s))


def test_a_resolved_attack_through_the_protocol_is_logged_and_recorded() -> None:
    s = board()
    place(s, "1/18", "F21")
    place(s, "D/116", "F23")
    place(s, "2/18", "E22")
    give_orders(s, "1/18", "D/116", "2/18")
    s.apply(Attack("WN64", "1/18"))
    s.apply(Join("D/116"))
    s.apply(Resolve())
    assert [str(a) for a in s.actions] == ["attack WN64 with 1/18", "add D/116", "resolve"]
    assert s.pos["WN64"].unit is None
