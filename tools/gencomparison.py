"""Generate the code-derived parts of docs/comparison.md: every common metric, how each
design defines it (the meaning its game declares), and the historical figure with its
source (omaha/kernel/history.toml).

    python tools/gencomparison.py          # rewrite the generated section of the page
    python tools/gencomparison.py --check  # exit 1 if the page is stale (the tests check)

The section lies between the markers ``<!-- generated: metrics -->`` and
``<!-- end generated -->``; the rest of the page is written by hand.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import omaha
from omaha.compare_events import clock
from omaha.kernel.metrics import COMMON, NIGHTFALL, TIMELINE, Historical

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "comparison.md"
GAMES = ("tcs", "lnl", "bloody", "landing_table")
BEGIN = "<!-- generated: metrics (python tools/gencomparison.py) -->"
END = "<!-- end generated -->"


def _number(value: float) -> str:
    return f"{value:g}"


def _history(figures: tuple[Historical, ...]) -> list[str]:
    """History's time line for one metric: each figure with the time it stood so."""
    lines = []
    for figure in figures:
        spread = (
            f" (sources range {_number(figure.low)}-{_number(figure.high)})"
            if figure.low is not None and figure.high is not None
            else ""
        )
        at = "" if figure.by is None else f" by {_clock(figure.by)}"
        lines.append(
            f"- History{at}: **{_number(figure.value)}**{spread}: {figure.what}. "
            f"Source: {figure.source}."
        )
    return [*lines, ""]


def _clock(hours: float) -> str:
    return "nightfall (21:30)" if hours == NIGHTFALL else clock(hours)


def _absent(game: omaha.Game[Any], metric: str) -> str:
    """Where ``game`` does not model ``metric``, by scenario, with why."""
    where = [(s, game.not_modelled(s).get(metric)) for s in game.scenarios()]
    return "".join(f"; not modelled in `{s}`: {why}" for s, why in where if why)


def section() -> str:
    """The generated Markdown: one subsection per common metric."""
    games = [omaha.load(name) for name in GAMES if name in omaha.games()]
    lines = [BEGIN, ""]
    for metric in COMMON:
        lines += [
            f"### `{metric.name}` ({metric.unit})",
            "",
            f"{metric.meaning[0].upper()}{metric.meaning[1:]}.",
            "",
        ]
        lines += ["| design | how it defines it |", "|---|---|"]
        for game in games:
            declared = {m.name: m for m in game.metrics}
            if metric.name not in declared:
                how = "not declared by this design"
            elif declared[metric.name].meaning == metric.meaning:
                how = "the common definition (above)"
            else:
                how = declared[metric.name].meaning
            if metric.name in declared:
                how += _absent(game, metric.name)
            lines.append(f"| [`{game.name}`](games/{game.name}.md) | {how} |")
        lines.append("")
        figures = TIMELINE.get(metric.name)
        lines += _history(figures) if figures else ["History: no figure.", ""]
    lines.append(END)
    return "\n".join(lines)


def page(text: str) -> str:
    """``text`` with its generated section replaced by the current one."""
    head, sep, rest = text.partition(BEGIN)
    if not sep or END not in rest:
        raise SystemExit(f"{PAGE}: the markers of the generated section are missing")
    tail = rest.split(END, 1)[1]
    return head + section() + tail


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    current = PAGE.read_text()
    fresh = page(current)
    if args.check:
        if fresh != current:
            print(f"{PAGE} is stale: run python tools/gencomparison.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(fresh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
