"""Side-by-side comparison of the designs: many seeded games, common metrics, history.

For every installed game and each of its shipped scenarios, play ``runs``
seeded games with the game's strongest bots (heuristic, else historical, else
random; see ``Game.lineup``), collect the metrics every game declares and the
outcome levels, and line them up next to the historical record
(:data:`omaha.kernel.metrics.HISTORICAL`, with sources).

**Seeds.** One root seed. Run ``i`` takes its seeds from
``numpy.random.SeedSequence(root).spawn(n)[i]`` (which is
``SeedSequence(root, spawn_key=(i,))``): its first 64-bit word, halved to 63
bits, seeds the game's dice, the next words seed the bots. A run's result thus
depends only on (game, scenario, bots, root, i): the same serially, in a
process pool, on a Dask cluster, and whatever the chunking.

**Executors.** Any :class:`concurrent.futures.Executor` runs the chunks (a
chunk is a stretch of consecutive runs of one scenario, so per-task overhead
stays small): :func:`executor` makes a serial one, a process pool, or a Dask
client's executor (the ``dask`` extra). At most :func:`window` chunks are
submitted at a time. When a worker process dies (killed, out of memory), the
process pool is started again and every unfinished chunk submitted again, each
at most :data:`RESUBMITS` times (same seeds, so the same result); past that the
comparison stops with :class:`WorkersLost`, which carries the finished runs.

**Statistics** (numpy): for each metric the mean with a 95% interval (normal
approximation, 1.96 standard errors) and the 10th-90th percentile band; 0/1
metrics and outcome shares as percentages with Wilson 95% intervals.

Uses only the registry and the protocol.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import csv
import importlib
import io
import json
import logging
import math
import multiprocessing
import os
import signal
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal, TextIO

import attrs
import numpy as np

import omaha
from omaha import compare_table
from omaha.compare_data import SHARE_UNITS as SHARE_UNITS
from omaha.compare_data import Z95 as Z95
from omaha.compare_data import Column as Column
from omaha.compare_data import Run as Run
from omaha.compare_data import Share as Share
from omaha.compare_data import Summary as Summary
from omaha.compare_data import VersusHistory as VersusHistory
from omaha.compare_data import bounds as bounds
from omaha.compare_data import is_rate as is_rate
from omaha.compare_data import share_of as share_of
from omaha.compare_data import summarize as summarize
from omaha.compare_data import versus as versus
from omaha.compare_data import wilson as wilson
from omaha.kernel.metrics import COMMON, HISTORICAL, TIME, history_at
from omaha.kernel.protocol import Game

BOT_PREFERENCE = ("heuristic", "historical", "solitaire", "random")
#: Words drawn per run: the game's seed, then one per bot (a game has at most this less one).
SEED_WORDS = 8
ExecutorKind = Literal["serial", "process", "dask"]
EXECUTORS: tuple[ExecutorKind, ...] = ("serial", "process", "dask")


def strongest_bot(game: Game[Any]) -> str:
    return next(name for name in BOT_PREFERENCE if name in game.bots)


def split_bot(text: str) -> tuple[str, int | None]:
    """``"search:16"`` -> ``("search", 16)``: a bot name and, for the search agent, its
    budget in iterations a decision; ``"heuristic"`` -> ``("heuristic", None)``."""
    name, colon, budget = text.partition(":")
    if not colon:
        return name, None
    if not budget.isdigit():
        raise ValueError(f"bot {text!r}: the budget after ':' must be a whole number")
    return name, int(budget)


def lineup_of(game: Game[Any], bot: str | None) -> dict[str, str]:
    """Which bot plays each side (``Game.lineup``); a budget given (``search:16``) stays
    on the sides the budgeted bot plays."""
    name, budget = split_bot(bot or strongest_bot(game))
    lineup = game.lineup(name)
    if budget is None:
        return lineup
    return {side: f"{b}:{budget}" if b == name else b for side, b in lineup.items()}


def make_bot(game: Game[Any], spec: str, seed: int) -> Any:
    """A seeded bot from a lineup entry (``search:16`` passes ``iterations=16``)."""
    name, budget = split_bot(spec)
    if budget is None:
        return game.bots[name](seed=seed)
    try:
        return game.bots[name](seed=seed, iterations=budget)
    except TypeError:
        raise ValueError(f"bot {name!r} of {game.name} takes no budget") from None


# --------------------------------------------------------------------------
# Seeds and runs
# --------------------------------------------------------------------------
def run_seeds(root: int, index: int) -> tuple[int, tuple[int, ...]]:
    """The game seed and the bot seeds of run ``index`` under root seed ``root``."""
    sequence = np.random.SeedSequence(root, spawn_key=(index,))
    words = [int(w) >> 1 for w in sequence.generate_state(SEED_WORDS, dtype=np.uint64)]
    return words[0], tuple(words[1:])


def play_one(name: str, scenario: str, root: int, index: int, bot: str | None = None) -> Run:
    """Play run ``index`` of a comparison with root seed ``root``."""
    game = omaha.load(name)
    lineup = lineup_of(game, bot)
    seed, bot_seeds = run_seeds(root, index)
    bots = {
        side: make_bot(game, b, bot_seeds[i]) for i, (side, b) in enumerate(sorted(lineup.items()))
    }
    started = time.process_time()
    state = game.new_state(scenario, seed=seed)
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        state.apply(bots[player].choose(state))
        steps += 1
    outcome = state.outcome()
    assert outcome is not None
    used = bot_seeds[: len(lineup)]
    cost = time.process_time() - started
    return Run(index, seed, used, outcome.level, outcome.winner, state.metrics(), steps, cost)


@attrs.frozen
class Chunk:
    """Consecutive runs ``start .. start + count - 1`` of one scenario: one task."""

    game: str
    scenario: str
    bot: str | None
    root: int
    start: int
    count: int

    @property
    def end(self) -> int:
        """The last run of the chunk."""
        return self.start + self.count - 1


#: Test hook, never set in use: ``START`` makes the worker process that is given the chunk
#: starting at run ``START`` exit at once, as one killed would; ``START:FILE`` only the first
#: time (it makes ``FILE``). Read in worker processes only, never in the parent.
TEST_EXIT = "OMAHA_TEST_WORKER_EXIT"


def _test_exit(chunk: Chunk) -> None:
    spec = os.environ.get(TEST_EXIT)
    if not spec or multiprocessing.parent_process() is None:
        return
    start, _, once = spec.partition(":")
    if start.strip() != str(chunk.start):
        return
    if once:
        try:
            os.close(os.open(once, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
    os._exit(70)


def play_chunk(chunk: Chunk) -> list[Run]:
    """Play a chunk (in whatever process or machine the executor chose)."""
    _test_exit(chunk)
    return [
        play_one(chunk.game, chunk.scenario, chunk.root, i, chunk.bot)
        for i in range(chunk.start, chunk.start + chunk.count)
    ]


def chunks(
    game: str, scenario: str, bot: str | None, root: int, runs: int, size: int
) -> list[Chunk]:
    return [
        Chunk(game, scenario, bot, root, start, min(size, runs - start))
        for start in range(0, runs, size)
    ]


def chunk_size(runs: int, workers: int) -> int:
    """Runs per task: about four tasks per worker and scenario, at most 25 runs each."""
    return max(1, min(25, math.ceil(runs / (4 * max(1, workers)))))


# --------------------------------------------------------------------------
# Columns: all runs of one scenario
# --------------------------------------------------------------------------
def _column(name: str, scenario: str, bot: str | None, root: int, runs: Iterable[Run]) -> Column:
    game = omaha.load(name)
    declared = (*COMMON, *game.metrics)
    units = {m.name: m.unit for m in declared}
    kinds = {m.name: m.kind for m in declared}
    lineup = lineup_of(game, bot)
    ordered = tuple(sorted(runs, key=lambda r: r.index))
    end, absent = game.end_hours(scenario), dict(game.not_modelled(scenario))
    return Column(name, game.title, scenario, lineup, ordered, units, root, kinds, end, absent)


# --------------------------------------------------------------------------
# Executors
# --------------------------------------------------------------------------
class SerialExecutor(cf.Executor):
    """Runs each task when it is submitted, in this process."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        future: cf.Future[Any] = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            if not isinstance(exc, Exception):
                raise  # Ctrl-C stops at once
            future.set_exception(exc)
        return future


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (no traceback per worker),
    and end at once on SIGTERM and SIGHUP (the parent's handlers, which a forked worker
    inherits, are the parent's: it ends its workers itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


class ProcessPool(cf.Executor):
    """A process pool that can start over (:meth:`restart`) when a worker process dies,
    which breaks a :class:`~concurrent.futures.ProcessPoolExecutor` for good."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = self._new()

    def _new(self) -> cf.ProcessPoolExecutor:
        return cf.ProcessPoolExecutor(max_workers=self.workers, initializer=_ignore_interrupts)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        return self._pool.submit(fn, *args, **kwargs)

    def restart(self) -> None:
        """End the pool (a broken one) and start a new one."""
        _stop_pool(self._pool)
        self._pool = self._new()

    def stop(self) -> None:
        """Cancel what has not started and end the worker processes at once."""
        _stop_pool(self._pool)

    def worker_pids(self) -> list[int]:
        """The process ids of the pool's workers now (none before the first task)."""
        processes = (getattr(self._pool, "_processes", None) or {}).values()
        return [p.pid for p in processes if p.pid is not None]

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def _stop_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the worker processes at once."""
    # the executor has no public way to end running work before Python 3.14; its
    # process table is gone after shutdown, so take it first
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)


@contextlib.contextmanager
def executor(
    kind: ExecutorKind = "process", workers: int | None = None, scheduler: str | None = None
) -> Iterator[cf.Executor]:
    """An executor for the comparison, shut down (and on Ctrl-C stopped) on leaving.

    ``serial``: this process. ``process``: a pool of ``workers`` processes (default:
    the machine's cores). ``dask``: the Dask cluster whose scheduler listens at
    ``scheduler`` (``tcp://host:8786``), or a local cluster of ``workers`` processes.
    """
    workers = workers or os.cpu_count() or 1
    if kind == "serial":
        yield SerialExecutor()
    elif kind == "process":
        pool = ProcessPool(workers)
        try:
            yield pool
        except BaseException:
            pool.stop()
            raise
        pool.shutdown()
    elif kind == "dask":
        with _dask_executor(workers, scheduler) as ex:
            yield ex
    else:
        raise ValueError(f"unknown executor {kind!r} (one of: {', '.join(EXECUTORS)})")


@contextlib.contextmanager
def _dask_executor(workers: int, scheduler: str | None) -> Iterator[cf.Executor]:
    try:  # optional and untyped: used through Any
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise ValueError("the dask executor needs Dask: pip install 'omaha[dask]'") from None
    cluster: Any = None
    # Dask's own warnings (a cancelled task, a worker killed on Ctrl-C) are not the user's
    logging.getLogger("distributed").setLevel(logging.ERROR)
    if scheduler is None:
        with _interrupts_held():  # its threads and processes inherit it: Ctrl-C is ours
            cluster = distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        client: Any = distributed.Client(cluster)
    else:
        try:
            client = distributed.Client(scheduler, timeout="5s")
        except OSError as exc:
            raise ValueError(f"no Dask scheduler answers at {scheduler} ({exc})") from None
    try:
        pool: cf.Executor = client.get_executor(pure=False)
        yield pool
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C held back (blocked) while a local cluster starts: the threads and processes
    it starts keep it blocked, so this thread alone hears Ctrl-C and stops them (no
    worker prints a traceback)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    # ignored too while the worker processes start: a process started with SIGINT ignored
    # keeps it so (Python installs its KeyboardInterrupt handler only over the default),
    # whichever thread of the cluster's starts it
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


#: How many times a chunk is submitted again after the worker processes died under it.
RESUBMITS = 2


class WorkersLost(RuntimeError):
    """The worker processes died under a chunk more than :data:`RESUBMITS` times (or the
    pool cannot start again); ``columns`` hold the runs finished before it stopped."""

    def __init__(self, message: str, columns: Sequence[Column] = ()) -> None:
        super().__init__(message)
        self.columns = list(columns)


def window(workers: int) -> int:
    """Chunks submitted at a time: enough to keep every worker busy, few enough that a
    million runs are not a million futures at once."""
    return 4 * max(1, workers)


def _run_chunks(
    pool: cf.Executor, tasks: Sequence[Chunk], done: Callable[[Chunk, list[Run]], None], most: int
) -> None:
    """Run ``tasks`` on ``pool``, at most ``most`` submitted at a time, calling ``done`` as
    each finishes. When the pool breaks, a :class:`ProcessPool` starts again and every
    unfinished chunk is submitted again (:data:`RESUBMITS` times at most)."""
    waiting = deque(tasks)
    running: dict[cf.Future[list[Run]], Chunk] = {}
    resubmitted: Counter[Chunk] = Counter()
    try:
        while waiting or running:
            while waiting and len(running) < most:
                task = waiting.popleft()
                running[pool.submit(play_chunk, task)] = task
            finished, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            if not any(_broke(f) for f in finished):
                for future in finished:
                    done(running.pop(future), future.result())
                continue
            # a worker died: every chunk of the pool fails; keep those that finished first
            cf.wait(running)
            lost = []
            for future, task in running.items():
                if _broke(future):
                    lost.append(task)
                else:
                    done(task, future.result())
            running.clear()
            for task in lost:
                resubmitted[task] += 1
            worst = max(lost, key=lambda t: resubmitted[t])
            if resubmitted[worst] > RESUBMITS or not isinstance(pool, ProcessPool):
                runs = f"{worst.game}/{worst.scenario} runs {worst.start}-{worst.end}"
                raise WorkersLost(
                    f"worker processes died {resubmitted[worst]} times running {runs}"
                    if isinstance(pool, ProcessPool)
                    else f"a worker process died running {runs} (its pool cannot start again)"
                )
            pool.restart()
            waiting.extendleft(reversed(lost))  # the same chunks, the same seeds, first
    except BaseException:
        for future in running:
            future.cancel()
        raise


def _broke(future: cf.Future[Any]) -> bool:
    return isinstance(future.exception(), cf.BrokenExecutor)


# --------------------------------------------------------------------------
# Progress
# --------------------------------------------------------------------------
class Progress:
    """A one-line progress bar on a terminal: runs done, runs per second, time left.

    Given the ``plan`` (game, scenario, runs), the time left is each scenario's runs to
    go times its own cost per run, measured on its first runs (a scenario not yet
    measured costs the mean of those that are), at the CPU rate reached so far: a long
    scenario that comes last no longer looks as cheap as the short ones before it.
    """

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        enabled: bool = True,
        plan: Sequence[tuple[str, str, int]] | None = None,
    ) -> None:
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = enabled and total > 0
        self.started = time.monotonic()
        self._drawn = 0.0
        self.plan = {(g, s): n for g, s, n in plan or ()}
        self._runs: Counter[tuple[str, str]] = Counter()
        self._cost: dict[tuple[str, str], float] = {}

    @classmethod
    def for_terminal(
        cls, total: int, quiet: bool = False, plan: Sequence[tuple[str, str, int]] | None = None
    ) -> Progress:
        """On stderr when it is a terminal and ``quiet`` is not asked for; else silent."""
        return cls(total, sys.stderr, enabled=not quiet and sys.stderr.isatty(), plan=plan)

    def advance(
        self, runs: int, key: tuple[str, str] | None = None, played: Sequence[Run] = ()
    ) -> None:
        """``runs`` more done (of scenario ``key``, costing what ``played`` took)."""
        self.done += runs
        if key is not None:
            self._runs[key] += runs
            self._cost[key] = self._cost.get(key, 0.0) + sum(r.seconds for r in played)
        now = time.monotonic()
        if self.enabled and (now - self._drawn > 0.2 or self.done >= self.total):
            self._drawn = now
            self.stream.write("\r" + self.line(now - self.started) + "\x1b[K")
            self.stream.flush()

    def seconds_left(self, elapsed: float) -> float:
        """The time left: by each scenario's cost per run where the plan and costs are
        known, else by the count of runs; NaN before anything is done."""
        rate = self.done / elapsed if elapsed > 0 else 0.0
        spent = sum(self._cost.values())
        if not self.plan or spent <= 0 or elapsed <= 0:
            return (self.total - self.done) / rate if rate > 0 else math.nan
        measured = {k: self._cost[k] / n for k, n in self._runs.items() if n and k in self._cost}
        fallback = spent / sum(self._runs.values())
        to_go = sum(
            max(0, total - self._runs[k]) * measured.get(k, fallback)
            for k, total in self.plan.items()
        )
        return to_go / (spent / elapsed)  # CPU seconds to go at the CPU rate so far

    def line(self, elapsed: float) -> str:
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = self.seconds_left(elapsed)
        width = 24
        filled = int(width * self.done / self.total)
        bar = "#" * filled + "-" * (width - filled)
        eta = "--:--" if math.isnan(left) else _clock(left)
        return f"[{bar}] {self.done}/{self.total} runs  {rate:.1f} runs/s  {eta} left"

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _clock(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


# --------------------------------------------------------------------------
# The comparison
# --------------------------------------------------------------------------
def scenarios_of(games: Iterable[str] | None) -> list[tuple[str, str]]:
    names = list(games) if games is not None else list(omaha.games())
    return [(name, scenario) for name in names for scenario in omaha.load(name).scenarios()]


#: Runs of a scenario when none are asked for and its game does not size it
#: (``Game.comparison_runs``: the shipped games give each scenario its share of about a
#: minute on two cores).
DEFAULT_RUNS = 100


def run_plan(
    games: Iterable[str] | None, runs: int | None = None, only: Iterable[str] | None = None
) -> list[tuple[str, str, int]]:
    """(game, scenario, runs) for every scenario of the chosen games.

    ``runs`` applies to every scenario; without it each plays :data:`DEFAULT_RUNS`, or what
    its game's ``comparison_runs`` gives for it. ``only``: just these scenarios, each
    ``GAME/SCENARIO`` or a scenario id of the chosen games (one that names none is refused).
    """
    if runs is not None and runs < 1:
        raise ValueError(f"runs must be at least 1, not {runs}")
    every = scenarios_of(games)
    if only is not None:
        wanted = set(only)
        unknown = wanted - {f"{g}/{s}" for g, s in every} - {s for _, s in every}
        if unknown:
            known = ", ".join(f"{g}/{s}" for g, s in every)
            raise ValueError(f"no scenario {sorted(unknown)[0]!r} among {known}")
        every = [(g, s) for g, s in every if f"{g}/{s}" in wanted or s in wanted]
    plan = []
    for name, scenario in every:
        count = runs or omaha.load(name).comparison_runs.get(scenario, DEFAULT_RUNS)
        plan.append((name, scenario, count))
    return plan


def compare(
    games: Iterable[str] | None = None,
    runs: int | None = None,
    seed: int = 1,
    pool: cf.Executor | None = None,
    bot: str | None = None,
    size: int | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
    kept: list[Column] | None = None,
    only: Iterable[str] | None = None,
) -> list[Column]:
    """Play seeded games of every scenario of every chosen game (see :func:`run_plan`).

    ``pool`` runs the chunks (default: serially here); ``size`` is the runs per chunk
    (default :func:`chunk_size` for ``workers``, or the machine's cores). Results depend
    on neither. ``kept``, when given, holds the runs finished however the comparison
    ends (Ctrl-C or a signal too), so a caller can save them. ``only``: just these
    scenarios (see :func:`run_plan`).
    """
    plan = run_plan(games, runs, only)
    cores = workers or os.cpu_count() or 1
    pool = pool or SerialExecutor()
    tasks = [
        c
        for name, scen, count in plan
        for c in chunks(name, scen, bot, seed, count, size or chunk_size(count, cores))
    ]
    results: dict[tuple[str, str], list[Run]] = {(n, sc): [] for n, sc, _ in plan}

    def done(task: Chunk, played: list[Run]) -> None:
        results[(task.game, task.scenario)].extend(played)
        if progress is not None:
            progress.advance(task.count, (task.game, task.scenario), played)

    def columns() -> list[Column]:
        return [_column(n, sc, bot, seed, results[(n, sc)]) for n, sc, _ in plan]

    try:
        if isinstance(pool, SerialExecutor):  # one task at a time, so progress moves
            for task in tasks:
                done(task, play_chunk(task))
        else:
            _run_chunks(pool, tasks, done, window(cores))
    except WorkersLost as exc:
        raise WorkersLost(str(exc), columns()) from None
    finally:
        if kept is not None:
            kept[:] = columns()
        if progress is not None:
            progress.close()
    return columns()


def run_column(
    name: str, scenario: str, runs: int, root: int = 1, bot: str | None = None,
    pool: cf.Executor | None = None, size: int = 5,
) -> Column:  # fmt: skip
    """All runs of one scenario (a convenience over :func:`compare`)."""
    pool = pool or SerialExecutor()
    tasks = chunks(name, scenario, bot, root, runs, size)
    done = [
        run for future in [pool.submit(play_chunk, t) for t in tasks] for run in future.result()
    ]
    return _column(name, scenario, bot, root, done)


# --------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------
# --------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------
def table(
    columns: Sequence[Column], detail: bool = False, flags: dict[str, set[str]] | None = None
) -> str:
    """The comparison as text (:func:`omaha.compare_table.table`)."""
    return compare_table.table(columns, detail, flags)


# --------------------------------------------------------------------------
# Every run, as JSON and CSV
# --------------------------------------------------------------------------
def _clean(value: float) -> float | str | None:
    """NaN (not modelled, not applicable) is null; inf (a time-to-event metric whose event
    did not happen by the end) is the string ``"inf"``, which ``float()`` reads back."""
    if math.isnan(value):
        return None
    return "inf" if math.isinf(value) else value


def events_json(column: Column) -> dict[str, Any]:
    """Each time-to-event metric of a column over all its runs: n, how many had it by the
    end, the median (null: past the end) and the curve, ``[hours, runs, low %, high %]``
    at each hour up to the end (Wilson 95%)."""
    out: dict[str, Any] = {}
    for name in sorted({k for r in column.runs for k in r.metrics}):
        if not column.is_time(name) or not column.values(name):
            continue
        ev = column.events(name)
        out[name] = {
            "n": ev.n,
            "had": ev.had,
            "median": ev.median,
            "curve": [[t, k, *(round(100 * x, 2) for x in wilson(k, ev.n))] for t, k in ev.curve()],
        }
    return out


def to_json(columns: Sequence[Column]) -> str:
    """Every run of every column, for analysis elsewhere (NaN is null, inf ``"inf"``), with
    each scenario's end, what it does not model, and its time-to-event curves."""
    return json.dumps(
        [
            {
                "game": c.game,
                "scenario": c.scenario,
                "bots": c.bots,
                "root_seed": c.root,
                "end_hours": c.end,
                "not_modelled": c.absent,
                "events": events_json(c),
                "runs": [
                    dict(
                        attrs.asdict(r, filter=lambda a, _: a.name != "seconds"),
                        bot_seeds=list(r.bot_seeds),
                        metrics={k: _clean(v) for k, v in r.metrics.items()},
                    )
                    for r in c.runs
                ],
            }
            for c in columns
        ],
        indent=1,
        sort_keys=True,
    )


CSV_FIELDS = ("game", "scenario", "run", "seed", "level", "winner", "actions")


def to_csv(columns: Sequence[Column]) -> str:
    """One tidy row per run: game, scenario, run index, seed, outcome, then every
    metric (empty where a design does not measure it or it does not apply)."""
    metrics = sorted({k for c in columns for r in c.runs for k in r.metrics})
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*CSV_FIELDS, *metrics])
    for c in columns:
        for r in c.runs:
            values = [r.metrics.get(k, math.nan) for k in metrics]
            writer.writerow(
                [
                    c.game, c.scenario, r.index, r.seed, r.level, r.winner or "", r.actions,
                    *("" if math.isnan(v) else repr(v) for v in values),
                ]
            )  # fmt: skip
    return buffer.getvalue()


# --------------------------------------------------------------------------
# The picture
# --------------------------------------------------------------------------
PLOT_SUFFIXES = (".png", ".svg")


def plotting() -> Any:
    """matplotlib's pyplot on a file-only backend; ``ValueError`` naming the extra if absent."""
    try:  # optional: used through Any, so the package type-checks without it
        matplotlib: Any = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        return importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise ValueError("a plot needs matplotlib: pip install 'omaha[plot]'") from None


def plot(columns: Sequence[Column], kind: str = "png") -> bytes:
    """Each common metric's distribution per design side by side, history drawn across
    (the ``plot`` extra: matplotlib), as the bytes of a ``png`` or ``svg`` file."""
    if f".{kind}" not in PLOT_SUFFIXES:
        raise ValueError(f"a plot is png or svg, not {kind!r}")
    plt = plotting()
    plt.rcParams["svg.fonttype"] = "none"  # text stays text in SVG: smaller, searchable
    plt.rcParams["svg.hashsalt"] = "omaha"  # element ids from a fixed salt: the same file twice
    metrics = [m for m in COMMON if any(c.values(m.name) for c in columns)]
    ncols = 3
    nrows = max(1, math.ceil(len(metrics) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.2 * ncols, 4.0 * nrows), squeeze=False)
    colours = plt.get_cmap("tab10").colors
    for ax, metric in zip(axes.flat, metrics, strict=False):
        present = [(i, c) for i, c in enumerate(columns) if c.values(metric.name)]
        labels = [c.label for _, c in present]
        positions = list(range(1, len(present) + 1))
        rate = all(is_rate(c, metric.name) for _, c in present)
        if metric.kind == TIME:
            _plot_events(ax, metric.name, present, colours)
            continue
        if rate:
            shares = [share_of(c.values(metric.name)) for _, c in present]
            pct = [s.percent if s else 0.0 for s in shares]
            # Wilson's bounds can miss 0% or 100% by a rounding error: never a negative bar
            errs = [
                [max(0.0, p - s.interval[0]) for p, s in zip(pct, shares, strict=True) if s],
                [max(0.0, s.interval[1] - p) for p, s in zip(pct, shares, strict=True) if s],
            ]
            ax.bar(
                positions, pct, yerr=errs, capsize=4,
                color=[colours[i % 10] for i, _ in present], alpha=0.8,
            )  # fmt: skip
            ax.set_ylim(0, 105)
            ax.set_ylabel("% of runs (Wilson 95%)")
        else:
            data = [c.values(metric.name) for _, c in present]
            parts = ax.boxplot(
                data, positions=positions, whis=(10, 90), showfliers=False, showmeans=True,
                patch_artist=True, widths=0.6,
            )  # fmt: skip
            for patch, (i, _) in zip(parts["boxes"], present, strict=True):
                patch.set_facecolor(colours[i % 10])
                patch.set_alpha(0.55)
            ax.set_ylabel(metric.unit)
        # history as it stood at each scenario's own end, across that scenario's box
        scale = 100 if rate else 1
        drawn = False
        for pos, (_, col) in zip(positions, present, strict=True):
            hist = history_at(metric.name, col.end)
            if hist is None:
                continue
            label = None if drawn else "history at the scenario's end"
            ax.hlines(scale * hist.value, pos - 0.45, pos + 0.45, color="crimson",
                      linestyle="--", linewidth=1.6, label=label)  # fmt: skip
            if hist.low is not None and hist.high is not None:
                ax.fill_between([pos - 0.45, pos + 0.45], scale * hist.low, scale * hist.high,
                                color="crimson", alpha=0.08)  # fmt: skip
            drawn = True
        if drawn:
            ax.legend(loc="best", fontsize=8, frameon=False)
        ax.set_xticks(positions, labels, fontsize=8, rotation=25, ha="right")
        ax.set_title(f"{metric.name} ({metric.unit})", fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    for ax in list(axes.flat)[len(metrics) :]:
        ax.set_visible(False)
    runs = "/".join(str(n) for n in sorted({len(c.runs) for c in columns}))
    fig.suptitle(
        f"omaha compare: {runs} seeded runs per scenario; boxes 25-75%, whiskers 10-90%, "
        "triangle = mean; dashed = history at each scenario's end",
        fontsize=11,
    )
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    out = io.BytesIO()
    fig.savefig(out, format=kind, dpi=110, metadata=_plot_metadata(kind))
    plt.close(fig)
    return out.getvalue()


def _plot_events(ax: Any, name: str, present: list[tuple[int, Column]], colours: Any) -> None:
    """A time-to-event metric: each scenario's share of runs that had it by each hour up
    to its end (a step curve), history's time as a dashed line (its range shaded)."""
    for i, col in present:
        ev = col.events(name)
        points = ev.curve(0.25)
        ax.step(
            [t for t, _ in points], [100 * k / ev.n for _, k in points], where="post",
            color=colours[i % 10], label=f"{col.label} (n={ev.n})",
        )  # fmt: skip
    hist = HISTORICAL.get(name)
    if hist is not None:
        ax.axvline(hist.value, color="crimson", linestyle="--", linewidth=1.6, label="history")
        if hist.low is not None and hist.high is not None:
            ax.axvspan(hist.low, hist.high, color="crimson", alpha=0.08)
    ax.set_ylim(0, 105)
    ax.set_xlabel("hours after H-hour (06:30), up to each scenario's end")
    ax.set_ylabel("% of runs that had it by then")
    ax.set_title(f"{name}: share of runs by each hour", fontsize=10)
    ax.legend(loc="best", fontsize=7, frameon=False)
    ax.grid(alpha=0.3)


def _plot_metadata(kind: str) -> dict[str, Any]:
    """No creation date in the file, so the same runs give the same picture."""
    return {"Date": None} if kind == "svg" else {"Software": None}
