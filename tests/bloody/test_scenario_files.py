"""Bloody Omaha scenario files as a contract (issue 14): the shipped scenario in the
shared layout, schemas that report every problem of a file at once (with the checks
across fields and files), overrides from a small file, the example custom scenario,
and records of custom scenarios that replay anywhere."""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from pathlib import Path

import pytest
from bloody_helpers import GAME, copy_shipped

import omaha
from omaha.bloody import rules
from omaha.bloody.scenario import SCENARIOS, SCHEMAS, load_scenario
from omaha.kernel.protocol import State
from omaha.kernel.schema import describe

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "custom_scenario"
ALL_RANGERS = EXAMPLE / "bloody_all_rangers.toml"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def play(scenario: str | Path, seed: int, bot: str = "heuristic") -> State:  # type: ignore[type-arg]
    st = GAME.new_state(scenario, seed=seed)
    b = GAME.bots[bot](seed=seed)
    while not st.is_terminal():
        st.apply(b.choose(st))
    return st


# --------------------------------------------------------------------------
# The shipped scenario
# --------------------------------------------------------------------------
def test_the_shipped_scenario_is_written_in_the_contract_layout() -> None:
    data = tomllib.loads((SCENARIOS / "solo.toml").read_text())
    assert list(data) == ["scenario", "components", "victory"]
    assert data["components"] == {k: k for k in ("map", "units", "tokens", "tables", "cards")}
    assert GAME.validate_file(SCENARIOS / "solo.toml") == []
    assert GAME.validate_file("solo") == []
    scen = GAME.load_scenario()
    assert scen.id == "solo" and scen.files == ()  # shipped: referenced by name
    assert scen.victory == rules.PUBLISHED_VICTORY


def test_every_file_kind_has_a_schema_that_documents_itself() -> None:
    assert set(SCHEMAS) == {"scenario", "map", "units", "tokens", "tables", "cards"}
    text = describe(SCHEMAS["scenario"], "scenario")
    assert "| `turns` | integer in 1..99 | yes |" in text
    assert "the turns fit on the Game Track (3.5.a)" in text
    assert "unique by `id`" in describe(SCHEMAS["units"], "units")


# --------------------------------------------------------------------------
# Every problem at once
# --------------------------------------------------------------------------
BREAKAGES = [
    # (file, old, new, a problem the validator must name)
    ("solo.toml", "turns = 8", "turns = 30", "solo.toml: scenario.turns: 30 turns do not fit"),
    (
        "solo.toml",
        "major_vp = 41",
        "major_vp = 30",
        "solo.toml: victory.historical_vp: 30 must be below major_vp (30)",
    ),
    ("solo.toml", "track_max = 20", "track_max = 20\ncolour = 3", "scenario.colour: unknown key"),
    ("units.toml", 'id = "B/116"', 'id = "A/116"', "units.toml: units[9]: id 'A/116' is listed"),
    (
        "units.toml",
        "strength = [10, 6]",
        "strength = [10, 12]",
        "units.toml: units[19].strength: the reduced side must be weaker",
    ),
    ("units.toml", 'setup = "C3"', 'setup = "Z99"', "units.toml: units[2].setup: 'Z99' is not"),
    ("tables.toml", "from = 5\nto = 6\neast = 1", "from = 6\nto = 6\neast = 1", "drift: rows 0"),
    ("tables.toml", 'effect = "rally"', 'effect = "ralley"', "'ralley' is not one of"),
    ("cards.toml", "from = 2\nto = 5", "from = 5\nto = 2", "window turn 5 to turn 2 is empty"),
    ("cards.toml", 'id = "c02"', 'id = "c01"', "cards.toml: cards[1]: id 'c01' is listed twice"),
    ("tokens.toml", 'kind = "sniper"', 'kind = "snipers"', "'snipers' is not one of"),
    ("map.toml", 'label = "H8"', 'label = "S99"', "a hedgerow square's label starts with H"),
]


def test_validate_reports_every_problem_of_the_files_at_once(tmp_path: Path) -> None:
    scen = copy_shipped(tmp_path)
    for file, old, new, _ in BREAKAGES:
        edit(tmp_path / file, old, new)
    problems = [str(p) for p in GAME.validate_file(scen)]
    for *_, expected in BREAKAGES:
        assert any(expected in p for p in problems), (expected, problems)
    assert all(": " in p and p.split(":")[0].endswith(".toml") for p in problems)
    with pytest.raises(omaha.ScenarioError, match=r"\(and \d+ more problems: omaha validate"):
        load_scenario(str(scen))


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        (
            "tokens.toml",
            'kind = "sniper"\ncount = 3',
            'kind = "sniper"\ncount = 1',
            "tokens.toml: encounters: the map needs 32 Encounter tokens",
        ),
        ("map.toml", 'exit = "D3"', 'exit = "D1"', "exit D1 is already the exit of"),
        (
            "solo.toml",
            "historical_exits = 3",
            "historical_exits = 6\nmajor_exits = 6",
            "solo.toml: victory.historical_exits: 6 exits: the map has 5 (2.2)",
        ),
        (
            "solo.toml",
            "turns = 8",
            "turns = 2",
            "solo.toml: scenario.turns: 2 turns end before reinforcements may be released",
        ),
        (
            "tables.toml",
            'effect = "initiative_now"\namount = -1',
            'effect = "initiative_now"',
            "effect initiative_now needs an amount",
        ),
        (
            "cards.toml",
            'effect = "rally"',
            'effect = "rally"\n[[cards.options]]\nfrom = 2\nwhen = "activation"\neffect = "rally"',
            "cards.toml: cards[2].options[1]: repeats option 1 of this card",
        ),
        (
            "solo.toml",
            "defeat_below_exits = 2",
            "defeat_below_exits = 4",
            "victory.defeat_below_exits: 4 must be at most historical_exits (3)",
        ),
    ],
)
def test_checks_across_fields_and_files(
    tmp_path: Path, file: str, old: str, new: str, expected: str
) -> None:
    scen = copy_shipped(tmp_path)
    edit(tmp_path / file, old, new)
    problems = [str(p) for p in GAME.validate_file(scen)]
    assert any(expected in p for p in problems), problems
    with pytest.raises(omaha.ScenarioError):
        load_scenario(str(scen))


def test_a_file_for_another_game_is_refused(tmp_path: Path) -> None:
    scen = copy_shipped(tmp_path)
    edit(scen, 'game = "bloody"', 'game = "lnl"')
    [problem] = GAME.validate_file(scen)
    assert "solo.toml: scenario.game" in str(problem) and "lnl" in str(problem)
    with pytest.raises(omaha.ScenarioError, match=r"scenario.game"):
        load_scenario(str(scen))


def test_a_missing_or_unreadable_scenario_is_one_problem(tmp_path: Path) -> None:
    [problem] = GAME.validate_file(tmp_path / "nowhere.toml")
    assert "is neither a shipped scenario (solo) nor a scenario file" in str(problem)


# --------------------------------------------------------------------------
# Overrides from a small file
# --------------------------------------------------------------------------
SMALL = """
[scenario]
id = "my_drift"
title = "Bloody Omaha with my drift table"
source = "reconstructed: a test of overrides"
extends = "solo"

[overrides.tables]
drift = [
  { to = 3, east = 0, source = "reconstructed: a calmer sea" },
  { from = 4, east = 1, source = "reconstructed: a calmer sea" },
]

[[overrides.units.units]]
id = "1/18"
setup = "C26"
source = "reconstructed: the 18th RCT's first battalion waits off Easy Red"
"""


def test_a_small_file_replaces_one_table_and_one_counter(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(SMALL)
    scen = GAME.load_scenario(tmp_path / "mine.toml")
    solo = GAME.load_scenario()
    assert [r.east for r in scen.drift.rows] == [0, 1]
    assert scen.drift != solo.drift and scen.beach == solo.beach
    u = scen.unit_index["1/18"]
    assert scen.board.labels[scen.units[u].setup] == "C26" and solo.units[u].setup < 0
    assert scen.units[u].source.text.startswith("reconstructed: the 18th RCT")
    assert scen.victory == solo.victory and scen.turns == solo.turns  # from solo
    assert [name for name, _ in scen.files] == ["mine.toml"]
    assert scen.hash != solo.hash
    st = play(tmp_path / "mine.toml", 4, "random")
    assert st.is_terminal()


def test_an_override_must_state_its_source(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text(
        SMALL.replace(
            'source = "reconstructed: the 18th RCT\'s first battalion waits off Easy Red"\n', ""
        )
    )
    with pytest.raises(omaha.ScenarioError, match=r"bad.toml: overrides.units.units\[id=1/18\]"):
        GAME.load_scenario(tmp_path / "bad.toml")


# --------------------------------------------------------------------------
# The example custom scenario and portable records
# --------------------------------------------------------------------------
def test_the_example_custom_scenario_validates_plays_and_replays() -> None:
    assert GAME.validate_file(ALL_RANGERS) == []
    scen = GAME.load_scenario(ALL_RANGERS)
    solo = GAME.load_scenario()
    rangers = [u.id for u in scen.units if u.division == rules.RANGERS]
    assert {"D/2Rng", "E/2Rng", "F/2Rng"} <= set(rangers) and len(scen.units) == 32
    assert scen.victory.historical_exits == 4 and scen.victory.major_vp == 45
    assert scen.turns == solo.turns and scen.encounter_tokens == solo.encounter_tokens
    for seed in range(3):
        st = play(ALL_RANGERS, seed)
        record = omaha.GameRecord.from_json(st.record().to_json())
        again = GAME.replay(record)
        assert again.log_text() == st.log_text()
        assert GAME.replay(record, scripted=True).outcome() == st.outcome()


def test_the_changed_victory_condition_decides_the_level() -> None:
    scen = GAME.load_scenario(ALL_RANGERS)
    # three exits and 35 VP: a Historical Victory as published, a Draw in the variant
    assert rules.victory_level(3, 5, 35) == rules.HISTORICAL
    assert rules.victory_level(3, 5, 35, scen.victory) == rules.DRAW
    assert rules.victory_level(4, 5, 35, scen.victory) == rules.HISTORICAL
    assert rules.victory_level(5, 5, 44, scen.victory) == rules.HISTORICAL
    assert rules.victory_level(5, 5, 45, scen.victory) == rules.MAJOR


def test_a_record_of_a_custom_scenario_replays_elsewhere_without_its_files(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    folder = tmp_path_factory.mktemp("custom")
    shutil.copy(ALL_RANGERS, folder / ALL_RANGERS.name)
    st = play(folder / ALL_RANGERS.name, 7)
    text = st.record().to_json()
    assert json.loads(text)["scenario"]["files"][0]["name"] == ALL_RANGERS.name
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
    assert restored.log_text() == st.log_text()
    assert json.loads(restored.to_json())["state"] == json.loads(snapshot)["state"]
