"""LnL Omaha timings (prints figures, asserts nothing).

Run from the repo root: ``python benchmarks/bench_lnl.py [games]``. The machine is
shared and noisy: compare ratios within one run, not absolute numbers across runs.
"""

from __future__ import annotations

import collections
import statistics
import sys
import time

from timing import timed

import omaha
from omaha.kernel.protocol import State

GAME = omaha.load("lnl")


def playout(scenario: str, seed: int, lineup: dict[str, str]) -> tuple[State, int]:
    state = GAME.new_state(scenario, seed=seed)
    bots = {
        side: GAME.bots[name](seed=seed * 31 + i)
        for i, (side, name) in enumerate(sorted(lineup.items()))
    }
    n = 0
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        state.apply(bots[player].choose(state))
        n += 1
    return state, n


def mid_game(scenario: str) -> State:
    state = GAME.new_state(scenario, seed=5)
    bots = {p: GAME.bots["random"](seed=i) for i, p in enumerate(GAME.players)}
    for _ in range(300):
        player = state.current_player()
        assert player is not None
        state.apply(bots[player].choose(state))
    return state


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print("== one position (beach, 300 random actions in) ==")
    for scenario in ("beach", "vierville"):
        playout(scenario, 0, {"US": "random", "German": "random"})  # warm the LOS caches
    state = mid_game("beach")

    def fresh_listing() -> object:
        with state.edit():  # drops the cached legal actions and fire groups
            pass
        return state.legal_actions()

    timed("legal_actions (uncached)", fresh_listing, 500)
    action = state.legal_actions()[0]
    timed("clone + apply(first legal action)", lambda: state.clone().apply(action), 300)
    timed("clone", state.clone, 1000)
    timed("to_json", state.to_json, 300)
    text = state.to_json()
    timed("state_from_json", lambda: GAME.state_from_json(text), 200)

    for scenario in ("beach", "vierville"):
        for name, lineup in (
            ("random v random", {"US": "random", "German": "random"}),
            ("heuristic v solitaire", GAME.lineup("solitaire")),
            ("heuristic v heuristic", GAME.lineup("heuristic")),
        ):
            start = time.perf_counter()
            results: collections.Counter[str] = collections.Counter()
            steps = []
            for seed in range(games):
                st, n = playout(scenario, seed, lineup)
                steps.append(n)
                outcome = st.outcome()
                results[outcome.level if outcome else "?"] += 1
            per = (time.perf_counter() - start) / games
            print(
                f"{scenario:<10s} {name:<22s} {per * 1e3:8.1f} ms/game, "
                f"{statistics.mean(steps):7.1f} decisions/game, {dict(results)}"
            )

    agents()


# ----------------------------------------------------------------------------
# The agent surface: the PettingZoo adapter next to the direct API (issue 15)
# ----------------------------------------------------------------------------
def agents() -> None:
    """Where an adapter's extra time goes, on one position; the adapters against the
    direct API: ``python -m benchmarks.bench_agents --game lnl``."""
    # where the adapter's extra time goes, on one position (observation rebuilt)
    state = mid_game("beach")

    def fresh_observation() -> object:
        with state.edit():  # drops the position's cached counters part
            pass
        return state.observation("US")

    timed("observation (rebuilt, beach)", fresh_observation, 2000)
    timed("observation (counters part kept)", lambda: state.observation("US"), 2000)
    timed("action_mask", state.action_mask, 2000)


if __name__ == "__main__":
    main()
