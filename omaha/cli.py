"""The ``omaha`` command: list, play, replay, render, provenance, compare, serve, demo.

Uses only the registry and the protocol, never a game's internals. A user's
mistake (a bad option, a missing or unwritable file, a bad record) is one line
on stderr and exit status 2, never a traceback; paths are checked before a game
starts and output files are written atomically.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

import omaha
from omaha.errors import IllegalAction, RecordError, ScenarioError
from omaha.kernel.dice import MAX_SEED, DiceExhausted
from omaha.kernel.protocol import Bot, Game, State
from omaha.kernel.records import GameRecord
from omaha.kernel.svg import render_view

EXIT_STATUS = """exit status:
  0    done
  1    an output file could not be written (a full disk, say)
  2    bad arguments or a bad input file (a one-line message on stderr)
  130  interrupted (Ctrl-C); 'play --record' saves the game so far first
  141  the reader of the output went away (e.g. 'omaha provenance lnl | head -3')"""

EXIT_WRITE_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141


class WriteFailed(OSError):
    """An output file could not be written (exit status 1)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, with what was saved before stopping."""


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


def input_file(path: Path) -> str:
    """The text of a file the user named, or a clear ``ValueError``."""
    if not path.exists():
        raise ValueError(f"{path}: no such file")
    if path.is_dir():
        raise ValueError(f"{path}: is a directory, not a file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: is not UTF-8 text") from None


def output_file(path: Path, option: str, suffixes: Sequence[str] = ()) -> Path:
    """Check, before any work starts, that ``path`` can be written; ``ValueError`` if not.

    ``suffixes`` are the file types the command writes (``.svg``); others are refused.
    """
    if suffixes and path.suffix.lower() not in suffixes:
        kinds = " or ".join(suffixes)
        got = f"a {path.suffix} file" if path.suffix else "a file without an extension"
        raise ValueError(f"{option} {path}: cannot write {got}; give a {kinds} file")
    if path.is_dir():
        raise ValueError(f"{option} {path}: is a directory")
    parent = path.parent
    if not parent.is_dir():
        raise ValueError(f"{option} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"{option} {path}: not writable")
    return path


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it into place:
    a reader never sees half a file, and an interrupted write leaves the old one."""
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else _default_mode()
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise WriteFailed(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise WriteFailed(exc.errno, exc.strerror, str(path)) from None
        raise


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


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

    p = sub.add_parser("play", help="play a game (by hand, or bots against each other)")
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
    p.add_argument("--out", type=Path, required=True, help="the SVG file to write (.svg)")
    p.set_defaults(run=cmd_render)

    p = sub.add_parser("provenance", help="which components are published and which reconstructed")
    p.add_argument("game")
    p.add_argument("--scenario")
    p.add_argument("--all", action="store_true", help="list published components too")
    p.set_defaults(run=cmd_provenance)

    p = sub.add_parser("compare", help="the designs side by side over many seeded games")
    p.add_argument(
        "--runs", type=int_in(1, MAX_RUNS), default=100, help="seeded games per scenario"
    )
    p.add_argument("--first-seed", type=SEED, default=1)
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--bot", help="bot name for every game (default: each game's strongest)")
    p.add_argument(
        "--workers",
        type=int_in(1, MAX_WORKERS),
        default=min(4, os.cpu_count() or 1),
        help="worker processes",
    )
    p.add_argument("--detail", action="store_true", help="also each design's own metrics")
    p.add_argument("--json", type=Path, help="also write every run's metrics here")
    p.set_defaults(run=cmd_compare)

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
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("demo", help="a seeded bot game of every installed game, with its log")
    p.add_argument("--seed", type=SEED, default=1)
    p.add_argument(
        "--tail", type=int_in(0, 1_000_000), default=40, help="log lines to show per game"
    )
    p.set_defaults(run=cmd_demo)
    return parser


MAX_STEPS = 10_000_000
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
        print(f"  bots:      {', '.join(sorted(game.bots))}", file=out)
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
    bots = make_bots(game, lineup(game, args.bot), args.seed)
    if args.record:
        output_file(args.record, "--record")
    state = game.new_state(args.scenario, seed=args.seed)
    shown = 0
    if not args.quiet:
        print(f"{game.title} — scenario {state.scenario.title} (seed {args.seed})")
    try:
        while not state.is_terminal():
            if not args.quiet and len(state.log) > shown:
                print(state.log_text(shown))
            shown = len(state.log)
            player = state.current_player()
            assert player is not None
            bot = bots.get(player)
            if bot is not None:
                state.apply(bot.choose(state))
                continue
            if not _human_turn(state, player):
                print("game abandoned")
                break
    except (KeyboardInterrupt, BrokenPipeError) as exc:
        if not args.record:
            raise
        write_atomic(args.record, state.record().to_json() + "\n")
        if isinstance(exc, BrokenPipeError):
            raise
        raise Interrupted(f"the game so far is saved in {args.record}") from None
    if args.record:
        write_atomic(args.record, state.record().to_json() + "\n")
        print(f"game record saved to {args.record}")
    if not args.quiet and len(state.log) > shown:
        print(state.log_text(shown))
    _print_result(state)
    return 0


def _human_turn(state: State[Any], player: str, inp: TextIO | None = None) -> bool:
    """Show the position to ``player`` and apply one chosen action; False to quit."""
    inp = inp or sys.stdin
    print()
    print(state.view(player).summary())
    actions = state.legal_actions()
    for i, action in enumerate(actions, start=1):
        print(f"  {i:3d}. {action}")
    while True:
        print(f"{player}> ", end="", flush=True)
        try:
            line = inp.readline()
        except UnicodeDecodeError:
            print("  illegal: that line is not UTF-8 text")
            continue
        if not line or line.strip() in ("q", "quit"):
            return False
        text = line.strip()
        try:
            if text.isdecimal() and text.isascii():
                number = int(text)
                if not 1 <= number <= len(actions):
                    raise IllegalAction(
                        f"{number} is not offered: choose 1-{len(actions)}, or type an action"
                    )
                action = actions[number - 1]
            else:
                action = state.game.parse_action(text)
            state.apply(action)
            return True
        except IllegalAction as exc:
            print(f"  illegal: {exc}")


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
    output_file(args.out, "--out", (".svg",))
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
    write_atomic(args.out, render_view(state.view(args.player)))
    print(f"wrote {args.out} ({state.turn_label}, {state.phase})")
    return 0


def cmd_provenance(args: argparse.Namespace) -> int:
    game = omaha.load(args.game)
    items = game.provenance(args.scenario)
    rebuilt = [i for i in items if i.source.reconstructed]
    print(f"{game.title}: {len(items)} components, {len(rebuilt)} reconstructed")
    for item in items:
        if item.source.reconstructed:
            print(f"  RECONSTRUCTED {item.component} {item.key}: {item.source.reason}")
        elif args.all:
            print(f"  published     {item.component} {item.key}: {item.source.text}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from omaha import compare

    if args.json:
        output_file(args.json, "--json")
    for name in args.game or ():
        omaha.load(name)  # an unknown game is an error before anything runs
    columns = compare.compare(args.game, args.runs, args.first_seed, args.workers, args.bot)
    print(compare.table(columns, detail=args.detail))
    if args.json:
        write_atomic(args.json, compare.to_json(columns) + "\n")
        print(f"\nall runs written to {args.json}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from omaha.server.app import serve, session_from_args

    serve(session_from_args(args), args.host, args.port)
    return 0


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
