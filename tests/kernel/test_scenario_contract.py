"""The scenario file contract (components by reference, extends, overrides), the
declarative schema (every problem at once, documented), and records that embed
custom scenarios so they replay anywhere. On the toy game."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from toygame import GAME, HERE, SCHEMA

import omaha
from omaha.kernel.scenariofile import merge
from omaha.kernel.schema import describe

BASIC = """
[scenario]
id = "mine"
title = "My landing"
turns = 4
source = "reconstructed: a test of the contract"
extends = "beach"

[components]
map = "my_map.toml"

[[us]]
id = "1sq"
hex = "E3"
source = "reconstructed: moved one hex east"
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(HERE / "map.toml", tmp_path / "my_map.toml")
    (tmp_path / "mine.toml").write_text(BASIC)
    return tmp_path


def test_a_custom_scenario_extends_a_shipped_one_and_names_its_own_map(folder: Path) -> None:
    scen = GAME.load_scenario(folder / "mine.toml")
    base = GAME.load_scenario("beach")
    assert scen.turns == 4 and scen.title == "My landing"
    assert [sid for sid, _ in scen.us] == ["1sq", "2sq"]  # merged by id
    assert scen.board.labels[scen.us[0][1]] == "E3"
    assert scen.tokens == base.tokens  # taken from the scenario it extends
    assert [name for name, _ in scen.files] == ["mine.toml", "my_map.toml"]
    assert scen.hash != base.hash


def test_overrides_change_a_component_and_must_state_their_source(folder: Path) -> None:
    text = BASIC.replace('[components]\nmap = "my_map.toml"\n', "") + (
        '\n[overrides.map.map]\ntitle = "A wetter beach"\nsource = "reconstructed: renamed"\n'
    )
    (folder / "mine.toml").write_text(text)
    assert GAME.load_scenario(folder / "mine.toml").board.title == "A wetter beach"
    (folder / "bad.toml").write_text(text.replace('source = "reconstructed: renamed"\n', ""))
    changes = r"bad.toml: overrides.map.map: changes a component"
    with pytest.raises(omaha.ScenarioError, match=changes):
        GAME.load_scenario(folder / "bad.toml")


def test_merge_rules() -> None:
    base = {"units": [{"id": "a", "x": 1, "source": "s"}, {"id": "b", "x": 2}], "n": [1, 2]}
    top = {"units": [{"id": "b", "x": 5}, {"id": "c", "x": 9}], "n": [3]}
    assert merge(base, top, "f") == {
        "units": [{"id": "a", "x": 1, "source": "s"}, {"id": "b", "x": 5}, {"id": "c", "x": 9}],
        "n": [3],
    }
    assert base["units"][1]["x"] == 2  # nothing changed in place


def test_validate_reports_every_problem_at_once(folder: Path) -> None:
    broken = (
        BASIC.replace("turns = 4", "turns = 99")
        .replace('extends = "beach"', "")
        .replace('id = "1sq"', 'id = "1sq"\nspeed = 3')
    ) + '\n[[us]]\nid = "1sq"\nhex = "E4"\nsource = "reconstructed: twice"\n'
    (folder / "broken.toml").write_text(broken)
    problems = [str(p) for p in GAME.validate_file(folder / "broken.toml")]
    assert "broken.toml: scenario.turns: 99 is outside 1..50" in problems
    assert any("us[0].speed: unknown key" in p for p in problems)
    assert any("us[1]: id '1sq' is listed twice (also at [0])" in p for p in problems)
    assert any("german: is required but missing" in p for p in problems)
    assert len(problems) >= 5
    with pytest.raises(omaha.ScenarioError, match=r"and \d+ more problems"):
        GAME.load_scenario(folder / "broken.toml")


def test_files_that_are_not_utf8_or_missing_are_named(folder: Path) -> None:
    (folder / "latin.toml").write_bytes(BASIC.replace("My", "Mé").encode("latin-1"))
    with pytest.raises(omaha.ScenarioError, match=r"latin.toml: is not UTF-8 text"):
        GAME.load_scenario(folder / "latin.toml")
    (folder / "mine.toml").write_text(BASIC.replace("my_map.toml", "nowhere.toml"))
    with pytest.raises(omaha.ScenarioError, match=r"nowhere.toml: cannot be read"):
        GAME.load_scenario(folder / "mine.toml")


def test_a_record_replays_anywhere_from_the_files_it_embeds(
    folder: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    state = GAME.new_state(folder / "mine.toml", seed=3)
    bot = GAME.bots["random"](seed=3)
    while not state.is_terminal():
        state.apply(bot.choose(state))
    text = state.record().to_json()
    assert json.loads(text)["scenario"]["files"][0]["name"] == "mine.toml"
    shutil.rmtree(folder)  # the files are gone; the record carries them
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    here = os.getcwd()
    try:
        os.chdir(elsewhere)
        again = GAME.replay(omaha.GameRecord.from_json(text, "game.json"))
    finally:
        os.chdir(here)
    assert again.log_text() == state.log_text()
    snapshot = GAME.state_from_json(state.to_json())
    assert snapshot.log_text() == state.log_text()


def test_embedded_files_cannot_escape_their_folder(folder: Path) -> None:
    state = GAME.new_state(folder / "mine.toml", seed=1)
    data = json.loads(state.record().to_json())
    data["scenario"]["files"][1]["name"] = "../evil.toml"
    shutil.rmtree(folder)
    record = omaha.GameRecord.from_json(json.dumps(data), "evil.json")
    with pytest.raises(omaha.RecordError, match=r"evil.json: scenario.files: .*stay inside"):
        GAME.replay(record, name="evil.json")


def test_the_schema_documents_itself() -> None:
    text = describe(SCHEMA, "Toy scenario")
    assert "| `turns` | integer in 1..50 | yes | game length in turns |" in text
    assert "one token per German position" in text
    assert "unique by `id`" in text


def test_a_scenario_may_name_its_game(folder: Path) -> None:
    from omaha.kernel.scenariofile import resolve

    def with_game(value: str, name: str) -> Path:
        text = BASIC.replace("[scenario]\n", f"[scenario]\ngame = {value}\n", 1)
        (folder / name).write_text(text)
        return folder / name

    # taken out of the scenario table before any schema sees it
    assert GAME.load_scenario(with_game('"toy"', "named.toml")).title == "My landing"
    where = {"shipped_scenarios": {"beach": HERE / "beach.toml"}, "data_dir": HERE,
             "defaults": {"map": "map"}}  # fmt: skip
    files = resolve(folder / "named.toml", game="toy", **where)
    assert files.game == "toy" and "game" not in files.root.value["scenario"]
    other = with_game('"lnl"', "other.toml")
    with pytest.raises(omaha.ScenarioError, match=r"other.toml: scenario.game: this file is for"):
        resolve(other, game="toy", **where)
    assert resolve(other, **where).game == "lnl"
    with pytest.raises(omaha.ScenarioError) as bad:
        GAME.load_scenario(with_game("3", "bad.toml"))
    assert str(bad.value) == (
        'bad.toml: scenario.game: must be a game\'s name (a string), e.g. game = "lnl"'
    )
