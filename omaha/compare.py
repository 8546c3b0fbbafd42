"""Side-by-side comparison of the designs: many seeded games, common metrics.

For every installed game and each of its shipped scenarios, play ``runs``
seeded games with the game's strongest bots (heuristic, else historical, else
random; see ``Game.lineup``), collect the metrics every game declares and the
outcome levels, and line them up next to the historical record
(:data:`omaha.kernel.metrics.HISTORICAL`).

Uses only the registry and the protocol. Results depend only on (game,
scenario, seed, bots): the same on any machine and with any number of worker
processes, because every game is seeded on its own and results are gathered
in seed order.
"""

from __future__ import annotations

import json
import math
import signal
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs

import omaha
from omaha.kernel.metrics import COMMON, HISTORICAL
from omaha.kernel.protocol import Game

BOT_PREFERENCE = ("heuristic", "historical", "solitaire", "random")


def strongest_bot(game: Game[Any]) -> str:
    return next(name for name in BOT_PREFERENCE if name in game.bots)


@attrs.frozen
class Run:
    """One finished game: its seed, outcome level, winner and metrics."""

    seed: int
    level: str
    winner: str | None
    metrics: dict[str, float]
    actions: int


@attrs.frozen
class Column:
    """All runs of one game and scenario."""

    game: str
    title: str
    scenario: str
    bots: dict[str, str]
    runs: tuple[Run, ...]

    @property
    def label(self) -> str:
        return f"{self.game}/{self.scenario}"

    def values(self, metric: str) -> list[float]:
        """The metric over the runs; NaN (not applicable to this scenario) is left out."""
        return [
            r.metrics[metric]
            for r in self.runs
            if metric in r.metrics and not math.isnan(r.metrics[metric])
        ]

    def levels(self) -> list[tuple[str, int]]:
        counts = Counter(r.level for r in self.runs)
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def play_one(name: str, scenario: str, seed: int, bot: str | None = None) -> Run:
    """Play one seeded game with the chosen (or strongest) bots."""
    game = omaha.load(name)
    lineup = game.lineup(bot or strongest_bot(game))
    bots = {
        side: game.bots[b](seed=seed * 1009 + i)
        for i, (side, b) in enumerate(sorted(lineup.items()))
    }
    state = game.new_state(scenario, seed=seed)
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        state.apply(bots[player].choose(state))
        steps += 1
    outcome = state.outcome()
    assert outcome is not None
    return Run(seed, outcome.level, outcome.winner, state.metrics(), steps)


def _play_args(args: tuple[str, str, int, str | None]) -> Run:
    return play_one(*args)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the worker processes at once."""
    pool.shutdown(wait=False, cancel_futures=True)
    # the executor has no public way to end running work before Python 3.14
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()


def run_column(
    name: str, scenario: str, seeds: Sequence[int], bot: str | None = None, workers: int = 1
) -> Column:
    game = omaha.load(name)
    jobs = [(name, scenario, seed, bot) for seed in seeds]
    if workers > 1:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
        try:
            runs = list(pool.map(_play_args, jobs, chunksize=max(1, len(jobs) // (4 * workers))))
        except BaseException:  # Ctrl-C or an error: stop every worker now
            _stop(pool)
            raise
        pool.shutdown()
    else:
        runs = [_play_args(job) for job in jobs]
    lineup = game.lineup(bot or strongest_bot(game))
    return Column(name, game.title, scenario, lineup, tuple(runs))


def compare(
    games: Iterable[str] | None = None,
    runs: int = 100,
    first_seed: int = 1,
    workers: int = 1,
    bot: str | None = None,
) -> list[Column]:
    """Play ``runs`` seeded games of every scenario of every chosen game."""
    names = list(games) if games is not None else list(omaha.games())
    seeds = range(first_seed, first_seed + runs)
    columns = []
    for name in names:
        game = omaha.load(name)
        for scenario in game.scenarios():
            columns.append(run_column(name, scenario, seeds, bot, workers))
    return columns


def _cell(values: list[float]) -> str:
    if not values:
        return "—"
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:.2f}"
    ordered = sorted(values)
    lo = ordered[int(0.1 * (len(ordered) - 1))]
    hi = ordered[int(0.9 * (len(ordered) - 1))]
    return f"{mean:.2f} [{lo:.2f}-{hi:.2f}]"


def table(columns: Sequence[Column], detail: bool = False) -> str:
    """The comparison as text: the common metrics side by side next to history, the
    outcome levels, and (with ``detail``) each design's own metrics."""
    if not columns:
        return "no games installed"
    common = [m for m in COMMON if any(c.values(m.name) for c in columns)]
    common_names = {m.name for m in COMMON}
    headers = ["metric", *[c.label for c in columns], "history"]
    rows: list[list[str]] = []
    for m in common:
        hist = HISTORICAL.get(m.name)
        rows.append(
            [
                f"{m.name} ({m.unit})",
                *[_cell(c.values(m.name)) for c in columns],
                f"{hist.value:.2f}" if hist else "",
            ]
        )
    width0 = max(len(h) for h in headers[:1] + [r[0] for r in rows]) + 2
    widths = [width0] + [max(24, len(c.label) + 2) for c in columns] + [8]

    def line(cells: Sequence[str]) -> str:
        return "".join(cell.ljust(w) for cell, w in zip(cells, widths, strict=False)).rstrip()

    def who(col: Column) -> str:
        bots = "/".join(f"{side}={bot}" for side, bot in sorted(col.bots.items()))
        return f"  {col.label}: {col.title}; {len(col.runs)} seeded runs, bots {bots}"

    out = ["Side-by-side comparison: mean [10th-90th percentile] of each metric", ""]
    out.extend(who(c) for c in columns)
    out += ["", line(headers), line(["-" * (w - 2) for w in widths])]
    out.extend(line(r) for r in rows)
    out += ["", "Outcomes"]
    for col in columns:
        total = len(col.runs)
        shares = ", ".join(f"{level} {100 * n / total:.0f}%" for level, n in col.levels())
        out.append(f"  {col.label}: {shares}")
    if detail:
        for col in columns:
            own = sorted({k for r in col.runs for k in r.metrics} - common_names)
            if own:
                out += ["", f"{col.label}: design-specific metrics"]
                wide = max(len(k) for k in own) + 2
                out.extend(f"  {k.ljust(wide)}{_cell(col.values(k))}" for k in own)
    notes = [
        f"  {name}: {h.source}"
        for name, h in sorted(HISTORICAL.items())
        if any(m.name == name for m in common)
    ]
    if notes:
        out += ["", "Historical figures"]
        out.extend(notes)
    return "\n".join(out)


def to_json(columns: Sequence[Column]) -> str:
    """Every run of every column, for analysis elsewhere."""
    return json.dumps(
        [
            {
                "game": c.game,
                "scenario": c.scenario,
                "bots": c.bots,
                "runs": [
                    dict(
                        attrs.asdict(r),
                        metrics={k: None if math.isnan(v) else v for k, v in r.metrics.items()},
                    )
                    for r in c.runs
                ],
            }
            for c in columns
        ],
        indent=1,
        sort_keys=True,
    )
