"""TCS Omaha scenario files on the shared contract (issue 14): resolved components,
schemas that report every problem at once, portable records, and the example custom
scenario played to the end."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import omaha
from omaha.kernel.protocol import State
from omaha.tcs import GAME
from omaha.tcs.scenario import COMPONENTS, SCHEMAS

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "custom_scenario"
F1 = EXAMPLE / "tcs_f1_draw.toml"
SETUP = EXAMPLE / "tcs_f1_setup.toml"


def play(scenario: str | Path, seed: int) -> State:
    state = GAME.new_state(scenario, seed=seed)
    bots = {p: GAME.bots["heuristic"](seed=seed * 11 + i) for i, p in enumerate(GAME.players)}
    fallback = GAME.bots["random"](seed=seed)
    while not state.is_terminal():
        try:
            action = bots[state.current_player() or ""].choose(state)
        except omaha.IllegalAction:
            action = fallback.choose(state)
        state.apply(action)
    return state


def test_every_file_kind_has_a_schema_and_the_shipped_scenarios_are_sound() -> None:
    assert set(SCHEMAS) == {"scenario", *COMPONENTS}
    for scenario in GAME.scenarios():
        path = Path(omaha.tcs.scenario.SCENARIOS) / f"{scenario}.toml"
        assert GAME.validate_file(path) == []
        assert 'game = "tcs"' in path.read_text() and "[components]" in path.read_text()
        assert GAME.load_scenario(scenario).files == ()  # shipped: named, not embedded


BROKEN = """
[scenario]
game = "tcs"
id = "broken"
title = "Broken"
start = "1200 6 June"
end = "1000 6 June"
weather = "foggy"
source = "reconstructed: a test"
colour = "red"

[options]
landing = "no"

[german]
pillboxes = 4
rocket_pits = 0
formations = ["5./916", "5./916"]
release = [{ low = 1, high = 3, result = "none" }, { low = 5, high = 6, result = "release" }]
source = "reconstructed: a test"

[us]
setup = ["E/2/16@A13.14", "E/2/16@A14.14"]
source = "reconstructed: a test"

[victory]
exit_points = 10
early_exit_points = 0
early_by = "1300 6 June"
village_points = 0
strongpoint_points = 3
us_loss_steps = 10
levels = [
  { points = 0, level = "German", winner = "German" },
  { points = 10, level = "US", winner = "US" },
]
source = "reconstructed: a test"
"""


def test_validate_reports_every_problem_of_a_file_at_once(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(BROKEN)
    found = GAME.validate_file(path)
    text = "\n".join(str(p) for p in found)
    for expected in (
        "scenario.end",  # before the start
        "scenario.weather",  # not clear or overcast
        "scenario.colour",  # an unknown key
        "options.landing",  # not true or false
        "german.formations[1]",  # listed twice
        "german.release",  # a gap in the rolls
        "us.setup[1]",  # E/2/16 set up twice
        "victory.levels",  # not from the highest down
    ):
        assert expected in text, f"{expected} missing from:\n{text}"
    assert all(p.file == "broken.toml" for p in found)
    assert len(found) >= 8


def test_early_by_must_be_a_turn_and_a_bad_component_is_named(tmp_path: Path) -> None:
    text = F1.read_text().replace('early_by = "1120 6 June"', 'early_by = "1400 6 June"')
    (tmp_path / "f1.toml").write_text(text.replace('german = "german"', 'german = "mine.toml"'))
    shutil.copy(SETUP, tmp_path / SETUP.name)
    (tmp_path / "mine.toml").write_text("[types]\n[pillboxes]\n[rocket_pits]\n")
    found = [str(p) for p in GAME.validate_file(tmp_path / "f1.toml")]
    assert any("victory.early_by" in p and "not a turn" in p for p in found)
    assert any(p.startswith("mine.toml: formations") and "required" in p for p in found)


def test_a_scenario_extends_a_shipped_one_with_its_own_victory(tmp_path: Path) -> None:
    path = tmp_path / "harder.toml"
    path.write_text(
        '[scenario]\ngame = "tcs"\nextends = "e1-draw"\nid = "harder"\n'
        'title = "E-1, harder"\nsource = "reconstructed: a test variant"\n'
        '[victory]\nus_loss_steps = 5\nsource = "reconstructed: losses count double"\n'
    )
    assert GAME.validate_file(path) == []
    harder, base = GAME.load_scenario(path), GAME.load_scenario("e1-draw")
    assert harder.victory is not None and base.victory is not None
    assert (harder.victory.us_loss_steps, base.victory.us_loss_steps) == (5, 20)
    assert harder.victory.levels == base.victory.levels and harder.hash != base.hash
    assert [name for name, _ in harder.files] == ["harder.toml"]


def test_the_example_custom_scenario_validates_plays_and_replays() -> None:
    assert GAME.validate_file(F1) == []
    scen = GAME.load_scenario(F1)
    assert [name for name, _ in scen.files] == [F1.name, SETUP.name]
    assert len(scen.turns) == 7 and scen.n_pillboxes == 4 and not scen.landing
    assert scen.victory is not None and scen.victory.early_by == "1120 6 June"
    assert scen.setups["wn60"].pillboxes == ("B9.12", "B12.12", "B14.11", "B15.10")
    for seed in (1, 2):
        state = play(F1, seed)
        outcome = state.outcome()
        assert outcome is not None and outcome.winner in ("US", "German")
        record = omaha.GameRecord.from_json(state.record().to_json())
        assert GAME.replay(record).log_text() == state.log_text()


@pytest.mark.parametrize("seed", [3])
def test_a_record_of_a_custom_scenario_replays_elsewhere_without_its_files(
    seed: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("custom")
    for f in (F1, SETUP):
        shutil.copy(f, folder / f.name)
    state = play(folder / F1.name, seed)
    text = state.record().to_json()
    names = [f["name"] for f in json.loads(text)["scenario"]["files"]]
    assert names == [F1.name, SETUP.name]
    snapshot = state.to_json()
    shutil.rmtree(folder)  # the files are gone: the record carries them
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    here = os.getcwd()
    try:
        os.chdir(elsewhere)
        again = GAME.replay(omaha.GameRecord.from_json(text, "game.json"))
        restored = GAME.state_from_json(snapshot)
    finally:
        os.chdir(here)
    assert again.log_text() == state.log_text() and again.outcome() == state.outcome()
    assert json.loads(restored.to_json())["state"] == json.loads(snapshot)["state"]
