"""The shared fixture API (omaha.testing) that every game's tests build on."""

from __future__ import annotations

import pytest
from toygame import GAME as TOY

from omaha import testing
from omaha.kernel.dice import DiceExhausted


def test_start_with_pinned_dice_uses_them_from_the_set_up() -> None:
    state = testing.start(TOY, dice=[2, 0, 0, 4, 1])
    assert state.dice.count > 0
    assert state.dice.drawn[0] == 2


def test_play_parses_notation_and_assert_illegal_checks_nothing_changed() -> None:
    state = testing.start(TOY, seed=1)
    first = state.legal_actions()[0]
    testing.play(state, str(first))
    assert state.actions[-1] == first
    message = testing.assert_illegal(state, "alien 3", match="cannot read")
    assert "cannot read" in message
    with pytest.raises(AssertionError, match="was accepted"):
        testing.assert_illegal(state, state.legal_actions()[0])


def test_pinned_dice_run_out_loudly() -> None:
    state = testing.start(TOY, seed=1)
    testing.pin_dice(state, [])
    with pytest.raises(DiceExhausted):
        state.dice.d6()


def test_edit_drops_cached_legal_actions() -> None:
    state = testing.start(TOY, seed=1)
    before = state.legal_actions()
    assert state.legal_actions() is before  # cached
    with state.edit():
        pass
    assert state.legal_actions() is not before
    assert state.legal_actions() == before
