"""Hostile input: tampered snapshots, actions naming what does not exist, bad scenario
files, and a short fuzz of seeded games with the state's invariants after every action."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

import omaha
from omaha import testing
from omaha.lnl.actions import ACTIONS, Deploy
from omaha.lnl.scenario import SCENARIOS
from omaha.lnl.state import LnlState

from .helpers import GAME, play, position

# --------------------------------------------------------------------------
# Tampered snapshots
# --------------------------------------------------------------------------


def mid_game(seed: int = 4, steps: int = 150) -> LnlState:
    st = GAME.new_state("beach", seed=seed)
    assert isinstance(st, LnlState)
    bot = GAME.bots["random"](seed=seed)
    for _ in range(steps):
        st.apply(bot.choose(st))
    return st


def tampered(change: Callable[[dict[str, Any]], None]) -> str:
    """A mid-game snapshot with ``change`` applied to its game state."""
    env = json.loads(mid_game().to_json())
    change(env["state"])
    return json.dumps(env)


def refused(text: str, match: str) -> omaha.RecordError:
    with pytest.raises(omaha.RecordError, match=match) as err:
        GAME.state_from_json(text, name="saved.json")
    assert err.value.file == "saved.json"
    return err.value


def on_map(state: dict[str, Any]) -> str:
    return next(uid for uid, rec in sorted(state["units"].items()) if rec[0] not in ("off", "elim"))


def test_an_untouched_snapshot_is_sound() -> None:
    st = mid_game()
    assert st.invariants() == []
    assert GAME.state_from_json(st.to_json()).to_json() == st.to_json()


def test_a_card_that_is_not_in_the_deck_is_refused() -> None:
    def swap(state: dict[str, Any]) -> None:
        state["deck"]["pile"][0] = "c99"

    refused(tampered(swap), r"state: the deck is not the scenario's cards \(c99 not among them\)")


def test_a_card_twice_in_the_deck_is_refused() -> None:
    def twice(state: dict[str, Any]) -> None:
        state["deck"]["discards"].append(state["deck"]["pile"][0])

    refused(tampered(twice), "the deck is not the scenario's cards")


def test_a_unit_with_99_steps_is_refused() -> None:
    uid = on_map(json.loads(mid_game().to_json())["state"])

    def pump(state: dict[str, Any]) -> None:
        state["units"][uid][1] = 99

    refused(tampered(pump), rf"state: {uid} has 99 steps on the map \(1\.\.2\)")


def test_a_unit_on_a_hex_that_does_not_exist_is_refused() -> None:
    def away(state: dict[str, Any]) -> None:
        state["units"][on_map(state)][0] = "Z99"

    err = refused(tampered(away), r'state\.units\..*\[0\]: "Z99" is not a hex of this map')
    assert "KeyError" not in str(err) and "IndexError" not in str(err)


def test_a_unit_in_the_sea_is_refused() -> None:
    def swim(state: dict[str, Any]) -> None:
        state["units"][on_map(state)][0] = "N5"

    refused(tampered(swim), "not a land hex of the map")


def test_three_counters_in_a_hex_are_refused() -> None:
    def crowd(state: dict[str, Any]) -> None:
        uids = [u for u, rec in sorted(state["units"].items()) if rec[0] not in ("off", "elim")]
        german = [u for u in uids if u.endswith("916")][:3]
        here = state["units"][german[0]][0]
        for uid in german:
            state["units"][uid][0] = here

    refused(tampered(crowd), r"more than two counters in .* \(LnL Omaha: Stacking\)")


def test_steps_lost_must_match_the_counters() -> None:
    def lie(state: dict[str, Any]) -> None:
        state["steps_lost"]["US"] += 3

    refused(tampered(lie), "US steps lost .*, the counters show")


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda s: s.pop("turn"), r"state\.turn is missing"),
        (lambda s: s.__setitem__("turn", "3"), r"state\.turn: expected a whole number, found str"),
        (lambda s: s.__setitem__("stage", "lunch"), r"state\.stage: 'lunch' is not one of"),
        (lambda s: s["units"].pop("1/B/116"), r"state\.units: 1/B/116 missing"),
        (
            lambda s: s["units"].__setitem__("9/Z/999", s["units"]["1/B/116"]),
            r'"9/Z/999" is not a unit',
        ),
        (
            lambda s: s["units"]["1/B/116"].pop(),
            r"state\.units\.1/B/116: expected 9 values, found 8",
        ),
        (lambda s: s.__setitem__("due", {"ghost": 3}), r'state\.due: "ghost" is not a unit'),
        (lambda s: s.__setitem__("fired_at", [["A1", "B2"]]), r"state\.fired_at\[0\]: expected"),
        (lambda s: s["deck"].pop("pile"), r"state\.deck\.pile is missing"),
        (lambda s: s.__setitem__("control", {"Q1": "US"}), r'state\.control: "Q1" is not a hex'),
        (lambda s: s.__setitem__("attack", []), r"state\.attack: expected a table, found list"),
    ],
)
def test_a_malformed_snapshot_names_the_key(
    change: Callable[[dict[str, Any]], object], match: str
) -> None:
    def apply(state: dict[str, Any]) -> None:
        change(state)

    err = refused(tampered(apply), match)
    assert "KeyError" not in str(err)


def test_a_result_that_does_not_match_the_hexes_held_is_refused() -> None:
    st = position({"1/B/116": "K9"}, side="German", phase="assault", turn=10)
    play(st, "end phase")
    assert st.is_terminal()
    env = json.loads(st.to_json())
    env["state"]["result"]["points"] = [["US victory hexes", 6.0]]
    refused(json.dumps(env), "does not match the hexes held")


def test_a_move_in_progress_must_name_what_its_units_spent() -> None:
    st = position({"1/B/116": "K9", "1/1/916": "A18"}, phase="move")
    play(st, "move 1/B/116", "step K8")
    env = json.loads(st.to_json())
    assert env["state"]["group"]["spent"] == {"1/B/116": 2}
    env["state"]["group"]["spent"] = {}
    refused(json.dumps(env), "a moving unit without its movement spent")


def test_a_group_that_has_not_stepped_must_be_where_it_starts() -> None:
    """Found by the shared fuzz harness: a tampered start hex let stack-mates join
    from a hex the group is not in."""
    st = position({"1/B/116": "K9", "2/B/116": "K9", "1/1/916": "A18"}, phase="move")
    play(st, "move 1/B/116")
    env = json.loads(st.to_json())
    env["state"]["group"]["start"] = "F7"
    refused(json.dumps(env), "a group that has not stepped is not in the hex it starts from")


def test_an_attack_may_not_hold_more_ngfs_than_are_left() -> None:
    """Found by the shared fuzz harness: an attack's NGFS count of 99 loaded, then
    spent more packets than the turn has (LnL Omaha: Naval Gunfire Support)."""
    st = position({"1/B/116": "H3", "1/1/916": "H5"}, ngfs=4)
    play(st, "fire with 1/B/116", "at H5 soft", "add ngfs")
    env = json.loads(st.to_json())
    assert env["state"]["attack"]["ngfs"] == 1
    env["state"]["attack"]["ngfs"] = 99
    refused(json.dumps(env), r"an attack with 99 NGFS packets \(4 left\)")


def test_an_attack_with_a_unit_of_the_other_side_is_refused() -> None:
    st = position({"1/B/116": "H3", "1/1/916": "H5"})
    play(st, "fire with 1/B/116")
    env = json.loads(st.to_json())
    env["state"]["attack"]["firers"] = ["1/1/916"]
    refused(json.dumps(env), "a US attack with a unit of the other side")


# --------------------------------------------------------------------------
# Actions naming what does not exist
# --------------------------------------------------------------------------


def test_a_step_to_a_hex_that_does_not_exist() -> None:
    st = position({"1/B/116": "K9", "1/1/916": "A18"}, phase="move")
    play(st, "move 1/B/116")
    testing.assert_illegal(st, "step Z99", match='^"Z99" is not a hex of this map$')


def test_a_unit_that_does_not_exist() -> None:
    st = position({"1/B/116": "H3", "1/1/916": "H5"})
    testing.assert_illegal(
        st, "fire with 9/B/116", match='^"9/B/116" is not a unit of this scenario'
    )


def test_a_target_kind_that_does_not_exist() -> None:
    st = position({"1/B/116": "H3", "1/1/916": "H5"})
    play(st, "fire with 1/B/116")
    testing.assert_illegal(st, "at H5 armour", match='"armour" is not a kind of target')


def test_a_whole_set_up_with_a_bad_hex_or_unit_is_refused_without_dice() -> None:
    st = GAME.new_state("beach", seed=0)
    plan = GAME.bots["solitaire"](seed=0).choose(st)
    assert isinstance(plan, Deploy)
    bad_hex = Deploy((plan.placements[0].split("@")[0] + "@Z99", *plan.placements[1:]))
    testing.assert_illegal(st, bad_hex, match='"Z99" is not a hex of this map')
    bad_unit = Deploy(("ghost@J5", *plan.placements[1:]))
    testing.assert_illegal(st, bad_unit, match='"ghost" is not a unit of this scenario')
    testing.assert_illegal(st, Deploy(("J5",)), match="a placement is written unit@hex")


# --------------------------------------------------------------------------
# Bad scenario files
# --------------------------------------------------------------------------


def beach_text() -> str:
    return (SCENARIOS / "beach.toml").read_text()


def load(tmp_path: Path, text: str | bytes, name: str = "bad.toml") -> None:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text)
    GAME.load_scenario(str(p))


def test_a_reinforcement_after_the_last_turn(tmp_path: Path) -> None:
    text = beach_text()
    assert "turn = 3\n" in text
    with pytest.raises(
        omaha.ScenarioError,
        match=r"forces\[\d\]\.turn: turn 50 is after the last turn of the game \(10\)",
    ) as err:
        load(tmp_path, text.replace("turn = 3\n", "turn = 50\n", 1))
    assert err.value.file == "bad.toml"


def test_victory_levels_that_are_not_distinct(tmp_path: Path) -> None:
    text = beach_text().replace(
        'at = ["H5", "H17", "J11", "F6", "F8", "A7"]', 'at = ["H5", "H17", "J11", "F6"]'
    )
    with pytest.raises(
        omaha.ScenarioError, match=r"victory_hexes: 4 victory hexes: .* at least 5 to be distinct"
    ):
        load(tmp_path, text)


def test_an_option_given_twice() -> None:
    with pytest.raises(omaha.ScenarioError, match="option 'd6' is given twice"):
        GAME.load_scenario("beach+d6+d6")
    with pytest.raises(omaha.ScenarioError, match="option 'd6' is given twice"):
        GAME.new_state("beach+turn11+d6+d6")


def test_a_unit_listed_twice_in_one_force(tmp_path: Path) -> None:
    text = beach_text().replace('"1/B/116", "2/B/116"', '"1/B/116", "1/B/116"', 1)
    with pytest.raises(
        omaha.ScenarioError,
        match=r"forces\[1\]\.units\[1\]: '1/B/116' is listed twice \(also at \[0\]\)",
    ):
        load(tmp_path, text)


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    data = beach_text().encode("utf-8").replace(b"the main game", b"the main g\xe2me", 1)
    with pytest.raises(omaha.ScenarioError, match=r"latin\.toml: is not UTF-8 text") as err:
        load(tmp_path, data, "latin.toml")
    assert err.value.file == "latin.toml"


# --------------------------------------------------------------------------
# A short fuzz: random legal play with hostile actions thrown at every step
# --------------------------------------------------------------------------

WRONG = ["Z99", "", "A0", "N19", "9/B/116", "@", "1/B/116@Z99", "hard ", "-"]


def hostile(rng: random.Random, st: LnlState) -> omaha.Action:
    cls = rng.choice(ACTIONS)
    values: dict[str, Any] = {}
    for f in attrs.fields(cls):
        if f.name == "placements":
            values[f.name] = tuple(rng.choice(WRONG) for _ in range(rng.randrange(3)))
        else:
            values[f.name] = rng.choice([*WRONG, st.label(rng.randrange(st.T.n)), st.uid(0)])
    action: omaha.Action = cls(**values)
    return action


@pytest.mark.parametrize("scenario", ["beach", "vierville", "beach+d6"])
def test_fuzzed_games_keep_their_invariants(scenario: str) -> None:
    rng = random.Random(scenario)
    st = GAME.new_state(scenario, seed=17)
    assert isinstance(st, LnlState)
    bot = GAME.bots["random"](seed=17)
    steps = 0
    while not st.is_terminal() and steps < 400:
        for _ in range(2):
            action = hostile(rng, st)
            if not st.is_legal(action) and not isinstance(action, Deploy):
                testing.assert_illegal(st, action)
        st.apply(bot.choose(st))
        assert st.invariants() == [], f"after step {steps}"
        if steps % 50 == 0:
            again = GAME.state_from_json(st.to_json())
            assert again.to_json() == st.to_json() and again.invariants() == []
        steps += 1
