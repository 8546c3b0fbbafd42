"""Time-to-event metrics over all runs (censored where the event did not happen by the
end), and history as a time line, each scenario held against it at its own end."""

import json
import math

import pytest

from omaha import compare
from omaha.compare_events import Events, clock
from omaha.kernel.metrics import COMMON, HISTORICAL, NIGHTFALL, TIMELINE, history_at

INF = math.inf


def test_share_by_each_hour_and_median_over_all_runs_by_hand() -> None:
    # 8 runs: the event at 1.0, 2.5, 2.5, 4.0 h; four runs never had it (censored at the
    # end, 5 h); one run does not model it (NaN) and is not a run of the sample
    ev = Events.of([2.5, INF, 1.0, INF, 4.0, INF, 2.5, INF, math.nan], end=5.0)
    assert (ev.n, ev.had) == (8, 4)
    assert [ev.by(h) for h in (0, 1, 2, 3, 4, 5)] == [0, 1, 1, 3, 4, 4]
    assert ev.curve() == [(0, 0), (1, 1), (2, 1), (3, 3), (4, 4), (5, 4)]
    # half the runs (4 of 8) had it by 4.0: the median is 4.0, not the 2.5 of a mean over
    # the runs that had it
    assert ev.median == 4.0
    # one fewer: 3 of 7 is fewer than half, the median is past the end
    assert Events.of([2.5, INF, 1.0, INF, INF, 2.5, INF], end=5.0).median is None
    assert Events.of([3.0, 1.0, 2.0], end=4.0).median == 2.0  # 2 of 3 by 2.0
    assert Events.of([], end=4.0).median is None
    assert Events.of([1.0], end=2.5).curve() == [(0, 0), (1, 1), (2, 1), (2.5, 1)]


def test_clock() -> None:
    assert clock(0) == "06:30" and clock(5.5) == "12:00" and clock(NIGHTFALL) == "21:30"
    assert clock(25.5) == "D+1 08:00"


def row_of(text: str, needle: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("  g/s") and needle in line)


def time_column(values: list[float], end: float | None) -> compare.Column:
    runs = tuple(
        compare.Run(i, i, (), "x", None, {"first_exit_hours": v, "us_losses": 0.1}, 1)
        for i, v in enumerate(values)
    )
    units = {m.name: m.unit for m in COMMON}
    kinds = {m.name: m.kind for m in COMMON}
    return compare.Column("g", "G", "s", {"US": "b"}, runs, units, 1, kinds, end)


def test_the_table_reports_the_time_over_all_runs_with_history_at_the_end() -> None:
    # ends 13:00 (6.5 h): exits at 08:00 and 11:30 in 2 of 5 runs
    col = time_column([1.5, INF, 5.0, INF, INF], end=6.5)
    row = row_of(compare.table([col]), "%")
    share = compare.Share(2, 5)
    assert row.split() == [
        "g/s", "5", "13:00", "20%", "20%", "40%", ".", *str(share).split(), ">", "end", "12:00"
    ]  # fmt: skip
    # before history's time: history's exit too is past the end
    early = time_column([INF, INF, 3.0], end=4.0)
    assert row_of(compare.table([early]), "%").endswith("> end  > end")


def test_json_has_the_curve_and_never_as_inf() -> None:
    col = time_column([1.5, INF, 5.0, INF], end=6.5)
    [data] = json.loads(compare.to_json([col]))
    assert data["end_hours"] == 6.5
    assert data["runs"][1]["metrics"]["first_exit_hours"] == "inf"
    ev = data["events"]["first_exit_hours"]
    assert (ev["n"], ev["had"], ev["median"]) == (4, 2, 5.0)
    assert [p[:2] for p in ev["curve"]] == [[0, 0], [1, 0], [2, 1], [3, 1], [4, 1], [5, 2],
                                            [6, 2], [6.5, 2]]  # fmt: skip
    low, high = compare.wilson(2, 4)
    assert ev["curve"][-1][2:] == [round(100 * low, 2), round(100 * high, 2)]


def test_history_is_a_time_line_each_figure_with_its_source() -> None:
    assert [f.value for f in TIMELINE["exits_opened"]] == [0, 0, 1, 2, 2]
    assert all(f.source and f.what for fs in TIMELINE.values() for f in fs)
    # each scenario against history as it stood at its own end
    assert history_at("exits_opened", 4.0) is not None
    assert history_at("exits_opened", 4.0).value == 0  # type: ignore[union-attr]
    assert history_at("exits_opened", 6.5).value == 1  # type: ignore[union-attr]
    assert history_at("exits_opened", NIGHTFALL).value == 2  # type: ignore[union-attr]
    assert history_at("exits_opened", 1.0) is None  # before the first figure
    assert history_at("us_losses", 6.5) is None  # the day's figure only
    assert history_at("us_losses", None) is None  # a scenario off the clock
    assert HISTORICAL["first_exit_hours"].value == 5.5 == history_at("first_exit_hours", 1.0).value  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("end", "shown"),
    [(4.0, "0.00 (10:00)"), (6.5, "1.00 (12:00)"), (16.0, "2.00 (21:30)"), (1.0, "none by then")],
)
def test_a_scenario_is_compared_at_its_own_end(end: float, shown: str) -> None:
    runs = tuple(compare.Run(i, i, (), "x", None, {"exits_opened": 1.0}, 1) for i in range(3))
    units = {m.name: m.unit for m in COMMON}
    col = compare.Column("g", "G", "s", {"US": "b"}, runs, units, 1, {}, end)
    row = next(
        line
        for line in compare.table([col]).splitlines()
        if line.startswith("  g/s") and "0-" in line
    )
    assert shown in row
