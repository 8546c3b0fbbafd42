"""Scenario files as a contract (issue 14): the shared format (``[scenario]``,
``[components]``, ``[overrides]``, ``extends``), the schemas that report every problem
of a file and its components at once, records that carry custom files, and the
example scenario written from scratch."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import omaha
from omaha.kernel.records import GameRecord
from omaha.kernel.schema import validate
from omaha.landing_table.scenario import DATA, SCENARIOS, SCHEMAS, SHIPPED, resolve_files

from .helpers import GAME

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "custom_scenario" / "landing_table_easy_red.toml"


def problems_of(path: Path) -> list[str]:
    return [str(p) for p in GAME.validate_file(path)]


def scenario(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


SHORT = """
naval = []

[scenario]
game = "landing_table"
extends = "first_wave"
id = "short"
title = "Three turns"
turns = 3
source = "reconstructed: a test"
"""


@pytest.mark.parametrize("sid", SHIPPED)
def test_shipped_scenarios_are_in_the_shared_format_and_sound(sid: str) -> None:
    files = resolve_files(sid)
    assert set(files.components) == set(SCHEMAS) - {"scenario"}
    assert validate(files.root, SCHEMAS["scenario"]) == []
    for kind, node in files.components.items():
        assert validate(node, SCHEMAS[kind]) == [], kind
    assert problems_of(SCENARIOS / f"{sid}.toml") == []
    text = (SCENARIOS / f"{sid}.toml").read_text()
    assert "[components]" in text and "[files]" not in text


def test_every_problem_of_a_file_and_its_components_is_reported_at_once(tmp_path: Path) -> None:
    cards = (DATA / "cards.toml").read_text()
    cards = cards.replace('colours = ["red"]', 'colours = ["purple"]', 1)
    (tmp_path / "my_cards.toml").write_text(cards)
    path = scenario(
        tmp_path,
        """
[scenario]
game = "landing_table"
extends = "first_wave"
id = "broken"
title = "broken"
turns = 40
heros = 2
start = "6h30"
source = "reconstructed: broken on purpose"

[components]
cards = "my_cards.toml"

[victory]
exit = 3
position = 1
levels = [{ min = 4, level = "win", winner = "US" }, { min = 4, level = "win" }]
source = "reconstructed: broken"
""",
    )
    found = problems_of(path)
    assert found == [
        "mine.toml: scenario.turns: 40 is outside 1..32",
        "mine.toml: scenario.start: '6h30' is not a time like '06:30'",
        "mine.toml: scenario.heros: unknown key (expected one of: extends, heroes, id, minutes, "
        "source, start, title, turns)",
        "mine.toml: victory.levels[1]: min 4 is listed twice (also at [0])",
        "mine.toml: victory.levels: the lowest level must start at 0 VP",
        "mine.toml: victory.levels[1].level: level 'win' is named twice",
        "my_cards.toml: deck.cards[0].colours[0]: 'purple' is not one of: red, yellow, blue, green",
    ]
    with pytest.raises(omaha.ScenarioError, match=r"\(and 6 more problems: omaha validate"):
        GAME.load_scenario(path)


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (
            '[[naval]]\nturn = 5\nmarkers = 1\nsource = "reconstructed: late"\n',
            "naval[0].turn: turn 5 is after the scenario's last turn (3)",
        ),
        (
            '[[tide]]\nfrom = 2\nlevel = "low"\nsource = "reconstructed: x"\n',
            "tide: the tide must be given from turn 1",
        ),
        (
            '[depth]\n"716" = ["1"]\n"352" = ["X"]\ndivision = ["Fus/352", "Fus/352"]\n'
            'source = "reconstructed: x"\n',
            "depth.352[0]: 'X' is not a depth marker (a strength or TR)",
        ),
        (
            '[depth]\n"716" = ["1"]\n"352" = ["2"]\ndivision = ["Fus/352", "Fus/352"]\n'
            'source = "reconstructed: x"\n',
            "depth.division[1]: 'Fus/352' is listed twice (also at [0])",
        ),
    ],
)
def test_cross_field_checks_live_in_the_schema(tmp_path: Path, extra: str, problem: str) -> None:
    text = SHORT.replace("naval = []\n", "") if "naval" in extra else SHORT
    found = problems_of(scenario(tmp_path, text + "\n" + extra))
    assert f"mine.toml: {problem}" in found


@pytest.mark.parametrize(
    ("kind", "old", "new", "problem"),
    [
        (
            "positions",
            'garrison = "WN73"',
            'garrison = "WN74"',
            "position[1].garrison: 'WN74' already garrisons another position "
            "(position[0].garrison)",
        ),
        ("positions", 'advance = "', 'advance = "R-Nowhere', "is not a position of this file"),
        ("oob", 'with = "', 'with = "Z/99', "is not a unit of this file"),
        ("oob", 'kind = "battalion"', 'kind = "infantry"', "kind 'infantry' is listed twice"),
        ("movement", 'name = "vehicle"', 'name = "foot"', "movement class 'vehicle' is missing"),
        ("map", 'id = "L02"', 'id = "L01"', "boxes[1]: id 'L01' is listed twice"),
    ],
)
def test_component_cross_references_are_checked(
    tmp_path: Path, kind: str, old: str, new: str, problem: str
) -> None:
    body = (DATA / f"{kind}.toml").read_text()
    assert old in body
    (tmp_path / f"my_{kind}.toml").write_text(body.replace(old, new, 1))
    text = SHORT + f'\n[components]\n{kind} = "my_{kind}.toml"\n'
    found = problems_of(scenario(tmp_path, text))
    assert any(f.startswith(f"my_{kind}.toml: ") and problem in f for f in found), found


def test_an_override_changes_a_component_and_must_say_why(tmp_path: Path) -> None:
    moved = SHORT + '\n[overrides.oob]\nus = [{ id = "A/116", box = "L09"%s }]\n'
    with pytest.raises(omaha.ScenarioError, match=r"overrides\.oob\.us\[id=A/116\]: changes"):
        GAME.load_scenario(scenario(tmp_path, moved % "", "bare.toml"))
    path = scenario(tmp_path, moved % ', source = "reconstructed: a test"')
    scen = GAME.load_scenario(path)
    assert scen.boxes[scen.us_by_id["A/116"].box - 1] == "L09"
    assert scen.turns == 3 and scen.naval == ()
    assert scen.id == str(path) and scen.files[0][0] == "mine.toml"
    assert any(p.component == "scenario" and p.key == "short" for p in scen.provenance)


def _play(path: Path | str, seed: int) -> omaha.State:  # type: ignore[type-arg]
    state = GAME.new_state(str(path), seed=seed)
    bot = GAME.bots["heuristic"](seed=seed)
    while not state.is_terminal():
        state.apply(bot.choose(state))
    return state


def test_the_example_validates_plays_to_the_end_and_replays(tmp_path: Path) -> None:
    assert problems_of(EXAMPLE) == []
    scen = GAME.load_scenario(EXAMPLE)
    assert scen.turns == 12 and scen.vp_exit == 6 and "Pi/352" not in scen.division
    assert {scen.boxes[scen.us_by_id[u].box - 1] for u in ("A/116", "G/116", "F/116")} <= {
        "L09",
        "L10",
    }
    state = _play(EXAMPLE, seed=5)
    outcome = state.outcome()
    assert outcome is not None and state.turn == 12
    assert outcome.level in {lv.level for lv in scen.levels}
    again = GAME.replay(GameRecord.from_json(state.record().to_json()))
    assert again.log_text() == state.log_text()


def test_a_record_on_a_custom_scenario_replays_elsewhere_once_its_files_are_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(EXAMPLE, folder / "easy_red.toml")
    oob = (DATA / "oob.toml").read_text().replace("attack = 6\n", "attack = 8\n", 1)
    (folder / "my_oob.toml").write_text(oob)  # a component file of its own
    text = (folder / "easy_red.toml").read_text()
    (folder / "easy_red.toml").write_text(text.replace('oob = "oob"', 'oob = "my_oob.toml"'))
    state = _play(folder / "easy_red.toml", seed=2)
    assert state.scenario.naval_attack == 8
    record = state.record().to_json()
    assert "my_oob.toml" in record and "easy_red.toml" in record
    shutil.rmtree(folder)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    again = GAME.replay(GameRecord.from_json(record))
    assert again.log_text() == state.log_text()
    assert again.outcome() == state.outcome() and again.scenario.naval_attack == 8
