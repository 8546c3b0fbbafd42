"""What ``python -m benchmarks`` measures: every game through the public protocol, and
the kernel's hot paths. Prints figures, asserts nothing.

Only the registry, the protocol and long-standing kernel classes are used, so the
same harness times an older checkout of the library too (put it first on
``PYTHONPATH``) and ``--against`` gives the ratios measured side by side.
"""

from __future__ import annotations

import gc
import os
import platform
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import omaha

BOT_PREFERENCE = ("heuristic", "historical", "solitaire", "random")
#: The process's own CPU time: on a shared machine other processes' load slows the
#: wall clock but barely this one, so figures from runs made side by side compare.
CLOCK = time.process_time


def strongest(game: Any) -> str:
    return next(name for name in BOT_PREFERENCE if name in game.bots)


def _lineup(game: Any, bot: str, seed: int) -> dict[str, Any]:
    names = game.lineup(bot)
    return {p: game.bots[names[p]](seed=seed * 11 + i) for i, p in enumerate(game.players)}


def _choose(bots: dict[str, Any], fallback: Any, state: Any) -> Any:
    try:
        return bots[state.current_player()].choose(state)
    except omaha.IllegalAction:  # a one-sided bot refuses the other side's decision
        return fallback.choose(state)


def _drop_legal_cache(state: Any) -> None:
    if hasattr(state, "edit"):
        with state.edit():
            pass
    else:  # checkouts from before State.edit()
        state._legal = state._legal_set = None


def play_games(
    game: Any, scenario: str, bot: str, budget: float, min_games: int
) -> dict[str, float]:
    """Seeded games until ``budget`` seconds and ``min_games`` games have passed.

    Decisions are the actions applied. ``apply`` runs the procedures up to the
    next decision and lists its legal actions (to resolve single options), so
    listing alone is timed apart, on every 8th position with the cache dropped
    first; that probe is left out of the rates.
    """
    games = decisions = listed = 0
    t_legal = t_choose = t_apply = t_probe = 0.0
    clock = CLOCK
    start = clock()
    seed = 1
    while games < min_games or clock() - start - t_probe < budget:
        state = game.new_state(scenario, seed=seed)
        bots = _lineup(game, bot, seed)
        fallback = game.bots["random"](seed=seed)
        while not state.is_terminal():
            if decisions % 8 == 0:
                p0 = clock()
                _drop_legal_cache(state)
                t0 = clock()
                state.legal_actions()
                t_legal += clock() - t0
                listed += 1
                t_probe += clock() - p0
            t1 = clock()
            action = _choose(bots, fallback, state)
            t2 = clock()
            state.apply(action)
            t3 = clock()
            t_choose += t2 - t1
            t_apply += t3 - t2
            decisions += 1
        games += 1
        seed += 1
    total = clock() - start - t_probe
    return {
        "games": games,
        "decisions_per_game": decisions / games,
        "games_per_s": games / total,
        "decisions_per_s": decisions / total,
        "us_per_decision": total / decisions * 1e6,
        "legal_us": t_legal / max(listed, 1) * 1e6,
        "choose_us": t_choose / decisions * 1e6,
        "apply_us": t_apply / decisions * 1e6,
    }


def mid_game(game: Any, scenario: str) -> Any:
    """A seeded position about half-way through a random game."""
    probe = game.new_state(scenario, seed=5)
    bot = game.bots["random"](seed=5)
    length = 0
    while not probe.is_terminal():
        probe.apply(bot.choose(probe))
        length += 1
    state = game.new_state(scenario, seed=5)
    bot = game.bots["random"](seed=5)
    for _ in range(length // 2):
        state.apply(bot.choose(state))
    return state


def rate(fn: Callable[[], object], budget: float) -> float:
    """Calls per second of ``fn`` over about ``budget`` seconds (after one warm-up call)."""
    fn()
    clock = CLOCK
    calls = 0
    start = clock()
    while True:
        fn()
        calls += 1
        elapsed = clock() - start
        if elapsed >= budget and calls >= 3:
            return calls / elapsed


def positions(game: Any, scenario: str, count: int) -> list[Any]:
    """``count`` seeded positions spread over one random game (dice seed 5), at
    decisions 0, 1/count, 2/count... of its length."""
    probe = mid_game(game, scenario)
    length = 2 * len(probe.actions)
    state = game.new_state(scenario, seed=5)
    bot = game.bots["random"](seed=5)
    out = []
    for step in range(length):
        if step % max(1, length // count) == 0 and len(out) < count:
            out.append(state.clone())
        state.apply(bot.choose(state))
    return out


def rollouts(game: Any, scenario: str, budget: float) -> dict[str, float]:
    """What one iteration of a search costs: ``clone(seed)`` of a position (a reseeded
    future), then every side's strongest bot (random where a side has none) to the end
    of the turn (``turn_label`` changes) or of the game, as the search agent's rollouts
    go. Positions from :func:`positions`, taken in turn, each reseeded anew."""
    starts = positions(game, scenario, 8)
    bots = _lineup(game, strongest(game), 3)
    fallback = game.bots["random"](seed=3)
    done = decisions = 0
    clock = CLOCK
    start = clock()
    while True:
        twin = starts[done % len(starts)].clone(seed=done)
        turn = twin.turn_label
        while not twin.is_terminal() and twin.turn_label == turn:
            twin.apply(_choose(bots, fallback, twin))
            decisions += 1
        done += 1
        elapsed = clock() - start
        if elapsed >= budget and done >= len(starts):
            return {
                "rollout_per_s": done / elapsed,
                "rollout_decisions": decisions / done,
            }


def state_costs(game: Any, scenario: str, budget: float) -> dict[str, float]:
    state = mid_game(game, scenario)
    text = state.to_json()
    seeds = iter(range(10**9))
    figures = {
        "clone_per_s": rate(state.clone, budget),
        "clone_seed_per_s": rate(lambda: state.clone(seed=next(seeds)), budget),
        "to_json_per_s": rate(state.to_json, budget),
        "from_json_per_s": rate(lambda: game.state_from_json(text), budget),
    }
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    twins = [state.clone() for _ in range(10)]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    figures["kib_per_state"] = grown / len(twins) / 1024
    figures["snapshot_kib"] = len(text) / 1024
    return figures


def game_figures(budget: float, only: set[str] | None) -> dict[str, dict[str, float]]:
    """Figures of every scenario of every game, or of those ``only`` names: a game
    (``tcs``) or one scenario (``tcs/d-day``)."""
    out: dict[str, dict[str, float]] = {}
    for name in omaha.games():
        if only and name not in only and not any(o.startswith(f"{name}/") for o in only):
            continue
        game = omaha.load(name)
        for scenario in game.scenarios():
            if only and name not in only and f"{name}/{scenario}" not in only:
                continue
            row: dict[str, float] = {}
            for prefix, bot in (("random", "random"), ("best", strongest(game))):
                for key, value in play_games(game, scenario, bot, budget, 2).items():
                    row[f"{prefix}_{key}"] = value
            row.update(state_costs(game, scenario, budget / 4))
            row.update(rollouts(game, scenario, budget))
            out[f"{name}/{scenario}"] = row
    return out


def kernel_figures(budget: float) -> dict[str, float]:
    from omaha.kernel import los
    from omaha.kernel.board import Board, CellSpec
    from omaha.kernel.data import Source
    from omaha.kernel.labels import Layout
    from omaha.kernel.movement import MovementGraph

    layout = Layout("flat", "odd")
    cells = [
        CellSpec(
            f"{c}.{r}",
            layout.to_axial(c, r),
            "woods" if (c * 13 + r * 7) % 9 == 0 else "open",
        )
        for r in range(50)
        for c in range(100)
    ]
    board = Board(
        id="big",
        title="5,000 cells",
        grid="hex",
        cells=cells,
        source=Source("reconstructed: benchmark"),
        layout=layout,
    )
    move = MovementGraph(board, lambda a, b: 2 if board.terrain[b] == "woods" else 1)
    centre = board.cell("50.25")
    targets = list(range(0, len(board), 7))

    def cold() -> None:
        los.clear_caches()
        fresh = Board(
            id="big",
            title="",
            grid="hex",
            cells=cells,
            source=Source("reconstructed: b"),
            layout=layout,
        )
        for t in targets[:40]:
            fresh.thread(centre, t)

    for t in targets:
        board.thread(centre, t)

    def cached() -> None:
        for t in targets:
            board.thread(centre, t)

    labels = [f"{c}.{r}" for r in range(0, 50, 3) for c in range(0, 100, 3)]

    def parse() -> None:
        for label in labels:
            board.cell(label)

    lnl = omaha.load("lnl") if "lnl" in omaha.games() else None
    figures = {
        "reach8_per_s": rate(lambda: move.reachable(centre, 8), budget),
        "thread_cold_us": 1e6 / (rate(cold, budget) * 40),
        "thread_cached_us": 1e6 / (rate(cached, budget) * len(targets)),
        "label_parse_us": 1e6 / (rate(parse, budget) * len(labels)),
    }
    if lnl is not None:
        board_lnl = lnl.load_scenario().board
        names = [board_lnl.labels[i] for i in range(len(board_lnl))]
        figures["lnl_label_parse_us"] = 1e6 / (
            rate(lambda: [board_lnl.cell(n) for n in names], budget) * len(names)
        )
    return figures


def median_of(runs: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    keys = runs[0].keys()
    return {k: {f: statistics.median(r[k][f] for r in runs) for f in runs[0][k]} for k in keys}


def measure(repeats: int, budget: float, only: set[str] | None, kernel: bool) -> dict[str, Any]:
    runs = []
    for _ in range(repeats):
        sample = game_figures(budget, only)
        if kernel:
            sample["kernel"] = kernel_figures(budget / 4)
        runs.append(sample)
    return {
        "machine": {
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "library": omaha.__file__,
        "repeats": repeats,
        "budget_s": budget,
        "clock": "process CPU time",
        "figures": median_of(runs),
    }
