"""What the search agent reads of D-Day at Omaha Beach: evaluate (the reconstructed
victory: VP against the scenario's levels, and the US steps kept) on staged positions,
and which decisions it searches."""

from __future__ import annotations

import pytest

from omaha.landing_table import view
from omaha.landing_table.actions import Attack

from .helpers import GAME, fresh, place, quiet


def test_nothing_held_and_no_one_left_is_worth_0() -> None:
    s = quiet(fresh("omaha"), turn=32)
    assert s.victory_points() == (0, 0, 15)
    assert s.evaluate("US") == 0.0


def test_the_level_the_vp_would_earn_now_the_vp_and_the_steps_kept() -> None:
    s = quiet(fresh("omaha"), turn=32)
    cleared = ("WN64", "WN65", "WN62", "WN61", "WN60", "WN66", "WN68", "WN70", "WN71", "WN72")
    with s.edit():
        for pid in (*cleared, "WN73"):
            s.pos[pid].unit = None
            s.pos[pid].defeated = True
        s.exits_open = {"E-1": 11, "D-1": 22}
    place(s, "A/116", "D6", steps=2)
    assert s.victory_points()[0] == 19  # a US victory, the lower of the two US levels
    full = sum(u.kind.steps for u in s.scen.us_by_id.values())
    most = 18 + 3 * 5  # every VP position (vp 18 in all) and the five exits
    expected = view.EVAL_LEVEL * 0.75 + view.EVAL_VP * 19 / most + view.EVAL_STEPS * 2 / full
    assert GAME.evaluate(s, "US") == pytest.approx(expected)
    place(s, "A/116", "D6", steps=1)  # a step lost costs its share
    assert s.evaluate("US") == pytest.approx(expected - view.EVAL_STEPS / full)


def test_landings_and_orders_with_an_attack_offered_are_searched_the_rest_not() -> None:
    state = GAME.new_state("omaha", seed=5)
    bot = GAME.bots["heuristic"](seed=3)
    searched: dict[tuple[str, bool], set[bool]] = {}
    while not state.is_terminal():
        pending = state.pending
        assert pending is not None
        offers = any(isinstance(a, Attack) for a in state.legal_actions())
        searched.setdefault((pending.kind, offers), set()).add(state.worth_search())
        state.apply(bot.choose(state))
    assert searched[("land", False)] == {True}
    assert searched[("orders", True)] == {True}  # attack now, with whom, or wait
    assert searched[("orders", False)] == {False}  # a step along the beach, a barrage
    assert searched[("attack", False)] == searched[("hit", False)] == {False}
