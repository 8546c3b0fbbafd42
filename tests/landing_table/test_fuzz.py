"""Fuzzing D-Day at Omaha Beach: seeded random playouts with the invariants checked after
every action, hostile and mistyped actions thrown at every step, clones and snapshots
round-tripped. A short budget by default; ``OMAHA_FUZZ_SECONDS=600`` for a long run.
A failure names its scenario, seed and step (the one-line reproducer)."""

from __future__ import annotations

import os
import time
from typing import Any

import attrs

import omaha
from omaha.kernel.actions import Action
from omaha.kernel.dice import RandomDice
from omaha.landing_table.actions import ACTIONS
from omaha.landing_table.scenario import SHIPPED

from .helpers import GAME

BUDGET = float(os.environ.get("OMAHA_FUZZ_SECONDS", "4"))
#: Field values a hostile caller might send: labels, ids, nonsense and wrong types.
STRINGS = ["A/116", "E/16", "Cota", "NF1", "NF9", "WN70", "R-Hamel", "K5", "Z99", "", "-", "a b"]
JUNK: list[Any] = [None, 3, -1, 2.5, True, b"K5", ["K5"], {"hex": "K5"}, ("E/16",)]


def hostile(rng: RandomDice) -> object:
    """An action of a random class with random fields (often of the wrong type)."""
    cls = ACTIONS[rng.pick(len(ACTIONS))]
    fields = [f.name for f in attrs.fields(cls)]  # type: ignore[misc]
    values: list[Any] = []
    for _ in fields:
        pool: list[Any] = [*STRINGS, *range(-1, 6)] if rng.pick(4) else JUNK
        values.append(pool[rng.pick(len(pool))])
    try:
        return cls(*values)
    except TypeError:
        return cls()


def fuzz_game(scenario: str, seed: int) -> tuple[int, int]:
    """One seeded game; returns (actions applied, hostile actions refused)."""
    rng = RandomDice(10_000 + seed)
    state = GAME.new_state(scenario, seed=seed)
    bot = GAME.bots["random"](seed=seed)
    applied = refused = 0
    where = f"fuzz: scenario={scenario} seed={seed}"
    while not state.is_terminal():
        step = f"{where} step={applied}"
        problems = state.invariants()
        assert not problems, f"{step}: {problems}"
        before, drawn, logged = None, state.dice.count, len(state.log)
        copies: list[Any] = []
        if applied % 25 == 0:
            before = state.to_json()
            copies = [GAME.state_from_json(before), state.clone()]
            assert [c.to_json() for c in copies] == [before, before], f"{step}: round trip"
        for _ in range(3):
            action = hostile(rng)
            if state.is_legal(action):
                continue
            try:
                state.apply(action)  # type: ignore[arg-type]
            except omaha.IllegalAction:
                refused += 1
            else:
                raise AssertionError(f"{step}: {action!r} was accepted")
            assert (state.dice.count, len(state.log)) == (drawn, logged), f"{step}: {action!r}"
        if before is not None:
            assert state.to_json() == before, f"{step}: a refused action changed the state"
        choice: Action = bot.choose(state)
        state.apply(choice)
        for copy in copies:  # a restored or cloned copy has the same future
            copy.apply(choice)
            assert copy.to_json() == state.to_json(), f"{step}: {choice} on a copy diverged"
        applied += 1
    assert state.invariants() == [], f"{where}: at the end: {state.invariants()}"
    return applied, refused


def test_fuzz_random_games_hostile_actions_clones_and_snapshots() -> None:
    deadline = time.monotonic() + BUDGET
    seed = applied = refused = 0
    while seed < 2 or time.monotonic() < deadline:
        for scenario in SHIPPED:
            a, r = fuzz_game(scenario, seed)
            applied, refused = applied + a, refused + r
        seed += 1
    print(f"fuzzed {seed} seeds: {applied} actions applied, {refused} hostile actions refused")
    assert applied > 0 and refused > 0
