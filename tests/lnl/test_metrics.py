"""The comparison's metrics that need a clock or a record of the game: the first
exit opened (reading R35, ``first_exit_hours``)."""

from __future__ import annotations

import math

from omaha.lnl.core import TURN_HOURS

from .helpers import GAME, play, position


def test_the_first_exit_is_timed_at_the_end_of_the_game_turn_it_was_open() -> None:
    st = position({"1/B/116": "K9"}, side="German", phase="assault", turn=4)
    with st.edit():
        for label in ("J6", "I6", "H5"):  # the D-1 draw
            st.control[st.cell_of(label)] = "US"
    assert st.exits_open() == ["D-1"]
    assert st.metrics()["first_exit_hours"] == math.inf  # not yet: the turn is not over
    play(st, "end phase")
    assert st.turn == 5 and st.first_exit == 4
    assert st.metrics()["first_exit_hours"] == 4 * TURN_HOURS == 2.5
    assert st.metrics()["exits_opened"] == 1.0


def test_an_exit_lost_again_keeps_its_first_time() -> None:
    st = position({"1/B/116": "K9"}, side="German", phase="assault", turn=3)
    with st.edit():
        for label in ("J17", "I17", "H17"):  # the D-3 draw
            st.control[st.cell_of(label)] = "US"
    play(st, "end phase")
    with st.edit():
        st.control[st.cell_of("H17")] = "German"
        st.side, st.turn = "German", 6
        st.enter_phase("assault")
    play(st, "end phase")
    assert st.first_exit == 3 and st.exits_open() == []
    assert st.metrics()["first_exit_hours"] == 3 * TURN_HOURS
    assert st.metrics()["exits_opened"] == 0.0


def test_no_exit_is_nan_and_a_snapshot_keeps_the_time() -> None:
    st = GAME.new_state("beach", seed=2)
    assert st.metrics()["first_exit_hours"] == math.inf
    staged = position({"1/B/116": "K9"}, side="German", phase="assault", turn=2)
    with staged.edit():
        for label in ("J6", "I6", "H5"):
            staged.control[staged.cell_of(label)] = "US"
    play(staged, "end phase")
    twin = GAME.state_from_json(staged.to_json())
    assert twin.metrics()["first_exit_hours"] == 2 * TURN_HOURS
