"""Bloody Omaha's kept observation (issue 15): the observation a state keeps from call
to call, rewriting only what changed, always equals the one built from the fields
from scratch (``state.fresh_observation``): at every decision of random
and heuristic games, observed at every step or only now and then, after a clone, a
restored snapshot, unpickling and ``edit()``. It is brought up to date from the
journal the procedures write (what they changed), so these tests are what catches a
change the journal misses."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from bloody_helpers import GAME, cell, new, staged, unit

from omaha.bloody.core import ASIDE, BOX, DEAD
from omaha.bloody.state import BloodyState

SCENARIOS = GAME.scenarios()


def same(st: BloodyState) -> None:
    """The state's observation equals the one built from scratch (shape, type, values)."""
    got = st.observation("US")
    want = st.fresh_observation("US")
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_array_equal(got, want)


def bot_games(scenario: str, seeds: range) -> Any:
    """(state, bot, seed) for random games (even seeds) and heuristic ones (odd seeds)."""
    for seed in seeds:
        st = GAME.new_state(scenario, seed=seed)
        assert isinstance(st, BloodyState)
        yield st, GAME.bots["heuristic" if seed % 2 else "random"](seed=seed), seed


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_kept_observation_equals_a_fresh_build_at_every_decision(scenario: str) -> None:
    decisions = 0
    for st, bot, _ in bot_games(scenario, range(8)):
        while not st.is_terminal():
            same(st)
            decisions += 1
            st.apply(bot.choose(st))
        same(st)
    assert decisions > 200


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("every", [2, 5, 11])
def test_changes_of_several_steps_add_up(scenario: str, every: int) -> None:
    """Observed only every few decisions, the changes of the steps between (units that
    moved and came back, tokens revealed and removed, cards drawn and played) are all
    caught at once."""
    for st, bot, _ in bot_games(scenario, range(20, 24)):
        k = 0
        while not st.is_terminal():
            if k % every == 0:
                same(st)
            k += 1
            st.apply(bot.choose(st))
        same(st)


def test_a_clone_keeps_its_own_observation() -> None:
    """A clone starts from its original's kept observation and goes its own way: neither
    sees the other's changes."""
    for st, bot, seed in bot_games(SCENARIOS[0], range(30, 34)):
        other = GAME.bots["random"](seed=seed + 100)
        k = 0
        while not st.is_terminal():
            st.observation("US")
            if k % 7 == 3:
                twin = st.clone(seed=seed + k)
                assert isinstance(twin, BloodyState)
                same(twin)
                for _ in range(4):
                    if twin.is_terminal():
                        break
                    twin.apply(other.choose(twin))
                    same(twin)
                same(st)
            k += 1
            st.apply(bot.choose(st))


def test_clones_share_nothing_they_can_see() -> None:
    """Whichever of a state and its clones observes first after the clone, each sees its
    own position, and observing one never changes what another shows."""
    st = new(8)
    bot = GAME.bots["heuristic"](seed=8)
    for _ in range(6):
        st.apply(bot.choose(st))
    before = st.observation("US")
    twin = st.clone(seed=1)
    grandchild = twin.clone(seed=2)
    assert isinstance(twin, BloodyState) and isinstance(grandchild, BloodyState)
    for _ in range(3):  # the original moves on first, the clones stay where they were
        st.apply(bot.choose(st))
        same(st)
    np.testing.assert_array_equal(twin.observation("US"), before)
    same(twin)
    other = GAME.bots["random"](seed=3)
    for _ in range(3):
        twin.apply(other.choose(twin))
        same(twin)
    np.testing.assert_array_equal(grandchild.observation("US"), before)
    same(grandchild)
    same(st)


def test_each_state_keeps_its_own_changes_after_a_clone() -> None:
    """A state and its clone both move on before either observes again: whichever
    observes first, each then sees its own moves and none of the other's."""
    for first_twin in (True, False):
        st = new(9)
        bot = GAME.bots["heuristic"](seed=9)
        other = GAME.bots["random"](seed=10)
        for _ in range(4):
            st.apply(bot.choose(st))
        st.observation("US")
        for k in range(6):
            if st.is_terminal():
                break
            twin = st.clone(seed=k)
            assert isinstance(twin, BloodyState)
            for state, player in ((st, bot), (twin, other), (st, bot), (twin, other)):
                if not state.is_terminal():
                    state.apply(player.choose(state))
            for state in (twin, st) if first_twin else (st, twin):
                same(state)


def test_a_restored_snapshot_observes_as_its_original() -> None:
    for st, bot, _ in bot_games(SCENARIOS[0], range(40, 43)):
        k = 0
        while not st.is_terminal():
            if k % 6 == 0:
                back = GAME.state_from_json(st.to_json())
                assert isinstance(back, BloodyState)
                np.testing.assert_array_equal(back.observation("US"), st.observation("US"))
                same(back)
            k += 1
            st.apply(bot.choose(st))


def test_an_unpickled_state_observes_as_its_original() -> None:
    """OpenSpiel pickles states: the copy builds its kept observation again, then keeps
    it up to date as the game goes on."""
    for st, bot, _ in bot_games(SCENARIOS[0], range(44, 46)):
        k = 0
        while not st.is_terminal():
            st.observation("US")
            if k % 9 == 4:
                back = pickle.loads(pickle.dumps(st))
                assert isinstance(back, BloodyState)
                np.testing.assert_array_equal(back.observation("US"), st.observation("US"))
                for _ in range(3):
                    if back.is_terminal():
                        break
                    back.apply(bot.choose(back))
                    same(back)
            k += 1
            st.apply(bot.choose(st))


def test_edit_is_seen_whatever_it_changes() -> None:
    st = staged(
        units={"A/116": "B2", "G/116": "B2"},
        tokens={"S2": [("sp12", False)]},
        hand=["c01"],
    )
    same(st)
    a116, g116 = unit(st, "A/116"), unit(st, "G/116")
    s2, b2 = cell(st, "S2"), cell(st, "B2")
    beach = st.scen.beaches[0]
    steps: list[Any] = [
        lambda: st.where.__setitem__(a116, cell(st, "B3")),
        lambda: st.disrupted.__setitem__(g116, True),
        lambda: st.where.__setitem__(g116, DEAD),
        lambda: st.tokens.__setitem__(s2, [("sp12", True), ("e3", True)]),
        lambda: st.tokens.pop(s2),
        lambda: st.tokens.__setitem__(s2, [("e3", False)]),
        lambda: st.tokens.__setitem__(s2, []),
        lambda: st.gap.__setitem__(beach, True),
        lambda: st.hand.append("c02"),
        lambda: st.hand.remove("c01"),
        lambda: setattr(st, "attack_target", s2),
        lambda: setattr(st, "attack_squares", [b2]),
        lambda: setattr(st, "attack_target", -1),
        lambda: st.tanks.__setitem__(0, [b2, a116]),
        lambda: st.tanks.__setitem__(0, [ASIDE, -1]),
        lambda: setattr(st, "init_token", 2),
        lambda: setattr(st, "drift_mod", -1),
        lambda: st.where.__setitem__(a116, BOX),
    ]
    for change in steps:
        before = st.observation("US")
        with st.edit():
            change()
        after = st.observation("US")
        same(st)
        assert not np.array_equal(before, after)  # each change shows


def test_fields_changed_in_edit_show_at_once() -> None:
    """The kept observation learns of a change from the procedures (the journal): a
    change made by hand goes inside ``edit()``, which drops it, and the next call sees
    the position whole (a token taken away, a unit sent back to the box, a side flipped)."""
    st = new(4)
    same(st)
    sp = next(c for c in st.scen.strongpoints if st.tokens.get(c))
    with st.edit():
        st.tokens[sp] = []
    same(st)
    u = next(u for u, w in enumerate(st.where) if w >= 0)
    with st.edit():
        st.where[u] = BOX
    same(st)
    with st.edit():
        st.disrupted[u] = True
    same(st)


def test_a_returned_array_is_the_callers() -> None:
    st = new(6)
    first = st.observation("US")
    kept = first.copy()
    first.fill(-3.0)
    np.testing.assert_array_equal(st.observation("US"), kept)
    assert st.observation("US") is not st.observation("US")


def test_an_observation_that_fails_half_way_leaves_nothing_behind() -> None:
    """A position the observation cannot show (a card the scenario lacks) raises as the
    fresh build does; once the position is sound again, the observation is right."""
    st = staged(units={"A/116": "B2"}, hand=["c01"])
    same(st)
    st.where[unit(st, "A/116")] = cell(st, "B3")  # a change the failing call half-writes
    with st.edit():
        st.hand.append("c99")
    with pytest.raises(KeyError):
        st.observation("US")
    with pytest.raises(KeyError):
        st.fresh_observation("US")
    with st.edit():
        st.hand.remove("c99")
    same(st)


def test_only_the_us_observes_a_kept_observation_too() -> None:
    st = new(2)
    st.observation("US")
    with pytest.raises(ValueError, match="not a player"):
        st.observation("German")
    with pytest.raises(ValueError, match="not a player"):
        st.fresh_observation("German")
