"""D-Day at Omaha Beach: the balance check behind the reconstructed victory levels (issue 13).

The only text of the game we have is its charts (the Amphibious Landing Table, the
German Fire Chart, the US Weapons Chart, the US Barrage Table, the Terrain Defense
Table, the US Attack Results Chart, the German Action Summary). They say nothing on
balance: no share of games the US should win, no option offered to make the game easier
or harder (its two optional rules, Optional Attrition and the German Armour variant,
are rules, not handicaps). So nothing here is tuned to a target, and no value is
changed.

What this script reruns is the check the provenance of the reconstructed victory levels
states (``data/scenarios/*.toml``, ``[victory] source``): the historical day scores a
narrow US victory in ``omaha``, the historical morning a foothold in ``first_wave``.
It works the historical positions out from the scenario's own data (which exits were
open, which positions the US held: omaha/HISTORY.md, Exits and Geography) as a range
of VP, and prints the levels that range falls in. Then it plays seeded games of each
shipped scenario (``omaha.compare``, root seed 1) with the heuristic and the random US
and prints the levels reached, VP, exits and the common ``first_exit_hours`` next to
history (E-1 about midday: 5.5 hours after H-hour).

    python tools/calibrate_landing_table.py [--runs 100] [--root 1]
"""

from __future__ import annotations

import argparse
import math
import statistics

import attrs

import omaha
from omaha import compare
from omaha.landing_table.scenario import LandingTableScenario


@attrs.frozen
class Day:
    """A historical position at the end of a scenario, as the provenance describes it."""

    what: str
    exits: tuple[str, ...]  # exits open
    villages: tuple[str, ...]  # reinforcement positions the US held
    strongpoints: tuple[float, float]  # share of the WN VP positions taken (low, high)


#: omaha/HISTORY.md, Exits: E-1 opened about midday and D-1 about 17:00; by nightfall a
#: strip at Colleville, less west of Saint-Laurent, a pocket at Vierville; most of the
#: beach strongpoints taken (the provenance's "most": two thirds to all).
HISTORICAL = {
    "omaha": Day(
        "22:30: E-1 and D-1 open, most WN taken, Vierville and Colleville held",
        ("E-1", "D-1"),
        ("R-Vierville", "R-Colleville"),
        (2 / 3, 1.0),
    ),
    "first_wave": Day(
        "10:30: no exit open, a few WN taken (a quarter to a half)",
        (),
        (),
        (1 / 4, 1 / 2),
    ),
}


def historical_vp(scen: LandingTableScenario, day: Day) -> tuple[int, int]:
    """The VP range of ``day`` under the scenario's victory rules: the exits open, the
    villages held, and the share of the WN VP positions taken (at least the ones
    covering the open exits, which must be clear for an exit to open)."""
    by_id = scen.pos_by_id
    covering = {pid for e in scen.exits if e.id in day.exits for pid in e.covered_by}
    wn = sorted((p for p in scen.positions if p.kind == "wn" and p.vp > 0), key=lambda p: p.vp)
    low_n = max(math.ceil(day.strongpoints[0] * len(wn)), len(covering & {p.id for p in wn}))
    high_n = math.floor(day.strongpoints[1] * len(wn))
    fixed = scen.vp_exit * len(day.exits) + sum(by_id[v].vp for v in day.villages)
    least = sum(by_id[pid].vp for pid in covering) + sum(
        p.vp for p in [p for p in wn if p.id not in covering][: max(0, low_n - len(covering))]
    )
    most = sum(p.vp for p in wn[-high_n:]) if high_n else 0
    return (fixed + least * scen.vp_position, fixed + max(least, most) * scen.vp_position)


def level_of(scen: LandingTableScenario, vp: int) -> str:
    return next(lv.level for lv in scen.levels if vp >= lv.min)


def check_levels(sid: str) -> None:
    scen = omaha.load("landing_table").load_scenario(sid)
    day = HISTORICAL[sid]
    low, high = historical_vp(scen, day)
    bands = ", ".join(f"{lv.level} >= {lv.min}" for lv in scen.levels)
    levels = sorted({level_of(scen, v) for v in range(low, high + 1)})
    print(f"{sid}: the historical day ({day.what}) scores {low}-{high} VP")
    print(f"  levels: {bands}")
    print(f"  -> {' / '.join(levels)}")


def row(sid: str, bot: str, runs: int, root: int) -> None:
    column = compare.run_column("landing_table", sid, runs=runs, root=root, bot=bot)
    n = len(column.runs)
    scen = omaha.load("landing_table").load_scenario(sid)
    shares = " | ".join(
        f"{lv.level} {sum(r.level == lv.level for r in column.runs) / n:5.1%}" for lv in scen.levels
    )
    hours = column.values("first_exit_hours")
    none = n - len(hours)
    print(f"{sid:>10} {bot:>9} | {shares}")
    print(
        f"{'':>20} | us_win {statistics.mean(column.values('us_win')):5.1%}"
        f" | VP {statistics.mean(column.values('vp')):5.1f}"
        f" | exits {statistics.mean(column.values('exits_opened')):4.2f}"
        f" | first_exit_hours {statistics.mean(hours) if hours else math.nan:5.2f}"
        f" (median {statistics.median(hours) if hours else math.nan:4.1f}; none in {none}/{n})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="games per row")
    parser.add_argument("--root", type=int, default=1, help="root seed of omaha.compare")
    args = parser.parse_args()
    print("The charts give no balance target: nothing is tuned, no value changes.\n")
    for sid in HISTORICAL:
        check_levels(sid)
    print(f"\n{args.runs} games a row, root seed {args.root}; history: first_exit_hours 5.5 "
          "(E-1 about midday), 2 exits by nightfall")  # fmt: skip
    for sid in ("omaha", "first_wave"):
        for bot in ("heuristic", "random"):
            row(sid, bot, args.runs, args.root)


if __name__ == "__main__":
    main()
