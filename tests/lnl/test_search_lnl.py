"""What the search agent reads of LnL Omaha: evaluate (LnL Omaha: Winning, the victory
hexes held, and the losses) on staged positions, and which decisions it searches."""

from __future__ import annotations

import pytest

from omaha.lnl import view

from .helpers import GAME, position

VICTORY = ("A7", "F6", "F8", "H5", "H17", "J11")


def holding(n: int, us_lost: int = 0, german_lost: int = 0) -> float:
    st = position({"1/B/116": "K9"}, scenario="beach")
    with st.edit():
        for label in VICTORY:
            st.control[st.cell_of(label)] = "German"
        for label in VICTORY[:n]:
            st.control[st.cell_of(label)] = "US"
        st.steps_lost = {"US": us_lost, "German": german_lost}
    assert len(st.held()) == n
    us = GAME.evaluate(st, "US")
    assert st.evaluate("German") == pytest.approx(1.0 - us)
    return us


def test_each_level_of_winning_counts_half_the_evaluation() -> None:
    even = view.EVAL_LOSSES * 0.5  # no losses yet: an even balance
    assert holding(0) == pytest.approx(even)  # a German victory
    assert holding(3) == pytest.approx(view.EVAL_LEVEL * 0.5 + view.EVAL_HEXES * 0.5 + even)
    assert holding(4) == pytest.approx(view.EVAL_LEVEL * 0.75 + view.EVAL_HEXES * 4 / 6 + even)
    assert holding(6) == pytest.approx(view.EVAL_LEVEL + view.EVAL_HEXES + even)


def test_losses_weigh_by_the_share_of_each_sides_steps() -> None:
    # beach: 60 US steps and 34 German steps in the scenario
    assert holding(3, us_lost=6) - holding(3) == pytest.approx(-view.EVAL_LOSSES * 0.5 * 6 / 60)
    assert holding(3, german_lost=17) - holding(3) == pytest.approx(view.EVAL_LOSSES * 0.25)


def test_an_attack_is_searched_when_opened_and_aimed_not_while_firers_are_added() -> None:
    state = GAME.new_state("beach", seed=5)
    bots = {"US": GAME.bots["heuristic"](seed=3), "German": GAME.bots["solitaire"](seed=4)}
    searched: dict[str, set[bool]] = {}
    while not state.is_terminal() and state.turn < 3:
        player = state.current_player()
        assert player is not None and state.pending is not None
        action = bots[player].choose(state)
        step = "place" if state.pending.kind == "place" else str(action).split()[0]
        searched.setdefault(step, set()).add(state.worth_search())
        state.apply(action)
    assert searched["place"] == {False}
    assert searched["fire"] == {True} and searched["at"] == {True}  # open, aim
    assert searched["add"] == {False} and searched["resolve"] == {False}
