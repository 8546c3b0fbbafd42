"""What the search agent reads of Bloody Omaha: evaluate (2.2, 2.3) on staged positions,
and which decisions it searches."""

from __future__ import annotations

import pytest
from bloody_helpers import GAME, staged

from omaha.bloody import view
from omaha.bloody.core import BOX, DEAD


def test_no_exit_cleared_is_a_defeat_graded_by_the_vp_alone() -> None:
    st = staged(units={"A/116": "B2"})
    with st.edit():
        st.sp_removed, st.enc_removed = 0, 0
    vp = st.score().total
    assert st.exits_cleared() == 0
    assert GAME.evaluate(st, "US") == pytest.approx(view.EVAL_VP * vp / 41)


def test_every_exit_cleared_with_over_40_vp_is_a_major_victory_worth_1() -> None:
    st = staged(units={"A/116": "B2"}, clear_tokens=True)
    with st.edit():
        st.sp_removed, st.enc_removed = 13, 8  # 26 + 8 VP, and the bonus squares
    assert st.exits_cleared() == 5 and st.score().total > 40
    assert st.evaluate("US") == pytest.approx(1.0)


def test_a_strongpoint_cleared_is_worth_its_2_vp_and_a_level_more() -> None:
    st = staged(units={"A/116": "B2"})
    with st.edit():
        st.sp_removed, st.enc_removed = 0, 0
        for c in st.scen.exit_name:  # every Exit square cleared (+1 VP each, 2.3.d)
            st.tokens[c] = []
        st.where = [DEAD if w == BOX else w for w in st.where]  # none kept back (2.3.f)
    assert st.score().total == 5 and st.exits_cleared() == 5
    draw = st.evaluate("US")  # too few VP for a victory: a Draw (reading)
    assert draw == pytest.approx(view.EVAL_LEVEL / 3 + view.EVAL_VP * 5 / 41 + view.EVAL_EXITS)
    with st.edit():
        st.sp_removed = 1
    assert st.evaluate("US") - draw == pytest.approx(view.EVAL_VP * 2 / 41)
    with st.edit():
        st.sp_removed = 13  # 31 VP: a Historical Victory (2.2.b)
    assert st.evaluate("US") == pytest.approx(
        view.EVAL_LEVEL * 2 / 3 + view.EVAL_VP * 31 / 41 + view.EVAL_EXITS
    )


def test_activations_are_searched_the_squares_added_to_an_attack_are_not() -> None:
    assert staged(units={"A/116": "B2"}).worth_search()
    assert not staged(units={"A/116": "B2"}, step="attack").worth_search()
