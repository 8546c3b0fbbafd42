"""Drift (6.2, 6.3), the First Wave row (6.4) and beach disruption (6.5) with pinned dice."""

from __future__ import annotations

from bloody_helpers import GAME, act, cell, staged, unit

from omaha.bloody import rules
from omaha.bloody.core import DEAD
from omaha.bloody.scenario import BloodyScenario
from omaha.bloody.state import BloodyState

SCEN = GAME.load_scenario()
assert isinstance(SCEN, BloodyScenario)


def at_drift(turn: int, units: dict[str, str], dice: list[int], **kw: object) -> BloodyState:
    """A state about to roll drift (the card window open) on ``turn``."""
    st = staged(turn=turn, units=units, dice=dice, step="landing_cards", phase="Drift", **kw)  # type: ignore[arg-type]
    return st


def landing_event(st: BloodyState, uid: str) -> dict[str, object]:
    return dict(
        next(e for e in st.log if e.kind == "bloody.landing" and e.details["unit"] == uid).details
    )


# ------------------------------------------------------------------ 6.2 drift
def test_6_2_a_drift_modifiers() -> None:
    assert rules.drift_modifier(1, False) == 1
    assert rules.drift_modifier(4, False) == 1
    assert rules.drift_modifier(5, False) == 0
    assert rules.drift_modifier(3, True) == -1
    assert rules.drift_modifier(6, True) == -2
    assert rules.drift_modifier(2, False, card=-2) == -1


def test_6_2_drift_table_moves_east() -> None:
    assert [rules.drift_squares(SCEN.drift, r) for r in (-1, 4, 5, 6, 7, 9)] == [0, 0, 1, 1, 2, 2]


def test_6_2_and_6_3_a_unit_drifts_east_then_moves_forward() -> None:
    # turn 2: C12 (off Dog White) rolls 4 +1 = 5: one square east to C13, then forward to C4
    st = at_drift(2, {"C/116": "C12"}, [4, 0, 4], clear_tokens=True)
    act(st, "continue")
    assert st.where[unit(st, "C/116")] == cell(st, "C4")


def test_6_2_b_drifting_off_the_map_eliminates() -> None:
    # Fox Red's First Wave square is the easternmost: a drift of 2 leaves the map
    st = at_drift(1, {"L/16": "C9", "I/16": "C8"}, [1, 6, 2, 0], clear_tokens=True)
    act(st, "continue")
    assert st.where[unit(st, "L/16")] == DEAD
    assert any("drifted off the map" in e.text for e in st.log)
    assert st.where[unit(st, "I/16")] == cell(st, "B8")


def test_6_3_every_unit_at_sea_moves_one_square_forward() -> None:
    st = at_drift(5, {"1/18": "C24", "2/18": "C15"}, [1, 1, 0, 4], clear_tokens=True)
    act(st, "continue")
    assert st.where[unit(st, "1/18")] == cell(st, "C15")
    assert st.where[unit(st, "2/18")] == cell(st, "C6")


def test_6_4_the_first_wave_row_can_be_chosen_for_random_events() -> None:
    st = staged(turn=2, units={"B/116": "C2"}, step="random_event", phase="Random Event")
    pairs = [(st.board.labels[u], st.board.labels[g]) for u, g in st.event_pairs()]
    assert ("C2", "B2") in pairs  # the obstacle on the beach square ahead
    # further out at sea a unit cannot be chosen
    st2 = staged(turn=2, units={"B/116": "C11"}, step="random_event", phase="Random Event")
    assert st2.event_pairs() == []


# ------------------------------------------------------------------ 6.5 beach disruption
def test_6_5_a_modifiers() -> None:
    m = rules.landing_modifiers(1, False, True, False)
    assert (m.turn, m.under_fire, m.total) == (2, 1, 3)
    assert rules.landing_modifiers(2, False, False, False).total == 2
    assert rules.landing_modifiers(3, False, False, False).total == 1
    assert rules.landing_modifiers(4, True, False, False).total == -1
    assert rules.landing_modifiers(5, False, False, True).total == 1


def test_6_5_first_wave_under_fire_on_turn_1() -> None:
    # A/116 reaches Dog Green (B2) under WN71/72 (S3): d6 5 +2 +1 = 8: eliminated
    st = at_drift(1, {"A/116": "C2"}, [1, 5, 0])
    act(st, "continue")
    ev = landing_event(st, "A/116")
    assert ev["total"] == 8 and ev["result"] == "eliminated"
    assert st.where[unit(st, "A/116")] == DEAD
    assert st.first_wave_ashore == 0


def test_6_5_one_modifier_for_several_strongpoints() -> None:
    # Charlie (B1) is under both WN74 (S1) and WN73 (S2): still only +1
    st = at_drift(1, {"C/2Rng": "C1"}, [1, 1, 0])
    act(st, "continue")
    ev = landing_event(st, "C/2Rng")
    assert ev["total"] == 1 + 2 + 1
    assert ev["result"] == "disrupted"  # 4-5 disrupts


def test_6_5_no_fire_modifier_once_the_strongpoints_are_cleared() -> None:
    st = at_drift(5, {"1/18": "C6"}, [1, 6, 0], tokens={"S7": []})
    act(st, "continue")
    ev = landing_event(st, "1/18")
    assert ev["total"] == 6 - 2  # -2 battalion, no turn or fire modifier


def test_6_5_results_change_the_ratings() -> None:
    # roll 3 +2 +1 = 6: disrupted and Initiative -1; roll 4 +3 = 7: disrupted, Engineers -1
    st = at_drift(2, {"B/116": "C2", "C/116": "C3"}, [1, 1, 3, 4, 0], init=3, eng=3)
    act(st, "continue")
    assert st.disrupted[unit(st, "B/116")] and st.disrupted[unit(st, "C/116")]
    # the ratings then rise by 1 in turn 3's Draw phase
    assert (st.init_rating, st.eng_rating) == (3, 3)
    assert any(e.kind == "bloody.rating" and "Initiative rating" in e.text for e in st.log)


def test_6_5_the_roll_is_made_once() -> None:
    st = at_drift(2, {"B/116": "C2", "A/116": "B2"}, [1, 1, 0], clear_tokens=True)
    st.landed[unit(st, "A/116")] = True
    act(st, "continue")
    assert [e.details["unit"] for e in st.log if e.kind == "bloody.landing"] == ["B/116"]


def test_6_5_other_division_modifier() -> None:
    # E/16 (1st ID) lands on Easy Green among E/116 (29th ID): +1
    st = at_drift(5, {"E/16": "C5", "E/116": "B5"}, [1, 1, 0], clear_tokens=True)
    act(st, "continue")
    assert landing_event(st, "E/16")["total"] == 2
    assert "+1 other division" in str(landing_event(st, "E/16")["mods"])


def test_6_5_reading_rangers_neither_take_nor_cause_the_modifier() -> None:
    assert not rules.mixed_landing(rules.RANGERS, [rules.TWENTY_NINTH_ID])
    assert not rules.mixed_landing(rules.TWENTY_NINTH_ID, [rules.RANGERS])
    assert rules.mixed_landing(rules.TWENTY_NINTH_ID, [rules.RANGERS, rules.FIRST_ID])
    assert not rules.mixed_landing(rules.FIRST_ID, [rules.FIRST_ID])
    # a Ranger company lands among the 29th: no +1 (turn 5, no fire: total = roll)
    st = at_drift(5, {"A/2Rng": "C5", "E/116": "B5"}, [1, 3, 0], clear_tokens=True)
    act(st, "continue")
    assert landing_event(st, "A/2Rng")["total"] == 3
    # a 29th company lands among Rangers only: no +1
    st = at_drift(5, {"C/116": "C5", "A/2Rng": "B5"}, [1, 3, 0], clear_tokens=True)
    act(st, "continue")
    assert landing_event(st, "C/116")["total"] == 3


def test_6_5_reading_units_landing_together_count_as_occupying() -> None:
    # E/16 and E/116 reach Easy Green in the same Landing phase: each takes the +1
    st = at_drift(5, {"E/16": "C5", "E/116": "C5"}, [1, 1, 1, 1, 0], clear_tokens=True)
    act(st, "continue")
    assert landing_event(st, "E/16")["total"] == 2
    assert landing_event(st, "E/116")["total"] == 2


def test_6_5_a_other_division_only_positive_modifier_cannot_eliminate() -> None:
    mods = rules.landing_modifiers(5, False, False, True)
    assert mods.mixed_only_positive
    assert rules.landing_result(SCEN.beach, 8, mods).result == "disrupted"
    # with another positive modifier the elimination stands
    mods = rules.landing_modifiers(5, False, True, True)
    assert not mods.mixed_only_positive
    assert rules.landing_result(SCEN.beach, 8, mods).result == "eliminated"
    # a card's negative modifier is not a positive one
    mods = rules.landing_modifiers(5, False, False, True, card=-1)
    assert mods.mixed_only_positive


def test_landing_cards_are_played_before_the_drift_rolls() -> None:
    st = at_drift(1, {"A/116": "C2"}, [1, 5, 0], hand=["c17"])
    assert {str(a) for a in st.legal_actions()} == {"continue", "play c17 option 1"}
    act(st, "play c17 option 1")  # -2 on Beach Disruption rolls this turn
    # the window then holds only "continue", which resolves itself
    assert landing_event(st, "A/116")["total"] == 5 + 2 + 1 - 2
    assert "c17" not in st.hand and "c17" in st.deck.discards
