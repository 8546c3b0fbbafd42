"""The ``omaha`` command: list, play, replay, render, provenance, demo.

Uses only the registry and the protocol, never a game's internals.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import omaha
from omaha.errors import IllegalAction, ScenarioError
from omaha.kernel.protocol import Bot, Game, State
from omaha.kernel.records import GameRecord
from omaha.kernel.svg import render_view


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        result: int = args.run(args)
        return result
    except (KeyError, ValueError, ScenarioError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"omaha: {message}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="omaha", description=__doc__)
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("list", help="installed games, their scenarios and bots")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("play", help="play a game (by hand, or bots against each other)")
    p.add_argument("game")
    p.add_argument("--scenario", help="shipped scenario id or path to a scenario file")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="[SIDE=]NAME",
        help="bot for every side, or SIDE=NAME for one side (repeatable); sides without a bot "
        "are played by hand",
    )
    p.add_argument("--record", type=Path, help="save the game record (JSON) here")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("replay", help="replay a saved game record and print its log")
    p.add_argument("file", type=Path)
    p.add_argument("--scripted", action="store_true", help="use the recorded dice, not the seed")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("render", help="draw a game's map and pieces as SVG")
    p.add_argument("game")
    p.add_argument("--scenario")
    p.add_argument("--seed", type=int, default=0)
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
        type=int,
        default=-1,
        help="with --bot: decisions to play before drawing (default: to the end)",
    )
    p.add_argument("--player", help="draw what this side sees (default: everything)")
    p.add_argument("--out", type=Path, required=True)
    p.set_defaults(run=cmd_render)

    p = sub.add_parser("provenance", help="which components are published and which reconstructed")
    p.add_argument("game")
    p.add_argument("--scenario")
    p.add_argument("--all", action="store_true", help="list published components too")
    p.set_defaults(run=cmd_provenance)

    p = sub.add_parser("compare", help="the designs side by side over many seeded games")
    p.add_argument("--runs", type=int, default=100, help="seeded games per scenario")
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--bot", help="bot name for every game (default: each game's strongest)")
    p.add_argument(
        "--workers", type=int, default=min(4, os.cpu_count() or 1), help="worker processes"
    )
    p.add_argument("--detail", action="store_true", help="also each design's own metrics")
    p.add_argument("--json", type=Path, help="also write every run's metrics here")
    p.set_defaults(run=cmd_compare)

    p = sub.add_parser("demo", help="a seeded bot game of every installed game, with its log")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--tail", type=int, default=40, help="log lines to show per game")
    p.set_defaults(run=cmd_demo)
    return parser


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
    state = game.new_state(args.scenario, seed=args.seed)
    shown = 0
    if not args.quiet:
        print(f"{game.title} — scenario {state.scenario.title} (seed {args.seed})")
    try:
        while not state.is_terminal():
            if not args.quiet:
                print(state.log_text(shown)) if len(state.log) > shown else None
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
    finally:
        if args.record:
            args.record.write_text(state.record().to_json() + "\n")
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
        line = inp.readline()
        if not line or line.strip() in ("q", "quit"):
            return False
        text = line.strip()
        try:
            if text.isdigit() and 1 <= int(text) <= len(actions):
                action = actions[int(text) - 1]
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


def cmd_replay(args: argparse.Namespace) -> int:
    record = GameRecord.from_json(args.file.read_text(), args.file.name)
    game = omaha.load(record.game)
    state = game.replay(record, scripted=args.scripted)
    print(state.log_text())
    _print_result(state)
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    if args.record:
        record = GameRecord.from_json(args.record.read_text(), args.record.name)
        state = omaha.load(record.game).replay(record)
    else:
        game = omaha.load(args.game)
        state = game.new_state(args.scenario, seed=args.seed)
        if args.bot:
            bots = make_bots(game, lineup(game, args.bot), args.seed)
            played = 0
            while not state.is_terminal() and played != args.steps:
                player = state.current_player()
                assert player is not None
                if player not in bots:
                    raise ValueError(f"no bot plays {player}: add --bot {player}=NAME")
                state.apply(bots[player].choose(state))
                played += 1
    if args.player is not None and args.player not in state.game.players:
        raise ValueError(f"{state.game.name} has no side {args.player!r}")
    args.out.write_text(render_view(state.view(args.player)))
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

    if args.runs < 1:
        raise ValueError("--runs must be at least 1")
    columns = compare.compare(args.game, args.runs, args.first_seed, args.workers, args.bot)
    print(compare.table(columns, detail=args.detail))
    if args.json:
        args.json.write_text(compare.to_json(columns) + "\n")
        print(f"\nall runs written to {args.json}")
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
