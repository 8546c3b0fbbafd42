"""Bloody Omaha: the balance check behind the reconstructed game length (issue 13).

The rules text (solo rules draft 2.1) gives no balance target: no share of games the
player should win, no option offered to make the game easier or harder. Its only words
on the matter are 2.1 (the blue line on the map is how far the Americans got on the
day: "can you do better?") and the names of the levels of 2.2 (a Historical Victory is
the day as it went). So nothing here is tuned to a target, and no value is changed.

What this script reruns is the check the provenance of two reconstructions describes
(``solo.toml`` ``turns_source``, ``tokens.toml`` Strongpoint values): the text gives no
game length and no token values, and the ones we reconstructed should let a competent
player (the heuristic bot) end mostly in the Historical Victory band, with better (a
Major Victory) possible but not the rule. For each game length, then for the Strongpoint
values shifted up or down, it plays the same seeded games (``omaha.compare``, root seed
1) on a scenario that extends ``solo`` and changes only that, and prints the victory
levels, VP, exits and the common ``first_exit_hours``.

    python tools/calibrate_bloody.py [--runs 200] [--root 1]
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import tomllib
from pathlib import Path

from omaha import compare
from omaha.bloody import rules
from omaha.bloody.scenario import DATA

LENGTHS = (6, 7, 8, 9, 10, 12)
#: the shipped Strongpoint values shifted by these amounts (tokens.toml: 5-18)
SHIFTS = (-3, -2, 0, 2, 3)
LEVELS = (rules.DEFEAT, rules.DRAW, rules.HISTORICAL, rules.MAJOR)
SHIPPED_TURNS = 8


def header(name: str, tried: str) -> str:
    return (
        "[scenario]\n"
        'game = "bloody"\n'
        'extends = "solo"\n'
        f'id = "{name}"\n'
        f'title = "Bloody Omaha solo game, {tried}"\n'
        f'source = "reconstructed: {tried}, tried by tools/calibrate_bloody.py"\n'
    )


def scenario_with(folder: Path, turns: int) -> str:
    """A scenario file that extends the shipped solo game with ``turns`` turns."""
    path = folder / f"solo_{turns}_turns.toml"
    path.write_text(
        header(f"solo_{turns}_turns", f"{turns} turns")
        + f"turns = {turns}\n"
        + f'turns_source = "reconstructed: {turns} turns, tried by tools/calibrate_bloody.py"\n',
        encoding="utf-8",
    )
    return str(path)


def shipped_strongpoints() -> list[tuple[int, int]]:
    """(value, count) of the shipped Strongpoint tokens."""
    with (DATA / "tokens.toml").open("rb") as f:
        return [(e["value"], e["count"]) for e in tomllib.load(f)["strongpoints"]]


def scenario_shifted(folder: Path, shift: int) -> str:
    """A scenario file that extends solo with every Strongpoint value moved by ``shift``."""
    path = folder / f"solo_strongpoints_{shift:+d}.toml"
    entries = ",\n".join(
        f'  {{ value = {max(0, v + shift)}, count = {c}, source = "reconstructed: tried" }}'
        for v, c in shipped_strongpoints()
    )
    path.write_text(
        header(f"solo_strongpoints_{shift:+d}", f"Strongpoint values {shift:+d}")
        + f"\n[overrides.tokens]\nstrongpoints = [\n{entries},\n]\n",
        encoding="utf-8",
    )
    return str(path)


def row(label: str, ref: str, runs: int, root: int) -> bool:
    """Play ``runs`` seeded games of ``ref``, print one row; whether it reads as above."""
    column = compare.run_column("bloody", ref, runs=runs, root=root)
    n = len(column.runs)
    shares = {lv: sum(r.level == lv for r in column.runs) / n for lv in LEVELS}
    hours = column.values("first_exit_hours")
    none = sum(math.isnan(r.metrics["first_exit_hours"]) for r in column.runs)
    ok = sound(shares)
    print(
        f"{label:>11} | "
        + " | ".join(f"{shares[lv]:>17.1%} " for lv in LEVELS)
        + f" | {statistics.mean(column.values('vp')):4.1f}"
        + f" | {statistics.mean(column.values('exits_opened')):5.2f}"
        + f" | {statistics.mean(hours) if hours else math.nan:16.2f} ({none:>3})"
        + f"    | {'yes' if ok else 'no'}"
    )
    return ok


def sound(shares: dict[str, float]) -> bool:
    """The reading of 2.1 and 2.2: the Historical Victory is the heuristic player's most
    common end, and a Major Victory happens but in fewer games than it."""
    return shares[rules.HISTORICAL] == max(shares.values()) and (
        0 < shares[rules.MAJOR] < shares[rules.HISTORICAL]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="games per row")
    parser.add_argument("--root", type=int, default=1, help="root seed of omaha.compare")
    args = parser.parse_args()
    print(f"heuristic bot, {args.runs} games a row, root seed {args.root}")
    title = (
        f"{'':>11} | "
        + " | ".join(f"{lv:>18}" for lv in LEVELS)
        + " |  VP  | exits | first_exit_hours (none) | sound"
    )
    lengths, shifts = [], []
    with tempfile.TemporaryDirectory(prefix="calibrate-bloody-") as folder:
        print(title.replace(" " * 11, f"{'turns':>11}", 1))
        print("-" * len(title))
        for turns in LENGTHS:
            ref = "solo" if turns == SHIPPED_TURNS else scenario_with(Path(folder), turns)
            if row(f"{turns}", ref, args.runs, args.root):
                lengths.append(turns)
        print()
        print(title.replace(" " * 11, f"{'SP values':>11}", 1))
        print("-" * len(title))
        values = [v for v, _ in shipped_strongpoints()]
        for shift in SHIFTS:
            ref = "solo" if shift == 0 else scenario_shifted(Path(folder), shift)
            label = f"{max(0, values[0] + shift)}-{values[-1] + shift}"
            if row(label, ref, args.runs, args.root):
                shifts.append(shift)
    print(
        f"game lengths that read 2.1/2.2 as above: {lengths or 'none'} (shipped: "
        f"{SHIPPED_TURNS}); Strongpoint shifts that do: {shifts or 'none'} (shipped: 0). "
        "The text sets no target, so this script changes nothing."
    )


if __name__ == "__main__":
    main()
