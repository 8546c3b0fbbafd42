"""Calibrate LnL Omaha's reconstructed counter values against the historical record.

The rules text prints no counter factors (HE, AP, close assault): every one in
``omaha/lnl/data/units.toml`` is ours. This script sets the HE and CA factors in two
steps, and never by a win rate:

1. **Grounded values** (:data:`GROUNDED`). Each factor is derived from what the
   designer published and from HISTORY.md, its reason given next to it
   (:data:`REASONS`, repeated in the type's ``source``): the Fire Results Table's least
   column is 3 (fewer factors may not attack), a naval gunfire packet and the "+6 HE"
   card are 6 HE, a counter is a platoon of 40-60 men, a section of 2 machineguns, a
   platoon of 4 tanks or a battery of 4-6 guns (General Concepts), and the defender's
   prepared position is the TEC's fortification shift, not a bigger counter. History
   gives the weights between them (the MG42s of 85 machinegun sites were the beach's
   killers; 18 anti-tank guns, a few mortar pits).
2. **Calibration against history.** Two of those judgements are the least certain:
   how much the German fire outweighs the American (the MG42 against the BAR), and how
   hard American infantry assault a defended hex. The script scales each (every German
   HE factor times ``g``, every American close assault factor times ``a``, over
   :data:`G_SCALES` and :data:`A_SCALES`), plays every candidate on ``beach`` with the
   strongest heuristic lineup (``heuristic``: the heuristic of each side) on the same seeds (run
   ``i``'s from the root seed, ``omaha.compare.run_seeds``), and holds it against the
   history time line (``omaha/kernel/history.toml``) at the scenario's own end (ten
   turns of reading R35: 12:45): the first exit at 5.5 hours after H-hour (sources
   5.0-6.0) and the exits open then (1, sources 0-1). A candidate **fits** when its
   median first-exit time (over all runs, a run without an exit censored at the end)
   lies in history's range and its mean exits open at the end in theirs. The choice is
   the fitting candidate nearest the grounded values (the smallest ``|g-1| + |a-1|``),
   ties to the smaller miss; when none fits, the smallest miss, and the script says so.
   The miss: ``|share of runs with an exit by 12:00 - 1/2|`` (history's median is
   12:00) plus how far the mean exits open at the end lie outside history's range.

Win rates are printed for the record, never used to choose. Published values (the
tables, movement factors, rally numbers, turns, victory hexes, the 24 NGFS factors) and
the AP and armor factors never move. Afterwards it prints the balance before (the
values of the earlier calibration to a bot's win rate, :data:`BEFORE`) and after, with
both lineups (``heuristic``; ``solitaire``: the heuristic US against the published
solitaire German) on ``beach``, ``beach+turn11`` and ``vierville``: outcome shares with
Wilson 95% intervals and the paired difference after minus before (same seeds) with
its 95% interval.

Run from the repository root (about 15 CPU minutes at the defaults on the machine of
2026-12-01; ``--workers 2`` halves the wall time)::

    python tools/calibrate_lnl.py [--runs 200] [--balance-runs 300] [--seed 25]

``--check BOT`` plays only the values before this calibration and the shipped ones, with
another lineup (``search:4``: the search agent on both sides, stronger than the
heuristic), and prints the same history figures for each and their paired differences:
whether the calibration still holds against history when a stronger player plays it::

    python tools/calibrate_lnl.py --check search:4 --runs 10 --workers 2

Each candidate is a pair of scenario files in a temporary directory that extend
``beach`` and ``vierville`` and override the counter values (``[[overrides.units.
types]]``, the scenario contract of ``omaha.kernel.scenariofile``); they keep the
shipped ids, so the bots use the shipped set-up plans.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import math
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import omaha
from omaha import compare, compare_pairs
from omaha.compare_data import Column
from omaha.compare_events import Events, clock
from omaha.kernel.metrics import Historical, history_at

#: A set of values: per type id and field ("he", "ca"), [full, reduced].
Values = dict[str, dict[str, list[int]]]

US_TYPES = ("us_rifle", "us_hmg", "ranger", "engineer", "dd_tank", "airborne")
GERMAN_TYPES = ("ger_rifle", "ger_hmg", "mortar81", "gun88", "gun75", "gun50")


def two_step(full: int) -> list[int]:
    """A two-step counter's [full, reduced] factor: the reduced side half the full one
    (rounded down), never below 1, as every reconstructed type has it."""
    return [full, max(1, full // 2)]


#: The grounded full-strength factors (HE, CA) of each type, before calibration.
GROUNDED_FULL: dict[str, tuple[int, int]] = {
    "us_rifle": (3, 4),
    "us_hmg": (4, 2),
    "ranger": (4, 6),
    "engineer": (2, 2),
    "dd_tank": (6, 2),
    "airborne": (3, 4),
    "ger_rifle": (5, 4),
    "ger_hmg": (6, 2),
    "mortar81": (6, 2),
    "gun88": (6, 4),
    "gun75": (6, 4),
    "gun50": (3, 4),
}

#: Why each grounded value is what it is (published: the rules text; HISTORY.md: the
#: fact sheet). The chosen values' ``source`` in units.toml repeats these.
REASONS: dict[str, str] = {
    "us_rifle": "HE 3: the FRT's least column is 3 and fewer factors may not attack (FRT "
    "notes), so a full platoon of 40-60 riflemen with BARs (General Concepts) just fires "
    "alone, a reduced one only with its company or adjacent; CA 4: the platoon is the "
    "close assault's unit of reference, 40-60 men",
    "us_hmg": "HE 4: two .30 cal machineguns (General Concepts: 2 machineguns, 4-7 men) "
    "out-shoot a rifle platoon but not a naval gunfire packet (6, NGFS); CA 2: 4-7 men",
    "ranger": "HE 4, CA 6: a Ranger company (about 65 men, one counter) a step above a "
    "rifle platoon in fire and half again in the assault, the elite that climbed the bluffs",
    "engineer": "HE 2, CA 2: a gap assault team's rifles are few and its range 2; its "
    "charges help an assault a little",
    "dd_tank": "HE 6, CA 2: four 75mm Shermans (General Concepts: 4 tanks) fire the HE of "
    "a gun battery, a naval gunfire packet's 6 (NGFS); tanks add little in a close assault",
    "airborne": "HE 3, CA 4: a band of scattered paratroopers, about a rifle platoon",
    "ger_rifle": "HE 5: a German platoon's MG42s on the beach they had ranged out-shoot an "
    "American platoon (3) by about half again (HISTORY.md: 85 machinegun sites against 35 "
    "pillboxes: the machineguns were the killers); CA 4: 30-40 men; the trench is the "
    "TEC's fortification shift (published), not a bigger counter",
    "ger_hmg": "HE 6: two tripod MG42s, the Germans' strongest small arms (HISTORY.md: 85 "
    "machinegun sites), a packet's weight; CA 2: 4-7 men, as the American section",
    "mortar81": "HE 6: a battery of 4-6 81mm tubes (General Concepts), a packet's weight; "
    "CA 2: mortar crews fight off an assault only weakly",
    "gun88": "HE 6: a battery-sized counter of the 88 (General Concepts: 4-6 guns), its "
    "HE a field battery's (its strength is AP 18); CA 4, as every gun battery: its crews "
    "and the strongpoint's close defence",
    "gun75": "HE 6: casemated 75mm field guns, a battery (General Concepts: 4-6 guns); CA 4",
    "gun50": "HE 3: 50mm anti-tank guns (HISTORY.md: 18 anti-tank guns) fire a light "
    "shell: the FRT's least column; CA 4",
}

#: The values of the earlier calibration (issue 13: to a 30-60% US win rate against the
#: solitaire German), shipped until this calibration: the "before" of the balance.
BEFORE: Values = {
    "us_rifle": {"he": [2, 1], "ca": [2, 1]},
    "us_hmg": {"he": [4, 2], "ca": [2, 1]},
    "ranger": {"he": [3, 1], "ca": [3, 1]},
    "engineer": {"he": [2, 1], "ca": [1, 1]},
    "dd_tank": {"he": [4, 2], "ca": [2, 1]},
    "airborne": {"he": [2, 1], "ca": [3, 1]},
    "ger_rifle": {"he": [4, 2], "ca": [7, 3]},
    "ger_hmg": {"he": [6, 3], "ca": [5, 2]},
    "mortar81": {"he": [5, 2], "ca": [2, 1]},
    "gun88": {"he": [6, 3], "ca": [4, 2]},
    "gun75": {"he": [5, 2], "ca": [4, 2]},
    "gun50": {"he": [3, 1], "ca": [4, 2]},
}

#: The scales searched, each over what the grounds allow. German HE ``g``: from the
#: grounded half-again of a German platoon over an American one (x1) to twice that
#: (x2: a platoon's MG42s at their full rate, the 10-14 HE of the first reconstruction).
#: American CA ``a``: from the grounded (x1) down to half (infantry pinned on the
#: shingle, assaulting only when they mass).
G_SCALES: tuple[float, ...] = (1.0, 1.5, 2.0)
A_SCALES: tuple[float, ...] = (1.0, 0.75, 0.5)


def candidate(g: float, a: float) -> Values:
    """The grounded values with every German HE factor times ``g`` and every American
    close assault factor times ``a`` (rounded, at least 1)."""
    out: Values = {}
    for tid, (he, ca) in GROUNDED_FULL.items():
        if tid in GERMAN_TYPES:
            he = max(1, round(he * g))
        if tid in US_TYPES:
            ca = max(1, round(ca * a))
        out[tid] = {"he": two_step(he), "ca": two_step(ca)}
    return out


def name_of(g: float, a: float) -> str:
    return "grounded" if (g, a) == (1.0, 1.0) else f"German HE x{g:g}, US CA x{a:g}"


CANDIDATES: dict[str, tuple[float, float]] = {
    name_of(g, a): (g, a) for g in G_SCALES for a in A_SCALES
}


# ----------------------------------------------------------------------------
# Candidate files
# ----------------------------------------------------------------------------
def candidate_file(base: str, name: str, values: Values) -> str:
    """A scenario file that extends ``base`` and overrides the counter values."""
    why = f"reconstructed: calibration candidate {name!r} (tools/calibrate_lnl.py)"
    lines = ["[scenario]", f'extends = "{base}"', f"source = {why!r}"]
    for tid, fields in values.items():
        lines += ["", "[[overrides.units.types]]", f'id = "{tid}"']
        lines += [f"{field} = [{pair[0]}, {pair[1]}]" for field, pair in fields.items()]
        lines.append(f"source = {why!r}")
    return "\n".join(lines) + "\n"


def write_candidate(folder: Path, name: str, values: Values) -> dict[str, str]:
    """The candidate's ``beach`` and ``vierville`` files; returns scenario -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for base in ("beach", "vierville"):
        path = folder / f"{base}.toml"
        path.write_text(candidate_file(base, name, values))
        paths[base] = str(path)
    return paths


def shipped_differences(values: Values) -> list[str]:
    """Where the shipped counters differ from ``values`` (empty: they hold them)."""
    types = omaha.load("lnl").load_scenario("beach").types  # type: ignore[attr-defined]
    return [
        f"{tid}.{field}: shipped {list(getattr(types[tid], field))}, candidate {pair}"
        for tid, fields in values.items()
        for field, pair in fields.items()
        if list(getattr(types[tid], field)) != pair
    ]


# ----------------------------------------------------------------------------
# Against history
# ----------------------------------------------------------------------------
def play(scenario: str, runs: int, seed: int, bot: str, pool: cf.Executor) -> Column:
    return compare.run_column("lnl", scenario, runs, root=seed, bot=bot, pool=pool, size=10)


def span(figure: Historical) -> tuple[float, float]:
    """History's range for a figure (its value where the sources agree)."""
    low = figure.value if figure.low is None else figure.low
    return low, figure.value if figure.high is None else figure.high


def against_history(column: Column, end: float) -> dict[str, float]:
    """The candidate's figures on history's terms at ``end`` (hours after H-hour)."""
    exit_h = history_at("first_exit_hours", end)
    count_h = history_at("exits_opened", end)
    assert exit_h is not None and count_h is not None, "history.toml lost the exit figures"
    events = Events.of([r.metrics["first_exit_hours"] for r in column.runs], end)
    exits = [r.metrics["exits_opened"] for r in column.runs]
    median = events.median
    mean_exits = statistics.fmean(exits)
    low, high = span(exit_h)
    fits_time = median is not None and low - 1e-9 <= median <= high + 1e-9
    count_low, count_high = span(count_h)
    fits_count = count_low - 1e-9 <= mean_exits <= count_high + 1e-9
    share = events.by(exit_h.value) / events.n
    # how far the mean count lies outside history's range, in exits
    outside = max(count_low - mean_exits, mean_exits - count_high, 0.0)
    wins = sum(1 for r in column.runs if r.winner == "US")
    return {
        "share": share,
        "by_end": events.had / events.n,
        "median": math.inf if median is None else median,
        "exits": mean_exits,
        "miss": abs(share - 0.5) + outside,
        "fits": float(fits_time and fits_count),
        "us_win": wins / len(column.runs),
        "us_losses": statistics.fmean(r.metrics["us_losses"] for r in column.runs),
        "german_losses": statistics.fmean(r.metrics["german_losses"] for r in column.runs),
    }


def history_line(end: float) -> str:
    exit_h = history_at("first_exit_hours", end)
    count_h = history_at("exits_opened", end)
    assert exit_h is not None and count_h is not None and count_h.by is not None
    (elow, ehigh), (clow, chigh) = span(exit_h), span(count_h)
    return (
        f"history at beach's end ({clock(end)}): first exit {exit_h.value:g} h after H-hour "
        f"({clock(exit_h.value)}; sources {elow:g}-{ehigh:g} h), exits open "
        f"{count_h.value:g} by {clock(count_h.by)} (sources {clow:g}-{chigh:g})"
    )


HEADER = (
    f"{'candidate':<28s} {'exit by 12:00':>13s} {'by end':>7s} {'median':>7s} "
    f"{'exits':>6s} {'fits':>4s} {'miss':>5s} | {'US win':>6s} {'US loss':>7s} {'Ger loss':>8s}"
)


def row(name: str, fig: dict[str, float]) -> str:
    median = "> end" if math.isinf(fig["median"]) else clock(fig["median"])
    return (
        f"{name:<28s} {100 * fig['share']:12.1f}% {100 * fig['by_end']:6.1f}% {median:>7s} "
        f"{fig['exits']:6.2f} {'yes' if fig['fits'] else 'no':>4s} {fig['miss']:5.2f} | "
        f"{100 * fig['us_win']:5.1f}% {fig['us_losses']:7.2f} {fig['german_losses']:8.2f}"
    )


def choose(results: dict[str, dict[str, float]]) -> tuple[str, bool]:
    """The fitting candidate nearest the grounded values (ties: the smaller miss); when
    none fits, the smallest miss. Returns the name and whether it fits."""

    def distance(name: str) -> float:
        g, a = CANDIDATES[name]
        return abs(g - 1.0) + abs(a - 1.0)

    fitting = [n for n, fig in results.items() if fig["fits"]]
    if fitting:
        return min(fitting, key=lambda n: (distance(n), results[n]["miss"])), True
    return min(results, key=lambda n: (results[n]["miss"], distance(n))), False


# ----------------------------------------------------------------------------
# The balance, before and after
# ----------------------------------------------------------------------------
def outcome_shares(column: Column) -> str:
    n = len(column.runs)
    parts = []
    for label, test in (
        ("US", lambda w: w == "US"),
        ("German", lambda w: w == "German"),
        ("draw", lambda w: w is None),
    ):
        k = sum(1 for r in column.runs if test(r.winner))
        low, high = compare.wilson(k, n)
        parts.append(f"{label} {100 * k / n:4.1f}% [{100 * low:4.1f}-{100 * high:4.1f}]")
    return "  ".join(parts)


def balance(
    before: dict[str, str], after: dict[str, str], runs: int, seed: int, pool: cf.Executor
) -> None:
    print(
        f"\nBalance: {runs} runs a row, root seed {seed} (run i's seeds: "
        "omaha.compare.run_seeds(seed, i)); outcome shares with Wilson 95% intervals; "
        "'after - before': the paired difference in US wins (same seeds), 95% interval"
    )
    for bot in ("heuristic", "solitaire"):
        for scen, option in (("beach", ""), ("beach", "+turn11"), ("vierville", "")):
            cols = {}
            for label, paths in (("before", before), ("after", after)):
                cols[label] = play(paths[scen] + option, runs, seed, bot, pool)
                print(f"  {bot:<9s} {scen + option:<13s} {label:<6s} {outcome_shares(cols[label])}")
            diff = compare_pairs.paired(cols["after"], cols["before"], "us_win")
            assert diff is not None
            print(
                f"  {bot:<9s} {scen + option:<13s} after - before, US wins: "
                f"{100 * diff.mean:+.1f} points [{100 * diff.low:+.1f}, {100 * diff.high:+.1f}]",
                flush=True,
            )


def shipped_choice() -> str:
    """The candidate the shipped counters hold."""
    held = [n for n, (g, a) in CANDIDATES.items() if not shipped_differences(candidate(g, a))]
    assert held, "data/units.toml holds none of the candidates"
    return held[0]


def check(bot: str, runs: int, seed: int, pool: cf.Executor, end: float) -> None:
    """The history figures of the values before and the shipped ones, with ``bot`` on every
    side of the lineup, on the same seeds; the paired differences, shipped minus before."""
    name = shipped_choice()
    print(f"check with bots {bot}: {runs} beach runs a row, root seed {seed}; shipped: {name}")
    print(HEADER)
    cols = {}
    cpu = 0.0
    with tempfile.TemporaryDirectory(prefix="calibrate_lnl_") as tmp:
        folder = Path(tmp)
        for label, values in (("before (issue 13 values)", BEFORE), ("shipped", None)):
            if values is None:
                values = candidate(*CANDIDATES[name])
            paths = write_candidate(folder / str(len(cols)), label, values)
            cols[label] = play(paths["beach"], runs, seed, bot, pool)
            cpu += sum(r.seconds for r in cols[label].runs)
            print(row(label, against_history(cols[label], end)), flush=True)
    before, after = cols.values()
    for metric in ("exits_opened", "first_exit_hours", "us_win", "us_losses", "german_losses"):
        diff = compare_pairs.paired(after, before, metric)
        if diff is not None:
            print(
                f"  shipped - before, {metric}: {diff.mean:+.2f} [{diff.low:+.2f}, "
                f"{diff.high:+.2f}] over {diff.n} pairs"
            )
    print(f"the games took {cpu:.0f} CPU s (process time)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="beach games per candidate")
    parser.add_argument("--balance-runs", type=int, default=300, help="games per balance row")
    parser.add_argument("--seed", type=int, default=25, help="root seed of the runs")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--no-balance", action="store_true", help="only the calibration")
    parser.add_argument(
        "--check", metavar="BOT", help="only the values before and the shipped ones, with BOT"
    )
    args = parser.parse_args(argv)
    end = omaha.load("lnl").end_hours("beach")
    assert end is not None
    if args.check:
        print(history_line(end))
        kind = "serial" if args.workers == 1 else "process"
        with compare.executor(kind, args.workers) as pool:
            check(args.check, args.runs, args.seed, pool, end)
        return 0
    print(
        f"LnL Omaha calibration against history: {args.runs} beach runs a candidate, root "
        f"seed {args.seed}, the heuristic of each side; {history_line(end)}"
    )
    print("grounded values (full strength; reduced: half, at least 1):")
    for tid, (he, ca) in GROUNDED_FULL.items():
        print(f"  {tid:<10s} HE {he:>2d} CA {ca:>2d}: {REASONS[tid]}")
    print(HEADER)
    results: dict[str, dict[str, float]] = {}
    kind = "serial" if args.workers == 1 else "process"
    with (
        tempfile.TemporaryDirectory(prefix="calibrate_lnl_") as tmp,
        compare.executor(kind, args.workers) as pool,
    ):
        folder = Path(tmp)
        before = write_candidate(folder / "before", "before", BEFORE)
        first = play(before["beach"], args.runs, args.seed, "heuristic", pool)
        cpu = sum(r.seconds for r in first.runs)  # the games' process time, wherever they ran
        fig = against_history(first, end)
        print(row("before (issue 13 values)", fig), flush=True)
        for i, (name, (g, a)) in enumerate(CANDIDATES.items()):
            paths = write_candidate(folder / f"c{i}", name, candidate(g, a))
            column = play(paths["beach"], args.runs, args.seed, "heuristic", pool)
            cpu += sum(r.seconds for r in column.runs)
            results[name] = against_history(column, end)
            print(row(name, results[name]), flush=True)
        choice, fits = choose(results)
        print(
            f"choice: {choice} ({'fits history' if fits else 'NONE fits: the smallest miss'});"
            f" the games took {cpu:.0f} CPU s (process time)"
        )
        chosen = candidate(*CANDIDATES[choice])
        for tid, fields in chosen.items():
            print(f"  {tid:<10s} he {fields['he']} ca {fields['ca']}")
        differ = shipped_differences(chosen)
        print(
            "data/units.toml holds this choice" if not differ else f"units.toml differs: {differ}"
        )
        if not args.no_balance:
            after = write_candidate(folder / "after", choice, chosen)
            balance(before, after, args.balance_runs, args.seed, pool)
    return 0


if __name__ == "__main__":
    sys.exit(main())
