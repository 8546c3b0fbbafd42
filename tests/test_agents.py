"""The agent surface of the kernel, on the toy game: a fixed action numbering,
observations, returns, limits, and the explicit-chance mode."""

from __future__ import annotations

import pickle
import random
import sys
import threading

import attrs
import numpy as np
import pytest
from toygame import GAME, EndMoves, Fire, Hold, Select, Step, Stop

import omaha
from omaha.kernel.actions import Action
from omaha.kernel.chance import ChanceState
from omaha.kernel.dice import ChanceNeeded
from omaha.kernel.encoding import ActionSpace, EncodingError


def random_game(seed: int) -> omaha.State:
    state = GAME.new_state(seed=seed)
    bot = GAME.bots["random"](seed=seed)
    while not state.is_terminal():
        state.apply(bot.choose(state))
    return state


def test_the_numbering_is_fixed_per_scenario_and_round_trips() -> None:
    space = GAME.action_space()
    scen = GAME.load_scenario()
    squads = [sid for sid, _ in scen.us]
    cells = len(scen.board)
    # classes in the game's order: Select, Step, Stop, EndMoves, Fire, Hold
    assert space.size == len(squads) + cells + 1 + 1 + len(squads) + 1
    assert GAME.encode(Select(squads[0])) == 0
    assert GAME.encode(Step(scen.board.labels[0])) == len(squads)
    assert GAME.decode(len(squads) + cells) == Stop()
    assert GAME.decode(space.size - 1) == Hold()


def test_every_legal_action_of_many_games_round_trips() -> None:
    seen = 0
    for seed in range(15):
        state = GAME.new_state(seed=seed)
        bot = GAME.bots["random"](seed=seed)
        while not state.is_terminal():
            codes = state.legal_codes()
            assert len(codes) == len(state.legal_actions())
            for action in state.legal_actions():
                assert GAME.decode(GAME.encode(action)) == action
                seen += 1
            mask = state.action_mask()
            assert mask.dtype == np.int8 and mask.sum() == len(codes)
            assert [int(i) for i in np.flatnonzero(mask)] == list(codes)
            state.apply(bot.choose(state))
    assert seen > 500


def test_numbers_outside_the_space_and_actions_outside_their_domains_are_refused() -> None:
    space = GAME.action_space()
    for bad in (-1, space.size, 2.0, True, "3"):
        with pytest.raises(EncodingError, match="is not an action number"):
            space.decode(bad)  # type: ignore[arg-type]
    with pytest.raises(EncodingError, match="outside its domain"):
        space.encode(Select("nobody"))
    with pytest.raises(EncodingError, match="outside its domain"):
        space.encode(Step(["A1"]))  # type: ignore[arg-type]


def test_numbers_remembered_by_value_are_what_encoding_gives() -> None:
    """``ActionSpace.codes_of`` (every game's listed numbers): the same numbers as
    ``encode`` for the same objects asked again, for equal objects made anew, after a
    pickle, and an action with no number refused without anything remembered for the
    rest."""
    scen = GAME.load_scenario()
    space = ActionSpace(GAME.action_classes(), GAME.field_domains(scen))  # a memo of its own
    listed = [Select(sid) for sid, _ in scen.us] + [Step(scen.board.labels[0]), Hold()]
    expected = [space.encode(a) for a in listed]
    assert space.codes_of(listed) == expected
    assert space.codes_of(listed) == expected  # now every one remembered
    assert space.codes_of(list(reversed(listed))) == expected[::-1]
    assert space.codes_of([attrs.evolve(a) for a in listed]) == expected  # equal, new
    again = pickle.loads(pickle.dumps(space))
    assert again.codes_of(listed) == expected
    with pytest.raises(EncodingError, match="outside its domain"):
        space.codes_of([listed[0], Select("nobody")])
    with pytest.raises(EncodingError, match="outside its domain"):
        space.codes_of([Step(["A1"])])  # type: ignore[arg-type]  # unhashable: refused
    assert space.codes_of(listed[:1]) == expected[:1]


def test_numbering_from_many_threads_at_once_gives_what_encoding_gives() -> None:
    """The server's threads share one space per scenario: numbering the same and
    overlapping lists from several threads at once, starting from an empty memo, gives
    every thread exactly the encoded numbers, and the memo keeps them."""
    scen = GAME.load_scenario()
    space = ActionSpace(GAME.action_classes(), GAME.field_domains(scen))
    made = [Select(sid) for sid, _ in scen.us] + [Step(label) for label in scen.board.labels]
    made += [Hold(), Stop(), EndMoves()]
    expected = {a: space.encode(a) for a in made}
    start = threading.Barrier(8)
    wrong: list[str] = []

    def work(k: int) -> None:
        rng = random.Random(k)
        start.wait()
        for _ in range(300):
            listed = rng.sample(made, 12)
            if k % 2:  # half of them make equal objects anew
                listed = [attrs.evolve(a) for a in listed]
            got = space.codes_of(listed) if k % 4 < 2 else [space.code_of(a) for a in listed]
            if got != [expected[a] for a in listed]:
                wrong.append(f"thread {k}: {got}")
            if space.decode(got[0]) != listed[0]:
                wrong.append(f"thread {k}: {got[0]} decodes to {space.decode(got[0])}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert wrong == []
    assert space.codes_of(made) == [expected[a] for a in made]


@attrs.frozen
class Plan(Action):
    notation = "plan {cells}"
    cells: tuple[str, ...]


@attrs.frozen
class Volley(Action):
    notation = "volley {size} {loud}"
    size: int
    loud: bool


def test_plan_classes_are_left_out_and_undeclared_domains_named() -> None:
    space = ActionSpace([Plan, Volley], {"size": range(1, 4)})
    assert space.classes == (Volley,)
    assert space.size == 3 * 2
    assert [space.decode(i) for i in range(space.size)][:3] == [
        Volley(1, False),
        Volley(1, True),
        Volley(2, False),
    ]
    with pytest.raises(EncodingError, match=r"no domain declared for Volley.size"):
        ActionSpace([Volley], {})
    with pytest.raises(EncodingError, match="is more than 200,000"):
        ActionSpace([Volley], {"size": range(110_000)})


@attrs.frozen
class Charge(Action):
    notation = "charge {to} from {start}"
    to: str
    start: str


def test_a_class_may_be_numbered_by_its_declared_combinations() -> None:
    pairs = [("B", "A"), ("A", "B"), ("C", "B")]  # only neighbours charge each other
    space = ActionSpace([Volley, Charge], {"size": range(1, 4), "Charge": pairs})
    assert space.size == 3 * 2 + len(pairs)
    assert [space.decode(6 + i) for i in range(len(pairs))] == [Charge(*p) for p in pairs]
    assert space.encode(Charge("C", "B")) == 8
    assert space.decode(5) == Volley(3, True)
    with pytest.raises(EncodingError, match="outside its domain"):
        space.encode(Charge("A", "C"))
    with pytest.raises(EncodingError, match="repeats a combination"):
        ActionSpace([Charge], {"Charge": [("A", "B"), ("A", "B")]})
    with pytest.raises(EncodingError, match="one value per field"):
        ActionSpace([Charge], {"Charge": [("A",)]})


def test_observation_hides_what_the_player_may_not_see() -> None:
    state = GAME.new_state(seed=2)
    layout = GAME.observation_layout()
    us, german = state.observation("US"), state.observation("German")
    assert us.shape == german.shape == (layout.size,) and us.dtype == np.float32
    assert layout.plane(german, "german_mg").sum() == 1  # the German knows his gun
    assert layout.plane(us, "german_mg").sum() == 0  # the US does not, yet
    assert layout.plane(us, "german_unknown").sum() == len(state.scen.positions)
    assert layout.plane(us, "us_squad").sum() == len(state.scen.us)
    assert "plane german_mg" in layout.describe()


def test_returns_follow_the_winner() -> None:
    state = random_game(3)
    winner = state.outcome().winner
    returns = state.returns()
    assert returns[winner] == 1.0 and sum(returns.values()) == 0.0
    assert GAME.zero_sum and not GAME.solo
    fresh = GAME.new_state(seed=3)
    assert fresh.returns() == {"US": 0.0, "German": 0.0}


def test_playouts_stay_within_the_declared_limits() -> None:
    limits = GAME.limits()
    for seed in range(30):
        state = GAME.new_state(seed=seed)
        bot = GAME.bots["random"](seed=seed)
        decisions = 0
        while not state.is_terminal():
            assert len(state.legal_actions()) <= limits.max_legal_actions
            state.apply(bot.choose(state))
            decisions += 1
        assert decisions <= limits.max_decisions


def drive_with_recorded_dice(sampled: omaha.State) -> ChanceState:
    """Replay a sampled game in explicit-chance mode, choosing the outcomes it rolled."""
    rolls = iter(sampled.dice.drawn)
    actions = iter(sampled.actions)
    chance = ChanceState(GAME)
    while not chance.is_terminal():
        if chance.is_chance_node():
            outcomes = chance.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            chance.apply_chance(chance.chance_values().index(next(rolls)))
        else:
            chance.apply(next(actions))
    return chance


def test_explicit_chance_reproduces_a_sampled_game_outcome_by_outcome() -> None:
    for seed in (1, 4):
        sampled = random_game(seed)
        chance = drive_with_recorded_dice(sampled)
        assert chance.state.log_text() == sampled.log_text()
        assert chance.state.dice.drawn == sampled.dice.drawn


def test_explicit_chance_refuses_bad_moves_without_change() -> None:
    chance = ChanceState(GAME)
    assert chance.is_chance_node()  # the set-up draws the hidden positions first
    with pytest.raises(omaha.IllegalAction, match="chance event is pending"):
        chance.state  # noqa: B018
    with pytest.raises(omaha.IllegalAction, match=r"not in 0\.\."):
        chance.apply_chance(99)
    twin = chance.clone()
    while chance.is_chance_node():
        chance.apply_chance(0)
    assert twin.is_chance_node() and twin.outcomes_so_far == ()
    before = chance.state.to_json()
    with pytest.raises(omaha.IllegalAction):
        chance.apply(Fire("1sq"))
    assert chance.state.to_json() == before
    with pytest.raises(omaha.IllegalAction, match="no chance event"):
        chance.apply_chance(0)
    chance.apply(EndMoves())
    assert chance.is_chance_node() or chance.state.current_player() == "German"


def test_chance_signal_passes_through_rule_code() -> None:
    assert not issubclass(ChanceNeeded, Exception)
