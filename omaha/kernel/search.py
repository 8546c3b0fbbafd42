"""The search agent: single-observer information-set Monte Carlo tree search.

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE
TCIAIG 4(2), 2012), SO-ISMCTS: every iteration searches one *determinization*, a
world drawn by ``state.resample(player, seed)`` that the searching player cannot tell
from the real one, so the agent never reads what its side cannot see. The tree is the
searching player's: a node is the sequence of actions since the root as that player
saw them (the opponent's hidden choices merge into one node; the dice are not in the
key, so the tree is open-loop over chance), and each child keeps how often it was
available, as the paper's availability count, since what is legal varies between
worlds.

The game's heuristic bot is the prior and the rollout policy. At a node, the
candidates are the heuristic's choice in the world that first reached it, then the
other legal actions in a seeded random order, and only the first few are open
(progressive widening: ``WIDEN_BASE`` candidates, one more as the visits grow by
``sqrt``). Rollouts play the heuristic of every side (random where a side has none)
until the turn ends (``turn_label`` changes), ``depth`` decisions have been made since
the root, or the game ends, and are scored by the game's ``State.evaluate(player)`` in
[0, 1]. Solitaire designs have one player, whose evaluation grades the victory level.

Only decisions the game marks worth a search (``State.worth_search``) are searched;
the others, and every decision at a budget of 0 iterations, take the heuristic's
choice on the real state, exactly as the heuristic bot with the same seed would.
With an iteration budget a choice is a function of the seed and what the player saw.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.dice import RandomDice
from omaha.kernel.information import shuffled
from omaha.kernel.protocol import Bot, BotFactory, Game, RandomBot, State

#: Candidates open at a node before it is visited, and how they grow: open =
#: WIDEN_BASE + floor(WIDEN_RATE * sqrt(visits)).
WIDEN_BASE = 2
WIDEN_RATE = 1.0
#: UCB1's exploration constant (values are in [0, 1]).
EXPLORATION = 0.7
#: The bonus of the heuristic's choice at a node, shrinking as 1 / (1 + its visits):
#: with a small budget the search overrides the heuristic only on clear evidence.
PRIOR_BONUS = 0.1
#: Seeds of the worlds and bots are drawn below this.
SEED_SPACE = 2**31
#: The search methods: ISMCTS, or the paired comparison of the prior's best candidates.
METHODS = ("tree", "paired")


@attrs.define
class Edge:
    """A candidate at a node: visits, summed value (for the node's mover), availability."""

    visits: int = 0
    value: float = 0.0
    available: int = 0


@attrs.define
class Node:
    """A node of the searching player's tree: the candidates in prior order, and theirs."""

    mover: str
    order: list[str]
    edges: dict[str, Edge]
    visits: int = 0

    def open(self) -> int:
        """How many candidates progressive widening opens at this node now."""
        return WIDEN_BASE + int(WIDEN_RATE * math.sqrt(self.visits))


@attrs.define
class SearchStats:
    """What an agent did over its life: decisions, searched, overridden, work, time."""

    decisions: int = 0
    searched: int = 0
    overridden: int = 0
    iterations: int = 0
    rollout_steps: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {
            "decisions": self.decisions,
            "searched": self.searched,
            "overridden": self.overridden,
            "iterations": self.iterations,
            "rollout_steps": self.rollout_steps,
            "seconds": self.seconds,
        }


class SearchBot:
    """Information-set MCTS for the side to move (see the module docstring).

    ``iterations`` or ``seconds`` bound each searched decision (the game's
    ``search_iterations`` when neither is given); ``depth`` bounds a rollout in
    decisions from the root (the game's ``search_depth``). ``prior`` names the bot the
    search leans on (``heuristic`` where the game has one, else ``random``). ``method``,
    ``width``, ``turn_end`` and ``margin`` (the standard errors a paired gain must clear
    to override the prior) default to the game's ``search_*``.
    """

    def __init__(
        self,
        game: Game[Any],
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        depth: int | None = None,
        prior: str | None = None,
        method: str | None = None,
        width: int | None = None,
        turn_end: bool | None = None,
        margin: float | None = None,
    ) -> None:
        if iterations is not None and iterations < 0:
            raise ValueError(f"iterations must be 0 or more, not {iterations}")
        if seconds is not None and seconds < 0:
            raise ValueError(f"seconds must be 0 or more, not {seconds}")
        self.game = game
        self.seed = seed
        self.seconds = seconds
        self.iterations = (
            iterations if iterations is not None or seconds is not None else game.search_iterations
        )
        self.depth = depth if depth is not None else game.search_depth
        self.method = method or game.search_method
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {self.method!r}")
        self.width = width if width is not None else game.search_width
        if self.width < 1:
            raise ValueError(f"width must be 1 or more, not {self.width}")
        self.turn_end = turn_end if turn_end is not None else game.search_turn_end
        self.margin = margin if margin is not None else game.search_margin
        self.prior = prior or ("heuristic" if "heuristic" in game.bots else "random")
        self.rng = RandomDice(seed)
        self.stats = SearchStats()
        # the bot that plays each side where the search does not: seeded as the prior
        # bot of the same seed would be, so budget 0 plays exactly that bot's game
        self._own = _policies(game, self.prior, seed)
        self._policy: dict[str, Bot] | None = None

    # -- the decision ----------------------------------------------------------------
    def choose(self, state: State[Any]) -> Action:
        player = state.current_player()
        if player is None:
            raise IllegalAction("the game is over")
        legal = state.legal_actions()
        self.stats.decisions += 1
        budget_zero = self.seconds is None and not self.iterations
        if len(legal) == 1:
            return legal[0]
        if budget_zero or self.seconds == 0 or not state.worth_search():
            return self._own[player].choose(state)
        started = time.process_time()
        if self.method == "paired":
            choice, heuristic = self._paired(state, player)
        else:
            choice, heuristic = self._search(state, player)
        self.stats.seconds += time.process_time() - started
        self.stats.searched += 1
        if choice != heuristic:
            self.stats.overridden += 1
        by_text = {str(a): a for a in legal}
        return by_text[choice]

    def _budget_left(self, done: int, deadline: float | None) -> bool:
        """Whether another iteration fits: the iteration count, or (with ``seconds``)
        the CPU deadline, after at least one iteration."""
        if deadline is None:
            return done < (self.iterations or 0)
        return done == 0 or time.process_time() < deadline

    def _search(self, state: State[Any], player: str) -> tuple[str, str]:
        """The most visited root candidate after the budget, and the prior's choice."""
        if self._policy is None:
            self._policy = _policies(self.game, self.prior, self.rng.pick(SEED_SPACE))
        tree: dict[tuple[str, ...], Node] = {}
        turn = state.turn_label
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        done = 0
        while self._budget_left(done, deadline):
            world = state.resample(player, self.rng.pick(SEED_SPACE))
            self._iterate(world, player, turn, tree)
            done += 1
        self.stats.iterations += done
        root = tree[()]
        best = max(
            range(len(root.order)),
            key=lambda k: (root.edges[root.order[k]].visits, -k),
        )
        return root.order[best], root.order[0]

    # -- the paired comparison -----------------------------------------------------------
    def _paired(self, state: State[Any], player: str) -> tuple[str, str]:
        """The prior's ``width`` best candidates, each played out in the same worlds
        with the same dice (common random numbers: every candidate meets one world, a
        copy of it, and rollout bots seeded alike); the best by mean value if its gain
        over the prior's choice is clear (``margin`` standard errors), else the prior's."""
        legal_text = {str(a) for a in state.legal_actions()}
        ranking = _ranking(self._own[player], state)
        cands = [t for t in ranking if t in legal_text][: self.width]
        first = cands[0]
        values: dict[str, list[float]] = {t: [] for t in cands}
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        done = 0
        while self._budget_left(done, deadline):
            seed = self.rng.pick(SEED_SPACE)
            world = state.resample(player, seed)
            by_text = {str(a): a for a in world.legal_actions()}
            done += 1
            if any(text not in by_text for text in cands):
                continue  # a world that is not the player's information state: skipped
            for text in cands:
                sim = world.clone()
                sim.apply(by_text[text])
                values[text].append(self.rollout(sim, player, state.turn_label, seed))
        self.stats.iterations += done
        best, gain = first, 0.0
        base = values[first]
        for text in cands[1:] if len(base) > 1 else ():  # one world weighs nothing
            diffs = [v - b for v, b in zip(values[text], base, strict=True)]
            mean = sum(diffs) / len(diffs)
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
            clear = mean > 0 and mean > self.margin * spread / math.sqrt(len(diffs))
            if clear and mean > gain:
                best, gain = text, mean
        return best, first

    def rollout(self, sim: State[Any], player: str, turn: str, seed: int) -> float:
        """Every side's policy (seeded by ``seed``) from ``sim`` to the end of the turn
        (when ``turn_end``), ``depth`` decisions or the end; ``sim`` valued for ``player``."""
        policy = _policies(self.game, self.prior, seed)
        steps = 1
        while not sim.is_terminal() and steps < self.depth:
            if self.turn_end and sim.turn_label != turn:
                break
            mover = sim.current_player()
            assert mover is not None
            sim.apply(policy[mover].choose(sim))
            steps += 1
        self.stats.rollout_steps += steps
        return sim.evaluate(player)

    # -- one iteration -----------------------------------------------------------------
    def _iterate(
        self, world: State[Any], player: str, turn: str, tree: dict[tuple[str, ...], Node]
    ) -> None:
        assert self._policy is not None
        path: list[tuple[Node, str]] = []
        key: tuple[str, ...] = ()
        steps = 0
        # selection and expansion: down the tree while its nodes are known
        while not world.is_terminal() and steps < self.depth and world.turn_label == turn:
            mover = world.current_player()
            assert mover is not None
            legal = world.legal_actions()
            node = tree.get(key)
            expanded = node is None
            if node is None:
                node = tree[key] = self._expand(world, mover, legal)
            by_text = {str(a): a for a in legal}
            text = self._select(node, by_text)
            action = by_text[text]
            seen = world._action_seen_by(action, mover, player)
            path.append((node, text))
            world.apply(action)
            steps += 1
            key = (*key, "" if seen is None else seen)
            if expanded:
                break
        # rollout: every side's policy to the end of the turn, the depth or the end
        while not world.is_terminal() and steps < self.depth and world.turn_label == turn:
            mover = world.current_player()
            assert mover is not None
            world.apply(self._policy[mover].choose(world))
            steps += 1
        self.stats.rollout_steps += steps
        values = {p: world.evaluate(p) for p in self.game.players}
        for node, text in path:
            node.visits += 1
            edge = node.edges[text]
            edge.visits += 1
            edge.value += values[node.mover]

    def _expand(self, world: State[Any], mover: str, legal: tuple[Action, ...]) -> Node:
        """A new node: the prior's choice in this world first, the rest shuffled."""
        assert self._policy is not None
        first = str(self._policy[mover].choose(world))
        rest = shuffled([str(a) for a in legal if str(a) != first], self.rng)
        order = [first, *rest]
        return Node(mover, order, {t: Edge() for t in order})

    def _select(self, node: Node, by_text: Mapping[str, Action]) -> str:
        """UCB1 over the open candidates legal in this world (availability counts)."""
        for text in by_text:  # an action no world offered before joins at the end
            if text not in node.edges:
                node.order.append(text)
                node.edges[text] = Edge()
        open_ = [t for t in node.order[: node.open()] if t in by_text]
        if not open_:  # none of the open ones is legal here: the first that is
            open_ = [next(t for t in node.order if t in by_text)]
        for text in open_:
            node.edges[text].available += 1
        for text in open_:
            if node.edges[text].visits == 0:
                return text
        first = node.order[0]

        def score(text: str) -> float:
            edge = node.edges[text]
            mean = edge.value / edge.visits
            explore = EXPLORATION * math.sqrt(math.log(edge.available) / edge.visits)
            bonus = PRIOR_BONUS / (1 + edge.visits) if text == first else 0.0
            return mean + explore + bonus

        return max(open_, key=score)


def _ranking(bot: Bot, state: State[Any]) -> list[str]:
    """The bot's candidates best first (its ``ranked(state)`` where it has one; else
    its choice, then the legal actions in listing order), its choice first."""
    ranked: Callable[[State[Any]], list[Action]] | None = getattr(bot, "ranked", None)
    if ranked is None:
        first = str(bot.choose(state))
        return [first, *(str(a) for a in state.legal_actions() if str(a) != first)]
    return [str(a) for a in ranked(state)]


def _policies(game: Game[Any], prior: str, seed: int) -> dict[str, Bot]:
    """One bot per side: ``prior`` where it plays that side, else the bot the game
    pairs with it (``Game.lineup``), else random."""
    lineup = game.lineup(prior) if prior in game.bots else {}
    out: dict[str, Bot] = {}
    for side in game.players:
        name = lineup.get(side, "random")
        if side not in game.bot_sides(name):
            name = "random"
        factory: Callable[..., Bot] = game.bots.get(name, RandomBot)
        out[side] = factory(seed=seed)
    return out


def factory(game: Game[Any]) -> BotFactory:
    """The search agent of ``game`` as a bot factory: ``bots["search"](seed=1)``."""

    def search(seed: int = 0, **options: Any) -> SearchBot:
        """Information-set MCTS over resampled worlds, with the heuristic as its prior and
        rollout policy (``omaha.kernel.search``; docs/bots.md gives its budgets)."""
        return SearchBot(game, seed, **options)

    return search
