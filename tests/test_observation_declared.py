"""The kernel's declared observation (``omaha.kernel.observation.Declaration``), through
the toy game: the kept observation equals the declaration over every entity at every
decision of random games, for both players, in clones that go their own ways, after
unpickling, a snapshot restore and ``edit()``."""

from __future__ import annotations

import pickle
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent / "conformance"))

from toygame import GAME, ToyState, fresh_observation

from omaha.kernel.observation import Journal


def same(state: ToyState) -> None:
    for player in GAME.players:
        kept = state.observation(player)
        assert np.array_equal(kept, fresh_observation(state, player)), player
        out = np.full_like(kept, 7.0)
        state.observation_into(player, out)
        assert np.array_equal(out, kept)


def play(state: ToyState, rng: random.Random, limit: int = 400) -> int:
    n = 0
    while not state.is_terminal() and n < limit:
        same(state)
        state.apply(rng.choice(list(state.legal_actions())))
        n += 1
    same(state)
    return n


def new(seed: int) -> ToyState:
    state = GAME.new_state(seed=seed)
    assert isinstance(state, ToyState)
    return state


def test_kept_equals_fresh_at_every_decision() -> None:
    for seed in range(20):
        assert play(new(seed), random.Random(seed)) > 3


def test_the_hidden_token_is_shown_to_the_german_only() -> None:
    state = new(1)
    us, german = state.observation("US"), state.observation("German")
    layout = GAME.observation_layout()
    unknown = layout.plane(us, "german_unknown")
    assert unknown.sum() == len(state.scen.positions)
    assert layout.plane(german, "german_unknown").sum() == 0
    assert layout.plane(german, "german_mg").sum() == 1
    assert layout.plane(us, "german_mg").sum() == 0


def test_clones_share_the_board_until_one_changes() -> None:
    for seed in range(8):
        state = new(seed)
        rng = random.Random(seed)
        for _ in range(3):
            if state.is_terminal():
                break
            state.apply(rng.choice(list(state.legal_actions())))
        same(state)
        twin = state.clone(seed=seed + 100)
        assert isinstance(twin, ToyState) and twin.journal is not state.journal
        assert state.journal is not None and twin.journal is not None
        assert twin.journal.boards["US"] is state.journal.boards["US"]  # shared, not copied
        play(twin, random.Random(seed + 1))
        play(state, random.Random(seed + 2))


def test_unpickled_restored_and_edited_states_build_it_again() -> None:
    state = new(3)
    rng = random.Random(3)
    for _ in range(4):
        state.apply(rng.choice(list(state.legal_actions())))
    same(state)
    back = pickle.loads(pickle.dumps(state))
    assert isinstance(back.journal, Journal) and not back.journal.boards
    play(back, random.Random(4))
    restored = GAME.state_from_json(state.to_json())
    assert isinstance(restored, ToyState)
    play(restored, random.Random(5))
    with state.edit():
        sid = next(iter(state.squads))
        state.disrupted.add(sid)
    same(state)
