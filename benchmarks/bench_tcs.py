"""TCS Omaha benchmark: protocol costs and bot playouts, with metric averages.

    .venv/bin/python benchmarks/bench_tcs.py [--seeds N] [--random N]

Prints figures only (no assertions): time per legal_actions, apply, clone and
to_json on states along a game; full playouts with the random and historical
bots; and the historical bots' metric averages over N seeds next to HISTORY.md.
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
    state = game.new_state(seed=1)
    bots = {p: game.bots["random"](seed=i) for i, p in enumerate(game.players)}
    out: list[State] = []
    step = 0
    while not state.is_terminal():
        if step % 60 == 0 and len(out) < n:
            out.append(state.clone())
        state.apply(bots[state.current_player() or "US"].choose(state))
        step += 1
    return out


def playout(game: omaha.Game, lineup: dict[str, str], seed: int) -> tuple[State, int]:
    state = game.new_state(seed=seed)
    bots = {p: game.bots[name](seed=seed * 31 + i) for i, (p, name) in enumerate(lineup.items())}
    n = 0
    while not state.is_terminal():
        state.apply(bots[state.current_player() or "US"].choose(state))
        n += 1
    return state, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=200, help="historical playouts for the averages")
    ap.add_argument("--random", type=int, default=20, help="random playouts to time")
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

    for name, lineup, n in (
        ("random", {p: "random" for p in game.players}, args.random),
        ("historical", game.lineup("historical"), min(args.seeds, 20)),
    ):
        t = time.perf_counter()
        steps = [playout(game, lineup, seed)[1] for seed in range(n)]
        dt = (time.perf_counter() - t) / n
        print(f"{name} playout: {dt:.2f} s per game, {statistics.mean(steps):.0f} actions")

    print(f"\nhistorical bots over {args.seeds} seeds (mean, [min, max]):")
    runs = [
        playout(game, game.lineup("historical"), seed)[0].metrics() for seed in range(args.seeds)
    ]
    keys = [m.name for m in game.metrics]
    for key in keys:
        vals = [r[key] for r in runs]
        hist = HISTORICAL.get(key)
        extra = f"   history: {hist.value:.3f} ({hist.source})" if hist else ""
        print(f"  {key:24s} {statistics.mean(vals):8.3f}  [{min(vals):g}, {max(vals):g}]{extra}")


if __name__ == "__main__":
    main()
