"""The sequence of play, reinforcements, card events and victory (pinned cards)."""

from __future__ import annotations

import pytest

import omaha
from omaha.lnl.components.deck import card_for_event, picks_for
from omaha.lnl.core import Phase
from omaha.lnl.state import LnlState

from .helpers import GAME, cards, event_card, legal, play, position, unit

ORDER = [
    "US action card",
    "US disruption removal",
    "US landing",
    "US fire",
    "US movement",
    "US close assault",
    "German disruption removal",
    "German fire",
    "German movement",
    "German close assault",
]


def bot_game(scenario: str = "beach", seed: int = 3) -> tuple[LnlState, list[tuple[int, str]]]:
    st = GAME.new_state(scenario, seed=seed)
    assert isinstance(st, LnlState)
    lineup = GAME.lineup("heuristic")
    bots = {side: GAME.bots[name](seed=seed) for side, name in lineup.items()}
    seen: list[tuple[int, str]] = []
    while not st.is_terminal():
        seen.append((st.turn, st.phase))
        player = st.current_player()
        assert player is not None
        st.apply(bots[player].choose(st))
    return st, seen


def test_sequence_of_play_for_both_sides() -> None:
    st, _ = bot_game()
    assert st.turn == 10
    stamps = [(e.turn, e.phase) for e in st.log if e.turn != "Set-up" and e.phase != "game over"]
    keys = [(int(t.split()[1]), ORDER.index(p)) for t, p in stamps]
    assert keys == sorted(keys)  # phases never go back within a turn
    for n in range(2, 11):
        phases = {p for t, p in stamps if t == f"Turn {n}"}
        assert {"US action card", "US fire", "German fire"} <= phases


def end_german_turn(placements: dict[str, str], **kw: object) -> LnlState:
    st = position(placements, side="German", phase="assault", **kw)  # type: ignore[arg-type]
    return st


def test_disruption_removal_thresholds_for_the_americans() -> None:
    st = end_german_turn({"1/B/116": "H2", "A/5Rgr": "H4", "1/1/916": "A18"})
    st.dis[unit(st, "1/B/116")] = st.dis[unit(st, "A/5Rgr")] = True
    st.fired[unit(st, "1/B/116")] = True
    cards(st, 6, 5, 5)  # the event card, then one card per disrupted unit in unit order
    play(st, "end phase")
    assert st.turn == 3 and st.phase == "US fire"
    assert st.dis[unit(st, "1/B/116")]  # 5 > 4
    assert not st.dis[unit(st, "A/5Rgr")]  # Rangers: 5 or less
    assert not st.fired[unit(st, "1/B/116")]


def test_disruption_removal_thresholds_for_the_germans() -> None:
    st = position({"1/1/916": "H2", "1/916AT": "H4", "1/B/116": "A18"}, side="US", phase="assault")
    st.dis[unit(st, "1/1/916")] = st.dis[unit(st, "1/916AT")] = True
    cards(st, 4, 4)
    play(st, "end phase")
    assert st.phase == "German fire"
    assert st.dis[unit(st, "1/1/916")]  # 4 > 3
    assert not st.dis[unit(st, "1/916AT")]  # the 916th AT: 4 or less


def test_turn_three_landings_wait_for_a_free_waterline_hex() -> None:
    us = [f"{p}/{c}" for c in ("B/116", "F/116") for p in "123"] + ["B/116-HVY", "F/116-HVY"]
    us += ["A/5Rgr", "B/5Rgr", "C/5Rgr"] + [f"{p}/{c}" for c in ("A/743", "B/743") for p in "123"]
    placements = {uid: f"L{c}" for c, uid in enumerate(us, start=1)}
    assert len(placements) == 17
    placements["1/1/916"] = "L18"
    st = end_german_turn(placements)
    arrivals = ["1/A/116", "2/A/116", "3/A/116", "A/116-HVY", "C/2Rgr", "1/C/743"]
    st.due = {unit(st, x): 3 for x in arrivals}
    cards(st, 6)
    play(st, "end phase")
    assert st.turn == 3 and st.phase == "US fire"
    wait = [e for e in st.log if e.kind == "lnl.wait"]
    assert wait and "1/A/116" in wait[-1].details["units"]
    with st.edit():
        st.put(unit(st, "1/B/116"), st.cell_of("K5"))  # free L-hex for next turn
        st.current_phase = Phase.ASSAULT
        st.side = "German"
    cards(st, 6)
    play(st, "end phase")
    assert st.turn == 4 and st.phase == "US landing"
    free = st.label(st.T.landing[0])
    assert legal(st) == [f"place 1/A/116 at {free}"]
    play(st, f"place 1/A/116 at {free}")
    assert st.placed[unit(st, "1/A/116")] == 4


def test_the_2_916_enters_on_row_a_on_turn_5() -> None:
    st = GAME.new_state("beach", seed=0)
    assert isinstance(st, LnlState)
    u = unit(st, "1/2/916")
    assert st.due[u] == 5
    st = position({"1/B/116": "K9"}, side="German", phase="move", turn=5)
    with st.edit():
        st.due = {unit(st, x): 5 for x in ("1/2/916", "2/2/916", "3/2/916", "2/916-HVY")}
    options = legal(st)
    assert "end phase" not in options  # they must enter
    enters = {a.split(" at ")[1] for a in options if a.startswith("enter 1/2/916")}
    assert enters == {f"A{c}" for c in range(1, 19)} - {"A7"} | {"A7"}
    with pytest.raises(omaha.IllegalAction, match="must enter first"):
        play(st, "end phase")


def test_the_916th_at_by_card_at_a6_a10_a13_two_to_a_hex() -> None:
    st = end_german_turn({"1/B/116": "K9", "1/1/916": "J7"})
    event_card(st, "at916")
    play(st, "end phase")
    assert any("enter in this turn's German movement phase" in str(e) for e in st.log)
    play(st, "end phase", "end phase", "end phase")  # US fire, movement, close assault
    assert st.phase == "German fire"
    play(st, "end phase")
    assert {a.split(" at ")[1] for a in legal(st) if a.startswith("enter")} == {"A6", "A10", "A13"}
    play(st, "enter 1/916AT at A6", "stop", "enter 2/916AT at A6", "stop")
    enters = [a for a in legal(st) if a.startswith("enter")]
    assert enters == ["enter 3/916AT at A10", "enter 3/916AT at A13"]


def test_a_one_off_event_drawn_again_does_nothing() -> None:
    st = end_german_turn({"1/B/116": "K9", "1/1/916": "J7"})
    st.events_done.add("at916")
    event_card(st, "at916")
    play(st, "end phase")
    assert any("already been called: no effect" in str(e) for e in st.log)


def test_the_101st_is_placed_on_row_a_and_acts_at_once() -> None:
    st = end_german_turn({"1/B/116": "K9", "1/1/916": "J7"})
    event_card(st, "airborne101")
    play(st, "end phase")
    assert st.pending is not None and st.pending.kind == "place"
    assert {a.split(" at ")[1][0] for a in legal(st)} == {"A"}
    play(st, "place 101-AB at A7")
    assert st.control[st.cell_of("A7")] == "US"
    play(st, "end phase")
    assert "move 101-AB" in legal(st)
    st.events_done.discard("x")
    st2 = end_german_turn({"1/B/116": "K9", "101-AB": "A7"})
    st2.events_done.add("airborne101")
    event_card(st2, "airborne101")
    play(st2, "end phase")
    assert any("already in play" in str(e) for e in st2.log)


def test_german_plus_six_reaches_the_german_player_turn() -> None:
    """Reading: 'this turn' is the game turn, which ends after the German player turn."""
    st = end_german_turn({"1/B/116": "H3", "1/1/916": "H5"})
    event_card(st, "ger_plus6")
    play(st, "end phase", "end phase", "end phase", "end phase")
    assert st.phase == "German fire" and st.bonus["German"]
    play(st, "fire with 1/1/916", "at H3 soft")
    assert "add bonus" in legal(st)
    play(st, "cancel", "end phase", "end phase", "end phase")
    assert st.turn == 4 and not st.bonus["German"]  # unused, it lapsed


def test_two_916_early_and_lost_paratroops() -> None:
    st = end_german_turn({"1/B/116": "K9", "1/1/916": "J7"}, turn=1)
    st.due = {unit(st, x): 5 for x in ("1/2/916", "2/2/916", "3/2/916", "2/916-HVY")}
    event_card(st, "early2916")
    play(st, "end phase")  # drawn on turn 2: three turns from 5 is 3
    assert st.due[unit(st, "1/2/916")] == 3
    with st.edit():
        st.current_phase, st.side = Phase.ASSAULT, "German"
    event_card(st, "early2916")
    play(st, "end phase")
    assert st.due[unit(st, "1/2/916")] == 3  # no second advance
    with st.edit():
        st.current_phase, st.side = Phase.ASSAULT, "German"
    event_card(st, "lost_paratroops")
    play(st, "end phase")
    assert st.due[unit(st, "1/2/916")] == 4


def test_quick_reaction_and_panzers_last_one_turn() -> None:
    st = end_german_turn({"1/B/116": "K9", "1/1/916": "J7"})
    event_card(st, "quick_reaction")
    play(st, "end phase")
    assert st.perms == {"all"}
    play(st, *["end phase"] * 7)
    assert st.turn == 4 and st.perms == set()


def test_allied_air_power_strikes_a_german_hex() -> None:
    st = end_german_turn({"1/B/116": "K9", "1/1/916": "H5"})
    event_card(st, "allied_air")
    play(st, "end phase")
    assert st.pending is not None and st.pending.kind == "air strike"
    assert legal(st) == ["pass", "strike H5"]
    cards(st, 1)
    play(st, "strike H5")
    strike = next(e for e in st.log if e.kind == "lnl.strike")
    assert strike.details["he"] == 12 and strike.details["result"] == "Loss 1"
    assert st.steps[unit(st, "1/1/916")] == 1


def test_german_air_power_is_the_german_player_s_decision() -> None:
    st = end_german_turn({"1/B/116": "H3", "1/1/916": "J7"})
    event_card(st, "german_air")
    play(st, "end phase")
    assert st.pending is not None and st.pending.player == "German"
    assert legal(st) == ["pass", "strike H3"]


def test_the_d6_option_never_replaces_the_event_card() -> None:
    scen = GAME.load_scenario("beach+d6")
    event = card_for_event(scen, "allies_plus6")  # type: ignore[arg-type]
    st = position(
        {"1/B/116": "H3", "1/1/916": "H5"},
        scenario="beach+d6",
        side="German",
        phase="assault",
        dice=[*picks_for(scen, [event]), 2],  # type: ignore[arg-type]
    )
    st.dis[unit(st, "1/B/116")] = True
    play(st, "end phase")
    rally = next(e for e in st.log if e.kind == "lnl.rally")
    assert rally.details["card"] == "d6" and rally.dice == (2,)
    card = next(e for e in st.log if e.kind == "lnl.card")
    assert card.details["card"] == event and st.bonus["US"]


def test_victory_levels_by_hexes_controlled() -> None:
    levels = {}
    for n in range(7):
        st = position({"1/B/116": "K9"}, side="German", phase="assault", turn=10)
        for i, c in enumerate(st.T.victory):
            st.control[c] = "US" if i < n else "German"
        play(st, "end phase")
        out = st.outcome()
        assert out is not None
        levels[n] = (out.winner, out.level)
    assert levels[6] == ("US", "significant US victory")
    assert levels[5] == levels[4] == ("US", "minor US victory")
    assert levels[3] == (None, "draw")
    assert levels[2] == levels[0] == ("German", "German victory")


def test_control_by_passing_through() -> None:
    st = position({"1/B/743": "I6", "1/1/916": "A18"}, phase="move")
    assert st.control[st.cell_of("H5")] == "German"
    play(st, "move 1/B/743", "step H5", "step G6", "stop")
    assert st.control[st.cell_of("H5")] == "US"  # the last side through


def test_ten_turns_or_eleven() -> None:
    st, _ = bot_game(seed=1)
    assert st.metrics()["turns_played"] == 10
    st11, _ = bot_game("beach+turn11", seed=1)
    assert st11.metrics()["turns_played"] == 11
