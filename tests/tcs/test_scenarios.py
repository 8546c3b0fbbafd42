"""The shipped battle scenarios played by the bots: every game ends with a winner and a
readable log; in d-day most games open a draw (issue 12's done-when); ``omaha compare``
shows the common metrics."""

from __future__ import annotations

from pathlib import Path

import pytest

import omaha
from omaha.cli import main as cli_main
from omaha.tcs import GAME
from omaha.tcs.state import TcsState


def bot_game(scenario: str, seed: int) -> TcsState:
    state = GAME.new_state(scenario, seed=seed)
    assert isinstance(state, TcsState)
    bots = {p: GAME.bots["heuristic"](seed=seed * 11 + i) for i, p in enumerate(GAME.players)}
    while not state.is_terminal():
        state.apply(bots[state.current_player() or "US"].choose(state))
    return state


def readable(state: TcsState) -> None:
    """Every event prints as a sentence; nothing is left unresolved."""
    for e in state.log:
        text = str(e)
        assert text and "{" not in text, text
        assert "unresolved" not in text, text


def test_d_day_begins_with_the_full_german_set_up() -> None:
    """The d-day scenario (reconstructed): 24 pill boxes and the ten rocket pits of 3.4
    at 0640, the garrison companies on the bluffs, the reserves unreleased."""
    scen = GAME.load_scenario("d-day")
    assert scen.n_pillboxes == 24 and scen.n_rocket_pits == 10  # type: ignore[attr-defined]
    state = GAME.new_state("d-day", seed=1)
    assert isinstance(state, TcsState)
    bots = {p: GAME.bots["heuristic"](seed=i) for i, p in enumerate(GAME.players)}
    while state.in_setup or state.wait is None or state.wait[0] in ("pillbox", "rocket pit"):
        state.apply(bots[state.current_player() or "US"].choose(state))
    assert len(state.pillboxes) == 24 and len(state.pits) == 10
    assert state.turn_label == "0640 6 June"
    reserve = state.unit_index("2./916.1")
    assert state.where[reserve] >= 0 and "2./916" not in state.released


def test_the_e1_teaching_scenario_ends_with_a_winner() -> None:
    state = bot_game("e1-draw", 1)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner in ("US", "German")
    readable(state)


def test_the_e1_scenario_starts_with_its_leaders_ashore() -> None:
    """2.3f: a scenario may set leaders up ashore; e1-draw has Hicks, Taylor and Wyman
    with 2/16 at the shingle, on the map from the first turn until 1300."""
    state = GAME.new_state("e1-draw", seed=1)
    assert isinstance(state, TcsState)
    oob = state.scenario.oob
    at = {ld.id: state.label(state.leader_cell[ld.index]) for ld in oob.leaders
          if state.leader_status[ld.index] == "map"}  # fmt: skip
    assert at == {"Ldr-2/16": "A14.14", "Ldr-16": "A13.14", "Ldr-ADC": "A15.14"}


def test_a_leader_set_up_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "twice.toml"
    path.write_text(
        '[scenario]\ngame = "tcs"\nextends = "e1-draw"\nid = "twice"\n'
        'title = "twice"\nsource = "reconstructed: a test variant"\n'
        '[us]\nsetup = ["E/2/16@A13.14", "Ldr-16@A13.14", "Ldr-16@A14.14"]\n'
        'source = "reconstructed: a test variant"\n'
    )
    with pytest.raises(omaha.ScenarioError, match="Ldr-16 is set up twice"):
        GAME.load_scenario(path)


@pytest.mark.slow
def test_twenty_heuristic_d_day_games() -> None:
    """Issue 12: in 20 seeded heuristic-vs-heuristic d-day games at least half open a
    draw, and every game ends with a winner and a readable log."""
    opened = 0
    for seed in range(1, 21):
        state = bot_game("d-day", seed)
        outcome = state.outcome()
        assert outcome is not None and outcome.winner in ("US", "German"), seed
        readable(state)
        opened += state.metrics()["exits_opened"] > 0
    assert opened >= 10


@pytest.mark.slow
def test_compare_shows_the_common_metrics(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["compare", "--game", "tcs", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    for name in ("us_win", "exits_opened", "german_losses"):
        assert name in out
    assert "tcs/d-day" in out
