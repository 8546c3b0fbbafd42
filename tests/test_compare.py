"""The comparison tool: seeds, executors, statistics, history, and its outputs."""

import argparse
import contextlib
import csv
import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from toygame import GAME

import omaha
from omaha import cli, compare
from omaha.errors import ScenarioError
from omaha.kernel.metrics import COMMON, HISTORICAL, load_history
from omaha.registry import unregister


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    omaha.register(GAME)
    yield
    unregister("toy")


# -- seeds and executors --------------------------------------------------------
def test_run_seeds_come_from_numpy_seed_sequence_spawn() -> None:
    children = np.random.SeedSequence(7).spawn(5)
    for i, child in enumerate(children):
        words = [int(w) >> 1 for w in child.generate_state(compare.SEED_WORDS, dtype=np.uint64)]
        assert compare.run_seeds(7, i) == (words[0], tuple(words[1:]))
    seeds = {compare.run_seeds(7, i)[0] for i in range(200)}
    assert len(seeds) == 200 and all(0 <= s < 2**63 for s in seeds)
    assert compare.run_seeds(7, 0) != compare.run_seeds(8, 0)


def test_results_do_not_depend_on_executor_or_chunking() -> None:
    serial = compare.compare(["toy"], runs=12, seed=5, size=12)
    for size in (1, 5):
        assert compare.compare(["toy"], runs=12, seed=5, size=size) == serial
    with compare.executor("process", workers=2) as pool:
        assert compare.compare(["toy"], runs=12, seed=5, pool=pool, size=3) == serial
    again = compare.play_one("toy", "beach", 5, 7)
    assert serial[0].runs[7] == again and again.index == 7
    assert [r.index for r in serial[0].runs] == list(range(12))
    other_root = compare.compare(["toy"], runs=12, seed=6)
    assert other_root[0].runs != serial[0].runs


def test_a_local_dask_cluster_gives_the_same_runs() -> None:
    pytest.importorskip("distributed")
    serial = compare.compare(["bloody"], runs=4, seed=3, bot="random", size=1)
    with compare.executor("dask", workers=2) as pool:
        dask = compare.compare(["bloody"], runs=4, seed=3, pool=pool, bot="random", size=1)
    # compared by repr: a metric may be NaN (first_exit_hours when no exit opened), and a
    # NaN that crossed a process is another float object, unequal to itself under ==
    assert repr(dask) == repr(serial)


def test_a_game_sizes_its_long_scenarios_down_and_runs_extend_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert [c for _, _, c in compare.run_plan(["toy"])] == [compare.DEFAULT_RUNS]
    monkeypatch.setattr(type(GAME), "comparison_runs", {"beach": 4})
    assert compare.run_plan(["toy"]) == [("toy", "beach", 4)]
    assert compare.run_plan(["toy"], runs=9) == [("toy", "beach", 9)]
    sized = compare.compare(["toy"], seed=5)
    longer = compare.compare(["toy"], runs=9, seed=5)
    assert len(sized[0].runs) == 4 and len(longer[0].runs) == 9
    assert longer[0].runs[:4] == sized[0].runs  # the first runs of the same sequence
    with pytest.raises(ValueError, match="at least 1"):
        compare.run_plan(["toy"], runs=0)
    out = io.StringIO()
    cli.cmd_list(argparse.Namespace(), out)
    assert "compared:  runs by default: beach 4 (others 100)" in out.getvalue()


def test_only_the_scenarios_asked_for_are_planned() -> None:
    both = ["landing_table", "toy"]
    assert compare.run_plan(both, 3, ["landing_table/first_wave", "beach"]) == [
        ("landing_table", "first_wave", 3),
        ("toy", "beach", 3),
    ]
    with pytest.raises(ValueError, match="no scenario 'toy/first_wave' among landing_table/"):
        compare.run_plan(both, 3, ["toy/first_wave"])
    played = compare.compare(both, runs=2, seed=5, only=["toy/beach"])
    assert [(c.game, c.scenario, len(c.runs)) for c in played] == [("toy", "beach", 2)]


def test_the_table_names_each_scenarios_runs_when_they_differ() -> None:
    few = compare.compare(["toy"], runs=3, seed=2)
    more = compare.compare(["toy"], runs=5, seed=3)
    text = compare.table(few + more)
    assert "Side-by-side comparison: seeded runs" in text
    assert re.search(r"\n  toy/beach +3  ", text) and re.search(r"\n  toy/beach +5  ", text)
    assert "Side-by-side comparison: 3 seeded runs per scenario" in compare.table(few)


def test_chunks_cover_every_run_once() -> None:
    tasks = compare.chunks("toy", "beach", None, 1, 23, 5)
    assert [(t.start, t.count) for t in tasks] == [(0, 5), (5, 5), (10, 5), (15, 5), (20, 3)]
    assert compare.chunk_size(100, 2) == 13 and compare.chunk_size(3, 8) == 1
    assert compare.chunk_size(10_000, 2) == 25


def test_runs_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        compare.compare(["toy"], runs=0)
    with pytest.raises(ValueError, match="unknown executor"), compare.executor("cloud"):  # type: ignore[arg-type]
        pass


# -- statistics -----------------------------------------------------------------
def test_summary_mean_interval_and_band() -> None:
    values = [float(v) for v in range(1, 101)]
    s = compare.summarize(values)
    assert s is not None and s.n == 100 and s.mean == pytest.approx(50.5)
    half = compare.Z95 * np.std(values, ddof=1) / 10
    assert (s.low, s.high) == pytest.approx((50.5 - half, 50.5 + half))
    assert (s.p10, s.p90) == pytest.approx((10.9, 90.1))
    one = compare.summarize([3.0])
    assert one is not None and one.low == one.high == 3.0
    assert compare.summarize([]) is None


def test_wilson_interval() -> None:
    assert compare.wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert compare.wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert compare.wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert str(compare.Share(49, 50)) == "98% (90-100%)"


def column(
    game: str, scenario: str, values: dict[str, list[float]], end: float | None = 16.0
) -> compare.Column:
    n = len(next(iter(values.values())))
    runs = tuple(
        compare.Run(
            i, i, (), "won" if i % 2 else "lost", None, {k: v[i] for k, v in values.items()}, 1
        )
        for i in range(n)
    )
    units = {m.name: m.unit for m in COMMON}
    kinds = {m.name: m.kind for m in COMMON}
    return compare.Column(
        game, game.upper(), scenario, {"US": "random"}, runs, units, 1, kinds, end
    )


def test_table_shows_intervals_rates_and_history() -> None:
    dd = HISTORICAL["dd_tanks_ashore"].value
    near = column(
        "a", "s", {"dd_tanks_ashore": [dd - 0.1, dd, dd + 0.1] * 10, "us_win": [1.0] * 30}
    )
    far = column(
        "b", "s", {"dd_tanks_ashore": [0.8, 0.9, 1.0] * 10, "us_win": [0.0, 1.0, 0.0] * 10}
    )
    text = compare.table([near, far])
    lines = text.splitlines()
    row_a = next(line for line in lines if line.startswith("  a/s") and "(07:00)" in line)
    row_b = next(line for line in lines if line.startswith("  b/s") and "(07:00)" in line)
    assert "0.16 (07:00)   +0.00, inside" in row_a
    assert f"{0.9 - dd:+.2f}, outside" in row_b
    assert "history by 07:00: 0.16: 741st Tank Battalion" in text
    share_b = next(line for line in lines if line.startswith("  b/s") and "%" in line)
    low, high = compare.Share(10, 30).interval
    assert f"  30   33.3%  {low:.1f}-{high:.1f}%" in share_b
    assert "Outcomes (share of runs, Wilson 95% interval)" in text
    assert "  a/s  lost 50% (33-67%), won 50% (33-67%)" in text


def test_toy_table_and_design_metrics() -> None:
    [col] = compare.compare(["toy"], runs=20, seed=2)
    text = compare.table([col])
    turns = compare.summarize(col.values("turns_played"))
    assert turns is not None and f"{turns.mean:.2f}" in text
    assert "squads_left" not in text
    squads = compare.summarize(col.values("squads_left"))
    assert squads is not None
    detail = compare.table([col], detail=True)
    assert "toy/beach: design-specific metrics" in detail
    assert re.search(rf"squads_left +20 +{squads.mean:.2f}  ", detail)


def test_not_applicable_metrics_are_left_out() -> None:
    runs = (
        compare.Run(0, 1, (2,), "won", "US", {"a": 1.0, "b": math.nan}, 3),
        compare.Run(1, 2, (3,), "lost", None, {"a": 0.0, "b": 0.5}, 4),
    )
    col = compare.Column("g", "G", "s", {"US": "random"}, runs)
    assert col.values("a") == [1.0, 0.0]
    assert col.values("b") == [0.5]
    data = json.loads(compare.to_json([col]))
    assert data[0]["runs"][0]["metrics"] == {"a": 1.0, "b": None}
    rows = list(csv.DictReader(io.StringIO(compare.to_csv([col]))))
    assert rows[0]["b"] == "" and rows[1]["b"] == "0.5"


# -- history ----------------------------------------------------------------------
def test_history_is_package_data_with_sources() -> None:
    names = {m.name for m in COMMON}
    assert {"us_losses", "first_exit_hours", "dd_tanks_ashore"} <= set(HISTORICAL) <= names
    for figure in HISTORICAL.values():
        assert figure.source and figure.what
        if figure.low is not None:
            assert figure.high is not None and figure.low <= figure.value <= figure.high
    assert HISTORICAL["first_exit_hours"].value == 5.5  # E-1 about midday, H-hour 06:30
    assert HISTORICAL["us_losses"].value == pytest.approx(2400 / 34000, abs=1e-3)


def test_a_bad_history_file_is_a_scenario_error(tmp_path: Path) -> None:
    bad = tmp_path / "history.toml"
    bad.write_text('[[figure]]\nmetric = "nope"\nvalue = 1\nwhat = "x"\nsource = "y"\n')
    with pytest.raises(ScenarioError, match=r"figure\[0\]\.metric: 'nope' is not one of"):
        load_history(bad)
    bad.write_text('[[figure]]\nmetric = "us_win"\nvalue = 1\nwhat = "x"\nsource = ""\n')
    with pytest.raises(ScenarioError, match=r"figure\[0\]: us_win: give 'by' \(a time\)"):
        load_history(bad)
    good = 'metric = "us_win"\nvalue = 1\nwhat = "x"\n'
    bad.write_text(f'[[figure]]\n{good}by = "12:00"\nsource = ""\n')
    with pytest.raises(ScenarioError, match=r"figure\[0\]\.source: source is empty"):
        load_history(bad)
    bad.write_text(f'[[figure]]\n{good}by = "noon"\nsource = "y"\n')
    with pytest.raises(ScenarioError, match=r"figure\[0\]\.by: 'noon' is not a time"):
        load_history(bad)
    bad.write_text('[[figure]]\nmetric = "first_exit_hours"\nby = "12:00"\nvalue = 5\n'
                   'what = "x"\nsource = "y"\n')  # fmt: skip
    with pytest.raises(ScenarioError, match="a time-to-event figure has no 'by'"):
        load_history(bad)


# -- outputs ------------------------------------------------------------------------
def test_csv_has_one_tidy_row_per_run() -> None:
    columns = compare.compare(["toy"], runs=6, seed=4)
    rows = list(csv.DictReader(io.StringIO(compare.to_csv(columns))))
    assert len(rows) == 6
    assert list(rows[0])[:7] == list(compare.CSV_FIELDS)
    for row, run in zip(rows, columns[0].runs, strict=True):
        assert (row["game"], row["scenario"], int(row["run"]), int(row["seed"])) == (
            "toy", "beach", run.index, run.seed,
        )  # fmt: skip
        assert float(row["turns_played"]) == run.metrics["turns_played"]
        assert row["level"] == run.level


def test_json_has_every_run() -> None:
    columns = compare.compare(["toy"], runs=5, seed=9)
    [data] = json.loads(compare.to_json(columns))
    assert data["root_seed"] == 9 and len(data["runs"]) == 5
    assert data["runs"][2]["seed"] == compare.run_seeds(9, 2)[0]
    assert data["runs"][2]["metrics"] == columns[0].runs[2].metrics


@pytest.mark.parametrize("kind", ["png", "svg"])
def test_plot(kind: str) -> None:
    pytest.importorskip("matplotlib")
    columns = compare.compare(["toy", "bloody"], runs=4, seed=1, bot="random")
    picture = compare.plot(columns, kind)
    if kind == "png":
        assert picture.startswith(b"\x89PNG\r\n\x1a\n") and len(picture) > 10_000
    else:
        text = picture.decode()
        assert "<svg" in text and "turns_played (turns)" in text and "history" in text
        assert compare.plot(columns, kind) == picture  # no date: the same runs, the same file


def test_progress_bar() -> None:
    out = io.StringIO()
    bar = compare.Progress(100, out, enabled=True)
    assert bar.line(10.0) == f"[{'-' * 24}] 0/100 runs  0.0 runs/s  --:-- left"
    bar.advance(50)
    assert bar.line(10.0) == f"[{'#' * 12}{'-' * 12}] 50/100 runs  5.0 runs/s  0:10 left"
    assert out.getvalue().startswith("\r[") and "50/100 runs" in out.getvalue()
    bar.close()
    assert out.getvalue().endswith("\r\x1b[K")
    quiet = io.StringIO()
    silent = compare.Progress(10, quiet, enabled=False)
    silent.advance(10)
    silent.close()
    assert quiet.getvalue() == ""


# -- the command ----------------------------------------------------------------------
def test_compare_command_writes_every_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = {k: tmp_path / f"runs.{k}" for k in ("json", "csv")}
    argv = ["compare", "--game", "toy", "--runs", "6", "--executor", "serial"]
    argv += ["--json", str(paths["json"]), "--csv", str(paths["csv"])]
    assert cli.main(argv) == 0
    text = capsys.readouterr().out
    assert "toy/beach" in text and "turns_played" in text and "Outcomes" in text
    runs = json.loads(paths["json"].read_text())[0]["runs"]
    assert [r["index"] for r in runs] == [0, 1, 2, 3, 4, 5]
    assert len(paths["csv"].read_text().splitlines()) == 7
    assert f"wrote every run in {paths['json']}; one row per run in {paths['csv']}" in text


def test_compare_command_refuses_bad_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv, message in (
        (["--runs", "0"], "--runs: must be between 1"),
        (["--workers", "0"], "--workers: must be between 1"),
        (["--seed", "-1"], "--seed: must be between 0"),
        (["--executor", "cloud"], "invalid choice: 'cloud'"),
        (["--scheduler", "tcp://x:1"], "--scheduler names a Dask scheduler: add --executor dask"),
        (["--plot", str(tmp_path / "x.pdf")], "cannot write a .pdf file; give a .png or .svg"),
        (["--csv", str(tmp_path / "x.json")], "give a .csv file"),
        (["--game", "nope"], "no game named 'nope'"),
    ):
        assert cli.main(["compare", *argv]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.splitlines()) == 1, err


def test_compare_command_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "dist.png"
    argv = ["compare", "--game", "toy", "--runs", "4", "--executor", "serial", "--plot", str(out)]
    assert cli.main(argv) == 0
    assert (
        out.read_bytes().startswith(b"\x89PNG")
        and "the distributions in" in capsys.readouterr().out
    )


def _dies_with_pytest() -> None:
    """In the child: SIGINT as in a terminal, and SIGTERM when pytest dies (Linux's
    parent-death signal), so a killed test run leaves no comparison running."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def test_ctrl_c_stops_compare_cleanly() -> None:
    with tempfile.TemporaryDirectory() as tmp, subprocess.Popen(
        [sys.executable, "-m", "omaha", "compare", "--game", "lnl", "--runs", "400",
         "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp,
        start_new_session=True,  # its own process group, like a terminal's foreground job
        preexec_fn=_dies_with_pytest,
    ) as proc:  # fmt: skip
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.communicate(timeout=4)
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the parent and every worker
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == "omaha: interrupted\n" and out == ""


def test_progress_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", Tty())
    assert compare.Progress.for_terminal(10).enabled
    assert not compare.Progress.for_terminal(10, quiet=True).enabled
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert not compare.Progress.for_terminal(10).enabled


def test_time_left_from_each_scenarios_cost_per_run() -> None:
    def runs(n: int, seconds: float) -> list[compare.Run]:
        return [compare.Run(i, 0, (), "x", None, {}, 1, seconds) for i in range(n)]

    bar = compare.Progress(20, io.StringIO(), plan=[("g", "short", 10), ("g", "long", 10)])
    bar.advance(5, ("g", "short"), runs(5, 0.1))
    # 0.5 CPU s in 1 s; the long scenario not yet measured costs the mean so far (0.1 s)
    assert bar.seconds_left(1.0) == pytest.approx((5 * 0.1 + 10 * 0.1) / 0.5)
    bar.advance(1, ("g", "long"), runs(1, 1.0))
    # measured: 1 s a run; 9 to go of it, 5 of the short: 9.5 CPU s at 0.75 CPU s a second
    assert bar.seconds_left(2.0) == pytest.approx(9.5 / 0.75)
    assert bar.seconds_left(2.0) > 3 * (14 / 6 * 2.0 / 2)  # the count of runs says 4.7 s
    assert "0:13 left" in bar.line(2.0)
    assert compare.Run(0, 0, (), "x", None, {}, 1, 5.0) == runs(1, 0.1)[0]  # cost not compared


def test_the_table_fits_100_columns_and_long_titles_wrap() -> None:
    dd = HISTORICAL["dd_tanks_ashore"].value
    cols = [
        column("landing_table", "first_wave_long", {"dd_tanks_ashore": [dd, 0.9] * 5,
               "exits_opened": [0.0, 2.0] * 5, "first_exit_hours": [5.0, math.inf] * 5})
    ]  # fmt: skip
    cols = [compare.attrs.evolve(cols[0], title="A very long design title " * 8)]
    lines = compare.table(cols, detail=True).splitlines()
    assert max(len(line) for line in lines) <= 100
    assert sum("A very long design title" in line for line in lines) > 1  # wrapped
    # a scenario that ends days later (D+2 17:00) widens the 'ends' column, still in 100
    later = compare.attrs.evolve(cols[0], scenario="campaign_long", end=58.5)
    lines = compare.table([cols[0], later]).splitlines()
    assert max(len(line) for line in lines) <= 100
    timed = [line for line in lines if line.endswith("11:30  12:00")]  # median, history
    assert len(timed) == 2 and "D+2 17:00" in timed[1]
    assert timed[0].index("11:30") == timed[1].index("11:30")  # the columns line up


def test_a_bot_budget_reaches_the_search_agent_and_the_table() -> None:
    assert compare.split_bot("search:16") == ("search", 16)
    assert compare.split_bot("heuristic") == ("heuristic", None)
    with pytest.raises(ValueError, match="whole number"):
        compare.split_bot("search:x")
    lnl = omaha.load("lnl")
    assert compare.lineup_of(lnl, "search:16") == {"US": "search:16", "German": "search:16"}
    assert compare.lineup_of(lnl, None) == {"US": "heuristic", "German": "heuristic"}
    # at no iterations the search agent plays the heuristic's moves: the same runs
    searched = compare.compare(["bloody"], runs=3, seed=4, bot="search:0")
    plain = compare.compare(["bloody"], runs=3, seed=4, bot="heuristic")
    assert [r.metrics for r in searched[0].runs] == [r.metrics for r in plain[0].runs]
    assert searched[0].bots == {"US": "search:0"}
    with pytest.raises(ValueError, match="takes no budget"):
        compare.play_one("bloody", "solo", 4, 0, "heuristic:3")


def test_bot_leaves_out_the_games_without_it_and_checks_a_budget_first() -> None:
    def lineups(**kw: object) -> tuple[list[str | None], list[str] | None]:
        given = {"bots": None, "bot": None, "game": None} | kw
        return cli.compare_lineups(argparse.Namespace(**given))

    assert lineups(bot="solitaire") == (["solitaire"], ["lnl"])
    assert lineups(bots="heuristic,search:8", game=["lnl"]) == (["heuristic", "search:8"], ["lnl"])
    with pytest.raises(ValueError, match="no game has the bot 'nobody'"):
        lineups(bot="nobody")
    with pytest.raises(ValueError, match="takes no budget"):
        lineups(bot="random:5", game=["bloody"])
