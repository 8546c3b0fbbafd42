"""``python -m benchmarks``: every game's speed through the protocol, and the kernel's.

    python -m benchmarks                       # all games, 3 repeats, medians
    python -m benchmarks --game lnl --quick    # one game, one short repeat
    python -m benchmarks --json now.json       # also write the figures
    python -m benchmarks --against before.json # and the ratios to a saved run
    python -m benchmarks --vs /path/to/old     # old and new in turns, the fair comparison

Each game/scenario gets one row per table: random and strongest-bot games (decisions/s,
games/s, the cost of listing and applying), the state's costs (clone, ``clone(seed)``,
snapshots, memory) and what a search iteration costs: ``rollout/s`` is ``clone(seed)``
of a seeded position followed by every side's strongest bot to the end of the turn
(``turn_label`` changes), as the search agent's rollouts go, and ``dec/rollout`` the
decisions such a rollout makes on average (``harness.rollouts``).

To compare with an older checkout, run this harness against it from a directory
outside both checkouts (Python puts the current directory first on the path):
``cd /tmp && PYTHONPATH=/old/checkout:/this/checkout python -m benchmarks --json old.json``
(the ``library:`` line shows which ``omaha`` was timed); then
``python -m benchmarks --against /tmp/old.json`` here prints both side by side. The
machine is rarely quiet: quote ratios from runs made one after the other.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.harness import measure, median_of

#: (field, heading, format, higher is better)
COLUMNS = (
    ("random_decisions_per_s", "rand dec/s", "{:,.0f}", True),
    ("random_us_per_decision", "us/dec", "{:,.1f}", False),
    ("random_games_per_s", "rand games/s", "{:,.2f}", True),
    ("random_decisions_per_game", "dec/game", "{:,.0f}", None),
    ("random_legal_us", "legal us", "{:,.1f}", False),
    ("random_apply_us", "apply us", "{:,.1f}", False),
    ("best_games_per_s", "best games/s", "{:,.2f}", True),
    ("best_decisions_per_s", "best dec/s", "{:,.0f}", True),
    ("best_choose_us", "bot us/dec", "{:,.1f}", False),
    ("clone_per_s", "clone/s", "{:,.0f}", True),
    ("clone_seed_per_s", "clone(seed)/s", "{:,.0f}", True),
    ("to_json_per_s", "to_json/s", "{:,.0f}", True),
    ("from_json_per_s", "from_json/s", "{:,.0f}", True),
    ("kib_per_state", "KiB/state", "{:,.1f}", False),
    ("rollout_per_s", "rollout/s", "{:,.0f}", True),
    ("rollout_decisions", "dec/rollout", "{:,.1f}", None),
)
KERNEL = (
    ("thread_cold_us", "LOS thread, cold (us)", False),
    ("thread_cached_us", "LOS thread, cached (us)", False),
    ("reach8_per_s", "8-MP reach, 5,000 hexes (/s)", True),
    ("label_parse_us", "label -> cell, TCS-style (us)", False),
    ("lnl_label_parse_us", "label -> cell, LnL map (us)", False),
)


def table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        pairs = enumerate(zip(row, widths, strict=True))
        cells = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in pairs]
        lines.append("  ".join(cells))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def speedup(new: float, old: float, higher_better: bool | None) -> str:
    if not old or not new or higher_better is None:
        return "-"
    return f"{(new / old if higher_better else old / new):.1f}x"


def report(now: dict[str, Any], old: dict[str, Any] | None) -> str:
    figs = now["figures"]
    games = [k for k in figs if k != "kernel"]
    out = [
        f"omaha benchmarks: {now['machine']['cores']} cores, Python {now['machine']['python']}, "
        f"median of {now['repeats']} repeat(s), ~{now['budget_s']:g} s of process CPU time "
        "per measurement",
        f"library: {now['library']}",
    ]
    if games:
        for field_group in (COLUMNS[:8], COLUMNS[8:]):
            rows = [["game/scenario", *(h for _, h, _, _ in field_group)]]
            for g in games:
                rows.append(
                    [g, *(fmt.format(figs[g].get(f, float("nan"))) for f, _, fmt, _ in field_group)]
                )
                if old and g in old["figures"]:
                    then = old["figures"][g]
                    rows.append(
                        [
                            "  before",
                            *(
                                fmt.format(then.get(f, float("nan")))
                                for f, _, fmt, _ in field_group
                            ),
                        ]
                    )
                    rows.append(
                        [
                            "  speed-up",
                            *(
                                speedup(figs[g].get(f, 0), then.get(f, 0), hb)
                                for f, _, _, hb in field_group
                            ),
                        ]
                    )
            out += ["", table(rows)]
    if "kernel" in figs:
        rows = [["kernel", "now", *(["before", "speed-up"] if old else [])]]
        for f, label, hb in KERNEL:
            if f not in figs["kernel"]:
                continue
            row = [label, f"{figs['kernel'][f]:,.2f}"]
            if old and "kernel" in old["figures"]:
                then = old["figures"]["kernel"].get(f, 0.0)
                row += [f"{then:,.2f}", speedup(figs["kernel"][f], then, hb)]
            rows.append(row)
        out += ["", table(rows)]
    return "\n".join(out)


def alternate(
    other: Path, repeats: int, seconds: float, games: list[str], no_kernel: bool
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run one repeat of the other checkout, then one of this one, ``repeats`` times, each
    in a fresh process, so both meet the same machine; medians of each side.

    Both sides run this checkout's harness (a copy in the working directory, which
    ``python -m`` puts first on the path), each with its own library on ``PYTHONPATH``."""
    here = Path(__file__).resolve().parent.parent
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    args = ["--repeats", "1", "--seconds", str(seconds)]
    args += [a for g in games for a in ("--game", g)] + (["--no-kernel"] if no_kernel else [])
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(here / "benchmarks", Path(tmp) / "benchmarks")
        for r in range(repeats):
            for side, library in (("old", other.resolve()), ("new", here)):
                out = Path(tmp) / f"{side}{r}.json"
                env = dict(os.environ, PYTHONPATH=str(library))
                subprocess.run(
                    [sys.executable, "-m", "benchmarks", *args, "--json", str(out)],
                    cwd=tmp, env=env, check=True, stdout=subprocess.DEVNULL,
                )  # fmt: skip
                runs[side].append(json.loads(out.read_text()))
    merged = {}
    for side, samples in runs.items():
        first = dict(samples[0])
        first["figures"] = median_of([s["figures"] for s in samples])
        first["repeats"] = len(samples)
        merged[side] = first
    return merged["old"], merged["new"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--game",
        action="append",
        help="only this game, or one scenario as game/scenario (repeatable)",
    )
    parser.add_argument("--repeats", type=int, default=3, help="repeats; medians are printed")
    parser.add_argument("--seconds", type=float, default=2.0, help="budget of each measurement")
    parser.add_argument("--quick", action="store_true", help="one repeat of 0.5 s measurements")
    parser.add_argument("--no-kernel", action="store_true", help="skip the kernel figures")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--against", type=Path, help="a saved run to print ratios against")
    parser.add_argument(
        "--vs",
        type=Path,
        metavar="CHECKOUT",
        help="time another checkout of the library in turns with this one (old, new, old, "
        "new... one repeat each, in fresh processes) and print medians and speed-ups",
    )
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.seconds <= 0:
        parser.error("--repeats must be at least 1 and --seconds positive")
    repeats, seconds = (1, 0.5) if args.quick else (args.repeats, args.seconds)
    if args.vs is not None:
        if not (args.vs / "omaha" / "__init__.py").is_file():
            parser.error(f"--vs {args.vs}: not a checkout of the library (no omaha/__init__.py)")
        old, now = alternate(args.vs, repeats, seconds, args.game or [], args.no_kernel)
    else:
        old = json.loads(args.against.read_text()) if args.against else None
        now = measure(repeats, seconds, set(args.game) if args.game else None, not args.no_kernel)
    print(report(now, old))
    if args.json:
        args.json.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
