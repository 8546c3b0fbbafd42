"""The search agent against the heuristic on paired seeds: one scenario, the searched
side's bot swapped, every other side the same bot with the same seed.

Run ``i`` (i = start .. start + n - 1) uses ``omaha.compare.run_seeds(root, i)``: the
game seed and the bot seeds (sides sorted), as ``omaha compare`` does. Each seed is
played by the heuristic lineup and by the search lineup; the figures are the paired
differences (search less heuristic) of the victory share of the searched side and of
its return (the graded victory level), with 95% normal intervals, the share of
decisions searched and overridden, and the CPU a game of each lineup took.

    PYTHONPATH=$PWD python tools/search_strength.py bloody solo --n 200 --side US
    PYTHONPATH=$PWD python tools/search_strength.py lnl beach --side US \\
        --other German=heuristic --iterations 8 --width 3

With ``--out FILE`` each paired game is appended as a JSON line as it ends, and a
second run with the same arguments skips the seeds already in the file;
``search_strength.py report FILE...`` prints the figures of such files together (runs
split over processes by ``--start``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import omaha
from omaha.compare import run_seeds
from omaha.kernel.search import SearchBot

Z95 = 1.959964
#: The victory levels of the solitaire designs, worst first (Bloody Omaha 2.2, D-Day at
#: Omaha Beach's reconstructed table): the mean level is reported on these ranks.
LEVEL_RANKS = {
    level: rank
    for levels in (
        ("Defeat", "Draw", "Historical Victory", "Major Victory"),
        ("German decisive victory", "German marginal victory", "US victory", "US decisive victory"),
    )
    for rank, level in enumerate(levels)
}


def play(game: Any, scenario: str, seed: int, bots: dict[str, Any]) -> tuple[Any, float]:
    started = time.process_time()
    state = game.new_state(scenario, seed=seed)
    while not state.is_terminal():
        player = state.current_player()
        state.apply(bots[player].choose(state))
    return state, time.process_time() - started


def lineup_bots(
    game: Any, lineup: dict[str, str], seeds: tuple[int, ...], options: dict[str, Any]
) -> dict[str, Any]:
    bots: dict[str, Any] = {}
    for i, (side, name) in enumerate(sorted(lineup.items())):
        if name == "search":
            bots[side] = SearchBot(game, seeds[i], **options)
        else:
            bots[side] = game.bots[name](seed=seeds[i])
    return bots


def one_pair(
    game: Any,
    scenario: str,
    root: int,
    index: int,
    side: str,
    other: dict[str, str],
    options: dict[str, Any],
) -> dict[str, Any]:
    seed, seeds = run_seeds(root, index)
    base = {p: other.get(p, game.lineup("heuristic").get(p, "random")) for p in game.players}
    base[side] = "heuristic"
    searched = {**base, side: "search"}
    out: dict[str, Any] = {"index": index, "seed": seed}
    for label, lineup in (("heuristic", base), ("search", searched)):
        bots = lineup_bots(game, lineup, seeds, options)
        state, cost = play(game, scenario, seed, bots)
        outcome = state.outcome()
        out[label] = {
            "win": 1.0 if outcome.winner == side else 0.0,
            "return": state.returns()[side],
            "level": outcome.level,
            "cpu": cost,
        }
        if label == "search":
            stats = bots[side].stats
            out["stats"] = stats.as_dict()
    return out


def interval(diffs: list[float]) -> tuple[float, float, float]:
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def _value(game: dict[str, Any], key: str) -> float:
    """A paired game's measure: win, return, or the level's rank (worst 0)."""
    return float(LEVEL_RANKS[game["level"]]) if key == "rank" else float(game[key])


def report(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    first, last = min(r["index"] for r in rows), max(r["index"] for r in rows)
    lines = [f"n = {n} paired games (indices {first}..{last})"]
    keys = ["win", "return"]
    if all(r[b]["level"] in LEVEL_RANKS for r in rows for b in ("heuristic", "search")):
        keys.append("rank")
    for key in keys:
        h = [_value(r["heuristic"], key) for r in rows]
        s = [_value(r["search"], key) for r in rows]
        mean, low, high = interval([b - a for a, b in zip(h, s, strict=True)])
        lines.append(
            f"{key:7} heuristic {sum(h) / n:.3f}  search {sum(s) / n:.3f}  "
            f"difference {mean:+.3f} [{low:+.3f}, {high:+.3f}]"
        )
    dec = sum(r["stats"]["decisions"] for r in rows)
    srch = sum(r["stats"]["searched"] for r in rows)
    over = sum(r["stats"]["overridden"] for r in rows)
    lines.append(
        f"decisions {dec}: searched {srch / max(1, dec):.1%}, "
        f"overridden {over / max(1, srch):.1%} of searched ({over})"
    )
    hc = [r["heuristic"]["cpu"] for r in rows]
    sc = [r["search"]["cpu"] for r in rows]
    lines.append(
        f"CPU a game: heuristic {sum(hc) / n:.2f} s, search {sum(sc) / n:.2f} s "
        f"(max {max(sc):.2f} s)"
    )
    same = sum(1 for r in rows if r["heuristic"]["level"] == r["search"]["level"])
    lines.append(f"same level in {same} of {n} pairs")
    return "\n".join(lines)


def merged(paths: list[Path]) -> list[dict[str, Any]]:
    """The paired games of several ``--out`` files (one row a seed index)."""
    rows: dict[int, dict[str, Any]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            rows[row["index"]] = row
    return [rows[i] for i in sorted(rows)]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "report":  # report FILE...: the figures of finished runs
        print(report(merged([Path(a) for a in argv[1:]])))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("scenario")
    ap.add_argument("--side", default="US", help="the side the search plays")
    ap.add_argument("--other", action="append", default=[], help="SIDE=BOT for another side")
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--root", type=int, default=2024)
    ap.add_argument("--iterations", type=int)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--width", type=int)
    ap.add_argument("--method")
    ap.add_argument("--turn-end", choices=("yes", "no"))
    ap.add_argument("--margin", type=float)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    game = omaha.load(args.game)
    other = dict(o.split("=", 1) for o in args.other)
    options: dict[str, Any] = {}
    for key in ("iterations", "depth", "width", "method", "margin"):
        if getattr(args, key) is not None:
            options[key] = getattr(args, key)
    if args.turn_end is not None:
        options["turn_end"] = args.turn_end == "yes"
    rows: list[dict[str, Any]] = []
    done: set[int] = set()
    if args.out and args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            if args.start <= row["index"] < args.start + args.n:
                rows.append(row)
                done.add(row["index"])
    print(f"{args.game}/{args.scenario} side {args.side} root {args.root} options {options}")
    for i in range(args.start, args.start + args.n):
        if i in done:
            continue
        row = one_pair(game, args.scenario, args.root, i, args.side, other, options)
        rows.append(row)
        if args.out:
            with args.out.open("a") as fh:
                fh.write(json.dumps(row) + "\n")
    print(report(sorted(rows, key=lambda r: r["index"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
