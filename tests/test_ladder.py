"""``omaha ladder``: every pair of bots on paired seeds, and a Bradley-Terry rating."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

import omaha
from omaha import cli, ladder
from omaha.compare import run_seeds


def test_bradley_terry_recovers_known_odds() -> None:
    """A scores 3/4 against B over many contests: the strengths differ by ln 3 (the weak
    pull towards 0 is negligible against 2,000 contests); B beats C as often as A beats B,
    so the three are evenly spaced."""
    contests = [(0, 1, 0.75)] * 1000 + [(1, 2, 0.75)] * 1000
    r = ladder.bradley_terry(3, contests)
    assert abs(r.sum()) < 1e-9
    assert r[0] - r[1] == pytest.approx(math.log(3), rel=0.01)
    assert r[1] - r[2] == pytest.approx(math.log(3), rel=0.01)


def test_a_bot_that_always_wins_has_a_finite_rating() -> None:
    r = ladder.bradley_terry(2, [(0, 1, 1.0)] * 20)
    assert np.isfinite(r).all() and r[0] > r[1] + 2


def test_by_default_every_bot_enters_and_the_search_at_budget_0_and_low_too() -> None:
    names = [str(e) for e in ladder.default_entrants(omaha.load("bloody"))]
    assert names == ["heuristic", "random", "search:0", "search:2", "search"]
    names = [str(e) for e in ladder.default_entrants(omaha.load("landing_table"))]
    low = ladder.low_budget(omaha.load("landing_table"))
    assert names == ["heuristic", "random", "search:0", f"search:{low}", "search"]
    assert 2 <= low < omaha.load("landing_table").search_iterations


def test_lineups_follow_the_sides_each_bot_plays() -> None:
    game = omaha.load("lnl")
    entrants = ladder.default_entrants(game)
    pairs = {tuple(str(e) for _, e in lineup) for lineup in ladder.lineups(game, entrants)}
    us = {e for e in map(str, entrants) if "US" in game.bot_sides(e.split(":")[0])}
    german = {e for e in map(str, entrants) if "German" in game.bot_sides(e.split(":")[0])}
    assert pairs == {(a, b) for a in us for b in german}
    assert ("heuristic", "random") in pairs and ("solitaire", "heuristic") not in pairs


def test_the_search_enters_at_its_budgets() -> None:
    """search:0 plays the heuristic's games (budget 0), so its matches are the same games."""
    entrants = [ladder.Entrant("heuristic"), ladder.Entrant.parse("search:0")]
    result = ladder.ladder("bloody", games=3, root=2, entrants=entrants)
    heuristic, search0 = result.matches
    assert [g.returns for g in heuristic.games] == [g.returns for g in search0.games]
    assert {r.name for r in result.ratings} == {"heuristic", "search:0"}


def test_matches_share_their_seeds_and_the_better_bot_rates_higher() -> None:
    """Every match's run i is played on the ladder's seed i (paired), and on Bloody Omaha
    the heuristic, which wins most games, rates above the random bot, whose interval lies
    wholly below the heuristic's."""
    entrants = [ladder.Entrant("random"), ladder.Entrant("heuristic")]
    result = ladder.ladder("bloody", games=12, root=3, entrants=entrants)
    seeds = [[g.seed for g in m.games] for m in result.matches]
    assert seeds[0] == seeds[1] == [run_seeds(3, i)[0] for i in range(12)]
    by_name = {r.name: r for r in result.ratings}
    assert by_name["heuristic"].low > by_name["random"].high
    assert result.matches[0].wins("US").n == 12


def test_the_cli_prints_the_table_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ladder.json"
    code = cli.main(
        ["ladder", "lnl", "--scenario", "vierville", "--games", "3", "--bots",
         "random,solitaire", "--json", str(out), "--quiet"]
    )  # fmt: skip
    assert code == 0
    text = capsys.readouterr().out
    assert "random (US) vs solitaire (German)  (n=3)" in text
    assert "rating (Bradley-Terry" in text
    data = json.loads(out.read_text())
    assert data["games_per_match"] == 3 and len(data["matches"]) == 2
    assert {m["lineup"]["German"] for m in data["matches"]} == {"random", "solitaire"}
    assert {r["name"] for r in data["ratings"]} == {
        "random (US)", "random (German)", "solitaire (German)"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ladder", "lnl", "--bots", "nobody"], "lnl has no bot 'nobody'"),
        (["ladder", "lnl", "--bots", "search:many"], "must be a whole number"),
        (["ladder", "lnl", "--bots", "random:3"], "bot 'random' of lnl takes no budget"),
        (["ladder", "lnl", "--bots", "solitaire"], "can play the US side"),
    ],
)
def test_bad_bots_are_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
