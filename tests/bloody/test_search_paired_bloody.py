"""The search agent's paired comparison (``method="paired"``) on staged Bloody Omaha
positions: it overrides a prior that is clearly wrong, keeps one without evidence, and
plays every candidate in the same worlds with the same dice."""

from __future__ import annotations

from typing import Any

import pytest
from bloody_helpers import GAME, staged

import omaha
from omaha.bloody.actions import EndActivation
from omaha.bloody.bots import HeuristicBot
from omaha.kernel.actions import Action
from omaha.kernel.protocol import BotFactory, State
from omaha.kernel.search import SearchBot


def heuristic_states(seed: int, count: int) -> list[State[Any]]:
    """The first ``count`` searched decisions with a choice of a heuristic game."""
    bot = HeuristicBot(seed)
    state = GAME.new_state("solo", seed=seed)
    out: list[State[Any]] = []
    while not state.is_terminal() and len(out) < count:
        if state.worth_search() and len(state.legal_actions()) > 1:
            out.append(state.clone())
        state.apply(bot.choose(state))
    return out


LAST_TURN_ATTACK = {"A/116": "B2", "B/116": "B2"}


def last_turn_attack() -> State[Any]:
    """Turn 8 of 8, two companies next to a face-up strongpoint worth 2 VP (8.4)."""
    return staged(turn=8, units=LAST_TURN_ATTACK, tokens={"S3": [("sp2", True)]})


class EndFirst(HeuristicBot):
    """The heuristic, but ranking "end activation" first: a prior that is wrong here."""

    def ranked(self, state: State[Any]) -> list[Action]:
        rest = [a for a in super().ranked(state) if not isinstance(a, EndActivation)]
        return [EndActivation(), *rest]


class BloodyEndFirst(type(GAME)):  # type: ignore[misc]
    @property
    def bots(self) -> dict[str, BotFactory]:
        return {**super().bots, "endfirst": EndFirst}


def test_the_paired_search_overrides_a_prior_that_is_clearly_wrong() -> None:
    state = last_turn_attack()
    assert str(HeuristicBot(1).choose(state)) == "attack S3 from B2"
    game = BloodyEndFirst()
    bot = SearchBot(game, 4, iterations=8, width=2, method="paired", prior="endfirst")
    assert str(bot.choose(state)) == "attack S3 from B2"
    assert bot.stats.overridden == 1 and bot.stats.iterations == 8


def test_the_paired_search_keeps_the_prior_without_clear_evidence() -> None:
    """One world is no evidence (no spread to weigh a gain by): the prior's choice."""
    state = last_turn_attack()
    game = BloodyEndFirst()
    bot = SearchBot(game, 4, iterations=1, width=2, method="paired", prior="endfirst")
    assert str(bot.choose(state)) == "end activation"
    assert bot.stats.overridden == 0


def test_the_paired_search_keeps_a_good_heuristic_choice() -> None:
    game = GAME
    bot = SearchBot(game, 4, iterations=8, method="paired")
    assert str(bot.choose(last_turn_attack())) == "attack S3 from B2"


def test_candidates_meet_the_same_worlds_with_the_same_dice() -> None:
    """Common random numbers: two candidates that are the same action get the same
    values in every world, so the paired gain is exactly 0 and nothing is overridden."""

    class Twice(HeuristicBot):
        def ranked(self, state: State[Any]) -> list[Action]:
            first = self.choose(state)
            return [first, first]

    class BloodyTwice(type(GAME)):  # type: ignore[misc]
        @property
        def bots(self) -> dict[str, BotFactory]:
            return {**super().bots, "twice": Twice}

    game = BloodyTwice()
    bot = SearchBot(game, 2, iterations=6, width=2, method="paired", prior="twice", margin=0.0)
    state = heuristic_states(seed=2, count=5)[-1]
    values: list[float] = []
    original = bot.rollout

    def spy(sim: State[Any], player: str, turn: str, seed: int) -> float:
        values.append(original(sim, player, turn, seed))
        return values[-1]

    bot.rollout = spy  # type: ignore[method-assign]
    bot.choose(state)
    pairs = list(zip(values[::2], values[1::2], strict=True))
    assert len(pairs) == 6 and all(a == b for a, b in pairs)
    assert len({a for a, _ in pairs}) > 1  # the worlds differ from each other
    assert bot.stats.overridden == 0


def test_unknown_method_or_width_is_refused() -> None:
    game = GAME
    with pytest.raises(ValueError, match="method"):
        SearchBot(game, 1, method="greedy")
    with pytest.raises(ValueError, match="width"):
        SearchBot(game, 1, width=0)


class BloodyEndFirstStrict(BloodyEndFirst):
    search_margin = 1e9  # no gain is that many standard errors clear


def test_the_override_margin_is_the_games_unless_given() -> None:
    """The staged attack the wrong prior turns down: overridden at the game's margin,
    kept at a margin no gain can clear, and ``margin=`` wins over the game's."""
    assert SearchBot(GAME, 1).margin == 1.5
    assert SearchBot(omaha.load("landing_table"), 1).margin == 2.92
    state = last_turn_attack()
    strict = SearchBot(
        BloodyEndFirstStrict(), 4, iterations=8, width=2, method="paired", prior="endfirst"
    )
    assert str(strict.choose(state)) == "end activation" and strict.stats.overridden == 0
    given = SearchBot(
        BloodyEndFirstStrict(),
        4,
        iterations=8,
        width=2,
        method="paired",
        prior="endfirst",
        margin=1.5,
    )
    assert str(given.choose(state)) == "attack S3 from B2"
