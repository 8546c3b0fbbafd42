"""TCS Omaha through the PettingZoo adapter and the direct API (issue 15).

    python benchmarks/bench_tcs_agents.py [games] [scenario]

The same game seeds, a uniform random policy over the legal actions (the adapter
draws among the mask), timed in turns (CPU time, medians of three rounds). Kept
apart from bench_tcs.py, which times the rules.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from omaha.tcs import GAME


def direct_games(scenario: str, seeds: list[int], policy_seed: int) -> tuple[int, float]:
    """Random play through the protocol: (decisions, CPU seconds)."""
    rng = np.random.default_rng(policy_seed)
    decisions = 0
    start = time.process_time()
    for seed in seeds:
        st = GAME.new_state(scenario, seed=seed)
        while not st.is_terminal():
            actions = st.legal_actions()
            st.apply(actions[int(rng.integers(len(actions)))])
            decisions += 1
    return decisions, time.process_time() - start


def adapter_games(scenario: str, seeds: list[int], policy_seed: int) -> tuple[int, float]:
    """Random play through PettingZoo's AEC loop (observation and mask every step)."""
    from omaha.integrations.pettingzoo import raw_env

    env = raw_env(GAME, scenario)
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


def observation_cost(scenario: str, seed: int = 3) -> float:
    """Microseconds to build one observation, over the positions of a random game."""
    st = GAME.new_state(scenario, seed=seed)
    bot = GAME.bots["random"](seed=seed)
    spent, count = 0.0, 0
    while not st.is_terminal():
        start = time.perf_counter()
        st.observation(st.current_player() or "US")
        spent += time.perf_counter() - start
        count += 1
        st.apply(bot.choose(st))
    return spent / count * 1e6


def main(games: int = 6, scenario: str = "d-day") -> None:
    from omaha.integrations.pettingzoo import raw_env

    env = raw_env(GAME, scenario)
    seeds = list(range(1000, 1000 + games))
    game_seeds = []  # the dice seed each reset(seed=s) gives: the direct run plays the same
    for seed in seeds:
        env.reset(seed=seed)
        assert env.state is not None and env.state.seed is not None
        game_seeds.append(env.state.seed)
    space, layout, limits = (
        GAME.action_space(scenario),
        GAME.observation_layout(scenario),
        GAME.limits(scenario),
    )
    print(f"tcs {scenario}: {space.size:,} action numbers, observation {layout.size:,} floats")
    print(
        f"limits: {limits.max_decisions:,} decisions, {limits.max_legal_actions:,} legal "
        f"actions, {limits.max_chance_outcomes} chance outcomes"
    )
    print(f"{'one observation':<44s} {observation_cost(scenario):9.1f} us")
    rates: dict[str, list[float]] = {"direct": [], "adapter": []}
    steps: dict[str, int] = {}
    for k in range(3):
        for name, run, run_seeds in (
            ("direct", direct_games, game_seeds),
            ("adapter", adapter_games, seeds),
        ):
            decisions, seconds = run(scenario, run_seeds, k)
            rates[name].append(games / seconds)
            steps[name] = decisions
    direct, adapter = (float(np.median(rates[n])) for n in ("direct", "adapter"))
    print(f"{'random play, direct API':<44s} {direct:9.2f} games/s")
    print(f"{'random play, PettingZoo adapter':<44s} {adapter:9.2f} games/s")
    print(
        f"{'adapter cost over the direct API':<44s} {(direct / adapter - 1) * 100:+8.1f} %"
        f"  ({steps['direct'] / games:.0f} and {steps['adapter'] / games:.0f} decisions a game)"
    )


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 6, sys.argv[2] if len(sys.argv) > 2 else "d-day"
    )
