import json

import attrs
import pytest

from omaha.errors import IllegalAction, ScenarioError
from omaha.kernel.actions import Action, ActionCodec
from omaha.kernel.data import Source, content_hash, parse_source, parse_toml
from omaha.kernel.events import Event, register_templates
from omaha.kernel.turns import TurnTrack


@attrs.frozen
class Fire(Action):
    notation = "fire {firers} at {target} hard={hard}"
    firers: tuple[str, ...]
    target: str
    hard: bool


@attrs.frozen
class Place(Action):
    notation = "place {unit} in {where} step {n}"
    unit: str
    where: str | None
    n: int


@attrs.frozen
class Pass(Action):
    notation = "pass"


CODEC = ActionCodec([Fire, Place, Pass])


@pytest.mark.parametrize(
    "action",
    [
        Fire(("1/B/116", "2/B/116"), "J9", True),
        Fire((), "J9", False),
        Place("C/5th Ranger", "K4", 2),
        Place("x", None, -1),
        Place('say "hi"', "-", 0),
        Pass(),
    ],
)
def test_notation_and_json_round_trip(action: Action) -> None:
    text = str(action)
    assert CODEC.parse(text) == action
    assert CODEC.from_data(json.loads(json.dumps(action.to_data()))) == action


def test_notation_reads_like_player_notation() -> None:
    assert str(Fire(("1/B/116", "2/B/116"), "J9", True)) == "fire 1/B/116,2/B/116 at J9 hard=yes"
    assert str(Place("C/5th Ranger", "K4", 2)) == 'place "C/5th Ranger" in K4 step 2'
    assert CODEC.parse("  place   x  in   K4 step 3 ") == Place("x", "K4", 3)


def test_unreadable_actions_are_illegal() -> None:
    with pytest.raises(IllegalAction, match="cannot read"):
        CODEC.parse("fire at will")
    with pytest.raises(IllegalAction):
        CODEC.parse("place x in K4 step three")
    with pytest.raises(ValueError, match="unknown action type"):
        CODEC.from_data({"type": "Nope"})


def test_turn_track_from_data() -> None:
    node = parse_toml(
        """
[time]
phases = ["command", "action"]
turns = [
  { label = "0640 6 June", flags = ["assault_wave"] },
  { label = "0700 6 June", flags = ["hour", "tide"] },
]
""",
        "t.toml",
    )
    track = TurnTrack.from_node(node.req("time"))
    assert len(track) == 2 and track.label(1) == "0640 6 June"
    assert track.has(1, "assault_wave") and not track.has(2, "assault_wave")
    assert track.with_flag("tide") == (2,)
    assert track.number("0700 6 June") == 2
    numbered = TurnTrack.numbered(10, ["fire", "move"])
    assert numbered.label(7) == "Turn 7"
    with pytest.raises(
        ScenarioError, match=r"t.toml: time.turns\[1\].label: turn '0640 6 June' appears twice"
    ):
        TurnTrack.from_node(
            parse_toml(
                '[time]\nphases=["a"]\nturns=[{label="0640 6 June"},{label="0640 6 June"}]',
                "t.toml",
            ).req("time")
        )


def test_sources() -> None:
    assert not parse_source("LnL Fire Results Table").reconstructed
    rec = parse_source("reconstructed: no map in the text")
    assert rec.reconstructed and rec.reason == "no map in the text"
    for bad in ("", "reconstructed", "Reconstructed: x", "reconstructed:  "):
        with pytest.raises(ValueError):
            parse_source(bad)
    assert Source("TCS 2.1i").text == "TCS 2.1i"


def test_node_errors_name_file_and_path() -> None:
    root = parse_toml('[[units]]\nid = "a"\nsteps = "two"\n', "s.toml")
    unit = root.req("units").as_list()[0]
    with pytest.raises(ScenarioError) as info:
        unit.req("steps").as_int()
    assert str(info.value) == "s.toml: units[0].steps: expected an integer, found the string 'two'"
    with pytest.raises(ScenarioError, match=r"s.toml: units\[0\].hex: is required but missing"):
        unit.req("hex")
    with pytest.raises(ScenarioError, match=r"is outside 1\.\.3"):
        parse_toml("n = 5", "s.toml").req("n").as_int_in(1, 3)
    with pytest.raises(ScenarioError, match="not one of: a, b"):
        parse_toml('n = "c"', "s.toml").req("n").as_choice(["b", "a"])


def test_content_hash_ignores_formatting() -> None:
    a = parse_toml('x = 1\ny = "z"', "a.toml").value
    b = parse_toml('y   =   "z"\n\nx=1', "b.toml").value
    assert content_hash(a) == content_hash(b)
    assert content_hash(a) != content_hash({"x": 2, "y": "z"})


def test_event_text_built_when_read() -> None:
    register_templates({"test.fire": "{unit} fires at {target}: {result}"})
    e = Event(
        "test.fire",
        "Turn 3",
        "fire",
        "US",
        "LnL Fire Combat",
        (2,),
        {"unit": "1/B/116", "target": "J9", "result": "NE"},
    )
    assert e.text == "1/B/116 fires at J9: NE"
    assert str(e) == "[Turn 3 · fire] 1/B/116 fires at J9: NE  (dice 2; LnL Fire Combat)"
    assert Event.from_data(json.loads(json.dumps(e.to_data()))) == e
    with pytest.raises(ValueError, match="already has another template"):
        register_templates({"test.fire": "other"})
