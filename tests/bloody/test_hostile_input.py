"""Hostile input (issue 10): tampered snapshots, actions naming what does not exist,
scenario files that contradict themselves. Each is refused with a message that says
what is wrong, and nothing changes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bloody_helpers import GAME, copy_shipped, new, staged

import omaha
from omaha import testing
from omaha.bloody.actions import Engineers, Move
from omaha.bloody.scenario import load_scenario


# ------------------------------------------------------------------ snapshots
def mid_game() -> omaha.State:  # type: ignore[type-arg]
    st = new(4)
    bot = GAME.bots["heuristic"](seed=4)
    while st.turn < 5:
        st.apply(bot.choose(st))
    assert any(w >= 0 for w, _ in st.tanks), "the heuristic brings tanks ashore by turn 5"
    return st


def tampered(change: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(mid_game().to_json())
    change(data["state"])
    return json.dumps(data)


def first_unit(state: dict[str, Any], landed: bool = True) -> dict[str, Any]:
    return next(u for u in state["units"].values() if u["landed"] == landed and u["at"][0] != "e")


def set_pile_card(state: dict[str, Any]) -> None:
    state["deck"]["pile"][0] = "c99"


def duplicate_card(state: dict[str, Any]) -> None:
    state["deck"]["pile"][0] = state["hand"][0]


def two_strongpoints(state: dict[str, Any]) -> None:
    cell = next(lab for lab, toks in state["tokens"].items() if any(f[:2] == "sp" for f, _ in toks))
    state["tokens"][cell].append(["sp5", False])


def tank_astray(state: dict[str, Any]) -> None:
    tank = next(t for t in state["tanks"] if t[1] is not None)
    tank[0] = "H40"


CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a card id not in the deck", set_pile_card, "c99 not among the scenario's cards"),
    ("a card twice", duplicate_card, "more than once"),
    (
        "a unit disrupted 99 times",
        lambda s: first_unit(s).update(disrupted=99),
        r"disrupted: 99 is not true or false",
    ),
    (
        "a unit on a square that does not exist",
        lambda s: first_unit(s).update(at="Z99"),
        r"\.at: 'Z99' is not a square of the map",
    ),
    (
        "a landed unit back at sea",
        lambda s: first_unit(s).update(at="C5"),
        r"landed but still at sea in C5",
    ),
    (
        "a unit with steps",
        lambda s: first_unit(s).update(steps=99),
        r"unknown key\(s\) 'steps'",
    ),
    ("a token face not in the mix", lambda s: s["tokens"].update(S3=[["sp99", False]]), "sp99"),
    ("two Strongpoint tokens in a square", two_strongpoints, r"2 Strongpoint tokens \(4.1\)"),
    ("Initiative 99", lambda s: s.update(initiative=[99, 1]), r"initiative\[0\]: 99 is outside"),
    ("no turn", lambda s: s.pop("turn"), r"state\.turn: missing"),
    ("turn 50 of 8", lambda s: s.update(turn=50), r"state\.turn: 50 is outside 1\.\.8"),
    ("a phase that does not exist", lambda s: s.update(phase="Lunch"), "not a phase"),
    ("a tank away from its unit", tank_astray, r"tank\d: not in the square of"),
    ("a VP count off the board", lambda s: s["counts"].update(sp_removed=11), "removed"),
    ("a Gap not on a beach", lambda s: s.update(gaps=["S3"]), "S3 is not a Beach square"),
    ("units as a list", lambda s: s.update(units=[]), r"state\.units: \[\] is not an object"),
]


@pytest.mark.parametrize(("change", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_tampered_snapshot_is_refused_naming_what_is_wrong(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    text = tampered(change)
    with pytest.raises(omaha.RecordError, match=message) as err:
        GAME.state_from_json(text, name="save.json")
    assert "save.json" in str(err.value)


def test_an_untouched_snapshot_loads_and_plays_on() -> None:
    st = mid_game()
    twin = GAME.state_from_json(st.to_json())
    assert twin.invariants() == [] and twin.to_json() == st.to_json()


# ------------------------------------------------------------------ actions
def test_actions_naming_what_does_not_exist_are_illegal_with_the_reason() -> None:
    st = staged(
        units={"A/116": "B2", "G/116": "B3"},
        tokens={"S3": [("sp4", True)]},
        hand=["c02", "c04"],
        dice=[1, 2, 3, 4, 5, 6],
    )
    for text, message in (
        ("move A/116 to Z99", '"Z99" is not a square of this map'),
        ("attack Z99 from B2", '"Z99" is not a square of this map'),
        ("engineers at Z99 with 1", '"Z99" is not a square of this map'),
        ("release 1/18 to Z99", '"Z99" is not a square of this map'),
        ("play c04 option 2 at Z99", '"Z99" is not a square of this map'),
        ("random event Z99 next to B2", '"Z99" is not a square of this map'),
        ("add Z99", '"Z99" is not a square of this map'),
        ("rally X/999", 'there is no unit "X/999"'),
        ("move X/999 to B3", 'there is no unit "X/999"'),
        ("tank tank9 to A/116", r'there is no tank "tank9" \(tank1-tank3\)'),
        ("play c99 option 1", 'there is no card "c99"'),
        ("play c02 option 7", r"c02 has no option 7 \(1-2\)"),
        ("return c99", 'there is no card "c99"'),
        ("engineers at B2 with 0", "at least 1 Engineer asset"),
    ):
        testing.assert_illegal(st, text, match=message)


def test_mistyped_actions_are_illegal_and_explained() -> None:
    st = staged(units={"A/116": "B2"})
    for action in (Move(b"A/116", "B3"), Engineers("B2", "2"), Engineers("B2", True)):  # type: ignore[arg-type]
        testing.assert_illegal(st, action, match="is not of type")
        assert "is not of type" in st.explain_illegal(action)


# ------------------------------------------------------------------ scenario files
def replace_once(path: Path, old: str, new_text: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new_text, 1))


def test_the_game_must_fit_on_the_game_track(tmp_path: Path) -> None:
    scen = copy_shipped(tmp_path)
    replace_once(scen, "turns = 8", "turns = 30")
    with pytest.raises(
        omaha.ScenarioError, match=r"solo.toml: scenario.turns: 30 turns do not fit"
    ):
        load_scenario(str(scen))


@pytest.mark.parametrize(
    ("file", "old", "new_text", "message"),
    [
        (
            "tokens.toml",
            "[[strongpoints]]\nvalue = 6\n",
            "[[strongpoints]]\nvalue = 5\n",
            r"tokens.toml: strongpoints\[\d+\]: value 5 is listed twice \(also at \[0\]\)",
        ),
        (
            "tokens.toml",
            'kind = "sniper"',
            'kind = "mines"',
            r"tokens.toml: encounters\[\d+\]: Encounter mines is listed twice",
        ),
        (
            "tables.toml",
            "roll = 2",
            "roll = 1",
            r"tables.toml: random_events.\w+\[1\].roll: roll 1 appears twice in the \w+ table",
        ),
        (
            "units.toml",
            'id = "B/116"',
            'id = "A/116"',
            r"units.toml: units\[\d+\]: id 'A/116' is listed twice \(also at \[1\]\)",
        ),
    ],
)
def test_contradictions_inside_a_component_file(
    tmp_path: Path, file: str, old: str, new_text: str, message: str
) -> None:
    scen = copy_shipped(tmp_path)
    replace_once(tmp_path / file, old, new_text)
    with pytest.raises(omaha.ScenarioError, match=message):
        load_scenario(str(scen))


def test_an_arrow_or_exit_listed_twice(tmp_path: Path) -> None:
    scen = copy_shipped(tmp_path)
    text = (tmp_path / "map.toml").read_text()
    arrow = text[text.index("[[links]]") :].split("\n\n")[0]
    (tmp_path / "map.toml").write_text(text + "\n" + arrow + "\n")
    with pytest.raises(
        omaha.ScenarioError, match=r"map.toml: links\[\d+\]: arrow \S+ is listed twice"
    ):
        load_scenario(str(scen))
    copy_shipped(tmp_path)
    replace_once(tmp_path / "map.toml", 'exit = "D3"', 'exit = "D1"')
    with pytest.raises(omaha.ScenarioError, match="exit D1 is already the exit of"):
        load_scenario(str(scen))


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    scen = copy_shipped(tmp_path)
    (tmp_path / "cards.toml").write_bytes("# café\n".encode("latin-1") + b"cards = []\n")
    with pytest.raises(omaha.ScenarioError, match=r"cards.toml: is not UTF-8 text \(byte 5\)"):
        load_scenario(str(scen))
    scen.write_bytes(scen.read_bytes().replace(b"solo game", b"solo g\xe2me"))
    with pytest.raises(omaha.ScenarioError, match=r"solo.toml: is not UTF-8 text"):
        load_scenario(str(scen))
