"""The shared State/Game machinery, exercised through the toy game."""

import json

import pytest
from toygame import GAME, Fire, Select, Step, ToyState

import omaha
from omaha.kernel.dice import ScriptedDice


def test_pending_and_current_player() -> None:
    state = GAME.new_state(seed=1)
    assert state.pending is not None and state.pending.kind == "select"
    assert state.current_player() == "US"
    assert state.turn_label == "Turn 1" and state.phase == "move"


def test_illegal_action_message_and_no_change() -> None:
    state = GAME.new_state(seed=1)
    before = state.to_json()
    with pytest.raises(
        omaha.IllegalAction, match=r"'step A1' is not a legal action now \(waiting for US"
    ):
        state.apply(Step("A1"))
    assert state.to_json() == before
    assert isinstance(omaha.IllegalAction("x"), ValueError)


def test_game_specific_explanation() -> None:
    state = GAME.new_state(seed=1)
    assert isinstance(state, ToyState)
    with state.edit():
        state.disrupted.add("1sq")
    with pytest.raises(omaha.IllegalAction, match="1sq is disrupted and cannot move"):
        state.apply(Select("1sq"))


def test_single_option_resolves_itself_and_is_logged() -> None:
    # cup picks put the mg in B2; the first card is "smoke" (pick 4 of the sorted
    # five), so after the US ends its moves the German can only hold fire; the
    # next card is "calm" (pick 1 of the remaining four).
    state = GAME.new_state(dice=ScriptedDice([2, 0, 0, 4, 1]))
    state.apply(GAME.parse_action("end moves"))
    forced = [e for e in state.log if e.kind == "kernel.forced"]
    assert [e.details["action"] for e in forced] == ["hold fire"]
    assert forced[0].player == "German"
    assert state.turn_label == "Turn 2" and state.current_player() == "US"
    assert [str(a) for a in state.actions] == ["end moves"]


def test_forced_actions_are_logged_but_not_recorded() -> None:
    state = GAME.new_state(seed=1)
    state.apply(Select("2sq"))
    state.apply(Step("D4"))  # beach->open; 1 MP left: only 'stop' or cheap steps remain
    forced = [e for e in state.log if e.kind == "kernel.forced"]
    recorded = [str(a) for a in state.actions]
    assert all(e.details["action"] not in recorded[2:] for e in forced)
    again = GAME.replay(state.record())
    assert again.to_json() == state.to_json()


def test_unexpected_error_marks_state_unusable() -> None:
    state = GAME.new_state(seed=1)
    assert isinstance(state, ToyState)
    state.apply(Select("1sq"))
    state.scen = None  # type: ignore[assignment]  # sabotage: the step fails midway
    with pytest.raises(AttributeError):
        state.apply(Step("D2"))
    with pytest.raises(omaha.StateCorrupted, match="half-changed"):
        state.legal_actions()
    with pytest.raises(omaha.StateCorrupted):
        state.to_json()
    with pytest.raises(omaha.StateCorrupted):
        state.apply(Step("D2"))


def test_snapshot_envelope_and_refusals() -> None:
    state = GAME.new_state(seed=4)
    env = json.loads(state.to_json())
    assert env["format"] == "omaha-snapshot" and env["version"] == 2 and env["game"] == "toy"
    assert set(env) == {
        "format",
        "version",
        "game",
        "state_version",
        "scenario",
        "seed",
        "rng",
        "actions",
        "decisions",
        "log",
        "state",
    }
    assert state.to_json() == json.dumps(
        env, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    for key, value, message in [
        ("version", 99, "snapshot version 99 is not supported"),
        ("game", "lnl", "snapshot is of game 'lnl'"),
        ("state_version", 7, "state version 7 is not supported"),
    ]:
        bad = dict(env, **{key: value})
        with pytest.raises(ValueError, match=message):
            GAME.state_from_json(json.dumps(bad))
    bad = dict(env, scenario={"id": "beach", "hash": "0000"})
    with pytest.raises(ValueError, match="has changed since the snapshot"):
        GAME.state_from_json(json.dumps(bad))
    with pytest.raises(ValueError, match="not an omaha snapshot"):
        GAME.state_from_json("{}")


def test_clone_same_future_and_reseeded_future() -> None:
    state = GAME.new_state(seed=4)
    same, reference = state.clone(), state.clone()
    assert same.dice.drawn == state.dice.drawn
    future = [reference.dice.d6() for _ in range(20)]
    assert [same.dice.d6() for _ in range(20)] == future
    other = state.clone(seed=123)
    assert [other.dice.d6() for _ in range(20)] != future
    assert other.seed is None
    assert state.dice.count == reference.dice.count - 20


def test_record_replays_with_scripted_dice_and_detects_drift() -> None:
    state = GAME.new_state(seed=9)
    bot = GAME.bots["random"](seed=9)
    while not state.is_terminal():
        state.apply(bot.choose(state))
    record = state.record()
    text = record.to_json()
    back = omaha.GameRecord.from_json(text)
    assert back.result == str(state.outcome())
    tampered = omaha.GameRecord.from_json(text.replace(f'"seed": {record.seed}', '"seed": 10'))
    with pytest.raises(ValueError, match="random stream differs"):
        GAME.replay(tampered)
    assert GAME.replay(tampered, scripted=True).outcome() == state.outcome()
    with pytest.raises(omaha.RecordError, match="not 'omaha-record'"):
        omaha.GameRecord.from_json('{"format": "pgn"}', "x.json")


def test_terminal_state_refuses_actions() -> None:
    state = GAME.new_state(seed=2)
    bot = GAME.bots["random"](seed=2)
    while not state.is_terminal():
        state.apply(bot.choose(state))
    with pytest.raises(omaha.IllegalAction, match="the game is over"):
        state.apply(Fire("1sq"))
    assert state.current_player() is None and state.pending is None


def test_registry() -> None:
    omaha.register(GAME)
    try:
        assert "toy" in omaha.games()
        assert omaha.load("toy") is GAME
    finally:
        from omaha.registry import unregister

        unregister("toy")
    with pytest.raises(KeyError, match="no game named 'nope'"):
        omaha.load("nope")


def test_mistyped_actions_are_refused_at_the_kernel_boundary() -> None:
    from omaha import testing

    state = GAME.new_state(seed=1)
    odd: list[object] = [["1sq"], {"a": 1}, b"1sq", 3, 2.5, None, True]
    for value in odd:
        testing.assert_illegal(state, Select(value))  # type: ignore[arg-type]
    testing.assert_illegal(state, "move 1sq 2sq", match="cannot read")
    with pytest.raises(omaha.IllegalAction, match=r"Select.unit = 3 is not of type str"):
        state.apply(Select(3))  # type: ignore[arg-type]


def test_bad_records_name_the_key() -> None:
    state = GAME.new_state(seed=4)
    good = json.loads(state.record().to_json())
    cases = [
        ({"seed": -1}, "seed: a seed is between 0 and"),
        ({"seed": 2**70}, "seed: a seed is between 0 and"),
        ({"seed": 1.5}, "seed: a seed is a whole number"),
        ({"actions": "select 1sq"}, "actions: must be a JSON list"),
        ({"dice": [1, "x"]}, r"dice\[1\]: a roll is a whole number"),
    ]
    for change, message in cases:
        with pytest.raises(omaha.RecordError, match=message):
            omaha.GameRecord.from_json(json.dumps(dict(good, **change)), "g.json")
    for action, message in (
        ("select 1sq", "cannot read 'select 1sq' as an action"),  # notation of no form
        (42, "an action must be"),  # neither notation nor the tagged form
    ):
        bad_action = dict(good, actions=[action])
        record = omaha.GameRecord.from_json(json.dumps(bad_action), "g.json")
        with pytest.raises(omaha.RecordError, match=rf"g.json: actions\[0\]: {message}"):
            GAME.replay(record, name="g.json")


def test_repr_says_game_scenario_turn_phase_and_who_decides() -> None:
    state = omaha.load("bloody").new_state(seed=1)
    assert repr(state) == "<BloodyState bloody/solo · Turn 1 · Set-up · US to decide, 0 decisions>"
    state.apply(state.legal_actions()[0])
    assert repr(state).endswith("1 decision>")
    assert str(state).startswith("(all-seeing view: hidden parts shown)\n")


@pytest.mark.parametrize("name", ["lnl", "bloody", "landing_table", "tcs"])
def test_apply_refuses_text_and_names_the_parser(name: str) -> None:
    game = omaha.load(name)
    state = game.new_state(seed=2)
    text = str(state.legal_actions()[-1])  # a legal action's notation, as text
    before = state.to_json()
    with pytest.raises(omaha.IllegalAction, match=r"game\.parse_action reads notation"):
        state.apply(text)  # type: ignore[arg-type]
    assert state.to_json() == before  # nothing changed
    state.apply(game.parse_action(text))  # read by the parser, it plays
    assert len(state.actions) == 1
    with pytest.raises(omaha.UnreadableAction):
        game.parse_action("no such action")


def same_observation(a: omaha.State, b: omaha.State, player: str) -> bool:
    import numpy as np

    return bool(np.array_equal(a.observation(player), b.observation(player)))


@pytest.mark.parametrize("name", ["lnl", "bloody", "landing_table", "tcs"])
def test_pop_takes_back_the_last_decision_as_python_chess_does(name: str) -> None:
    game = omaha.load(name)
    state, before = game.new_state(seed=6), game.new_state(seed=6)
    bot = game.bots["random"](seed=1)
    for _ in range(6):
        action = bot.choose(state)
        state.apply(action)
        if len(state.actions) < 6:
            before.apply(action)
    popped = state.pop()
    assert state.to_json() == before.to_json() and state.information_state(game.players[0]) == (
        before.information_state(game.players[0])
    )
    state.apply(popped)  # and the same decision again: the same dice, the same game
    before.apply(popped)
    player = game.players[0]
    assert same_observation(state, before, player)  # the kept tables too
    again, twin = game.bots["random"](seed=2), game.bots["random"](seed=2)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(again.choose(state))
        before.apply(twin.choose(before))
        assert same_observation(state, before, player)
    assert state.to_json() == before.to_json()


def test_pop_refuses_what_it_cannot_take_back() -> None:
    game = omaha.load("bloody")
    with pytest.raises(omaha.IllegalAction, match="no decision to take back"):
        game.new_state(seed=1).pop()
    reseeded = game.new_state(seed=1)
    reseeded.apply(reseeded.legal_actions()[0])
    reseeded = reseeded.clone(seed=5)
    text = reseeded.to_json()
    with pytest.raises(omaha.IllegalAction, match="no seed to replay from"):
        reseeded.pop()
    assert reseeded.to_json() == text
