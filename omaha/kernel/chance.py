"""Explicit-chance mode: a game that stops before every die roll and every card or
cup draw, so search algorithms (OpenSpiel's chance nodes, expectimax) see them.

The sampled mode (the state's own seeded dice) stays the default. Here the dice
are :class:`~omaha.kernel.dice.ChanceDice`: outcomes chosen from outside. A step
(the set-up, or one player's action) is resolved by replaying it from the
position before it with the outcomes chosen so far; when it needs one more, the
game stands at a chance node with ``count`` equally likely outcomes. Replaying
costs time proportional to the chance events of one step, squared; it needs no
change in any game, because a game is a function of (position, action, dice).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.dice import ChanceDice, ChanceNeeded
from omaha.kernel.protocol import Game, State


class ChanceState:
    """A game in explicit-chance mode: decision nodes and chance nodes alternate.

    At a decision node ``state`` is an ordinary :class:`State` (read it, list its
    legal actions) and :meth:`apply` takes an action. At a chance node
    ``chance_outcomes()`` lists ``(outcome, probability)`` and
    :meth:`apply_chance` takes one outcome.
    """

    def __init__(self, game: Game[Any], scenario: str | Path | None = None) -> None:
        self.game = game
        self.scenario = scenario
        self._base: State[Any] | None = None  # the position the pending step starts from
        self._step: Action | None = None  # None: the set-up
        self._outcomes: list[int] = []
        self._count = 0  # outcomes of the pending chance event; 0 at a decision node
        self._low = 0  # the value of outcome 0 (a die face 1, a pick index 0)
        self._state: State[Any] | None = None
        self._resolve()

    # -- reading ------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        return self._count > 0

    def is_terminal(self) -> bool:
        return self._state is not None and self._state.is_terminal()

    @property
    def state(self) -> State[Any]:
        """The position at a decision (or terminal) node."""
        if self._state is None:
            raise IllegalAction("a chance event is pending: choose its outcome first")
        return self._state

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the pending chance event, each equally likely."""
        if not self._count:
            return []
        p = 1.0 / self._count
        return [(i, p) for i in range(self._count)]

    def chance_values(self) -> list[int]:
        """What each outcome means: outcome ``i`` rolls or picks ``chance_values()[i]``."""
        return [self._low + i for i in range(self._count)]

    @property
    def outcomes_so_far(self) -> tuple[int, ...]:
        """The chance outcomes chosen for the pending step."""
        return tuple(self._outcomes)

    # -- moving -------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Take a player's action at a decision node (illegal: IllegalAction, no change)."""
        state = self.state
        if state.is_terminal():
            raise IllegalAction(f"the game is over; '{action}' cannot be played")
        state.game.codec.check(action)
        if not state.is_legal(action):  # a whole plan, validated without enumeration
            probe = state.clone()
            probe.dice = ChanceDice((), state.dice.drawn)
            # refused: IllegalAction, nothing changed here; accepted and rolling: go on
            with contextlib.suppress(ChanceNeeded):
                probe.apply(action)
        self._base, self._step, self._outcomes = state, action, []
        self._resolve()

    def apply_chance(self, outcome: int) -> None:
        """Choose the outcome of the pending chance event."""
        if not self._count:
            raise IllegalAction("no chance event is pending")
        if isinstance(outcome, bool) or not isinstance(outcome, int):
            raise IllegalAction(f"a chance outcome is a whole number, not {outcome!r}")
        if not 0 <= outcome < self._count:
            raise IllegalAction(f"chance outcome {outcome} is not in 0..{self._count - 1}")
        self._outcomes.append(outcome)
        self._resolve()

    def clone(self) -> ChanceState:
        twin = ChanceState.__new__(ChanceState)
        twin.game, twin.scenario = self.game, self.scenario
        twin._base, twin._step = self._base, self._step  # never changed in place
        twin._outcomes = list(self._outcomes)
        twin._count, twin._low = self._count, self._low
        twin._state = None if self._state is None else self._state.clone()
        return twin

    def resample(self, player: str, seed: int) -> ChanceState:
        """At a decision node: the same mode over ``state.resample(player, seed)``, its
        chance events chosen from outside again."""
        twin = ChanceState.__new__(ChanceState)
        twin.game, twin.scenario = self.game, self.scenario
        twin._base, twin._step, twin._outcomes = None, None, []
        twin._count, twin._low = 0, 0
        state = self.state.resample(player, seed)
        state.dice = ChanceDice()
        twin._state = state
        return twin

    def _resolve(self) -> None:
        try:
            if self._base is None:
                state = self.game.new_state(self.scenario, dice=ChanceDice(self._outcomes))
            else:
                state = self._base.clone()
                state.dice = ChanceDice(self._outcomes, self._base.dice.drawn)
                assert self._step is not None
                state.apply(self._step)
        except ChanceNeeded as need:
            self._count, self._low = need.count, need.low
            self._state = None
            return
        self._count = 0
        self._state = state
