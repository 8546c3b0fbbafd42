"""Set-up (4.1-4.5), the sequence of play (5.0) and Initiative and Engineers (7.0)."""

from __future__ import annotations

import pytest
from bloody_helpers import GAME, act, cell, new, staged, texts, unit

import omaha
from omaha.bloody.actions import Continue, ReturnCard
from omaha.bloody.components.tokens import face_value, is_strongpoint_token
from omaha.bloody.core import ASIDE, BOX, Phase, Step
from omaha.bloody.procedures import ratings as fx
from omaha.bloody.procedures import turns


# ------------------------------------------------------------------ 4.0 set-up
def test_4_1_tokens_face_down_in_every_strongpoint_town_and_hedgerow() -> None:
    st = new(5)
    scen = st.scen
    for c in range(len(st.board)):
        toks = st.tokens.get(c, [])
        kind = scen.kind[c]
        if kind == "strongpoint":
            sps = [f for f, _ in toks if is_strongpoint_token(f)]
            assert len(sps) == 1
            assert len(toks) == (2 if c in scen.red_gray else 1)
        elif kind in ("town", "hedgerow"):
            assert len(toks) == 1 and not is_strongpoint_token(toks[0][0])
        else:
            assert not toks
        assert all(not revealed for _, revealed in toks)
    placed = sorted(
        f for toks in st.tokens.values() for f, _ in toks if not is_strongpoint_token(f)
    )
    assert placed == sorted(scen.encounter_tokens)  # all 32 are used


def test_4_2_to_4_4_obstacles_track_tanks_and_units() -> None:
    st = new(5)
    assert all(not st.gap[b] for b in st.scen.beaches)
    assert (st.turn, st.init_rating, st.init_token, st.eng_rating, st.eng_token) == (1, 1, 1, 1, 1)
    assert all(w == ASIDE for w, _ in st.tanks) and len(st.tanks) == 3
    for u, spec in enumerate(st.scen.units):
        assert st.where[u] == (spec.setup if spec.setup >= 0 else BOX)
        assert not st.disrupted[u]


def test_4_5_starting_hand_draw_three_keep_two_shuffle_one_back() -> None:
    st = new(5)
    assert st.pending is not None and st.pending.kind == "return"
    assert len(st.offered) == 3 and st.hand == []
    assert len(st.deck) == 15
    back = st.offered[1]
    keep = [c for c in st.offered if c != back]
    st.apply(ReturnCard(back))
    assert st.hand == sorted(keep)
    assert back in st.deck.pile
    assert len(st.deck) + len(st.hand) == 18 or st.turn > 1


def test_5_4_a_turn_one_is_drift_and_landing_only() -> None:
    st = new(5)
    st.apply(st.legal_actions()[0])
    while isinstance(st.legal_actions()[0], Continue) and st.turn == 1:
        st.apply(Continue())
    log = texts(st)
    turn1 = [e for e in st.log if e.turn == "Turn 1"]
    phases = {e.phase for e in turn1}
    assert "Draw" not in phases and "Activation" not in phases and "Random Event" not in phases
    assert {"Drift", "Landing"} <= phases
    assert any("drift d6" in t for t in log)
    # then turn 2 opens with the Draw phase
    assert st.turn == 2
    draws = [e for e in st.log if e.kind == "bloody.draw"]
    assert draws and draws[0].turn == "Turn 2"


def test_sequence_draw_random_event_activation_drift_landing() -> None:
    st = new(7)
    bot = GAME.bots["random"](seed=7)
    while st.turn < 4 and not st.is_terminal():
        st.apply(bot.choose(st))
    order = []
    for e in st.log:
        if e.turn == "Turn 3" and (not order or order[-1] != e.phase):
            order.append(e.phase)
    assert order[0] == "Draw"
    idx = [order.index(p) for p in ("Draw", "Random Event", "Activation", "Drift")]
    assert idx == sorted(idx)


# ------------------------------------------------------------------ 5.1 Draw, 7.3-7.5 ratings
def test_5_1_draw_phase_card_ratings_and_tokens() -> None:
    st = staged(turn=3, units={"A/116": "B2"}, init=3, eng=2, dice=[0])
    with st.edit():
        st.init_token = 0
        st.eng_token = 1
        st.drift_mod, st.attack_bonus = -2, 3
    before = len(st.hand)
    with st.edit():
        turns.draw_phase(st)
    assert len(st.hand) == before + 1
    assert (st.init_rating, st.init_token, st.eng_rating, st.eng_token) == (4, 4, 3, 3)
    assert st.drift_mod == 0 and st.attack_bonus == 0


def test_5_1_empty_deck_reshuffles_discards() -> None:
    st = staged(turn=3, units={"A/116": "B2"}, dice=[0])
    with st.edit():
        for c in list(st.deck.pile):
            st.deck.remove(c)
            st.deck.discard(c)
    assert len(st.deck) == 0
    with st.edit():
        turns.draw_phase(st)
    assert st.deck.reshuffles == 1


def test_7_4_ratings_never_below_one_but_this_turns_token_may_reach_zero() -> None:
    st = staged(turn=3, units={"A/116": "B2"}, init=1, eng=1)
    fx.change_rating(st, "Initiative", -1, "7.4", "test")
    fx.change_rating(st, "Engineers", -2, "7.4", "test")
    assert st.init_rating == 1 and st.eng_rating == 1
    assert "Initiative rating stays at 1" in texts(st)[-2]
    fx.change_token(st, "Initiative", -3, "8.1.d", "test")
    assert st.init_token == 0


def test_activation_ends_by_itself_when_initiative_runs_out() -> None:
    st = staged(
        turn=3,
        units={"A/116": "B2", "C/116": "C13"},
        init=1,
        clear_tokens=True,
        dice=[1, 1, 1],  # C/116 drift, A/116 nothing; landing roll
    )
    act(st, "move A/116 to B3")
    assert st.turn == 4 or st.phase != "Activation"
    assert any("end activation (the only choice)" in t for t in texts(st))


def test_channel_units_cannot_act_and_release_waits_for_turn_3() -> None:
    st = staged(turn=2, units={"A/116": "C2", "B/116": "B2"})
    legal = {str(a) for a in st.legal_actions()}
    assert not any(t.startswith("move A/116") for t in legal)
    with pytest.raises(omaha.IllegalAction, match="still at sea"):
        act(st, "move A/116 to C3")
    with pytest.raises(omaha.IllegalAction, match="from turn 3"):
        act(st, "release 1/18 to C24")
    st3 = staged(turn=3, units={"B/116": "B2"}, init=2)
    act(st3, "release 1/18 to C24")
    assert st3.where[unit(st3, "1/18")] == cell(st3, "C24")
    assert st3.init_token == 1
    assert {
        a for a in (str(x) for x in st3.legal_actions()) if a.startswith("release 1/18")
    } == set()


def test_released_units_drift_and_land_like_the_others() -> None:
    st = staged(turn=3, units={"B/116": "B2"}, init=1, clear_tokens=True, dice=[3, 0])
    act(st, "release 2/18 to C24")  # ends activation (no initiative): drift d6 3 -1 = no drift
    assert st.where[unit(st, "2/18")] == cell(st, "C15")


def test_a_battalion_is_battalion_sized_on_either_side() -> None:
    """Reading: 6.2a's strengths 6 and 3 are the reduced sides of BN counters."""
    st = staged(
        turn=1, units={"3/116": "C4"}, disrupted=["3/116"], clear_tokens=True, dice=[6, 1, 0]
    )
    with st.edit():
        st.step, st.current_phase = Step.CARDS, Phase.DRIFT
    act(st, "continue")
    drift = next(e for e in st.log if e.kind == "bloody.drift")
    assert drift.details["total"] == 5  # 6 +1 turn 1-4 -2 battalion
    assert "-2 battalion" in str(drift.details["mods"])


def test_observer_and_us_views_agree_on_public_facts() -> None:
    st = new(2)
    us, obs = st.view("US"), st.view(None)
    assert us.tracks == obs.tracks
    assert len(us.pieces) == len(obs.pieces)


def test_face_values() -> None:
    assert face_value("sp12") == 12 and face_value("e0") == 0
    assert face_value("event") is None and face_value("mines") is None
