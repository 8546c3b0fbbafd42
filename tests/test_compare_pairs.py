"""The player separated from the design: the same seeds with two lineups, a metric marked
player-dependent where the 95% interval of the paired difference excludes zero."""

import math
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from toygame import ToyGame

import omaha
from omaha import cli, compare, compare_pairs
from omaha.kernel.protocol import BotFactory, RandomBot
from omaha.registry import unregister


class Passive:
    """A bot that always takes the first legal action (ends its moves, holds its fire)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: Any) -> Any:
        return state.legal_actions()[0]


class Eager(Passive):
    """A bot that always takes the last legal action (moves on, fires when it can)."""

    def choose(self, state: Any) -> Any:
        return state.legal_actions()[-1]


class TwoBotToy(ToyGame):
    name = "toy_bots"

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        return {"random": RandomBot, "passive": Passive, "eager": Eager}


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    omaha.register(TwoBotToy())
    yield
    unregister("toy_bots")


def test_the_flag_fires_where_the_lineup_moves_the_figure_and_not_where_it_cannot() -> None:
    [a] = compare.compare(["toy_bots"], runs=30, seed=3, bot="eager")
    [b] = compare.compare(["toy_bots"], runs=30, seed=3, bot="passive")
    assert [r.seed for r in a.runs] == [r.seed for r in b.runs]  # the same seeds
    found = compare_pairs.dependence([a], [b], ["squads_left", "turns_played"])
    squads, turns = found["toy_bots/beach"]["squads_left"], found["toy_bots/beach"]["turns_played"]
    # the game lasts its turns whoever plays: every paired difference is 0
    assert (turns.n, turns.mean, turns.low, turns.high) == (30, 0.0, 0.0, 0.0)
    assert not turns.dependent
    # squads survive or not by who moves and fires: 0.6 more survive with the eager bots
    assert squads.n == 30 and squads.dependent and squads.low > 0.3
    assert compare_pairs.flags(found) == {"toy_bots/beach": {"squads_left"}}
    text = compare.table([a], detail=True, flags=compare_pairs.flags(found))
    report = compare_pairs.report(found, "eager", "passive")
    assert any(line.startswith("  toy_bots/beach") and line.endswith("P")
               for line in report.splitlines())  # fmt: skip
    assert "turns_played" in report and "toy_bots/beach" in text


def test_paired_differences_by_hand() -> None:
    def col(values: list[float]) -> compare.Column:
        runs = tuple(
            compare.Run(i, 10 + i, (), "x", None, {"m": v}, 1) for i, v in enumerate(values)
        )
        return compare.Column("g", "G", "s", {"US": "b"}, runs, {"m": "x"}, 1)

    # differences +1, -1, +1, -1: mean 0, the interval holds zero: not player-dependent
    p = compare_pairs.paired(col([1, 0, 1, 0]), col([0, 1, 0, 1]), "m")
    assert p is not None and p.mean == 0 and not p.dependent
    half = compare.Z95 * float(__import__("numpy").std([1, -1, 1, -1], ddof=1)) / 2
    assert p.high == pytest.approx(half)
    # differences 2, 3, 2, 3: the interval is far from zero
    p = compare_pairs.paired(col([2, 3, 2, 3]), col([0, 0, 0, 0]), "m")
    assert p is not None and p.mean == 2.5 and p.dependent
    # a run one lineup does not measure (NaN) leaves the pair out
    p = compare_pairs.paired(col([1, math.nan, 1]), col([0, 0, 0]), "m")
    assert p is not None and p.n == 2


def test_a_censored_time_is_compared_capped_at_the_end() -> None:
    def col(values: list[float]) -> compare.Column:
        runs = tuple(
            compare.Run(i, i, (), "x", None, {"first_exit_hours": v}, 1)
            for i, v in enumerate(values)
        )
        return compare.Column(
            "g", "G", "s", {"US": "b"}, runs, {"first_exit_hours": "hours"}, 1,
            {"first_exit_hours": "time"}, 6.0,
        )  # fmt: skip

    p = compare_pairs.paired(col([1.0, 2.0, 3.0]), col([math.inf] * 3), "first_exit_hours")
    assert p is not None and p.mean == pytest.approx(-4.0) and p.dependent


def test_compare_command_with_two_lineups(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "--game", "toy_bots", "--runs", "12", "--bots", "random,passive"]
    assert cli.main([*argv, "--executor", "serial", "--quiet", "--detail"]) == 0
    out = capsys.readouterr().out
    assert "Player dependence: the same seeds with bots random (A) and passive (B)" in out
    assert cli.main(["compare", "--game", "toy_bots", "--bots", "random"]) == 2
    assert "two different bot names" in capsys.readouterr().err
    assert cli.main(["compare", "--game", "toy_bots", "--bots", "a,b"]) == 2
    assert "no game has both bots 'a' and 'b'" in capsys.readouterr().err
    assert cli.main([*argv, "--bot", "random"]) == 2
    assert "--bot or --bots" in capsys.readouterr().err


def test_two_ends_are_compared_by_the_earlier() -> None:
    def col(values: list[float], end: float) -> compare.Column:
        runs = tuple(
            compare.Run(i, i, (), "x", None, {"first_exit_hours": v}, 1)
            for i, v in enumerate(values)
        )
        return compare.Column(
            "g", "G", "s", {"US": "b"}, runs, {"first_exit_hours": "hours"}, 1,
            {"first_exit_hours": "time"}, end,
        )  # fmt: skip

    # no exit in either; one run has one at 6.5 h, after the shorter scenario's end (6 h)
    p = compare_pairs.paired(
        col([6.5, math.inf], 7.0), col([math.inf] * 2, 6.0), "first_exit_hours"
    )
    assert p is not None and (p.mean, p.low, p.high) == (0.0, 0.0, 0.0)
