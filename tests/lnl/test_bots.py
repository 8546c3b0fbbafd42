"""The bots: the solitaire German's published guidelines and the heuristic American."""

from __future__ import annotations

import pytest

import omaha
from omaha.lnl.actions import Assault, Deploy, EndPhase, FireWith, Move
from omaha.lnl.bots import HeuristicUS, SolitaireGerman
from omaha.lnl.core import AdvanceTask
from omaha.lnl.state import LnlState

from .helpers import GAME, play, position, unit


def drive(st: LnlState, bot: SolitaireGerman | HeuristicUS, until: str = "lnl.fire") -> None:
    """Let a bot decide until an event of the kind appears (or it ends the phase)."""
    n = len(st.log)
    for _ in range(50):
        if any(e.kind == until for e in st.log[n:]):
            return
        act = bot.choose(st)
        st.apply(act)
        if isinstance(act, EndPhase):
            return
    raise AssertionError("the bot did not get there")


def test_lineups_pair_the_solitaire_german_with_the_heuristic_american() -> None:
    assert GAME.lineup("solitaire") == {"US": "heuristic", "German": "solitaire"}
    assert GAME.lineup("heuristic") == {"US": "heuristic", "German": "heuristic"}
    assert GAME.lineup("random") == {"US": "random", "German": "random"}
    assert GAME.bot_sides("solitaire") == ("German",)
    assert GAME.bot_sides("heuristic") == ("US", "German")


def test_one_sided_bots_refuse_the_other_side() -> None:
    st = GAME.new_state("beach", seed=0)
    assert st.current_player() == "German"
    with pytest.raises(omaha.IllegalAction):
        HeuristicUS(seed=0).choose(st)
    st.apply(SolitaireGerman(seed=0).choose(st))
    assert st.current_player() == "US"
    with pytest.raises(omaha.IllegalAction):
        SolitaireGerman(seed=0).choose(st)


def test_set_ups_come_from_the_shipped_plans() -> None:
    st = GAME.new_state("beach", seed=0)
    assert isinstance(st, LnlState)
    act = SolitaireGerman(seed=0).choose(st)
    assert isinstance(act, Deploy)
    st.apply(act)
    assert st.label(st.where[unit(st, "88mm-Gun")]) == "J5"
    act = HeuristicUS(seed=0).choose(st)
    assert isinstance(act, Deploy)
    st.apply(act)
    assert st.turn == 1 and st.label(st.where[unit(st, "1/B/116")]) == "L5"


def test_solitaire_fires_at_the_nearest_target_with_the_whole_company() -> None:
    st = position(
        {"1/1/916": "H5", "2/1/916": "H6", "1/B/116": "H3", "2/B/116": "H9"},
        side="German",
    )
    drive(st, SolitaireGerman(seed=0))
    fire = next(e.details for e in st.log if e.kind == "lnl.fire")
    assert fire["target"] == "H3" and fire["firers"] == ["1/1/916", "2/1/916"]


def test_solitaire_ties_go_to_the_hex_with_the_most_he() -> None:
    st = position(
        {"1/1/916": "H5", "1/B/116": "H3", "B/116-HVY": "H7", "2/B/116": "H7"}, side="German"
    )
    drive(st, SolitaireGerman(seed=0))
    fire = next(e.details for e in st.log if e.kind == "lnl.fire")
    assert fire["target"] == "H7"


def test_solitaire_does_not_fire_beyond_printed_range() -> None:
    st = position({"1/1/916": "I10", "1/B/116": "H2"}, side="German")  # 8 hexes: extended only
    assert SolitaireGerman(seed=0).choose(st) == EndPhase()
    assert "fire with 1/1/916" in [str(a) for a in st.legal_actions()]


def test_solitaire_germans_stay_put_unless_a_card_says_so() -> None:
    st = position({"1/1/916": "I8", "1/B/116": "C3"}, side="German", phase="move")
    bot = SolitaireGerman(seed=0)
    assert bot.choose(st) == EndPhase()
    with st.edit():
        st.perms = {"all"}
    assert isinstance(bot.choose(st), Move)
    with st.edit():
        st.perms = {"armor"}
    assert bot.choose(st) == EndPhase()


def test_solitaire_assaults_only_at_three_to_one() -> None:
    st = position(
        {"1/1/916": "H2", "2/1/916": "G3", "1/B/116": "H3"}, side="German", phase="assault"
    )
    assert SolitaireGerman(seed=0).choose(st) == EndPhase()  # 10 v 4: 2-1
    with st.edit():
        st.put(unit(st, "3/1/916"), st.cell_of("G4"))
    assert SolitaireGerman(seed=0).choose(st) == Assault("H3")  # 15 v 4: 3-1


def test_solitaire_advances_only_to_take_a_victory_hex() -> None:
    bot = SolitaireGerman(seed=0)
    st = position({"1/1/916": "I6", "1/B/116": "A18"}, side="German", phase="assault")
    with st.edit():
        st.advance = AdvanceTask("German", [unit(st, "1/1/916")], st.cell_of("H5"))
        st.control[st.cell_of("H5")] = "US"
    assert str(bot.choose(st)) == "advance 1/1/916"
    with st.edit():
        st.advance = AdvanceTask("German", [unit(st, "1/1/916")], st.cell_of("I7"))
    assert str(bot.choose(st)) == "stay"


def test_heuristic_american_suppresses_with_tanks_and_ngfs() -> None:
    st = position({"1/B/743": "L6", "2/B/743": "L6", "88mm-Gun": "J5"}, ngfs=4)
    bot = HeuristicUS(seed=0)
    act = bot.choose(st)
    assert isinstance(act, FireWith)
    drive(st, bot)
    fire = next(e.details for e in st.log if e.kind == "lnl.fire")
    assert fire["target"] == "J5" and any("NGFS" in f for f in fire["firers"])


def test_heuristic_american_assaults_at_two_to_one_or_better() -> None:
    st = position({"1/B/116": "H2", "2/B/116": "G3", "1/1/916": "H3"}, phase="assault")
    assert HeuristicUS(seed=0).choose(st) == EndPhase()  # 8 v 5: 1-1
    with st.edit():
        st.put(unit(st, "3/B/116"), st.cell_of("G4"))
    assert HeuristicUS(seed=0).choose(st) == Assault("H3")  # 12 v 5: 2-1


def test_heuristic_american_heads_for_the_draw() -> None:
    st = position({"1/B/116": "K7", "1/1/916": "A18"}, phase="move")
    bot = HeuristicUS(seed=0)
    play(st, str(bot.choose(st)))
    play(st, str(bot.choose(st)))
    assert st.label(st.where[unit(st, "1/B/116")]) == "J6"
