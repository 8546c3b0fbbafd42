"""The German phase with pinned cards: the fire chart and the action summary in play."""

from __future__ import annotations

from omaha.landing_table.actions import Hit
from omaha.landing_table.procedures import german
from omaha.landing_table.state import LandingTableState

from .helpers import card, cells_with, fresh, legal, place, quiet, stack_cards, texts


def fire_board(turn: int = 2, scenario: str = "first_wave") -> LandingTableState:
    return quiet(fresh(scenario), turn=turn, phase="german fire")


def wn70(s: LandingTableState):  # type: ignore[no-untyped-def]
    return s.scen.pos_by_id["WN70"]


def test_intense_fire_hits_every_type_and_symbol() -> None:
    s = fire_board()
    p = wn70(s)
    with s.edit():
        s.pos["WN70"].depth = "1"  # hit limit 2
    hexes = cells_with(p, "intense", "HI")
    place(s, "B/743", hexes[0])  # a tank, circle
    place(s, "G/116", hexes[1])  # infantry, square
    german.fire(s, "WN70", card(symbol="triangle"))
    assert s.us["B/743"].steps == 1 and s.us["G/116"].steps == 1
    assert not s.us["G/116"].disrupted


def test_steady_fire_hits_non_armoured_units_with_the_target_symbol() -> None:
    s = fire_board()
    p = wn70(s)
    with s.edit():
        s.pos["WN70"].depth = "1"
    k = cells_with(p, "steady", "K")
    place(s, "A/116", k[0])  # circle
    place(s, "G/116", k[1])  # square
    place(s, "B/743", k[2])  # tank, circle
    german.fire(s, "WN70", card(symbol="circle"))
    assert [s.us[u].steps for u in ("A/116", "G/116", "B/743")] == [1, 2, 2]


def test_armour_bonus_makes_tanks_count_as_non_armoured() -> None:
    s = fire_board()
    k = cells_with(wn70(s), "steady", "K")
    place(s, "B/743", k[0])
    german.fire(s, "WN70", card(symbol="circle", icon="armour"))
    assert s.us["B/743"].steps == 1


def test_sporadic_fire_disrupts_matching_non_armoured_units() -> None:
    s = fire_board()
    with s.edit():
        s.pos["WN70"].depth = "1"
    k = cells_with(wn70(s), "sporadic", "K")
    place(s, "A/116", k[0])  # circle
    place(s, "G/116", k[1])  # square
    german.fire(s, "WN70", card(symbol="circle"))
    assert s.us["A/116"].disrupted and s.us["A/116"].steps == 2
    assert not s.us["G/116"].disrupted


def test_concentrated_target_five_steps_match_whatever_their_symbol() -> None:
    s = fire_board(turn=17, scenario="omaha")  # hit limit 2 for a lone unit
    hexes = cells_with(wn70(s), "steady", "K")
    for uid in ("A/116", "G/116", "F/116"):  # circle, square, triangle: 6 steps
        place(s, uid, hexes[0])
    place(s, "E/116", hexes[1])  # circle, alone: does not match a square card
    german.fire(s, "WN70", card(symbol="square"))
    # all three match and tie (steady, same distance, 2 steps): the player picks two
    assert s.decision == {"kind": "hit", "units": ["A/116", "F/116", "G/116"], "need": 2}
    german.choose_hit(s, "A/116")
    assert s.decision == {"kind": "hit", "units": ["F/116", "G/116"], "need": 1}
    german.choose_hit(s, "G/116")
    assert [s.us[u].steps for u in ("A/116", "G/116", "F/116")] == [1, 1, 2]
    assert s.us["E/116"].steps == 2 and s.decision is None


def test_hit_limit_and_the_player_choice_among_ties() -> None:
    s = fire_board()  # WN70 alone: hit limit 1
    hx = cells_with(wn70(s), "intense", "H")[0]
    place(s, "A/116", hx)
    place(s, "G/116", hx)
    german.fire(s, "WN70", card())
    assert s.decision == {"kind": "hit", "units": ["A/116", "G/116"], "need": 1}
    assert legal(s) == ["hit A/116", "hit G/116"]
    assert s.pending is not None and "choose 1 of A/116, G/116" in s.pending.prompt
    german.choose_hit(s, "G/116")
    assert (s.us["A/116"].steps, s.us["G/116"].steps) == (2, 1)
    assert s.decision is None


def test_selection_priorities_dot_then_distance_then_steps() -> None:
    s = fire_board()
    p = wn70(s)
    intense_far = cells_with(p, "intense", "I")[0]
    steady_near = cells_with(p, "steady", "G")[0]
    place(s, "A/116", steady_near)
    place(s, "G/116", intense_far)
    german.fire(s, "WN70", card(symbol="circle"))  # both would be hit; the limit is 1
    assert (s.us["A/116"].steps, s.us["G/116"].steps) == (2, 1)
    s2 = fire_board()
    h, i = cells_with(p, "intense", "H")[0], cells_with(p, "intense", "I")[0]
    place(s2, "A/116", i)
    place(s2, "G/116", h)  # closer
    german.fire(s2, "WN70", card())
    assert (s2.us["A/116"].steps, s2.us["G/116"].steps) == (2, 1)
    s3 = fire_board()
    place(s3, "A/116", h, steps=1)
    place(s3, "G/116", h)  # more steps
    german.fire(s3, "WN70", card())
    assert (s3.us["A/116"].steps, s3.us["G/116"].steps) == (1, 1)


def test_unrevealed_reinforcement_position_also_disrupts() -> None:
    s = fire_board()
    p = s.scen.pos_by_id["R-Hamel"]
    assert not s.ger["6/916"].revealed
    hx = cells_with(p, "intense")[0]
    place(s, "A/116", hx)
    german.fire(s, "R-Hamel", card())
    assert s.us["A/116"].steps == 1 and s.us["A/116"].disrupted
    assert "unrevealed reinforcement position" in " ".join(texts(s))


def test_leader_hit_when_the_limit_is_not_used_up() -> None:
    s = fire_board()
    hx = cells_with(wn70(s), "intense", "H")
    place(s, "Cota", hx[0])
    german.fire(s, "WN70", card(icon="leader"))
    assert s.us["Cota"].status == "eliminated"
    s2 = fire_board()
    place(s2, "Cota", hx[0])
    place(s2, "A/116", hx[1])  # takes the only hit
    german.fire(s2, "WN70", card(icon="leader"))
    assert s2.us["Cota"].status == "ashore" and s2.us["A/116"].steps == 1
    s3 = fire_board()
    place(s3, "Cota", hx[0])
    german.fire(s3, "WN70", card(icon="none"))
    assert s3.us["Cota"].status == "ashore"  # leaders are hit only by the note


def test_leader_in_a_sporadic_field_is_not_hit() -> None:
    s = fire_board()
    place(s, "Cota", cells_with(wn70(s), "sporadic", "K")[0])
    german.fire(s, "WN70", card(icon="leader"))
    assert s.us["Cota"].status == "ashore"


def test_disrupted_german_unit_is_silent_until_the_phase_ends() -> None:
    s = fire_board()
    place(s, "A/116", cells_with(wn70(s), "intense", "H")[0])
    with s.edit():
        s.ger["WN70"].disrupted = True
    german.fire(s, "WN70", card())
    assert s.us["A/116"].steps == 2
    assert "WN70 does not fire (disrupted)" in texts(s)[-1]
    german.end_phase(s)
    assert not s.ger["WN70"].disrupted


def test_disrupt_only_results_skip_disrupted_units() -> None:
    s = fire_board()
    k = cells_with(wn70(s), "sporadic", "K")
    place(s, "A/116", k[0], disrupted=True)
    place(s, "E/116", k[-1])  # also circle, farther
    german.fire(s, "WN70", card(symbol="circle"))
    assert s.us["E/116"].disrupted


def test_the_card_colours_choose_the_firing_positions() -> None:
    s = fire_board()
    cid = "C02"  # yellow
    stack_cards(s, [cid])
    german.begin_phase(s)
    yellow = [p.id for p in s.scen.positions if p.colour == "yellow" and s.occupied(p.id)]
    assert s.queue == yellow and s.card == cid
    assert s.phase == "german fire"


# ---------------------------------------------------------------------------
# German Action Summary (turn 17 on)
# ---------------------------------------------------------------------------
def summary_board() -> LandingTableState:
    return quiet(fresh("omaha"), turn=18, phase="german action")


def test_f_fire_with_doubled_hit_limit_or_no_action() -> None:
    s = summary_board()
    hx = cells_with(wn70(s), "intense", "HI")
    place(s, "A/116", hx[0])
    place(s, "G/116", hx[1])
    german.act(s, "WN70", card(action="F", colours=("blue",)))
    assert s.us["A/116"].steps == 1 and s.us["G/116"].steps == 1  # limit 1 x 2
    s2 = summary_board()
    german.act(s2, "WN70", card(action="F"))
    assert "occupied, no US unit in its field of fire): action F -> no action" in texts(s2)[-1]


def test_r_reoccupies_an_empty_wn_in_communication() -> None:
    s = summary_board()
    with s.edit():
        s.pos["WN70"].unit = None
        s.ger["WN70"].where = "eliminated"
    german.act(s, "WN70", card(action="R"))
    assert s.pos["WN70"].unit == "WN70" and s.ger["WN70"].where == "WN70"
    s2 = summary_board()
    with s2.edit():
        s2.pos["WN70"].unit = None
        s2.ger["WN70"].where = "eliminated"
    place(s2, "A/116", "F11")  # a US unit holds it: not in communication
    german.act(s2, "WN70", card(action="R"))
    assert s2.pos["WN70"].unit is None


def test_r_resupplies_then_fires_from_an_occupied_reinforcement_position() -> None:
    s = summary_board()
    p = s.scen.pos_by_id["R-Hamel"]
    place(s, "A/116", cells_with(p, "intense")[0])
    stack_cards(s, [], extra=[0])  # the depth marker drawn from the 352nd cup
    german.act(s, "R-Hamel", card(action="R"))
    assert s.pos["R-Hamel"].depth is not None
    assert s.us["A/116"].steps == 1 and s.us["A/116"].disrupted  # still face down


def test_r_redeploys_towards_us_units() -> None:
    s = summary_board()
    target = s.scen.pos_by_id["R-Moulins"]
    place(s, "A/116", cells_with(target, "intense")[0])
    german.act(s, "R-Hamel", card(action="R"))
    assert s.pos["R-Moulins"].unit == "6/916" and s.pos["R-Hamel"].unit is None


def test_r_reinforces_a_vp_position_near_us_units() -> None:
    s = summary_board()
    p = s.scen.pos_by_id["R-Vierville"]
    assert p.vp > 0 and s.pos[p.id].unit is None
    place(s, "A/116", "E7")  # within 2 hexes of D6
    stack_cards(s, [], extra=[0, 0])  # a unit from the Division box, then a depth marker
    german.act(s, "R-Vierville", card(action="R"))
    gid = s.pos["R-Vierville"].unit
    assert gid in s.scen.division and not s.ger[gid].revealed
    assert s.pos["R-Vierville"].depth is not None


def test_unoccupied_reinforcement_position_needs_a_us_unit_within_2() -> None:
    s = summary_board()
    german.act(s, "R-Vierville", card(action="R"))
    assert s.pos["R-Vierville"].unit is None
    assert "action R -> no action" in texts(s)[-1]


def test_m_mortar_fire_on_units_with_the_symbol_within_5_or_2_on_the_plateau() -> None:
    s = summary_board()
    with s.edit():
        s.pos["WN67"].depth = "1"  # limit 4 on turn 18
    place(s, "A/116", "G18")  # circle, 4 from WN67 (D15), below the bluff, out of its field
    place(s, "E/116", "D19")  # circle, on the plateau 4 away: beyond 2
    place(s, "G/116", "G19")  # square
    start = len(s.log)
    german.act(s, "WN67", card(action="M", symbol="circle"))
    assert "action M -> mortar fire" in texts(s, start)[0]
    assert [s.us[u].steps for u in ("A/116", "E/116", "G/116")] == [1, 2, 2]


def test_p_patrols() -> None:
    s = summary_board()
    p = s.scen.pos_by_id["R-Hamel"]
    place(s, "A/116", cells_with(p, "intense")[0])
    place(s, "G/116", cells_with(p, "steady")[0])
    place(s, "F/116", cells_with(p, "sporadic")[0])
    german.act(s, "R-Hamel", card(action="P"))
    assert [s.us[u].disrupted for u in ("A/116", "G/116", "F/116")] == [True, True, False]
    s2 = summary_board()
    place(s2, "A/116", "H11")  # outside its field (the beach), 3 hexes away
    german.act(s2, "R-Hamel", card(action="P"))
    assert s2.us["A/116"].disrupted and s2.us["A/116"].steps == 2


def test_a_artillery_fire_needs_artillery() -> None:
    s = summary_board()
    place(s, "A/116", "D10")  # 5 from H7, outside WN72's field
    german.act(s, "WN72", card(action="A"))
    assert s.us["A/116"].steps == 1
    s2 = summary_board()
    place(s2, "A/116", "D10")
    german.act(s2, "WN70", card(action="A"))  # WN70 has no artillery
    assert s2.us["A/116"].steps == 2


def test_a_advance_along_the_arrow_or_fire() -> None:
    s = summary_board()
    with s.edit():
        s.pos["WN70"].unit = None
        s.ger["WN70"].where = "eliminated"
    german.act(s, "R-Hamel", card(action="A"))
    assert s.pos["WN70"].unit == "6/916" and s.pos["R-Hamel"].unit is None
    s2 = summary_board()  # WN70 still held: the advance fails, the position fires
    place(s2, "A/116", cells_with(s2.scen.pos_by_id["R-Hamel"], "intense")[0])
    german.act(s2, "R-Hamel", card(action="A"))
    assert s2.pos["R-Hamel"].unit == "6/916" and s2.us["A/116"].steps == 1


def test_a_ambush_from_an_unoccupied_position() -> None:
    s = summary_board()
    p = s.scen.pos_by_id["R-Moulins"]
    intense = cells_with(p, "intense")
    place(s, "A/116", intense[0])  # circle
    place(s, "E/116", intense[1])  # circle too: ambush hits one only
    german.act(s, "R-Moulins", card(action="A", symbol="circle"))
    # both next to it, intense, 2 steps: a tie for the one unit hit
    assert s.decision == {"kind": "hit", "units": ["A/116", "E/116"], "need": 1}
    german.choose_hit(s, "E/116")
    assert [s.us[u].steps for u in ("A/116", "E/116")] == [2, 1]
    assert "ambush by an unoccupied position" in " ".join(texts(s))
    s2 = summary_board()
    place(s2, "A/116", cells_with(p, "intense")[0])
    german.act(s2, "R-Moulins", card(action="A", symbol="square"))  # no unit with the symbol
    assert s2.us["A/116"].steps == 2


def test_the_summary_starts_on_turn_17() -> None:
    s = quiet(fresh("omaha"), turn=17, phase="german action")
    stack_cards(s, ["C02"])
    german.begin_phase(s)
    assert s.phase == "german action"
    yellow = [p.id for p in s.scen.positions if p.colour == "yellow"]
    assert s.queue == yellow  # unoccupied positions act too
    s16 = quiet(fresh("omaha"), turn=16, phase="german fire")
    stack_cards(s16, ["C02"])
    german.begin_phase(s16)
    assert s16.phase == "german fire"


def test_hit_choice_survives_a_snapshot() -> None:
    s = fire_board()
    hx = cells_with(wn70(s), "intense", "H")[0]
    place(s, "A/116", hx)
    place(s, "G/116", hx)
    german.fire(s, "WN70", card())
    again = s.game.state_from_json(s.to_json())
    again.apply(Hit("A/116"))
    assert again.us["A/116"].steps == 1 and again.us["G/116"].steps == 2


def test_reading_card_icons_apply_to_action_summary_fire() -> None:
    s = summary_board()
    k = cells_with(wn70(s), "steady", "K")
    place(s, "B/743", k[0])  # a tank, circle
    german.act(s, "WN70", card(action="F", symbol="circle", icon="armour"))
    assert s.us["B/743"].steps == 1  # the armour bonus: steady fire hits it
    s2 = summary_board()
    place(s2, "Cota", cells_with(wn70(s2), "intense", "H")[0])
    german.act(s2, "WN70", card(action="F", icon="leader"))
    assert s2.us["Cota"].status == "eliminated"
