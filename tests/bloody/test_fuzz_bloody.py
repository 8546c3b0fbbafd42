"""Fuzzing Bloody Omaha (issue 10): seeded random playouts with the invariants checked
after every action, hostile and mistyped actions thrown at every step (each must be
``IllegalAction`` with nothing changed and no die rolled), and clone and snapshot
round trips along the way.

The budget is ``OMAHA_FUZZ_SECONDS`` (default 3 s); a failure prints a one-line
reproducer (seed, step, action).

Kept beside the shared harness (``tests/conformance/test_fuzz.py``), which plays
only random bots: this one also plays the heuristic bot, whose games reach the
positions random play seldom does (cleared exits, tanks moving inland, attacks
with several squares late in the game), and throws every action of the scenario's
action catalogue (all the actions the game can ever list) at each position.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

import attrs
from bloody_helpers import GAME

import omaha
from omaha.bloody.state import BloodyState
from omaha.kernel.actions import Action

BUDGET = float(os.environ.get("OMAHA_FUZZ_SECONDS", "3"))
#: Field values no action of this game accepts as they are.
ODD_VALUES: tuple[Any, ...] = (
    "Z99", "", " ", "b2", "A/116 ", "tank0", "c00", "S3;drop", "x" * 300,
    0, -1, 99, 10**20, 1.5, True, None, b"B2", ["B2"], {"B2": 1}, ("B2",),
)  # fmt: skip
NOT_ACTIONS: tuple[Any, ...] = ("end activation", 42, None, object(), ["move"], {"type": "Move"})


def hostile(st: BloodyState, rng: random.Random) -> list[Any]:
    """Actions and objects that must all be refused in this position."""
    legal = st.legal_actions()
    out: list[Any] = [rng.choice(NOT_ACTIONS)]
    base = rng.choice(legal)
    for f in attrs.fields(type(base)):
        out.append(attrs.evolve(base, **{f.name: rng.choice(ODD_VALUES)}))
    out.extend(rng.sample(st.catalogue.action, 3))
    return [a for a in out if not playable(st, a)]


def playable(st: BloodyState, action: Any) -> bool:
    """Listed among the legal actions with every field of its declared type."""
    try:
        GAME.codec.check(action)
    except omaha.IllegalAction:
        return False
    return st.is_legal(action)


def refused(st: BloodyState, action: Any, check_json: bool) -> str | None:
    """None if ``action`` is refused cleanly; else what went wrong."""
    before_dice, before_log = st.dice.count, len(st.log)
    before = st.to_json() if check_json else ""
    try:
        st.apply(action)
    except omaha.IllegalAction as exc:
        if not str(exc):
            return "IllegalAction without a message"
    except Exception as exc:  # any other error is the finding
        return f"{type(exc).__name__}: {exc}"
    else:
        return "accepted"
    if st.dice.count != before_dice or len(st.log) != before_log:
        return "refused but changed the state"
    if check_json and st.to_json() != before:
        return "refused but changed the snapshot"
    return None


def round_trips(st: BloodyState) -> str | None:
    text = st.to_json()
    if st.clone().to_json() != text:
        return "clone differs"
    back = GAME.state_from_json(text)
    if back.to_json() != text or back.invariants():
        return "snapshot round trip differs"
    if st.clone(seed=7).invariants():
        return "reseeded clone breaks the invariants"
    return None


def test_fuzz_random_playouts_with_hostile_actions() -> None:
    deadline = time.monotonic() + BUDGET
    seed = fuzzed = played = trips = 0
    failures: list[str] = []
    while time.monotonic() < deadline or seed < 2:
        rng = random.Random(seed)
        st = GAME.new_state(seed=seed)
        assert isinstance(st, BloodyState)
        bot = GAME.bots[rng.choice(["random", "heuristic"])](seed=seed)
        step = 0
        while not st.is_terminal():
            for action in hostile(st, rng):
                fuzzed += 1
                problem = refused(st, action, check_json=step % 7 == 0)
                if problem:
                    failures.append(f"seed {seed} step {step}: {action!r}: {problem}")
            if step % 11 == 0:
                trips += 1
                if problem := round_trips(st):
                    failures.append(f"seed {seed} step {step}: {problem}")
            action: Action = bot.choose(st)
            st.apply(action)
            played += 1
            step += 1
            if problems := st.invariants():
                failures.append(f"seed {seed} step {step} after {action}: {'; '.join(problems)}")
        seed += 1
    print(
        f"\nbloody fuzz: {seed} games, {played} legal actions with the invariants checked, "
        f"{fuzzed} hostile actions, {trips} clone/snapshot round trips, {len(failures)} failures"
    )
    assert failures == [], "\n".join(failures[:10])
