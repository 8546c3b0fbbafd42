"""``omaha ladder``: every pair of bots that can play a game, on paired seeds, and a
rating per bot.

Two-player games: every bot that can play the US meets every bot that can play the
German, on the same game seeds (run ``i`` of every match draws its seeds from
``numpy.random.SeedSequence(root, spawn_key=(i,))``, as ``omaha compare`` does), so two
matches differ only by their players. Solo games: every bot plays the same seeds
against the system, and two bots are compared seed by seed (the better victory level
wins that seed, an equal one is half each).

Ratings are Bradley-Terry strengths on the Elo scale (400 points: ten to one odds),
fitted to every game's score (a two-player game scores the US return mapped onto 0..1;
a solo pair scores 1, 1/2 or 0), centred on the mean, with a 95% interval from a
bootstrap over seeds (the same resampled seeds for every match, so the pairing holds).
In a two-player game a bot is rated per side ("heuristic (US)"): the sides are not alike.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

import omaha
from omaha.compare import Z95, Share, run_seeds, wilson
from omaha.kernel.protocol import Bot, Game

#: Bootstrap resamples for the rating intervals.
BOOTSTRAP = 400
#: Elo points per natural unit of Bradley-Terry strength (400 points: odds of ten to one).
ELO = 400.0 / math.log(10.0)
#: A weak pull of every strength towards 0, so a bot that won (or lost) every game it
#: played has a finite rating: the prior weight of one drawn game against the mean.
PRIOR = 0.5


@attrs.frozen
class Entrant:
    """A bot as the ladder enters it: a name from ``game.bots`` and, for the search
    agent, a budget in iterations a decision (``search:64``)."""

    bot: str
    budget: int | None = None

    @classmethod
    def parse(cls, text: str) -> Entrant:
        name, _, budget = text.partition(":")
        if not budget:
            return cls(name)
        if not budget.isdigit():
            raise ValueError(f"bot {text!r}: the budget after ':' must be a whole number")
        return cls(name, int(budget))

    def __str__(self) -> str:
        return self.bot if self.budget is None else f"{self.bot}:{self.budget}"

    def make(self, game: Game[Any], seed: int) -> Bot:
        """The bot, seeded; a budget is the search's iterations a decision."""
        factory = game.bots[self.bot]
        if self.budget is None:
            return factory(seed=seed)
        try:
            return factory(seed=seed, iterations=self.budget)
        except TypeError:
            raise ValueError(f"bot {self.bot!r} of {game.name} takes no budget") from None


@attrs.frozen
class Played:
    """One game of a match: the seed index, each side's return and the outcome."""

    index: int
    seed: int
    returns: dict[str, float]
    winner: str | None
    level: str


@attrs.frozen
class Match:
    """The games of one lineup (side -> entrant) on the ladder's paired seeds."""

    lineup: tuple[tuple[str, Entrant], ...]
    games: tuple[Played, ...]

    @property
    def label(self) -> str:
        return " vs ".join(f"{e} ({side})" for side, e in self.lineup)

    def wins(self, side: str) -> Share:
        return Share(sum(1 for g in self.games if g.winner == side), len(self.games))

    def mean_return(self, side: str, bounds: tuple[float, float]) -> tuple[float, float, float]:
        """The side's mean return with its 95% interval (normal, over the games), the
        interval clipped to the returns' range ``bounds``."""
        values = np.array([g.returns[side] for g in self.games], dtype=float)
        mean = float(values.mean())
        half = Z95 * float(values.std(ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else 0
        low, high = bounds
        return mean, max(low, mean - half), min(high, mean + half)


@attrs.frozen
class Rating:
    """A rated entrant: its Elo-scale strength with a 95% bootstrap interval."""

    name: str
    elo: float
    low: float
    high: float


@attrs.frozen
class Ladder:
    game: str
    scenario: str
    n: int
    root: int
    matches: tuple[Match, ...]
    ratings: tuple[Rating, ...]


# --------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------
def low_budget(game: Game[Any]) -> int:
    """The search's low budget on the ladder: half its default iterations, at least 2
    (one world is no evidence for the paired comparison to override on)."""
    return max(2, game.search_iterations // 2)


def default_entrants(game: Game[Any]) -> list[Entrant]:
    """Every bot of the game; the search at budget 0, its low budget and its default."""
    out: list[Entrant] = []
    for name in sorted(game.bots):
        if name == "search":
            out.append(Entrant(name, 0))
            if low_budget(game) < game.search_iterations:
                out.append(Entrant(name, low_budget(game)))
        out.append(Entrant(name))
    return out


def lineups(game: Game[Any], entrants: Sequence[Entrant]) -> list[tuple[tuple[str, Entrant], ...]]:
    """Every assignment of an entrant to each side that the entrant can play."""
    per_side = [[e for e in entrants if side in game.bot_sides(e.bot)] for side in game.players]
    for side, options in zip(game.players, per_side, strict=True):
        if not options:
            raise ValueError(f"no bot of those given can play the {side} side of {game.name}")
    if len(game.players) == 1:
        return [((game.players[0], e),) for e in per_side[0]]
    return [tuple(zip(game.players, combo, strict=True)) for combo in itertools.product(*per_side)]


def play_game(
    game: Game[Any], scenario: str, lineup: Sequence[tuple[str, Entrant]], root: int, index: int
) -> Played:
    """Run ``index`` of a match: the ladder's game seed, one bot seed per side."""
    seed, bot_seeds = run_seeds(root, index)
    bots = {side: e.make(game, bot_seeds[k]) for k, (side, e) in enumerate(lineup)}
    state = game.new_state(scenario, seed=seed)
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        state.apply(bots[player].choose(state))
    outcome = state.outcome()
    assert outcome is not None
    return Played(index, seed, state.returns(), outcome.winner, outcome.level)


def ladder(
    name: str,
    scenario: str | None = None,
    games: int = 20,
    entrants: Iterable[Entrant] | None = None,
    root: int = 1,
    progress: Callable[[str], None] | None = None,
) -> Ladder:
    """Play every lineup of ``entrants`` (default: every bot) ``games`` times on paired
    seeds and rate them."""
    game = omaha.load(name)
    scen = game.load_scenario(scenario).id
    chosen = list(entrants) if entrants is not None else default_entrants(game)
    for e in chosen:
        if e.bot not in game.bots:
            raise ValueError(f"{name} has no bot {e.bot!r} (bots: {', '.join(sorted(game.bots))})")
        e.make(game, 0)  # a budget a bot does not take is refused before any game
    matches = []
    for lineup in lineups(game, chosen):
        played = tuple(play_game(game, scen, lineup, root, i) for i in range(games))
        matches.append(Match(lineup, played))
        if progress is not None:
            progress(matches[-1].label)
    return Ladder(name, scen, games, root, tuple(matches), rate(game, matches, root))


# --------------------------------------------------------------------------
# Rating
# --------------------------------------------------------------------------
def _contests(
    game: Game[Any], matches: Sequence[Match], indices: Sequence[int]
) -> tuple[list[str], list[tuple[int, int, float]]]:
    """The rated names and every contest (winner-side index, loser-side index, score of
    the first) over the seeds ``indices`` (repeats allowed: a bootstrap sample)."""
    low, high = game.utility_range
    span = high - low
    if len(game.players) == 1:
        side = game.players[0]
        names = sorted({str(m.lineup[0][1]) for m in matches})
        by_name = {str(m.lineup[0][1]): m for m in matches}
        contests = []
        for a, b in itertools.combinations(range(len(names)), 2):
            ga, gb = by_name[names[a]].games, by_name[names[b]].games
            for i in indices:
                ra, rb = ga[i].returns[side], gb[i].returns[side]
                contests.append((a, b, 1.0 if ra > rb else 0.5 if ra == rb else 0.0))
        return names, contests
    first = game.players[0]
    names = sorted({f"{e} ({side})" for m in matches for side, e in m.lineup})
    where = {n: k for k, n in enumerate(names)}
    contests = []
    for m in matches:
        (s1, e1), (s2, e2) = m.lineup[0], m.lineup[1]
        a, b = where[f"{e1} ({s1})"], where[f"{e2} ({s2})"]
        for i in indices:
            score = (m.games[i].returns[first] - low) / span
            contests.append((a, b, min(1.0, max(0.0, score))))
    return names, contests


def bradley_terry(n: int, contests: Sequence[tuple[int, int, float]]) -> npt.NDArray[np.float64]:
    """Strengths maximising the likelihood of the scores, with a weak pull to 0 (Newton's
    method; the problem is concave, so it converges from 0); centred on their mean."""
    r: npt.NDArray[np.float64] = np.zeros(n)
    if not contests:
        return r
    a = np.array([c[0] for c in contests])
    b = np.array([c[1] for c in contests])
    s = np.array([c[2] for c in contests])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(r[a] - r[b])))
        grad = -PRIOR * r
        np.add.at(grad, a, s - p)
        np.add.at(grad, b, p - s)
        w = p * (1.0 - p)
        hess = -PRIOR * np.eye(n)
        np.add.at(hess, (a, a), -w)
        np.add.at(hess, (b, b), -w)
        np.add.at(hess, (a, b), w)
        np.add.at(hess, (b, a), w)
        step = np.linalg.solve(hess, grad)
        r = r - step
        if float(np.abs(step).max()) < 1e-10:
            break
    centred: npt.NDArray[np.float64] = r - r.mean()
    return centred


def rate(game: Game[Any], matches: Sequence[Match], root: int) -> tuple[Rating, ...]:
    """Each entrant's Elo-scale strength with a 95% interval from a bootstrap over seeds."""
    n_games = len(matches[0].games) if matches else 0
    names, contests = _contests(game, matches, range(n_games))
    point = bradley_terry(len(names), contests) * ELO
    rng = np.random.default_rng(np.random.SeedSequence(root, spawn_key=(0x1ADDE7,)))
    samples = np.empty((BOOTSTRAP, len(names)))
    for k in range(BOOTSTRAP):
        picked = [int(i) for i in rng.integers(0, n_games, n_games)]
        samples[k] = bradley_terry(len(names), _contests(game, matches, picked)[1]) * ELO
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    out = [
        Rating(name, float(point[k]), float(low[k]), float(high[k])) for k, name in enumerate(names)
    ]
    return tuple(sorted(out, key=lambda r: -r.elo))


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------
def table(result: Ladder) -> str:
    """The matches (win shares with Wilson intervals, mean returns) and the ratings."""
    game = omaha.load(result.game)
    lines = [
        f"{result.game} / {result.scenario}: {result.n} games a match on paired seeds "
        f"(root seed {result.root})",
        "",
    ]
    for m in result.matches:
        lines.append(f"{m.label}  (n={len(m.games)})")
        for side, _ in m.lineup:
            mean, lo, hi = m.mean_return(side, game.utility_range)
            lines.append(
                f"    {side:<8} wins {m.wins(side)}; mean return {mean:+.2f} [{lo:+.2f}, {hi:+.2f}]"
            )
    lines += ["", "rating (Bradley-Terry, Elo scale, 95% bootstrap interval over seeds):"]
    width = max((len(r.name) for r in result.ratings), default=0)
    for r in result.ratings:
        lines.append(f"  {r.name:<{width}}  {r.elo:+7.0f}  [{r.low:+.0f}, {r.high:+.0f}]")
    if len(game.players) == 1:
        lines.append("  (solo: two bots compared seed by seed, the better victory level wins)")
    else:
        lines.append(
            "  (a bot is rated per side: across sides the figures hold the sides' odds too)"
        )
    return "\n".join(lines)


def to_data(result: Ladder) -> dict[str, Any]:
    return {
        "game": result.game,
        "scenario": result.scenario,
        "games_per_match": result.n,
        "root_seed": result.root,
        "matches": [
            {
                "lineup": {side: str(e) for side, e in m.lineup},
                "games": [
                    {
                        "index": g.index,
                        "seed": g.seed,
                        "winner": g.winner,
                        "level": g.level,
                        "returns": g.returns,
                    }
                    for g in m.games
                ],
                "wins": {
                    side: {
                        "k": m.wins(side).k,
                        "n": m.wins(side).n,
                        "wilson95": list(wilson(m.wins(side).k, m.wins(side).n)),
                    }
                    for side, _ in m.lineup
                },
            }
            for m in result.matches
        ],
        "ratings": [attrs.asdict(r) for r in result.ratings],
    }
