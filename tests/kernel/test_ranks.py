"""The scenario's rank table (:mod:`omaha.kernel.ranks`) orders legal actions exactly as
the natural sort key does, in every game, at every decision of seeded games."""

from __future__ import annotations

import random

import attrs
import pytest

import omaha
from omaha.kernel.actions import Action, in_notation_order, sort_key
from omaha.kernel.ranks import Ranks


@attrs.frozen
class Word(Action):
    notation = "word {text}"
    text: str


def test_ranks_follow_the_sort_key_while_new_keys_squeeze_between_old_ones() -> None:
    ranks = Ranks()
    first = [Word("a"), Word("b")]
    assert ranks.order(reversed(first)) == first
    # each new word falls between "a" and the last one added: the gap between two labels
    # halves every time, so the labels are spread out again (more than once)
    squeezed = [Word(f"a {n}") for n in range(1000, 800, -1)]
    for k in range(len(squeezed)):
        met = [*first, *squeezed[: k + 1]]
        random.Random(k).shuffle(met)
        assert ranks.order(met) == sorted(met, key=sort_key)
    everything = [*first, *squeezed, Word("a 95"), Word("c")]
    random.Random(0).shuffle(everything)
    assert ranks.order(everything) == sorted(everything, key=sort_key)
    assert len(ranks) == len(everything)


def test_equal_notation_keeps_the_listed_order() -> None:
    @attrs.frozen
    class Other(Action):
        notation = "word {text}"
        text: str

    ranks = Ranks()
    listed = [Other("x"), Word("x"), Word("w")]
    assert ranks.order(listed) == [Word("w"), Other("x"), Word("x")]
    assert ranks.order([Word("x"), Other("x")]) == [Word("x"), Other("x")]


# every scenario of every game, random and heuristic sides (tcs's long scenarios cut short)
GAMES = [
    (name, scenario)
    for name in ("bloody", "landing_table", "lnl", "tcs")
    for scenario in omaha.load(name).scenarios()
    if (name, scenario) not in (("tcs", "campaign"), ("tcs", "june7"))
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "scenario"), GAMES)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_ranked_order_is_the_sort_key_order(name: str, scenario: str, bot: str) -> None:
    game = omaha.load(name)
    lineup = game.lineup(bot)
    shuffle = random.Random(7)
    state = game.new_state(scenario, seed=3)
    bots = {p: game.bots[lineup[p]](seed=30 + i) for i, p in enumerate(game.players)}
    ranks = game.ranks(state.scenario)
    for _ in range(3000):
        if state.is_terminal():
            break
        legal = list(state.legal_actions())
        assert legal == in_notation_order(legal)
        mixed = legal[:]
        shuffle.shuffle(mixed)
        assert ranks.order(mixed) == in_notation_order(mixed)
        state.apply(bots[state.current_player() or ""].choose(state))
