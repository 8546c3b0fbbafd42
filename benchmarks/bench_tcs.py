"""TCS Omaha benchmark: protocol costs and bot playouts, with metric averages.

    .venv/bin/python benchmarks/bench_tcs.py [--seeds N] [--random N] [--scenario S]

Prints figures only (no assertions): time per legal_actions, apply, clone and
to_json on states along a landing game; full playouts of the ``landing`` and
``d-day`` scenarios with the random and heuristic bots (wall and CPU seconds a
game: the d-day heuristic game is the one the issue asks to keep near a second);
and the heuristic bots' metric averages over N seeds of ``--scenario`` next to
HISTORY.md.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import omaha
from omaha.kernel.metrics import HISTORICAL
from omaha.kernel.protocol import State


def timed(fn: Callable[[], object], repeat: int) -> float:
    t = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t) / repeat


def sample_states(game: omaha.Game, n: int = 30) -> list[State]:
    state = game.new_state("landing", seed=1)
    bots = {p: game.bots["random"](seed=i) for i, p in enumerate(game.players)}
    out: list[State] = []
    step = 0
    while not state.is_terminal():
        if step % 60 == 0 and len(out) < n:
            out.append(state.clone())
        state.apply(bots[state.current_player() or "US"].choose(state))
        step += 1
    return out


def playout(
    game: omaha.Game, lineup: dict[str, str], seed: int, scenario: str = "landing"
) -> tuple[State, int]:
    state = game.new_state(scenario, seed=seed)
    bots = {p: game.bots[name](seed=seed * 31 + i) for i, (p, name) in enumerate(lineup.items())}
    n = 0
    while not state.is_terminal():
        state.apply(bots[state.current_player() or "US"].choose(state))
        n += 1
    return state, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=50, help="heuristic playouts for the averages")
    ap.add_argument("--random", type=int, default=10, help="playouts to time per bot and scenario")
    ap.add_argument("--scenario", default="d-day", help="scenario of the metric averages")
    args = ap.parse_args()
    game = omaha.load("tcs")
    t = time.perf_counter()
    game.load_scenario("landing")
    print(f"scenario load: {1000 * (time.perf_counter() - t):.0f} ms")

    states = sample_states(game)
    fresh = [game.state_from_json(s.to_json()) for s in states]
    t = time.perf_counter()
    for s in fresh:
        s.legal_actions()
    legal = (time.perf_counter() - t) / len(fresh)
    clone = statistics.mean(timed(s.clone, 5) for s in states)
    dump = statistics.mean(timed(s.to_json, 5) for s in states)
    apply_times = []
    for s in states:
        if s.is_terminal():
            continue
        twin = s.clone()
        a = twin.legal_actions()[0]
        t = time.perf_counter()
        twin.apply(a)
        apply_times.append(time.perf_counter() - t)
    print(f"legal_actions (uncached): {1e6 * legal:.0f} us over {len(fresh)} states")
    print(
        f"apply: {1e6 * statistics.mean(apply_times):.0f} us   clone: {1e6 * clone:.0f} us   "
        f"to_json: {1e6 * dump:.0f} us"
    )

    for scenario in ("landing", "d-day"):
        game.load_scenario(scenario)
        playout(game, game.lineup("heuristic"), 99, scenario)  # warm the sight caches
        for name, lineup in (
            ("random", {p: "random" for p in game.players}),
            ("heuristic", game.lineup("heuristic")),
        ):
            t, c = time.perf_counter(), time.process_time()
            steps = [playout(game, lineup, seed, scenario)[1] for seed in range(args.random)]
            wall = (time.perf_counter() - t) / args.random
            cpu = (time.process_time() - c) / args.random
            print(
                f"{scenario} {name} playout: {wall:.2f} s ({cpu:.2f} s CPU) a game, "
                f"{statistics.mean(steps):.0f} actions"
            )

    print(f"\nheuristic bots over {args.seeds} seeds of {args.scenario} (mean, [min, max]):")
    runs = [
        playout(game, game.lineup("heuristic"), seed, args.scenario)[0].metrics()
        for seed in range(args.seeds)
    ]
    keys = [m.name for m in game.metrics]
    for key in keys:
        vals = [r[key] for r in runs]
        hist = HISTORICAL.get(key)
        extra = f"   history: {hist.value:.3f} ({hist.source})" if hist else ""
        print(f"  {key:24s} {statistics.mean(vals):8.3f}  [{min(vals):g}, {max(vals):g}]{extra}")


if __name__ == "__main__":
    main()
