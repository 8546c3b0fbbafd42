"""D-Day at Omaha Beach (landing_table) timings: prints figures, asserts nothing.

Run from the repo root: ``python benchmarks/bench_landing_table.py [games]``
(``adapter`` as the argument runs only the PettingZoo adapter against the direct
API). The machine is shared and noisy: compare ratios within one run, not
absolute numbers across runs.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter

import numpy as np
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


def direct_games(scenario: str, seeds: list[int], policy_seed: int) -> tuple[int, float]:
    """Random play through the protocol: (decisions, CPU seconds)."""
    game = omaha.load("landing_table")
    rng = np.random.default_rng(policy_seed)
    decisions = 0
    start = time.process_time()
    for seed in seeds:
        st = game.new_state(scenario, seed=seed)
        while not st.is_terminal():
            actions = st.legal_actions()
            st.apply(actions[int(rng.integers(len(actions)))])
            decisions += 1
    return decisions, time.process_time() - start


def adapter_games(scenario: str, seeds: list[int], policy_seed: int) -> tuple[int, float]:
    """The same random play through PettingZoo's AEC loop (observation and mask every
    step): (decisions, CPU seconds)."""
    from omaha.integrations.pettingzoo import raw_env

    env = raw_env("landing_table", scenario)
    rng = np.random.default_rng(policy_seed)
    decisions = 0
    start = time.process_time()
    for seed in seeds:
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, done, _cut, _info = env.last()
            if done:
                env.step(None)
                continue
            # a bool view: np.flatnonzero on the int8 mask itself is ~15x slower (numpy 2.4)
            codes = np.flatnonzero(obs["action_mask"].view(np.bool_))
            env.step(int(codes[int(rng.integers(len(codes)))]))
            decisions += 1
    return decisions, time.process_time() - start


def adapter_vs_direct(scenario: str, games: int, rounds: int = 3) -> None:
    """Issue 15: games/s through the PettingZoo adapter and the direct API, the same
    game seeds and a uniform random policy, run in turns (CPU time, medians)."""
    try:
        from omaha.integrations.pettingzoo import raw_env
    except ImportError:
        print("adapter vs direct: the pettingzoo extra is not installed")
        return
    seeds = list(range(1000, 1000 + games))
    env = raw_env("landing_table", scenario)
    game_seeds = []  # the dice seed each reset(seed=s) gives: the direct run plays the same
    for seed in seeds:
        env.reset(seed=seed)
        assert env.state is not None and env.state.seed is not None
        game_seeds.append(env.state.seed)
    rates: dict[str, list[float]] = {"direct": [], "adapter": []}
    steps: dict[str, int] = {}
    for k in range(rounds):
        for name, run_seeds in (("direct", game_seeds), ("adapter", seeds)):
            run = direct_games if name == "direct" else adapter_games
            decisions, seconds = run(scenario, run_seeds, k)
            rates[name].append(games / seconds)
            steps[name] = decisions
    direct, adapter = (statistics.median(rates[n]) for n in ("direct", "adapter"))
    for name, rate in (("direct API", direct), ("PettingZoo adapter", adapter)):
        print(f"{scenario + ', random play, ' + name:<56s} {rate:11.2f} games/s")
    print(
        f"{'adapter cost over the direct API':<56s} {(direct / adapter - 1) * 100:+10.1f} %"
        f"  ({steps['direct'] / games:.0f} and {steps['adapter'] / games:.0f} decisions a game)"
    )
    per_decision = (1 / adapter - 1 / direct) / (steps["adapter"] / games)
    print(f"{'adapter cost per decision':<56s} {per_decision * 1e6:11.1f} us/decision")


def main() -> None:
    if sys.argv[1:] == ["adapter"]:
        adapter_vs_direct("first_wave", 20)
        adapter_vs_direct("omaha", 6)
        return
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
    print("== issue 15: the PettingZoo adapter against the direct API ==")
    adapter_vs_direct("first_wave", games)
    adapter_vs_direct("omaha", max(2, games // 4))
    print("== full playouts ==")
    for scenario in ("first_wave", "omaha"):
        for bot in ("random", "heuristic"):
            playouts(scenario, bot, games)


if __name__ == "__main__":
    main()
