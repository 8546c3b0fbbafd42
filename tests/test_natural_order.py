"""``legal_actions()`` lists actions in natural order of their notation (A1, A2, ...,
A10; numbers inside read as numbers), in every game, at every decision of seeded games."""

from __future__ import annotations

import re

import pytest

import omaha
from omaha.kernel.actions import natural_key


def natural(text: str) -> list[object]:
    """The order a reader expects, worked out here independently of the kernel."""
    return [(0, int(p)) if p.isdigit() else (1, p) for p in re.findall(r"\d+|\D+", text)]


def test_natural_key_orders_numbers_as_numbers() -> None:
    labels = ["A10", "A2", "A1", "B1", "A10.10", "A10.9", "A9.12", "c01", "c1"]
    assert sorted(labels, key=natural_key) == [
        "A1", "A2", "A9.12", "A10", "A10.9", "A10.10", "B1", "c01", "c1",
    ]  # fmt: skip


SCENARIOS = [("lnl", "beach"), ("tcs", "e1-draw"), ("bloody", "solo"), ("landing_table", "omaha")]


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS)
def test_legal_actions_come_in_natural_order(name: str, scenario: str) -> None:
    game = omaha.load(name)
    differs = 0  # decisions where text order would have listed them otherwise
    for seed in (1, 2):
        state = game.new_state(scenario, seed=seed)
        bots = {p: game.bots["random"](seed=seed * 5 + i) for i, p in enumerate(game.players)}
        for _ in range(600):
            if state.is_terminal():
                break
            texts = [str(a) for a in state.legal_actions()]
            expected = sorted(texts, key=lambda t: (natural(t), t))
            wrong = [t for t, e in zip(texts, expected, strict=True) if t != e]
            assert not wrong, wrong[:3]
            differs += texts != sorted(texts)
            state.apply(bots[state.current_player() or ""].choose(state))
    assert differs > 0
