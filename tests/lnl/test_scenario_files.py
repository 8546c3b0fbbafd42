"""LnL Omaha scenario files on the shared contract (issue 14): the layout, the schemas,
every problem at once, small override files, the example custom scenario and records
that replay anywhere."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import omaha
from omaha.kernel.schema import describe
from omaha.lnl.scenario import COMPONENTS, SCENARIOS, SCHEMAS, SHIPPED, LnlScenario
from omaha.lnl.state import LnlState

GAME = omaha.load("lnl")
DOG_GREEN = Path(__file__).parents[2] / "examples" / "custom_scenario" / "lnl_dog_green.toml"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def play(scenario: str | Path, seed: int) -> LnlState:
    st = GAME.new_state(str(scenario), seed=seed)
    bots = {s: GAME.bots[b](seed=seed) for s, b in GAME.lineup("heuristic").items()}
    while not st.is_terminal():
        player = st.current_player()
        assert player is not None
        st.apply(bots[player].choose(st))
    assert isinstance(st, LnlState)
    return st


@pytest.mark.parametrize("sid", SHIPPED)
def test_the_shipped_scenarios_are_written_in_the_contract_layout(sid: str) -> None:
    text = (SCENARIOS / f"{sid}.toml").read_text()
    order = [text.index(k) for k in ("[scenario]", "[components]", "[[victory_hexes]]")]
    assert order == sorted(order)
    assert GAME.validate_file(sid) == []
    scen = GAME.load_scenario(sid)
    assert scen.files == ()  # shipped: a record names it, it embeds nothing


def test_every_file_kind_has_a_schema_that_documents_itself() -> None:
    assert set(SCHEMAS) == {"scenario", *COMPONENTS}
    for kind, schema in SCHEMAS.items():
        text = describe(schema, kind)
        assert "| key | type | required | meaning |" in text
    assert "Reinforcements arrive within the game's length" in describe(SCHEMAS["scenario"], "s")


def test_validate_reports_every_problem_of_the_files_at_once(tmp_path: Path) -> None:
    text = (SCENARIOS / "beach.toml").read_text()
    text = text.replace("turns = 10", "turns = 4", 1)  # turn 5's 2/916 now comes too late
    text = text.replace('"H5", "H17", "J11"', '"H5", "H17", "H5"', 1)  # a victory hex twice
    text = text.replace('"1/B/116", "2/B/116"', '"1/B/116", "1/B/116"', 1)  # a unit twice
    text = text.replace('control = "German"', 'control = "Germans"', 1)
    text = text.replace('units = "units"', 'units = "my_units.toml"', 1)
    units = (Path(omaha.__file__).parent / "lnl" / "data" / "units.toml").read_text()
    units = units.replace('kind = "armor"', 'kind = "tank"', 1).replace(
        "ca = [4, 2]", "ca = [2, 4]"
    )
    write(tmp_path, "my_units.toml", units)
    path = write(tmp_path, "broken.toml", text)
    found = GAME.validate_file(path)
    said = [f"{p.file}: {p.key}: {p.problem}" for p in found]
    expected = [
        "broken.toml: scenario.control: 'Germans' is not one of",
        "broken.toml: victory_hexes[0].at[2]: H5 is a victory hex twice",
        "broken.toml: forces[1].units[1]: '1/B/116' is listed twice",
        "broken.toml: forces[3].turn: turn 5 is after the last turn of the game (4)",
        "my_units.toml: types[4].kind: 'tank' is not one of",
        "the reduced value 4 exceeds the full 2",
    ]
    for part in expected:
        assert any(part in line for line in said), (part, said)
    with pytest.raises(omaha.ScenarioError, match=r"more problems: omaha validate lists them"):
        GAME.load_scenario(str(path))


def test_a_small_file_replaces_the_counter_values(tmp_path: Path) -> None:
    """An owner of the printed game changes one counter type, nothing else."""
    path = write(
        tmp_path,
        "printed.toml",
        '[scenario]\nextends = "beach"\nsource = "LnL Omaha: the printed counters"\n\n'
        '[[overrides.units.types]]\nid = "ger_hmg"\nhe = [16, 8]\n'
        'source = "LnL Omaha: the printed counter (owner\'s copy)"\n',
    )
    assert GAME.validate_file(path) == []
    scen = GAME.load_scenario(str(path))
    beach = GAME.load_scenario("beach")
    assert isinstance(scen, LnlScenario) and isinstance(beach, LnlScenario)
    assert (
        scen.types["ger_hmg"].he == (16, 8) and scen.types["ger_rifle"] == beach.types["ger_rifle"]
    )
    assert scen.scenario_id == "beach" and scen.hash != beach.hash
    bare = write(tmp_path, "bare.toml", '[scenario]\nextends = "beach"\n\n'
                 '[[overrides.units.types]]\nid = "ger_hmg"\nhe = [16, 8]\n')  # fmt: skip
    (problem,) = GAME.validate_file(bare)
    assert "give the changed values a 'source' of their own" in problem.problem


def test_a_file_for_another_game_is_refused(tmp_path: Path) -> None:
    text = (
        (SCENARIOS / "beach.toml").read_text().replace("[scenario]", '[scenario]\ngame = "tcs"', 1)
    )
    (problem,) = GAME.validate_file(write(tmp_path, "tcs.toml", text))
    assert "this file is for 'tcs', not 'lnl'" in problem.problem


# --------------------------------------------------------------------------
# The example custom scenario and portable records
# --------------------------------------------------------------------------
def test_the_example_custom_scenario_validates_plays_and_replays() -> None:
    assert GAME.validate_file(DOG_GREEN) == []
    scen = GAME.load_scenario(str(DOG_GREEN))
    assert isinstance(scen, LnlScenario)
    assert scen.turns == 8 and scen.victory_mode == "points" and len(scen.units) == 17
    assert {scen.board.label(c): p for c, p in scen.victory_points.items()} == {
        "H5": 3, "J5": 2, "J7": 2, "F6": 2,
    }  # fmt: skip
    for seed in range(2):
        st = play(DOG_GREEN, seed)
        outcome = st.outcome()
        assert outcome is not None and outcome.level in ("US victory", "German victory", "draw")
        record = omaha.GameRecord.from_json(st.record().to_json())
        assert GAME.replay(record).log_text() == st.log_text()
        assert GAME.replay(record, scripted=True).outcome() == outcome


def test_a_record_of_a_custom_scenario_replays_elsewhere_without_its_files(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    folder = tmp_path_factory.mktemp("custom")
    shutil.copy(DOG_GREEN, folder / DOG_GREEN.name)
    st = play(f"{folder / DOG_GREEN.name}+turn11", 5)  # an option rides on the reference
    assert st.turn == 11
    text = st.record().to_json()
    assert json.loads(text)["scenario"]["files"][0]["name"] == DOG_GREEN.name
    snapshot = st.to_json()
    shutil.rmtree(folder)  # the files are gone: the record carries them
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    here = os.getcwd()
    try:
        os.chdir(elsewhere)
        again = GAME.replay(omaha.GameRecord.from_json(text, "game.json"))
        restored = GAME.state_from_json(snapshot)
    finally:
        os.chdir(here)
    assert again.log_text() == st.log_text() and again.outcome() == st.outcome()
    assert again.scenario.turns == 11 and restored.scenario.turns == 11  # type: ignore[attr-defined]
    assert json.loads(restored.to_json())["state"] == json.loads(snapshot)["state"]
