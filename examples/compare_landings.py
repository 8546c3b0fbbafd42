"""The designs side by side, from Python: seeded games of every shipped scenario with
each game's strongest bots, the common metrics with their intervals, the difference
from the historical record, and a picture of the distributions when matplotlib is
installed (``pip install 'omaha[plot]'``).

    python examples/compare_landings.py [--runs N] [--seed S] [--out FOLDER]

Run i of every scenario takes its seeds from ``SeedSequence(seed).spawn(runs)[i]``,
so the figures are the same whichever executor plays the games: here a process pool
over the machine's cores (``omaha.compare.executor("serial")`` plays them here).
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from pathlib import Path

from omaha import compare
from omaha.kernel.metrics import COMMON, HISTORICAL


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="seeded games per scenario")
    parser.add_argument("--seed", type=int, default=1, help="the root seed")
    parser.add_argument(
        "--out", type=Path, help="where the plot goes (default: a new temporary folder)"
    )
    args = parser.parse_args(argv)

    workers = os.cpu_count() or 1
    with compare.executor("process", workers) as pool:
        columns = compare.compare(runs=args.runs, seed=args.seed, pool=pool)

    # The whole table, as `omaha compare` prints it ...
    print(compare.table(columns))

    # ... and the numbers themselves, for your own analysis: one line per metric and design.
    print("\nmetric, design: mean [95% interval] (history)")
    for metric in COMMON:
        history = HISTORICAL.get(metric.name)
        for column in columns:
            summary = compare.summarize(column.values(metric.name))
            if summary is None or math.isnan(summary.mean):
                continue
            versus = f" (history {history.value:g})" if history else ""
            print(
                f"  {metric.name}, {column.label}: {summary.mean:.3f} "
                f"[{summary.low:.3f}, {summary.high:.3f}]{versus}"
            )

    try:
        compare.plotting()
    except ValueError as why:  # matplotlib is not installed
        print(f"\nno plot: {why}")
        return 0
    out = args.out or Path(tempfile.mkdtemp(prefix="omaha-compare-"))
    out.mkdir(parents=True, exist_ok=True)
    picture = out / "designs.png"
    picture.write_bytes(compare.plot(columns, "png"))
    print(f"\nthe distributions: {picture}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
