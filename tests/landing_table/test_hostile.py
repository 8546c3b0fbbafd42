"""Hostile input: tampered snapshots, bad action labels, scenario files that contradict
themselves. Each is refused with a clear error, the state unchanged."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import omaha
from omaha import testing
from omaha.landing_table.actions import Attack, Drift, Follow, Land, Move
from omaha.landing_table.scenario import DATA, SCENARIOS, load_scenario
from omaha.landing_table.state import LandingTableState

from .helpers import GAME, fresh, place, quiet, scenario_dir


def played(scenario: str = "omaha", seed: int = 3, steps: int = 60) -> LandingTableState:
    state = fresh(scenario, seed=seed)
    bot = GAME.bots["random"](seed=seed)
    for _ in range(steps):
        state.apply(bot.choose(state))
    return state


def tampered(state: LandingTableState, change: Callable[[dict[str, Any]], None]) -> str:
    """The state's snapshot with ``change`` applied to its game part."""
    env = json.loads(state.to_json())
    change(env["state"])
    return json.dumps(env)


def refused(text: str, match: str) -> None:
    with pytest.raises(omaha.RecordError, match=match):
        GAME.state_from_json(text, name="saved.json")


# ---------------------------------------------------------------------------
# tampered snapshots: refused, never half-loaded
# ---------------------------------------------------------------------------
def test_a_snapshot_loads_and_its_state_is_sound() -> None:
    state = played()
    assert state.invariants() == []
    assert GAME.state_from_json(state.to_json()).to_json() == state.to_json()


def test_a_card_that_is_not_in_the_deck_is_refused() -> None:
    def swap(data: dict[str, Any]) -> None:
        data["deck"]["pile"][0] = "C99"

    refused(tampered(played(), swap), r"saved\.json: state: the fire cards .*C99")


def test_a_unit_with_99_steps_is_refused() -> None:
    def pump(data: dict[str, Any]) -> None:
        data["us"]["A/116"][1] = 99

    refused(tampered(played(), pump), r"US unit A/116 .*has 99 steps \(its counter has 2\)")


def test_a_unit_on_a_hex_that_does_not_exist_is_refused() -> None:
    state = played()
    uid = state.ashore()[0]

    def move(data: dict[str, Any]) -> None:
        data["us"][uid][4] = "Z99"

    refused(tampered(state, move), rf"state\.us\.{uid}\[4\]: 'Z99' is not a hex of the map")


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda d: d.pop("turn"), r"state\.turn is missing"),
        (lambda d: d.update(turn="3"), r"state\.turn = '3' is not a whole number"),
        (lambda d: d.update(extra=1), r"state\.extra is not part of a landing_table snapshot"),
        (lambda d: d.update(phase="lunch"), r"state\.phase: 'lunch' is not a phase"),
        (lambda d: d["us"].pop("A/116"), r"state\.us\.A/116 is missing"),
        (lambda d: d["us"].update({"Z/1": d["us"]["A/116"]}), r"state\.us\.Z/1 is not part"),
        (lambda d: d["us"]["A/116"].pop(), r"state\.us\.A/116 has 10 entries, not 11"),
        (lambda d: d["ger"]["WN70"].__setitem__(1, "yes"), r"state\.ger\.WN70\[1\] = 'yes'"),
        (lambda d: d["cups"].pop("352"), r"state\.cups\.352 is missing"),
        (lambda d: d["cleared"].append("K99"), r"state\.cleared\[\d+\]: 'K99' is not a hex"),
        (lambda d: d.update(decision=[1]), r"state\.decision is neither a table nor null"),
        (lambda d: d["stats"].update(mines="many"), r"state\.stats\.mines = 'many'"),
    ],
)
def test_data_of_the_wrong_shape_names_its_key(
    change: Callable[[dict[str, Any]], object], match: str
) -> None:
    refused(tampered(played(), lambda d: change(d) and None), match)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda d: d["us"]["A/116"].__setitem__(0, "swimming"), r"A/116 has status 'swimming'"),
        (lambda d: d["ger"]["WN70"].__setitem__(0, "WN72"), r"WN70 is at WN72, which holds WN72"),
        (lambda d: d["ger"]["WN70"].__setitem__(0, "Paris"), r"WN70 is at 'Paris'"),
        (lambda d: d["pos"]["WN70"].__setitem__(1, "9"), r"depth markers beyond .*'9'"),
        (lambda d: d["pos"]["WN73"].__setitem__(2, True), r"WN73 has a revealed depth marker"),
        (lambda d: d["cups"]["division"].append("WN70"), r"the Division box holds"),
        (lambda d: d.update(heroes=99), r"99 Hero markers \(the scenario has 4\)"),
        (lambda d: d.update(turn=40), r"turn 40 is not on the track \(1-32\)"),
        (lambda d: d.update(card="C99"), r"fire card 'C99' is not in the deck"),
        (lambda d: d["exits_open"].update({"Z-9": 1}), r"exit 'Z-9' open on turn 1"),
        (lambda d: d.update(decision={"kind": "dance"}), r"decision kind 'dance'"),
        (lambda d: d.update(decision=None), r"a game in progress must wait for a decision"),
        (lambda d: d["queue"].append(d["queue"][0]), r"the queue of the .* names .* twice"),
    ],
)
def test_inconsistent_values_are_named(
    change: Callable[[dict[str, Any]], object], match: str
) -> None:
    refused(tampered(played(), lambda d: change(d) and None), r"saved\.json: state: .*" + match)


def test_the_fire_card_belongs_to_the_german_phase() -> None:
    state = fresh("first_wave", seed=6)
    bot = GAME.bots["random"](seed=6)
    while state.phase not in ("german fire", "german action"):
        state.apply(bot.choose(state))
    assert state.card is not None

    def lose(data: dict[str, Any]) -> None:
        data["card"] = None

    refused(tampered(state, lose), r"fire card None in the german (fire|action) phase")


def test_a_landing_queue_holds_units_scheduled_this_turn() -> None:
    state = fresh("omaha", seed=4)
    bot = GAME.bots["random"](seed=4)
    while not (state.phase == "landing" and state.queue and state.ashore()):
        state.apply(bot.choose(state))
    ashore = state.ashore()[0]

    def twice(data: dict[str, Any]) -> None:
        data["queue"].append(ashore)

    refused(tampered(state, twice), rf"'{ashore}' is no unit scheduled to land this turn")


def test_a_decision_about_a_unit_that_is_not_there_is_refused() -> None:
    state = fresh("first_wave", seed=1)
    assert state.decision is not None and state.decision["kind"] == "land"

    def other(data: dict[str, Any]) -> None:
        data["decision"]["unit"] = "Z/1"

    refused(tampered(state, other), r"decision land: 'Z/1' is not a US unit")

    def far(data: dict[str, Any]) -> None:
        data["decision"]["box"] = 40

    refused(tampered(state, far), r"decision land: box 40 is not a landing box")


def test_tampered_snapshots_are_refused_or_play_on(seed: int = 5) -> None:
    """Random changes to every leaf of many snapshots: each is refused with a
    RecordError, or loads into a state that lists and plays its actions."""
    rng = omaha.kernel.dice.RandomDice(seed)
    state = fresh("first_wave", seed=seed)
    bot = GAME.bots["random"](seed=seed)
    values: list[object] = [None, 0, -1, 7, 99, 2.5, True, "", "K5", "WN70", "A/116", [], {}]
    tried = refused_count = 0
    while not state.is_terminal() and tried < 150:
        env = json.loads(state.to_json())
        leaves = list(_leaves(env["state"]))
        for _ in range(3):
            path = leaves[rng.pick(len(leaves))]
            twin = json.loads(json.dumps(env))
            _set(twin["state"], path, values[rng.pick(len(values))])
            tried += 1
            try:
                loaded = GAME.state_from_json(json.dumps(twin))
            except omaha.RecordError:
                refused_count += 1
                continue
            for _ in range(5):
                if loaded.is_terminal():
                    break
                actions = loaded.legal_actions()
                assert actions, f"a loaded non-terminal state without actions ({path})"
                loaded.apply(actions[rng.pick(len(actions))])
        state.apply(bot.choose(state))
    assert refused_count > tried // 2


def _leaves(data: object, path: tuple[object, ...] = ()) -> Any:
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(data, list) and data:
        for i, v in enumerate(data):
            yield from _leaves(v, (*path, i))
    else:
        yield path


def _set(data: Any, path: tuple[Any, ...], value: object) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


# ---------------------------------------------------------------------------
# bad labels in actions: IllegalAction a player understands, nothing changed
# ---------------------------------------------------------------------------
def test_a_landing_on_a_hex_that_is_not_on_the_map() -> None:
    state = fresh(seed=5)
    d = state.decision
    assert d is not None
    unit = str(d["unit"])
    testing.assert_illegal(state, Land(unit, "Z99"), match="'Z99' is not a hex of this map")
    testing.assert_illegal(state, Land("Nobody", "K5"), match="is landing now, not Nobody")


def orders_for(uid: str, label: str) -> LandingTableState:
    state = quiet(fresh("omaha"), turn=10)
    place(state, uid, label)
    with state.edit():
        state.queue = [uid]
        state.decision = {"kind": "orders", "unit": uid}
    return state


def test_orders_with_labels_that_name_nothing() -> None:
    state = orders_for("E/16", "F21")
    testing.assert_illegal(state, Move("E/16", "Z99"), match="'Z99' is not a hex of this map")
    testing.assert_illegal(state, Move("E/16", "A1"), match="E/16 cannot reach A1 this turn")
    testing.assert_illegal(state, Attack("WN99", "E/16"), match="'WN99' is not a German position")
    testing.assert_illegal(state, Move("Q/999", "E21"), match="'Q/999' is not a unit of this game")
    testing.assert_illegal(state, "hold F/16", match="it is E/16's turn, not F/16's")


def test_a_naval_fire_marker_cannot_attack_or_move_on_its_own() -> None:
    state = quiet(fresh("omaha"), turn=10)
    with state.edit():
        state.queue = ["NF1"]
        state.decision = {"kind": "orders", "unit": "NF1"}
    testing.assert_illegal(state, Attack("WN64", "NF1"), match="NF1 is a Naval Fire Marker")
    testing.assert_illegal(state, Move("NF1", "E21"), match="NF1 is a Naval Fire Marker")


def test_a_drift_or_a_follow_out_of_turn() -> None:
    state = quiet(fresh(), turn=4, phase="landing")
    with state.edit():
        state.decision = {"kind": "drift", "unit": "5Rgr-1", "box": 3, "most": 4, "card": "C01"}
    testing.assert_illegal(state, Drift("5Rgr-1", 9), match="may drift 0 to 4 boxes east, not 9")
    testing.assert_illegal(state, Drift("A/116", 1), match="5Rgr-1 chooses its drift now")
    with state.edit():
        state.decision = {"kind": "follow", "unit": "Canham", "companion": "L/116"}
    testing.assert_illegal(state, Follow("Cota", True), match="Canham decides now whether")


@pytest.mark.parametrize(
    "action",
    [
        Land(5, "K5"),  # type: ignore[arg-type]
        Land("A/116", ["K5"]),  # type: ignore[arg-type]
        Move(b"E/16", "E21"),  # type: ignore[arg-type]
        Drift("5Rgr-1", "2"),  # type: ignore[arg-type]
        Follow("Cota", 1),  # type: ignore[arg-type]
    ],
)
def test_mistyped_actions_are_illegal(action: object) -> None:
    state = fresh(seed=2)
    testing.assert_illegal(state, action)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# scenario files that contradict themselves
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        (
            {"oob.toml": ("turn = 1\n", "turn = 50\n")},
            r"oob\.toml: us\[0\]\.turn: 50 is outside 1\.\.32",
        ),
        (
            {"omaha.toml": ("{ min = 17,", "{ min = 9,")},
            r"mine\.toml: victory\.levels\[2\]: min 9 is listed twice \(also at \[1\]\)",
        ),
        (
            {"omaha.toml": ("from = 4\n", "from = 1\n")},
            r"mine\.toml: tide\[1\]: from 1 is listed twice \(also at \[0\]\)",
        ),
        (
            {"positions.toml": ('id = "WN73"', 'id = "WN74"')},
            r"positions\.toml: position\[1\]: id 'WN74' is listed twice \(also at \[0\]\)",
        ),
        (
            {"positions.toml": ('garrison = "WN73"', 'garrison = "WN74"')},
            r"positions\.toml: position\[1\]\.garrison: 'WN74' already garrisons",
        ),
        (
            {"oob.toml": ('kind = "battalion"', 'kind = "infantry"')},
            r"oob\.toml: kind\[1\]: kind 'infantry' is listed twice \(also at \[0\]\)",
        ),
    ],
)
def test_cross_field_errors_name_file_key_and_problem(
    tmp_path: Path, replace: dict[str, tuple[str, str]], message: str
) -> None:
    with pytest.raises(omaha.ScenarioError, match=message):
        load_scenario(scenario_dir(tmp_path, replace))


def test_a_unit_listed_twice_is_named_as_such(tmp_path: Path) -> None:
    body = (DATA / "oob.toml").read_text()
    first = body.index("[[us]]")
    second = body.index("[[us]]", first + 1)
    (tmp_path / "oob.toml").write_text(body + "\n" + body[first:second])
    path = tmp_path / "mine.toml"
    path.write_text(
        (SCENARIOS / "omaha.toml").read_text().replace('oob = "oob"', 'oob = "oob.toml"')
    )
    with pytest.raises(
        omaha.ScenarioError, match=r"oob\.toml: us\[\d+\]: id 'A/116' is listed twi"
    ):
        load_scenario(path)


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    (tmp_path / "cards.toml").write_bytes((DATA / "cards.toml").read_bytes() + b"\n# \xff\xfe\n")
    path = tmp_path / "mine.toml"
    path.write_text(
        (SCENARIOS / "omaha.toml").read_text().replace('cards = "cards"', 'cards = "cards.toml"')
    )
    with pytest.raises(omaha.ScenarioError, match=r"cards\.toml: is not UTF-8 text"):
        load_scenario(path)
