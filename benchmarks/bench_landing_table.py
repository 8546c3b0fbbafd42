"""D-Day at Omaha Beach (landing_table) timings: prints figures, asserts nothing.

Run from the repo root: ``python benchmarks/bench_landing_table.py [games]``
(the adapters against the direct API: ``python -m benchmarks.bench_agents``). The
machine is shared and noisy: compare ratios within one run, not absolute numbers
across runs.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter

from timing import timed

import omaha
from omaha.kernel.protocol import State


def midgame(scenario: str, steps: int) -> State:
    game = omaha.load("landing_table")
    state = game.new_state(scenario, seed=1)
    bot = game.bots["heuristic"](seed=1)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(bot.choose(state))
    return state


def playouts(scenario: str, bot: str, games: int) -> None:
    game = omaha.load("landing_table")
    levels: Counter[str] = Counter()
    metrics: dict[str, list[float]] = {}
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(scenario, seed=seed)
        player = game.bots[bot](seed=seed)
        while not state.is_terminal():
            state.apply(player.choose(state))
            actions += 1
        outcome = state.outcome()
        assert outcome is not None
        levels[outcome.level] += 1
        for k, v in state.metrics().items():
            metrics.setdefault(k, []).append(v)
    dt = time.perf_counter() - start
    print(
        f"{scenario}/{bot}: {games} games in {dt:.1f} s = {dt / games * 1000:.0f} ms/game, "
        f"{actions / games:.0f} actions/game"
    )
    print("  levels: " + ", ".join(f"{k} {v}" for k, v in levels.most_common()))
    keys = [
        "us_win",
        "first_wave_ashore",
        "landed_off_target",
        "dd_tanks_ashore",
        "dukw_guns_lost",
        "us_losses",
        "german_losses",
        "exits_by_1200",
        "exits_by_1700",
        "exits_opened",
        "wn_cleared",
        "vp",
    ]
    print("  " + ", ".join(f"{k} {statistics.fmean(metrics[k]):.2f}" for k in keys))


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print("== protocol operations (omaha scenario, mid-game) ==")
    state = midgame("omaha", 400)
    print(f"   (state at {state.turn_label}, {state.phase}, {len(state.log)} log events)")

    def listing() -> object:
        with state.edit():  # drops every cache
            pass
        return state.legal_actions()

    timed("legal_actions (uncached)", listing, 200)
    timed("clone", state.clone, 200)
    timed("to_json", state.to_json, 100)
    text = state.to_json()
    timed("state_from_json", lambda: state.game.state_from_json(text), 50)

    def one_apply() -> object:
        twin = state.clone()
        twin.apply(twin.legal_actions()[0])
        return twin

    timed("clone + apply first legal action", one_apply, 200)
    timed("observation('US')", lambda: state.observation("US"), 500)
    timed("action_mask (cached legal actions)", state.action_mask, 500)
    print("adapter v direct API: python -m benchmarks.bench_agents --game landing_table")
    print("== full playouts ==")
    for scenario in ("first_wave", "omaha"):
        for bot in ("random", "heuristic"):
            playouts(scenario, bot, games)


if __name__ == "__main__":
    main()
