"""Measure each shipped scenario's CPU cost per run, the ground of the default run counts.

``omaha compare`` without ``--runs`` plays each scenario its game's ``comparison_runs``
(an equal share of about a minute on two cores, at least 10 runs; see
docs/comparison.md). Those counts rest on the process time a run takes, which changes
when the games get faster. This script plays a share (``--share``, default 0.3) of each
scenario's default runs (at least one; the same runs as the default table's first ones,
root seed 1) with the default lineup in a process pool, and prints each scenario's
process time per run (the games' own, so the machine's other load does not count),
the default runs and their cost, and the runs an equal share of ``--budget`` CPU
seconds would give (at least ``--floor``; what a scenario costing more than its share
takes is its floor)::

    python tools/run_costs.py [--share 0.3] [--workers 2] [--game tcs] [--budget 120]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence

from omaha import compare


def equal_shares(
    costs: dict[str, float], budget: float, floor: int, below: dict[str, int] | None = None
) -> dict[str, int]:
    """Runs per scenario: ``below`` keep their counts (the scenarios a game sets under the
    floor: TCS's days past 6 June), the scenarios whose floor costs more than an equal
    share take their floor, the others share what is left equally (at least ``floor``)."""
    fixed: dict[str, int] = dict(below or {})
    while True:
        rest = [k for k in costs if k not in fixed]
        if not rest:
            return fixed
        left = budget - sum(fixed[k] * costs[k] for k in fixed)
        share = left / len(rest)
        over = [k for k in rest if floor * costs[k] > share]
        if not over:
            return {**fixed, **{k: max(floor, int(share / costs[k])) for k in rest}}
        for k in over:
            fixed[k] = floor


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--share", type=float, default=0.3, help="share of the default runs")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--budget", type=float, default=120.0, help="CPU seconds in all")
    parser.add_argument("--floor", type=int, default=10, help="least runs a scenario")
    args = parser.parse_args(argv)
    plan = compare.run_plan(args.game)
    started = time.monotonic()
    costs: dict[str, float] = {}
    defaults: dict[str, int] = {}
    played: dict[str, int] = {}
    with compare.executor("process", args.workers) as pool:
        for name, scenario, count in plan:
            runs = max(1, math.ceil(count * args.share))
            column = compare.compare(
                [name], runs, 1, pool, only=[f"{name}/{scenario}"], workers=args.workers
            )[0]
            key = f"{name}/{scenario}"
            costs[key] = statistics.fmean(r.seconds for r in column.runs)
            defaults[key], played[key] = count, runs
            print(f"  {key:<26s} {runs:4d} runs  {costs[key]:7.3f} CPU s a run", flush=True)
    wall = time.monotonic() - started
    below = {k: n for k, n in defaults.items() if n < args.floor}
    shares = equal_shares(costs, args.budget, args.floor, below)
    print(
        f"\n{'scenario':<26s} {'CPU s a run':>11s} {'default runs':>12s} {'CPU s':>7s} "
        f"{'equal share':>11s}"
    )
    for key, cost in costs.items():
        print(
            f"{key:<26s} {cost:11.3f} {defaults[key]:12d} {cost * defaults[key]:7.1f} "
            f"{shares[key]:11d}"
        )
    total = sum(costs[k] * defaults[k] for k in costs)
    spent = sum(costs[k] * played[k] for k in costs)
    print(
        f"{'all':<26s} {'':11s} {sum(defaults.values()):12d} {total:7.1f}\n"
        f"measured over {sum(played.values())} runs ({spent:.0f} CPU s of games, "
        f"{wall:.0f} s of wall time, {args.workers} workers), root seed 1"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
