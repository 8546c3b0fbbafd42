"""Every event a seeded game logs reads as words: its kind has a template (a kind
without one prints as ``kind: key=value``, as the TCS mode determination did), and
every place in it is filled from the event's details."""

from __future__ import annotations

import pytest

import omaha

CASES = [
    ("tcs", "e1-draw"),
    ("lnl", "beach"),
    ("bloody", "solo"),
    ("landing_table", "omaha"),
]


@pytest.mark.parametrize(("name", "scenario"), CASES)
def test_every_logged_event_has_words(name: str, scenario: str) -> None:
    game = omaha.load(name)
    state = game.new_state(scenario=scenario, seed=1)
    bots = {side: game.bots["random"](seed=1) for side in game.players}
    for _ in range(4000):
        if state.is_terminal():
            break
        side = state.current_player()
        assert side is not None
        state.apply(bots[side].choose(state))
    raw = sorted({e.kind for e in state.log if e.text == e.kind or e.text.startswith(f"{e.kind}:")})
    assert raw == [], f"{name}/{scenario}: events with no template: {raw}"
    unfilled = sorted({e.kind for e in state.log if "{" in e.text})
    assert unfilled == [], f"{name}/{scenario}: templates naming no detail: {unfilled}"
