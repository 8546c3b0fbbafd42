"""The comparison as text, 100 columns wide: per common metric each scenario's figures with
their n, against history as it stood at the scenario's own end.

- a measured quantity: mean, 95% interval (clipped to the metric's range), 10-90% band,
  and history's figure at the scenario's end with the difference;
- a rate: the share of runs with its Wilson interval;
- a time-to-event metric: over all runs, the share that had it by 08:00, 10:00, 12:00
  and 17:00 and by the scenario's end, and the median time ("> end" when fewer than half
  had it), beside history's time;
- then the outcomes, what each scenario does not model, and the sources.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from omaha.compare_data import Column, Share, bounds, is_rate, share_of, summarize
from omaha.compare_events import Events, clock
from omaha.kernel.metrics import COMMON, NIGHTFALL, TIMELINE, Historical, Metric, history_at

#: The table's width in columns.
WIDTH = 100
#: The widest scenario label column (a longer label goes on a line of its own).
LABEL = 26
#: The clock times of the time-to-event columns (those of the history time line), in hours
#: after H-hour: 08:00, 10:00, 12:00, 17:00.
MARKS = (1.5, 3.5, 5.5, 10.5)


def wrap(text: str, indent: str = "  ", follow: str | None = None) -> list[str]:
    """``text`` as lines of at most :data:`WIDTH` columns, continued under ``follow``."""
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=indent,
        subsequent_indent=follow if follow is not None else indent + "    ",
        break_on_hyphens=False,
    ) or [indent]


def table(
    columns: Sequence[Column], detail: bool = False, flags: dict[str, set[str]] | None = None
) -> str:
    """The comparison as text (see the module's docstring); ``detail`` adds each design's
    own metrics; ``flags`` marks metric rows (label -> metric names) as player-dependent."""
    if not columns:
        return "no games installed"
    flags = flags or {}
    width = min(LABEL, max(len(c.label) for c in columns) + 2)
    runs = sorted({len(c.runs) for c in columns})
    roots = sorted({c.root for c in columns})
    each = f"{runs[0]} seeded runs per scenario" if len(runs) == 1 else "seeded runs"
    out = [f"Side-by-side comparison: {each} (root seed {'/'.join(map(str, roots))})"]
    out += wrap(
        "Each scenario is held against history as it stood at the scenario's own end "
        "(column 'ends'); n is the runs a row is over; 'vs history' is the mean minus "
        "history, and whether history lies inside or outside the 10-90% band.",
        "",
        "",
    )
    ends = _ends_width(columns)
    out += ["", f"  {'scenario'.ljust(width)}{'runs':>4}  {'ends':<{ends}} design; bots"]
    for col in columns:
        bots = "/".join(f"{side}={bot}" for side, bot in sorted(col.bots.items()))
        head = f"{len(col.runs):>4}  {_ends(col):<{ends}} "
        out += _labelled(col.label, width, "")[:-1]
        lead = _labelled(col.label, width, "")[-1]
        out += wrap(f"{lead}{head}{col.title}; {bots}", "", " " * (len(lead) + len(head)))
    for metric in COMMON:
        present = [c for c in columns if c.values(metric.name)]
        if present:
            out += ["", *_section(metric, present, width, flags)]
    out += ["", "Outcomes (share of runs, Wilson 95% interval)"]
    for col in columns:
        total = len(col.runs)
        shares = ", ".join(f"{level} {Share(n, total)}" for level, n in col.levels())
        *above, head = _labelled(col.label, width, "")
        out += above + wrap(head + shares, "", " " * len(head))
    if detail:
        common_names = {m.name for m in COMMON}
        for col in columns:
            own = sorted({k for r in col.runs for k in r.metrics} - common_names)
            own = [k for k in own if col.values(k)]
            if own:
                out += ["", f"{col.label}: design-specific metrics"]
                wide = max(len(k) for k in own) + 2
                for k in own:
                    out.append(f"  {k.ljust(wide)}" + _detail_row(col, k).rstrip())
    out += _not_modelled(columns, width)
    used = [m for m in COMMON if m.name in TIMELINE and any(c.values(m.name) for c in columns)]
    if used:
        out += ["", "Historical figures: sources"]
        for m in used:
            times: dict[str, list[str]] = {}
            for figure in TIMELINE[m.name]:
                times.setdefault(figure.source, []).append(_at(figure).removeprefix(" by "))
            for source, at in times.items():
                by = f" by {', '.join(at)}" if any(at) else ""
                out += wrap(f"{m.name}{by}: {source}")
    return "\n".join(out)


def _labelled(label: str, width: int, row: str) -> list[str]:
    """A row after its scenario's label; a label too long for the column goes on a line of
    its own above the row (so no line passes :data:`WIDTH`)."""
    lines = [f"  {label.ljust(width)}{row}"]
    if len(label) + 2 > width:
        lines = [f"  {label}", f"  {'':<{width}}{row}"]
    return [line.rstrip() for line in lines] if row else lines


def _ends(col: Column) -> str:
    return clock(col.end) if col.end is not None else "-"


def _ends_width(columns: Sequence[Column]) -> int:
    """The 'ends' column's width: 6, or one more than the longest end (D+2 17:00)."""
    return max(6, *(len(_ends(c)) + 1 for c in columns))


def _at(figure: Historical) -> str:
    if figure.by is None:
        return ""
    return " by nightfall" if figure.by == NIGHTFALL else f" by {clock(figure.by)}"


def _flag(flags: dict[str, set[str]], col: Column, metric: str) -> str:
    return "  P" if metric in flags.get(col.label, set()) else ""


def _section(
    metric: Metric, present: list[Column], width: int, flags: dict[str, set[str]]
) -> list[str]:
    name = metric.name
    out = wrap(f"{name} ({metric.unit}): {metric.meaning}", "", "    ")
    for figure in TIMELINE.get(name, ()):
        value = _clock_range(figure) if present[0].is_time(name) else _value_range(figure)
        out += wrap(f"history{_at(figure)}: {value}: {figure.what}")
    if all(c.is_time(name) for c in present):
        ends = _ends_width(present)
        marks = "".join(f"{clock(m):>{MARK}}" for m in MARKS)
        out.append(
            f"  {'scenario'.ljust(width)}{'n':>4}  {'ends':<{ends}}{marks}  {'by the end':<15}"
            f"{'median':>6}  history"
        )
        for c in present:
            row = _time_row(c, name, ends)
            out += _labelled(c.label, width, row + _flag(flags, c, name))
        out.append(f"  {'':<{width}}share of runs that had it by then; '.': past the end")
    elif all(is_rate(c, name) for c in present):
        out.append(f"  {'scenario'.ljust(width)}{'n':>4}{'share':>8}  95% interval (Wilson)")
        for c in present:
            share = share_of(c.values(name))
            assert share is not None
            low, high = share.interval
            row = f"{share.n:>4}{share.percent:>7.1f}%  {low:.1f}-{high:.1f}%"
            out += _labelled(c.label, width, row + _flag(flags, c, name))
    else:
        hist = name in TIMELINE
        head = f"  {'scenario'.ljust(width)}{'n':>4}{'mean':>7}  {'95% interval':<12}  "
        head += f"{'10-90% band':<12}" + ("  history (at)   vs history" if hist else "")
        out.append(head.rstrip())
        for c in present:
            row = _value_row(c, name, history_at(name, c.end) if hist else None, hist)
            out += _labelled(c.label, width, row + _flag(flags, c, name))
    return out


def _value_row(col: Column, metric: str, figure: Historical | None, hist: bool) -> str:
    values = col.values(metric)
    s = summarize(values, bounds(col.units.get(metric, ""), values))
    assert s is not None
    text = f"{s.n:>4}{s.mean:>7.2f}  {_pair(s.low, s.high):<12}  {_pair(s.p10, s.p90):<12}"
    if not hist:
        return text
    if figure is None:
        return text + "  none by then"
    where = "inside" if s.p10 <= figure.value <= s.p90 else "outside"
    at = f"{figure.value:.2f} ({clock(figure.by)})" if figure.by is not None else "-"
    return text + f"  {at:<15}{s.mean - figure.value:+.2f}, {where}"


#: The width of a time-to-event row's cell for each of the hours in MARKS.
MARK = 6


def _time_row(col: Column, metric: str, ends: int = 6) -> str:
    events = col.events(metric)
    end = col.end
    cells = []
    for mark in MARKS:
        if end is None or mark > end + 1e-9:
            cells.append(f"{'.':>{MARK}}")
        else:
            cells.append(f"{100 * events.by(mark) / events.n:>{MARK - 1}.0f}%")
    share = Share(events.had, events.n)
    median = events.median
    med = "> end" if median is None else clock(median)
    figure = history_at(metric, end)
    if figure is None:
        hist = "-"
    elif end is not None and figure.value > end:
        hist = "> end"
    else:
        hist = clock(figure.value)
    return f"{events.n:>4}  {_ends(col):<{ends}}{''.join(cells)}  {share!s:<15}{med:>6}  {hist}"


def _detail_row(col: Column, metric: str) -> str:
    values = col.values(metric)
    if col.is_time(metric):
        events = Events.of(values)
        med = events.median
        text = "> end" if med is None else f"{med:.2f}"
        return f"{events.n:>4}  had it {Share(events.had, events.n)}; median {text}"
    if is_rate(col, metric):
        share = share_of(values)
        assert share is not None
        low, high = share.interval
        return f"{share.n:>4}{share.percent:>7.1f}%  {low:.1f}-{high:.1f}%"
    return _value_row(col, metric, None, False)


def _not_modelled(columns: Sequence[Column], width: int) -> list[str]:
    common = {m.name for m in COMMON}
    out: list[str] = []
    for col in columns:
        reasons: dict[str, list[str]] = {}
        for name, why in col.absent.items():
            reasons.setdefault(why, []).append(name)
        for why, names in reasons.items():
            shown = [n for n in names if n in common]
            own = len(names) - len(shown)
            if own and (not shown or len(names) <= 4):
                shown, own = names, 0
            what = ", ".join(shown) + (f" (and {own} of its own)" if own else "")
            *above, head = _labelled(col.label, width, "")
            out += above + wrap(f"{head}{what}: {why}", "", " " * len(head))
    if not out:
        return []
    return ["", "Not modelled (NaN in every run of the scenario, never compared)", *out]


def _pair(low: float, high: float) -> str:
    return f"{low:.2f}-{high:.2f}"


def _value_range(figure: Historical) -> str:
    if figure.low is None or figure.high is None:
        return f"{figure.value:.2f}"
    return f"{figure.value:.2f} (sources {_pair(figure.low, figure.high)})"


def _clock_range(figure: Historical) -> str:
    text = f"{clock(figure.value)} ({figure.value:.2f} h after H-hour"
    if figure.low is not None and figure.high is not None:
        text += f"; sources {clock(figure.low)}-{clock(figure.high)}"
    return text + ")"
