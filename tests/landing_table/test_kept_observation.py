"""The observation kept up to date between decisions (issue 15's speed) equals the one
built from nothing (``state.fresh_observation``) at every decision, in clones that go
their own way, in restored snapshots and after ``state.edit()``."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from omaha.landing_table.core import ASHORE
from omaha.landing_table.procedures import turn
from omaha.landing_table.state import LandingTableState

from .helpers import GAME, fresh, place, quiet

SCENARIOS = GAME.scenarios()


def same(state: LandingTableState) -> bool:
    """The kept observation equals the fresh one (and is not the array kept inside)."""
    kept = state.observation("US")
    built = state.fresh_observation("US")
    return bool(np.array_equal(kept, built))


def games(scenario: str, seeds: range) -> Iterator[tuple[LandingTableState, str, int]]:
    for bot in ("random", "heuristic"):
        for seed in seeds:
            state = GAME.new_state(scenario, seed=seed)
            assert isinstance(state, LandingTableState)
            yield state, bot, seed


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_kept_observation_equals_a_fresh_one_at_every_decision(scenario: str) -> None:
    decisions = 0
    for state, bot, seed in games(scenario, range(3)):
        player = GAME.bots[bot](seed=seed)
        while not state.is_terminal():
            assert same(state), (bot, seed, decisions)
            state.apply(player.choose(state))
            decisions += 1
        assert same(state)
    assert decisions > 1000


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_clones_that_go_their_own_way_each_keep_their_own(scenario: str) -> None:
    """A clone shares what its original kept until either changes it: each side, moved
    on by a different bot and observed in either order, equals a fresh build."""
    for state, bot, seed in games(scenario, range(2)):
        player, other = GAME.bots[bot](seed=seed), GAME.bots["random"](seed=seed + 50)
        step = 0
        while not state.is_terminal():
            state.observation("US")  # something kept to share
            if step % 7 == 0:
                twin = state.clone() if step % 14 else copy.deepcopy(state)
                assert isinstance(twin, LandingTableState)
                assert same(twin)
                for _ in range(step % 3 + 1):
                    if not twin.is_terminal():
                        twin.apply(other.choose(twin))
                first, second = (twin, state) if step % 2 else (state, twin)
                assert same(first) and same(second)
            state.apply(player.choose(state))
            step += 1


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_restored_snapshot_keeps_its_own_from_there(scenario: str) -> None:
    state = GAME.new_state(scenario, seed=8)
    player = GAME.bots["heuristic"](seed=8)
    step = 0
    while not state.is_terminal():
        state.observation("US")
        if step % 40 == 0:
            restored = GAME.state_from_json(state.to_json())
            assert isinstance(restored, LandingTableState)
            assert np.array_equal(restored.observation("US"), state.observation("US"))
            follower = GAME.bots["random"](seed=step)
            for _ in range(25):
                if restored.is_terminal():
                    break
                restored.apply(follower.choose(restored))
                assert same(restored)
        state.apply(player.choose(state))
        step += 1


def test_edits_after_an_observation_are_seen() -> None:
    """Every field a block of ``state.edit()`` writes shows in the next observation."""
    state = fresh("omaha", seed=2)
    player = GAME.bots["heuristic"](seed=2)
    while state.phase != "us action" and not state.is_terminal():
        state.apply(player.choose(state))
    assert state.ashore(), "some unit is ashore by the first US action phase"
    first, last = state.ashore()[0], state.ashore()[-1]
    held = next(g for g in sorted(state.ger) if state.ger[g].where in state.pos)
    edits = {
        "steps": lambda s: setattr(s.us[first], "steps", s.us[first].steps - 1),
        "disrupted": lambda s: setattr(s.us[first], "disrupted", not s.us[first].disrupted),
        "where": lambda s: setattr(
            s.us[first], "where", (s.us[first].where + 1) % len(s.scen.board)
        ),
        "status": lambda s: setattr(s.us[last], "status", "eliminated"),
        "cleared": lambda s: s.cleared.update(set(s.scen.obstacle_cells) - s.cleared),
        "exits": lambda s: s.exits_open.update({e.id: s.turn for e in s.scen.exits}),
        "attacked": lambda s: s.attacked.update(p.id for p in s.scen.positions),
        "defeated": lambda s: setattr(s.pos[s.scen.positions[0].id], "defeated", True),
        "depth": lambda s: setattr(s.pos[s.scen.positions[1].id], "depth", "TR"),
        "revealed": lambda s: setattr(s.ger[held], "revealed", not s.ger[held].revealed),
        "queue": lambda s: s.queue.clear(),
        "heroes": lambda s: setattr(s, "heroes", s.heroes + 1),
        "turn": lambda s: setattr(s, "turn", s.turn + 4),
        "card": lambda s: setattr(s, "card", next(iter(s.scen.cards))),
    }
    for name, edit in edits.items():
        before = state.observation("US")
        with state.edit():
            edit(state)
        after = state.observation("US")
        assert np.array_equal(after, state.fresh_observation("US")), name
        assert not np.array_equal(after, before), name


def test_each_call_gives_a_new_array() -> None:
    state = fresh("first_wave", seed=3)
    player = GAME.bots["random"](seed=3)
    for _ in range(30):
        obs = state.observation("US")
        kept = obs.copy()
        obs.fill(-1.0)
        again = state.observation("US")
        assert np.array_equal(again, kept) and again is not obs
        state.apply(player.choose(state))


def test_a_unit_moved_while_waiting_for_orders_is_counted_where_it_stands() -> None:
    """``us_to_act`` follows a waiting unit that a procedure moves (through the core's
    mutator, as a drift or a retreat would) without taking it off the queue."""
    state = fresh("omaha", seed=2)
    player = GAME.bots["heuristic"](seed=2)
    while not (state.phase == "us action" and len(state.queue) > 1):
        state.apply(player.choose(state))
    state.observation("US")
    waiting = next(u for u in state.queue[1:] if state.us.get(u) and state.us[u].status == ASHORE)
    cell = state.us[waiting].where
    other = next(c for c in state.scen.board.neighbours[cell] if c != cell)
    state.move(waiting, other)
    obs = state.observation("US")
    assert np.array_equal(obs, state.fresh_observation("US"))
    layout = GAME.observation_layout("omaha")
    assert layout.plane(obs, "us_to_act")[other] >= 1


def test_a_pickled_state_observes_as_its_original() -> None:
    """OpenSpiel pickles states: the kept observation is left behind and built again."""
    state = fresh("omaha", seed=6)
    player = GAME.bots["random"](seed=6)
    for step in range(60):
        state.observation("US")
        if step % 10 == 0:
            twin = pickle.loads(pickle.dumps(state))
            assert np.array_equal(twin.observation("US"), state.observation("US"))
            twin.apply(player.choose(twin))
            assert same(twin)
        state.apply(player.choose(state))


def test_observation_into_writes_any_tensor_as_the_observation() -> None:
    """Into a float32 tensor the numbers are copied as they are; into a tensor of another
    type or a strided view numpy converts them: either way it equals the observation."""
    state = fresh("omaha", seed=4)
    player = GAME.bots["random"](seed=4)
    size = GAME.observation_layout("omaha").size
    for step in range(40):
        obs = state.observation("US")
        tensors: list[Any] = [
            np.full(size, -1.0, dtype=np.float32),
            np.full(size, -1.0, dtype=np.float64),
            np.full(2 * size, -1.0, dtype=np.float32)[::2],
        ]
        for out in tensors:
            state.observation_into("US", out)
            assert np.array_equal(out, obs), (step, out.dtype, out.strides)
        state.apply(player.choose(state))


def test_a_clone_observed_between_journal_notes_keeps_its_own() -> None:
    """A clone taken after its original moved on but before it observed again shares the
    kept observation and each side's notes of what changed since: both, observed at
    once and after moving on apart, equal a fresh build."""
    for bot in ("random", "heuristic"):
        state = fresh("omaha", seed=12)
        bots = GAME.bots[bot](seed=12), GAME.bots["random"](seed=13)
        state.observation("US")
        for step in range(150):
            if state.is_terminal():
                break
            state.apply(bots[0].choose(state))  # noted, not yet read
            twin = state.clone()
            assert isinstance(twin, LandingTableState)
            if step % 2:  # the original moves on and reads first: the twin's stays as it was
                state.apply(bots[0].choose(state))
                assert same(state), (bot, step)
            assert same(twin), (bot, step)
            if not twin.is_terminal():
                twin.apply(bots[1].choose(twin))
                assert same(twin), (bot, step)
            if step % 3 == 0 and not state.is_terminal():
                assert same(state), (bot, step)


def test_the_legal_numbers_survive_pickling_and_clones() -> None:
    """The numbers the state reads off its sorted legal actions are those the action
    space gives, in a pickled copy and a clone as in the original."""
    state = fresh("omaha", seed=9)
    space = GAME.action_space("omaha")
    player = GAME.bots["random"](seed=9)
    for step in range(80):
        if state.is_terminal():
            break
        copies = [state, state.clone()]
        if step % 10 == 0:  # (a pickle carries the scenario: slow)
            copies.append(pickle.loads(pickle.dumps(state)))
        for st in copies:
            assert st.legal_codes() == tuple(sorted(space.encode(a) for a in st.legal_actions()))
        state.apply(player.choose(state))


def test_an_exit_opened_or_closed_between_phases_shows_at_once() -> None:
    """An exit opening or closing without a phase begun (the end phase's procedure run
    by hand) shows in the next observation: the core notes it (``exits_changed``)."""
    state = quiet(fresh("omaha"), turn=11)
    place(state, "E/16", "E20")
    with state.edit():
        for pid in ("WN64", "WN65"):
            state.pos[pid].unit = None
            state.ger[pid].where = "eliminated"
    state.observation("US")  # kept from here
    turn.update_exits(state)
    assert "E-1" in state.exits_open
    assert same(state)
    with state.edit():  # re-occupied, then read again before the exit closes
        state.pos["WN65"].unit = "WN65"
        state.ger["WN65"].where = "WN65"
    state.observation("US")
    turn.update_exits(state)
    assert "E-1" not in state.exits_open
    assert same(state)
