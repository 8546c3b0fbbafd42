"""The ``omaha`` command: list, play, replay, render, validate, new, provenance, compare,
serve, demo.

Uses only the registry and the protocol, never a game's internals. A user's
mistake (a bad option, a missing or unwritable file, a bad record) is one line
on stderr and exit status 2, never a traceback; paths are checked before a game
starts and output files are written atomically.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn, TextIO

import omaha
from omaha import authoring, compare, compare_pairs, sweep
from omaha.errors import RecordError, ScenarioError
from omaha.fileio import WriteFailed, input_file, output_file, write_atomic
from omaha.kernel.dice import MAX_SEED, DiceExhausted
from omaha.kernel.protocol import Bot, Game, State
from omaha.kernel.records import GameRecord
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.svg import SIZE, render_view, to_png
from omaha.session import Session
from omaha.terminal import Terminal

EXIT_STATUS = """exit status:
  0    done
  1    an output file could not be written (a full disk, say), 'validate' found
       problems in a file, or 'compare' stopped because its worker processes kept
       dying (the runs finished are still written to --json and --csv)
  2    bad arguments or a bad input file (a one-line message on stderr)
  129  hung up (SIGHUP); 'play --record' saves the game so far first
  130  interrupted (Ctrl-C); 'play --record' saves the game so far first
  143  terminated (SIGTERM); 'play --record' saves the game so far first
  141  the reader of the output went away (e.g. 'omaha provenance lnl | head -3')"""

EXIT_WRITE_FAILED = 1
EXIT_PROBLEMS = 1  # omaha validate found problems
EXIT_WORKERS_LOST = 1  # omaha compare stopped: its worker processes kept dying
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, with what was saved before stopping."""


class Stopped(BaseException):
    """SIGTERM or SIGHUP while a game is played (raised by the handler, as Ctrl-C raises
    KeyboardInterrupt, and like it no ``Exception``), with what was saved before stopping;
    exit status 128 + signal."""

    def __init__(self, signum: int, saved: str = "") -> None:
        super().__init__(signum, saved)
        self.signum = signum
        self.saved = saved

    @property
    def what(self) -> str:
        return "hung up" if self.signum == getattr(signal, "SIGHUP", None) else "terminated"


#: The signals that stop a game being played, besides Ctrl-C (SIGINT).
STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``omaha`` command; returns the exit status (see ``EXIT_STATUS``)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already reported
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        result: int = args.run(args)
        sys.stdout.flush()
        return result
    except KeyboardInterrupt as exc:
        saved = f"; {exc}" if isinstance(exc, Interrupted) and str(exc) else ""
        _say(f"interrupted{saved}")
        return EXIT_INTERRUPTED
    except Stopped as exc:
        name = signal.Signals(exc.signum).name
        _say(f"{exc.what} ({name})" + (f"; {exc.saved}" if exc.saved else ""))
        return 128 + exc.signum
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except (KeyError, ValueError, DiceExhausted) as exc:  # every user-facing error class
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        _say(str(message))
        return EXIT_USAGE
    except OSError as exc:  # an input the checks let through, or writing failed midway
        where = f"{exc.filename}: " if exc.filename else ""
        _say(f"{where}{exc.strerror or exc}")
        return EXIT_WRITE_FAILED if isinstance(exc, WriteFailed) else EXIT_USAGE


def _say(message: str) -> None:
    """One line on stderr, prefixed with the program's name."""
    print(f"omaha: {' '.join(message.split())}", file=sys.stderr)


def _quiet_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the final flush stays silent."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (tests capture it)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error on one line and exits 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see '{self.prog} --help')\n")


# --------------------------------------------------------------------------
# Checked option values and paths
# --------------------------------------------------------------------------
def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number within ``low..high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low} and {high}, not {value}")
        return value

    parse.__name__ = "number"
    return parse


SEED = int_in(0, MAX_SEED)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="omaha",
        description=__doc__,
        epilog=EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"omaha {omaha.__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    p = sub.add_parser("list", help="installed games, their scenarios and bots")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser(
        "play",
        help="play a game (by hand, or bots against each other)",
        description="Play a game at the terminal. Sides without a bot are yours: at each "
        "decision you see the turn, the phase, what happened since your last decision and "
        "the choices in order; type a number or an action in the game's notation, or help, "
        "undo, map FILE (.svg or .png), log N, show (the whole position), quit.",
    )
    p.add_argument("game")
    p.add_argument("--scenario", help="shipped scenario id or path to a scenario file")
    p.add_argument("--seed", type=SEED, default=0, help=f"0..{MAX_SEED} (default 0)")
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="[SIDE=]NAME",
        help="bot for every side, or SIDE=NAME for one side (repeatable); sides without a bot "
        "are played by hand",
    )
    p.add_argument(
        "--record", type=Path, help="save the game record (JSON) here, also when interrupted"
    )
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("replay", help="replay a saved game record and print its log")
    p.add_argument("file", type=Path)
    p.add_argument("--scripted", action="store_true", help="use the recorded dice, not the seed")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("render", help="draw a game's map and pieces as SVG")
    p.add_argument("game")
    p.add_argument("--scenario")
    p.add_argument("--seed", type=SEED, default=0, help=f"0..{MAX_SEED} (default 0)")
    p.add_argument("--record", type=Path, help="draw the final position of a game record")
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="[SIDE=]NAME",
        help="let bots play first (see --steps); as for 'play'",
    )
    p.add_argument(
        "--steps",
        type=int_in(0, MAX_STEPS),
        default=None,
        help="with --bot: decisions to play before drawing (default: to the end)",
    )
    p.add_argument("--player", help="draw what this side sees (default: everything)")
    p.add_argument(
        "--out", type=Path, required=True, help="the file to write: .svg, or .png (omaha[png])"
    )
    p.add_argument(
        "--size",
        type=int_in(MIN_SIZE, MAX_SIZE),
        default=int(SIZE),
        help=f"size of a map cell in pixels, {MIN_SIZE}..{MAX_SIZE} (default {int(SIZE)})",
    )
    p.set_defaults(run=cmd_render)

    p = sub.add_parser(
        "validate",
        help="check scenario files without playing: every problem of every file",
        description="Check scenario files (and the component files they name) without "
        "playing them. Every problem of every file is printed as 'file: key: problem'; "
        "exit status 1 when there is any, 0 when all are sound. A scenario names its game "
        'in its [scenario] table (game = "lnl"); --game overrides it.',
    )
    p.add_argument("files", nargs="+", type=Path, metavar="FILE")
    p.add_argument("--game", help="check every file as a scenario of this game")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser(
        "new",
        help="write a commented starter scenario that validates",
        description="Write NAME.toml: a scenario of GAME that extends the game's default "
        "scenario, with the keys you may change listed in comments. It validates as "
        "written (omaha validate NAME.toml); an existing file is never overwritten.",
    )
    p.add_argument("game")
    p.add_argument("name", help="the scenario's name; the file is NAME.toml")
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("provenance", help="which components are published and which reconstructed")
    p.add_argument("game")
    p.add_argument("--scenario", help="one scenario (an id or a file); default: every shipped one")
    p.add_argument("--all", action="store_true", help="list published components too")
    p.set_defaults(run=cmd_provenance)

    p = sub.add_parser(
        "compare",
        help="the designs side by side over many seeded games",
        description="Play seeded games of every shipped scenario with each game's strongest "
        "bots and show the common metrics next to the historical record. Run i's seeds come "
        "from numpy.random.SeedSequence(SEED).spawn(RUNS)[i]: results are the same on any "
        "executor and chunking. A Dask cluster: start 'dask scheduler' on one machine and "
        "'dask worker tcp://HOST:8786' on each (every machine with omaha installed), then "
        "'omaha compare --executor dask --scheduler tcp://HOST:8786'.",
    )
    p.add_argument(
        "--runs",
        type=int_in(1, MAX_RUNS),
        default=None,
        help="seeded games per scenario (default: each scenario's share of about a minute "
        f"on two cores, 'omaha list' shows them; {compare.DEFAULT_RUNS} where a game sets none)",
    )
    p.add_argument("--seed", type=SEED, default=1, help=f"root seed, 0..{MAX_SEED} (default 1)")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument(
        "--scenario",
        action="append",
        metavar="GAME/SCENARIO",
        help="only this scenario of the chosen games (repeatable), e.g. tcs/e1-draw",
    )
    p.add_argument(
        "--bot",
        help="bot for every game that has it, NAME or NAME:BUDGET (search:16: the search "
        "agent at 16 iterations a decision; default: each game's strongest)",
    )
    p.add_argument(
        "--bots",
        metavar="A,B",
        help="two bots: the same seeds with each, and the metrics that depend on who plays "
        "marked (games without both bots are left out; search:16 as for --bot)",
    )
    p.add_argument(
        "--executor",
        choices=compare.EXECUTORS,
        default="process",
        help="where games run: here, a process pool (default) or a Dask cluster",
    )
    p.add_argument(
        "--workers",
        type=int_in(1, MAX_WORKERS),
        default=None,
        help="worker processes (process pool, local Dask cluster; default: the cores)",
    )
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://host:8786")
    p.add_argument(
        "--chunk", type=int_in(1, MAX_RUNS), help="runs per task (default: about 4 per worker)"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--detail", action="store_true", help="also each design's own metrics")
    p.add_argument("--json", type=Path, help="write every run here (JSON)")
    p.add_argument("--csv", type=Path, help="write one row per run here (CSV)")
    p.add_argument("--plot", type=Path, help="draw the distributions here (.png or .svg)")
    p.set_defaults(run=cmd_compare)

    p = sub.add_parser(
        "ladder",
        help="every pair of a game's bots on paired seeds, and a rating per bot",
        description="Every bot that can play each side meets every bot of the other side "
        "(solo games: every bot on the same seeds), GAMES games a match on the same seeds, "
        "with win shares (Wilson 95%% intervals), mean returns and a Bradley-Terry rating "
        "on the Elo scale with a bootstrap interval. A bot that takes a budget is entered "
        "as NAME:BUDGET (search:64).",
    )
    p.add_argument("game", help="the game (omaha list shows them)")
    p.add_argument("--scenario", help="shipped scenario id or path (default: the game's)")
    p.add_argument("--games", type=int_in(2, 100_000), default=20, help="games a match (20)")
    p.add_argument("--bots", help="comma-separated bots to enter (default: every bot)")
    p.add_argument("--seed", type=SEED, default=1, help=f"root seed, 0..{MAX_SEED} (default 1)")
    p.add_argument("--json", type=Path, help="write every game and the ratings here (JSON)")
    p.add_argument("--quiet", action="store_true", help="no line per finished match")
    p.set_defaults(run=cmd_ladder)

    p = sub.add_parser(
        "sweep",
        help="one scenario over the values of a scenario key, the same seeds for each",
        description="Play one scenario with a key of its file set to each value in turn "
        "(--set TABLE.KEY=V1,V2,...: the key is checked against the scenario's schema), "
        "the same seeds for every value, and show each common metric against the value "
        "with the paired difference from the first.",
    )
    p.add_argument("game", help="the game (omaha list)")
    p.add_argument("--scenario", required=True, help="a shipped scenario of the game")
    p.add_argument("--set", required=True, dest="setting", metavar="TABLE.KEY=V1,V2,...")
    p.add_argument("--runs", type=int_in(1, MAX_RUNS), default=20, help="runs a value (20)")
    p.add_argument("--seed", type=SEED, default=1, help=f"root seed, 0..{MAX_SEED} (default 1)")
    p.add_argument("--bot", help="bot name (default: the game's strongest)")
    p.add_argument(
        "--executor", choices=("serial", "process"), default="process",
        help="here or in a process pool of this machine (default)",
    )  # fmt: skip
    p.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=None)
    p.add_argument("--json", type=Path, help="write every run here (JSON)")
    p.set_defaults(run=cmd_sweep)

    p = sub.add_parser("serve", help="play in the browser, served from this machine")
    p.add_argument("game", nargs="?", default="lnl", help="the game to start with (default lnl)")
    p.add_argument("--scenario", help="shipped scenario id or path to a scenario file")
    p.add_argument("--seed", type=SEED, default=0, help=f"0..{MAX_SEED} (default 0)")
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SIDE=NAME",
        help="a bot for a side (repeatable); default: the strongest bot plays every side "
        "but the first",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    p.add_argument("--port", type=int_in(0, 65535), default=8000, help="port (0: any free port)")
    p.add_argument("--scenarios", metavar="DIR", help="a folder of scenario files to offer too")
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("demo", help="a seeded bot game of every installed game, with its log")
    p.add_argument("--seed", type=SEED, default=1)
    p.add_argument(
        "--tail", type=int_in(0, 1_000_000), default=40, help="log lines to show per game"
    )
    p.set_defaults(run=cmd_demo)
    return parser


MAX_STEPS = 10_000_000
MIN_SIZE, MAX_SIZE = 8, 400
MAX_RUNS = 1_000_000
MAX_WORKERS = 1024


# --------------------------------------------------------------------------
def cmd_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    names = omaha.games()
    if not names:
        print("no games installed", file=out)
    for name in names:
        game = omaha.load(name)
        print(f"{name}: {game.title}", file=out)
        print(f"  players:   {', '.join(game.players)}", file=out)
        print(f"  scenarios: {', '.join(game.scenarios())}", file=out)
        bots = [f"{b} ({', '.join(game.bot_sides(b))})" for b in sorted(game.bots)]
        print(f"  bots:      {', '.join(bots)}", file=out)
        if game.comparison_runs:
            sized = ", ".join(f"{sc} {n}" for sc, n in game.comparison_runs.items())
            print(f"  compared:  runs by default: {sized} (others 100)", file=out)
    return 0


def lineup(game: Game[Any], specs: Sequence[str]) -> dict[str, str]:
    """Resolve ``--bot`` options into a bot name per side."""
    chosen: dict[str, str] = {}
    for spec in specs:
        if "=" in spec:
            side, name = spec.split("=", 1)
            if side not in game.players:
                raise ValueError(
                    f"{game.name} has no side {side!r} (sides: {', '.join(game.players)})"
                )
            if name not in game.bots:
                raise ValueError(
                    f"{game.name} has no bot {name!r} (bots: {', '.join(sorted(game.bots))})"
                )
            chosen[side] = name
        else:
            try:
                chosen.update(game.lineup(spec))
            except KeyError as exc:
                raise ValueError(exc.args[0]) from None
    return chosen


def make_bots(game: Game[Any], names: dict[str, str], seed: int) -> dict[str, Bot]:
    return {
        side: game.bots[name](seed=seed * 31 + i)
        for i, (side, name) in enumerate(sorted(names.items()))
    }


def cmd_play(args: argparse.Namespace) -> int:
    game = omaha.load(args.game)
    names = lineup(game, args.bot)
    if args.record:
        output_file(args.record, "--record")
    session = Session(game, args.scenario, seed=args.seed, bots=names, autoplay=False)
    state = session.state
    if not args.quiet:
        print(f"{game.title} — scenario {state.scenario.title} (seed {args.seed})")
        people = [side for side in game.players if side not in names]
        if people:
            bots = ", ".join(f"{side}={name}" for side, name in sorted(names.items()))
            print(f"You play {', '.join(people)}" + (f"; bots: {bots}" if bots else "")
                  + ". Type 'help' at the prompt for the commands.")  # fmt: skip
    terminal = Terminal(session, sys.stdin, sys.stdout, quiet=args.quiet)
    try:
        # the handlers stay until the end, so a signal after the last move still saves
        with _stopped_by_signals():
            finished = terminal.play()
            _finish_play(args, session, finished)
    except BaseException as exc:
        if not args.record:
            raise
        # stopped anywhere, maybe inside a move: save the game as of its last whole move
        _save_record(args.record, session, replay=True)
        saved = f"the game so far is saved in {args.record}"
        if isinstance(exc, KeyboardInterrupt):
            raise Interrupted(saved) from None
        if isinstance(exc, Stopped):
            raise Stopped(exc.signum, saved) from None
        if not isinstance(exc, BrokenPipeError):
            _say(saved)  # then the error, reported as any other
        raise
    return 0


def _finish_play(args: argparse.Namespace, session: Session, finished: bool) -> None:
    """Save the record of a game played to its end (or abandoned) and print its result:
    an abandoned game's in one line, where it stopped (its metrics are a replay away)."""
    state = session.state
    if not finished:
        n = len(state.actions)
        print(f"game abandoned at {state.turn_label} · {state.phase}, "
              f"after {n} decision{'' if n == 1 else 's'}")  # fmt: skip
    if args.record:
        _save_record(args.record, session)
        print(
            f"game record saved to {args.record}"
            + ("" if finished else f" ('omaha replay {args.record}' shows its metrics so far)")
        )
    if finished:
        _print_result(state)


@contextlib.contextmanager
def _stopped_by_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` inside the block, so the game being
    played is saved before the process ends (as Ctrl-C's KeyboardInterrupt is). A process
    forked inside the block (a pool's worker) inherits the handler: there the signal has
    its default action, it ends the process."""
    owner = os.getpid()

    def stop(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise Stopped(signum)

    try:
        previous = [(s, signal.signal(s, stop)) for s in STOP_SIGNALS]
    except ValueError:  # not the main thread: signals are not ours to take
        previous = []
    try:
        yield
    finally:
        for s, handler in previous:
            signal.signal(s, handler)


def _save_record(path: Path, session: Session, replay: bool = False) -> None:
    """Write the game's record to ``path``, with Ctrl-C and the stop signals held back
    until it is written. ``replay``: record the game replayed from its start through
    every action it took, for a game stopped part-way through a move."""
    held = {signal.SIGINT, *STOP_SIGNALS}
    blocked = hasattr(signal, "pthread_sigmask")
    if blocked:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        state = session.state
        if replay:
            with contextlib.suppress(Exception):  # the state as it is, when that fails
                state = session.replayed()
        write_atomic(path, state.record().to_json() + "\n")
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _print_result(state: State[Any]) -> None:
    if state.is_terminal():
        print(f"Result: {state.outcome()}")
    metrics = state.metrics()
    if metrics:
        print("Metrics: " + ", ".join(f"{k}={v:g}" for k, v in sorted(metrics.items())))


def read_record(path: Path) -> GameRecord:
    return GameRecord.from_json(input_file(path), path.name)


def cmd_replay(args: argparse.Namespace) -> int:
    record = read_record(args.file)
    game = omaha.load(record.game)
    state = _replay(game, record, args.file, scripted=args.scripted)
    print(state.log_text())
    _print_result(state)
    return 0


def _replay(game: Game[Any], record: GameRecord, path: Path, scripted: bool = False) -> State[Any]:
    """Replay a record; what the library lets through unnamed is named after the file."""
    try:
        return game.replay(record, scripted=scripted, name=path.name)
    except RecordError:
        raise
    except (DiceExhausted, ScenarioError, ValueError) as exc:
        raise RecordError(path.name, "", f"does not replay ({exc})") from None


def cmd_render(args: argparse.Namespace) -> int:
    output_file(args.out, "--out", (".svg", ".png"))
    png = args.out.suffix.lower() == ".png"
    if png:
        png_renderer()  # present, before any game is played
    if args.record:
        record = read_record(args.record)
        state = _replay(omaha.load(record.game), record, args.record)
    else:
        game = omaha.load(args.game)
        bots = make_bots(game, lineup(game, args.bot), args.seed) if args.bot else {}
        state = game.new_state(args.scenario, seed=args.seed)
        played = 0
        while bots and not state.is_terminal() and played != args.steps:
            player = state.current_player()
            assert player is not None
            if player not in bots:
                raise ValueError(f"no bot plays {player}: add --bot {player}=NAME")
            state.apply(bots[player].choose(state))
            played += 1
    if args.player is not None and args.player not in state.game.players:
        raise ValueError(f"{state.game.name} has no side {args.player!r}")
    svg = render_view(state.view(args.player), size=args.size)
    write_atomic(args.out, to_png(svg) if png else svg)
    print(f"wrote {args.out} ({state.turn_label}, {state.phase})")
    return 0


def png_renderer() -> None:
    """``ValueError`` naming the extra when PNG cannot be written here."""
    try:
        to_png('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
    except RuntimeError as exc:
        raise ValueError(str(exc)) from None


def cmd_validate(args: argparse.Namespace) -> int:
    if args.game is not None:
        omaha.load(args.game)  # an unknown game is a usage error, before any file
    results = authoring.check_all(args.files, args.game)
    bad = 0
    for checked in results:
        if checked.problems:
            bad += 1
            for problem in checked.problems:
                print(problem)
        else:
            print(f"{checked.path}: sound ({checked.game}: {checked.title})")
    problems = sum(len(c.problems) for c in results)
    if len(results) > 1 or bad:
        files = f"{len(results)} file{'s' if len(results) != 1 else ''} checked"
        if bad:
            found = f"{problems} problem{'s' if problems != 1 else ''} in {bad} of them"
        else:
            found = "all sound"
        print(f"{files}: {found}")
    return EXIT_PROBLEMS if bad else 0


def cmd_new(args: argparse.Namespace) -> int:
    game = omaha.load(args.game)
    target = authoring.starter_path(args.name)
    if target.exists():
        raise ValueError(f"{target}: already exists (omaha new never overwrites a file)")
    output_file(target, "NAME", (".toml",))
    written = authoring.new_scenario(game, target)
    kind = (
        f'extends "{game.default_scenario}"'
        if written.shared_format
        else f'a copy of "{game.default_scenario}"'
    )
    print(f"wrote {written.path}: a {game.name} scenario ({kind}); it validates.")
    print(f"check it:  {written.validate}")
    print(f"play it:   omaha play {game.name} --scenario {written.path}")
    return 0


def cmd_provenance(args: argparse.Namespace) -> int:
    game = omaha.load(args.game)
    names = [args.scenario] if args.scenario else list(game.scenarios())
    # every component once, with the shipped scenarios that use it when not all do
    using: dict[tuple[str, str], list[str]] = {}
    items: dict[tuple[str, str], ProvenanceItem] = {}
    for name in names:
        for item in game.provenance(name):
            where = (item.component, item.key)
            items.setdefault(where, item)
            using.setdefault(where, []).append(str(name))
    rebuilt = [i for i in items.values() if i.source.reconstructed]
    scope = f"scenario {args.scenario}" if args.scenario else f"{len(names)} scenarios"
    print(f"{game.title}, {scope}: {len(items)} components, {len(rebuilt)} reconstructed")
    for where, item in items.items():
        used = using[where]
        tag = f" [{', '.join(used)}]" if len(used) < len(names) else ""
        if item.source.reconstructed:
            print(f"  RECONSTRUCTED {item.component} {item.key}{tag}: {item.source.reason}")
        elif args.all:
            print(f"  published     {item.component} {item.key}{tag}: {item.source.text}")
    return 0


def compare_lineups(args: argparse.Namespace) -> tuple[list[str | None], list[str] | None]:
    """The bots to run (one, or the two of ``--bots``) and the games that have them."""
    names = args.game or list(omaha.games())
    if not args.bots:
        if not args.bot:
            return [None], args.game
        name, _ = compare.split_bot(args.bot)  # search:16: the search agent's budget
        having = [g for g in names if name in omaha.load(g).bots]
        if not having:
            raise ValueError(f"no game has the bot {name!r}")
        for g in having:  # a budget for a bot that takes none fails here, before any game
            compare.make_bot(omaha.load(g), args.bot, 0)
        return [args.bot], having
    if args.bot:
        raise ValueError("give --bot or --bots, not both")
    pair = [b.strip() for b in args.bots.split(",")]
    if len(pair) != 2 or not all(pair) or pair[0] == pair[1]:
        raise ValueError(f"--bots takes two different bot names, A,B (not {args.bots!r})")
    bases = [compare.split_bot(b)[0] for b in pair]
    games = [g for g in names if all(b in omaha.load(g).bots for b in bases)]
    if not games:
        raise ValueError(f"no game has both bots {pair[0]!r} and {pair[1]!r}")
    return list(pair), games


def cmd_sweep(args: argparse.Namespace) -> int:
    setting = sweep.parse_setting(args.setting)
    if args.json:
        output_file(args.json, "--json", (".json",))
    omaha.load(args.game)  # an unknown game fails here
    workers = args.workers or os.cpu_count() or 1
    with _stopped_by_signals(), compare.executor(args.executor, workers) as pool:
        columns = sweep.sweep(
            args.game, args.scenario, setting, args.runs, args.seed, pool, args.bot,
            size=compare.chunk_size(args.runs, workers),
        )  # fmt: skip
    print(sweep.table(columns, setting))
    if args.json:
        write_atomic(args.json, compare.to_json(columns) + "\n")
        print(f"\nwrote every run in {args.json}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    if args.scheduler and args.executor != "dask":
        raise ValueError("--scheduler names a Dask scheduler: add --executor dask")
    for option in ("json", "csv"):
        if getattr(args, option):
            output_file(getattr(args, option), f"--{option}", (f".{option}",))
    if args.plot:
        output_file(args.plot, "--plot", compare.PLOT_SUFFIXES)
        compare.plotting()  # matplotlib present, before minutes of games
    lineups, games = compare_lineups(args)
    # an unknown game or scenario fails before any run
    plan = compare.run_plan(games, args.runs, args.scenario)
    workers = args.workers or os.cpu_count() or 1
    total = sum(count for _, _, count in plan)
    runs: list[list[compare.Column]] = []
    kept: list[compare.Column] = []  # the lineup being played, as far as it got
    keep = bool(args.json or args.csv)  # (the columns load every scenario: only if written)
    try:
        # SIGTERM and SIGHUP stop the run as Ctrl-C does: the workers are ended (leaving
        # the executor) and the runs finished are written
        with (
            _stopped_by_signals(),
            compare.executor(args.executor, workers, args.scheduler) as pool,
        ):
            for bot in lineups:
                progress = compare.Progress.for_terminal(total, quiet=args.quiet, plan=plan)
                kept = []
                played = compare.compare(
                    games, args.runs, args.seed, pool, bot, size=args.chunk,
                    progress=progress, workers=workers, kept=kept if keep else None,
                    only=args.scenario,
                )  # fmt: skip
                runs.append(played)
                kept = []
    except (KeyboardInterrupt, Stopped) as exc:
        finished = [*(c for lineup in runs for c in lineup), *kept]
        saved = ""
        if args.json or args.csv:
            _write_runs(args, finished, runs[0] if runs else kept)
            done = sum(len(c.runs) for c in finished)
            where = " and ".join(str(f) for f in (args.json, args.csv) if f)
            saved = f"{done} of {total * len(lineups)} runs finished, in {where}"
        if isinstance(exc, Stopped):
            raise Stopped(exc.signum, saved) from None
        raise Interrupted(saved) from None
    except compare.WorkersLost as exc:  # the runs that finished are kept, not tabled
        _write_runs(
            args,
            [*(c for lineup in runs for c in lineup), *exc.columns],
            runs[0] if runs else exc.columns,
        )
        done = sum(len(c.runs) for c in exc.columns)
        out = " and ".join(str(f) for f in (args.json, args.csv) if f)
        _say(f"stopped: {exc}; {done} of {total} runs finished" + (f", in {out}" if out else ""))
        return EXIT_WORKERS_LOST
    columns = runs[0]
    if len(runs) == 2:
        found = compare_pairs.dependence(runs[0], runs[1])
        print(compare.table(columns, detail=args.detail, flags=compare_pairs.flags(found)))
        print("\n" + compare_pairs.report(found, str(lineups[0]), str(lineups[1])))
    else:
        print(compare.table(columns, detail=args.detail))
    every = [c for lineup in runs for c in lineup]
    written = [_write_runs(args, every, columns)] if args.json or args.csv else []
    if args.plot:
        write_atomic(args.plot, compare.plot(columns, args.plot.suffix.lower()[1:]))
        written.append(f"the distributions in {args.plot}")
    if written:
        print("\nwrote " + "; ".join(written))
    return 0


def _write_runs(
    args: argparse.Namespace,
    columns: Sequence[compare.Column],
    first: Sequence[compare.Column] | None = None,
) -> str:
    """Write every run to ``--json`` and the runs of the first lineup (``first``; all of
    ``columns`` by default) to ``--csv``, those asked for; what was written."""
    written = []
    if args.json:
        write_atomic(args.json, compare.to_json(columns) + "\n")
        written.append(f"every run in {args.json}")
    if args.csv:
        write_atomic(args.csv, compare.to_csv(columns if first is None else first))
        written.append(f"one row per run in {args.csv}")
    return "; ".join(written)


def cmd_ladder(args: argparse.Namespace) -> int:
    from omaha import ladder

    if args.json:
        output_file(args.json, "--json", (".json",))
    entrants = (
        [ladder.Entrant.parse(b.strip()) for b in args.bots.split(",") if b.strip()]
        if args.bots
        else None
    )
    done = None if args.quiet else (lambda label: print(f"played {label}", file=sys.stderr))
    result = ladder.ladder(args.game, args.scenario, args.games, entrants, args.seed, done)
    print(ladder.table(result))
    if args.json:
        write_atomic(args.json, json.dumps(ladder.to_data(result), indent=1) + "\n")
        print(f"\nwrote every game and the ratings in {args.json}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from omaha.server.app import run

    return run(args)


def cmd_demo(args: argparse.Namespace) -> int:
    names = omaha.games()
    if not names:
        print("no games installed yet")
        return 0
    for name in names:
        game = omaha.load(name)
        bot = "heuristic" if "heuristic" in game.bots else "random"
        bots = make_bots(game, game.lineup(bot), args.seed)
        state = game.new_state(seed=args.seed)
        while not state.is_terminal():
            player = state.current_player()
            assert player is not None
            state.apply(bots[player].choose(state))
        print(f"=== {game.title} — {state.scenario.title}, seed {args.seed}, {bot} bots ===")
        lines = state.log_text().splitlines()
        if len(lines) > args.tail:
            print(f"... ({len(lines) - args.tail} earlier log lines)")
        print("\n".join(lines[-args.tail :]))
        _print_result(state)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
