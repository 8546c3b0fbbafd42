"""Bloody Omaha timings (prints figures, asserts nothing).

Run from the repo root: ``python benchmarks/bench_bloody.py``. The machine is shared
and noisy: compare ratios within one run, not absolute numbers across runs.
"""

from __future__ import annotations

import time

import numpy as np
from timing import timed

import omaha
from omaha.kernel.protocol import State

GAME = omaha.load("bloody")


def midgame(seed: int = 3, steps: int = 40) -> State:
    st = GAME.new_state(seed=seed)
    bot = GAME.bots["heuristic"](seed=seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(bot.choose(st))
    return st


def playout(bot: str, seed: int) -> State:
    st = GAME.new_state(seed=seed)
    b = GAME.bots[bot](seed=seed)
    while not st.is_terminal():
        st.apply(b.choose(st))
    return st


def direct_games(seeds: list[int], policy_seed: int) -> tuple[int, float]:
    """Random play through the protocol: (decisions, CPU seconds)."""
    rng = np.random.default_rng(policy_seed)
    decisions = 0
    start = time.process_time()
    for seed in seeds:
        st = GAME.new_state(seed=seed)
        while not st.is_terminal():
            actions = st.legal_actions()
            st.apply(actions[int(rng.integers(len(actions)))])
            decisions += 1
    return decisions, time.process_time() - start


def adapter_games(seeds: list[int], policy_seed: int) -> tuple[int, float]:
    """Random play through PettingZoo's AEC loop (observation and mask every step)."""
    from omaha.integrations.pettingzoo import raw_env

    env = raw_env(GAME)
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
            codes = np.flatnonzero(obs["action_mask"])
            env.step(int(codes[int(rng.integers(len(codes)))]))
            decisions += 1
    return decisions, time.process_time() - start


def adapter_vs_direct(games: int = 60, rounds: int = 3) -> None:
    """Issue 15: games/s through the PettingZoo adapter and the direct API, the same
    game seeds and a uniform random policy, timed in turns (CPU time, medians)."""
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        print("adapter vs direct: the pettingzoo extra is not installed")
        return
    from omaha.integrations.pettingzoo import raw_env

    seeds = list(range(1000, 1000 + games))
    env = raw_env(GAME)
    game_seeds = []  # the dice seed each reset(seed=s) gives: the direct run plays the same
    for seed in seeds:
        env.reset(seed=seed)
        assert env.state is not None and env.state.seed is not None
        game_seeds.append(env.state.seed)
    runs = (("direct", direct_games, game_seeds), ("adapter", adapter_games, seeds))
    rates: dict[str, list[float]] = {"direct": [], "adapter": []}
    steps: dict[str, int] = {}
    for k in range(rounds):
        for name, run, run_seeds in runs:
            decisions, seconds = run(run_seeds, k)
            rates[name].append(games / seconds)
            steps[name] = decisions
    direct, adapter = (float(np.median(rates[n])) for n in ("direct", "adapter"))
    for name, rate in (("direct API", direct), ("PettingZoo adapter", adapter)):
        print(f"{'random play, ' + name:<52s} {rate:11.1f} games/s")
    print(
        f"{'adapter cost over the direct API':<52s} {(direct / adapter - 1) * 100:+10.1f} %"
        f"  ({steps['direct'] / games:.0f} and {steps['adapter'] / games:.0f} decisions a game)"
    )
    per_decision = (1 / adapter - 1 / direct) / (steps["adapter"] / games)
    print(f"{'adapter cost per decision':<52s} {per_decision * 1e6:11.1f} us/decision")


def main() -> None:
    st = midgame()
    print(
        f"mid-game position: {st.turn_label}, {st.phase}, {len(st.legal_actions())} legal actions"
    )
    timed("new_state (set-up draws)", lambda: GAME.new_state(seed=1), 200)

    def legal() -> None:
        with st.edit():  # drops the cached legal actions
            pass
        st.legal_actions()

    timed("legal_actions (uncached, mid-game)", legal, 2000)
    action = st.legal_actions()[0]
    timed("clone + apply one action", lambda: st.clone().apply(action), 500)
    timed("clone", st.clone, 1000)
    timed("to_json", st.to_json, 500)
    text = st.to_json()
    timed("state_from_json", lambda: GAME.state_from_json(text), 300)
    timed("view('US')", lambda: st.view("US"), 2000)
    hb = GAME.bots["heuristic"](seed=1)
    timed("heuristic choose (mid-game)", lambda: hb.choose(st), 300)
    for bot, n in (("random", 100), ("heuristic", 40)):
        start = time.perf_counter()
        steps = 0
        for seed in range(n):
            s = playout(bot, seed)
            steps += len(s.actions)
        per = (time.perf_counter() - start) / n
        print(f"{'full playout, ' + bot + ' bot':<52s} {per * 1e3:11.1f} ms/game "
              f"({steps / n:.0f} decisions)")  # fmt: skip
    timed("observation('US') (mid-game)", lambda: st.observation("US"), 2000)
    timed("action_mask (mid-game, cached legal actions)", st.action_mask, 2000)
    adapter_vs_direct()


if __name__ == "__main__":
    main()
