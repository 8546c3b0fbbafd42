"""The observation kept between calls (issue 15's speed) equals the one built from
nothing (``state.fresh_observation``) at every decision of random and heuristic
games of every shipped scenario, after a clone, a snapshot restore, unpickling, a
whole set-up played as one plan and ``edit()``;
``current_player`` is the pending decision's player."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest

from omaha.lnl import GAME
from omaha.lnl.core import ELIM, OFF, Phase
from omaha.lnl.state import LnlState

SCENARIOS = GAME.scenarios()


def new(scenario: str, seed: int) -> LnlState:
    st = GAME.new_state(scenario, seed=seed)
    assert isinstance(st, LnlState)
    return st


def assert_kept_equals_fresh(st: LnlState, where: object) -> None:
    for player in GAME.players:
        kept = st.observation(player)
        fresh = st.fresh_observation(player)
        assert np.array_equal(kept, fresh), (where, player, np.flatnonzero(kept != fresh))


def play_checking(st: LnlState, lineup: str, seed: int, *, limit: int | None = None) -> int:
    """Play on with ``lineup``'s bots, checking every decision; the decisions made."""
    bots = {side: GAME.bots[name](seed=seed) for side, name in GAME.lineup(lineup).items()}
    decisions = 0
    while not st.is_terminal() and (limit is None or decisions < limit):
        assert_kept_equals_fresh(st, decisions)
        pend = st.pending
        assert pend is not None and st.current_player() == pend.player
        player = st.current_player()
        assert player is not None
        st.apply(bots[player].choose(st))
        decisions += 1
    assert_kept_equals_fresh(st, "end")
    if st.is_terminal():
        assert st.current_player() is None and st.pending is None
    return decisions


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_observe_what_a_fresh_build_does(scenario: str, seed: int) -> None:
    st = new(scenario, seed)
    assert play_checking(st, "random", seed) > 100
    assert st.is_terminal()


@pytest.mark.parametrize("scenario", ["beach+d6", "vierville+turn11"])
def test_random_games_with_options_observe_what_a_fresh_build_does(scenario: str) -> None:
    """With a d6 instead of cards (no card drawn when NGFS is spent), an eleventh turn."""
    st = new(scenario, 4)
    assert play_checking(st, "random", 4) > 100


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", [1, 2])
def test_heuristic_games_observe_what_a_fresh_build_does(scenario: str, seed: int) -> None:
    st = new(scenario, seed)
    play_checking(st, "heuristic", seed, limit=None if seed == 1 else 300)


def test_a_clone_and_its_original_each_observe_their_own_position() -> None:
    st = new("beach", 4)
    play_checking(st, "random", 4, limit=250)
    twin = st.clone(seed=99)
    assert isinstance(twin, LnlState)
    assert np.array_equal(twin.observation("US"), st.observation("US"))
    # the two go separate ways; each stays exact, whichever is observed first
    play_checking(twin, "random", 5, limit=150)
    assert_kept_equals_fresh(st, "original after the clone moved on")
    play_checking(st, "random", 6, limit=150)
    assert_kept_equals_fresh(twin, "clone after the original moved on")
    assert not np.array_equal(twin.observation("US"), st.observation("US"))


def test_a_restored_snapshot_observes_what_its_original_does() -> None:
    st = new("beach", 7)
    for stop in (40, 200, 150):
        play_checking(st, "random", stop, limit=stop)
        back = GAME.state_from_json(st.to_json())
        assert isinstance(back, LnlState)
        for player in GAME.players:
            assert np.array_equal(back.observation(player), st.observation(player))
        play_checking(back, "random", stop, limit=30)


def test_edited_positions_are_observed_as_they_are() -> None:
    st = new("beach", 8)
    play_checking(st, "random", 8, limit=300)
    on_map = [u for u, c in enumerate(st.where) if c >= 0]
    first, second = on_map[0], on_map[1]
    empty = next(c for c in range(st.T.n) if st.T.land[c] and c not in st.occ)

    def flip(field: list[bool], u: int) -> None:
        field[u] = not field[u]

    def set_to(field: list[Any], i: int, value: Any) -> None:
        field[i] = value

    edits: list[Callable[[], object]] = [
        lambda: st.put(first, empty),  # another hex
        lambda: st.disrupt(second, "test"),
        lambda: flip(st.fired, second),
        lambda: flip(st.moved, first),
        lambda: flip(st.assaulted, first),
        lambda: set_to(st.placed, first, st.turn),  # landed this turn
        lambda: st.lose_step(second, "test", "test"),
        lambda: st.take(first),  # eliminated
        lambda: set_to(st.control, 0, st.control[0]),  # no change at all
        lambda: setattr(st, "control", [*st.control]),  # a new list, the same values
        lambda: st.due.update({on_map[2]: st.turn + 1}),
        lambda: st.bonus.update({"German": True}),
        lambda: st.perms.add("armor"),
        lambda: setattr(st, "ngfs_left", 3),
        lambda: setattr(st, "turn", st.turn + 1),  # a new game turn: landed moves on
        lambda: setattr(st, "side", "German" if st.side == "US" else "US"),
        lambda: setattr(st, "current_phase", Phase.ASSAULT),
    ]
    for victory in st.T.victory:
        edits.append(partial(set_to, st.control, victory, "German"))
        edits.append(partial(set_to, st.control, victory, "US"))
    for i, change in enumerate(edits):
        with st.edit():
            change()
        assert_kept_equals_fresh(st, i)
    assert st.where[first] == ELIM
    # many units at once (the kept board is built anew)
    with st.edit():
        for u in on_map[1:]:
            if st.where[u] >= 0:  # the second may have lost its last step above
                st.take(u)
        st.dis[:] = [False] * len(st.dis)
    assert_kept_equals_fresh(st, "many")
    assert all(c in (OFF, ELIM) for c in st.where)


def test_a_pickled_state_observes_what_its_original_does() -> None:
    """OpenSpiel pickles states: the copy leaves the kept observation behind and
    builds it again; both go on exact."""
    st = new("beach", 10)
    play_checking(st, "random", 10, limit=200)
    back = pickle.loads(pickle.dumps(st))
    assert isinstance(back, LnlState)
    assert_kept_equals_fresh(back, "unpickled")
    play_checking(back, "random", 11, limit=100)
    play_checking(st, "random", 12, limit=100)


def test_a_whole_set_up_played_as_one_plan_is_observed_as_it_is() -> None:
    st = new("beach", 11)
    assert_kept_equals_fresh(st, "set-up")
    for _ in range(2):  # the German set-up, then the American landing (if listed)
        plans = st.plans()
        if not plans:
            break
        st.apply(next(iter(plans.values())))
        assert_kept_equals_fresh(st, "after a deploy")
    play_checking(st, "random", 11, limit=100)


def test_a_returned_observation_is_the_callers_to_change() -> None:
    st = new("vierville", 9)
    play_checking(st, "random", 9, limit=80)
    obs = st.observation("German")
    kept = obs.copy()
    obs.fill(-7.0)
    assert np.array_equal(st.observation("German"), kept)
    assert st.observation("US") is not st.observation("US")
