"""Fuzzing every game and shipped scenario with hostile input (issue 10).

Three tests per game and scenario, each running seeded episodes until its time
budget is spent (``--fuzz-seconds``, see ``tests/conftest.py``):

* ``test_fuzz_actions``: seeded random legal playouts; ``state.invariants()``
  is checked after every action; at many steps a volley of hostile actions is
  thrown (fields of the wrong type, unknown labels and out-of-range values,
  actions from earlier states, from other games, of other classes, objects
  that are no action at all, garbage text through ``parse_action``). Each must
  raise ``IllegalAction`` with no dice consumed and the snapshot byte-identical
  (a text that parses to a valid whole plan may be accepted). Clone and
  snapshot round trips are checked along the way.
* ``test_fuzz_snapshots``: snapshots tampered with at random load as a sound,
  playable state or raise ``RecordError``: never another exception, never a
  state that breaks when played.
* ``test_fuzz_records``: tampered game records replay or raise ``RecordError``.

A failure prints one line per distinct problem, with what reproduces it (game,
scenario, seed, step, the action) and the command that replays that seed.
Known failures inside a game are listed in ``KNOWN`` (expected failures that
do not have to fail: the game's owner fixes them and the mark goes).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import random
import resource
import signal
import time
import types
import typing
from collections import Counter
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from toygame import GAME as TOY

import omaha
from omaha.errors import IllegalAction, RecordError, ScenarioError
from omaha.kernel.actions import Action
from omaha.kernel.protocol import Game, State
from omaha.kernel.records import GameRecord

STEP_CAP = 20_000
#: Every step of the first ATTACK_ALL is attacked, later step s with chance ATTACK_ALL / s,
#: so a short budget still reaches well into long games.
ATTACK_ALL = 30
ROUND_TRIP_EVERY = 5  # attacked steps between clone/snapshot round trips


def all_games() -> list[Game[Any]]:
    return [TOY, *(omaha.load(n) for n in omaha.games())]


GAMES = all_games()
CASE_LIST = [(g, s) for g in GAMES for s in g.scenarios()]

#: Problems the harness found inside a game, as (test, case id) -> reproducer. They are
#: expected failures (not strict): the game's owner fixes them and removes the entry.
_NO_INVARIANTS = "no invariants() yet: a tampered snapshot loads, then breaks when played, e.g. "
KNOWN: dict[tuple[str, str], str] = {
    ("snapshots", "toy-beach"): _NO_INVARIANTS
    + "toy/beach seed=0 step=0: snapshot.state.moving None -> {}: TypeError (unhashable dict)",
    ("snapshots", "tcs-landing"): _NO_INVARIANTS
    + "tcs/landing seed=0 step=24: snapshot.state.cursor 0 -> None: TypeError; "
    "seed=0 step=25: turn 0 -> 10**9: IndexError",
    ("snapshots", "tcs-e1-draw"): _NO_INVARIANTS
    + "the battle scenarios came with issue 12; TCS invariants() are being written",
    ("snapshots", "tcs-d-day"): _NO_INVARIANTS
    + "the battle scenarios came with issue 12; TCS invariants() are being written",
}


def cases(test: str) -> list[Any]:
    out = []
    for game, scenario in CASE_LIST:
        case_id = f"{game.name}-{scenario}"
        reason = KNOWN.get((test, case_id))
        marks = [pytest.mark.xfail(strict=False, reason=reason)] if reason else []
        out.append(pytest.param(game, scenario, id=case_id, marks=marks))
    return out


# --------------------------------------------------------------------------
# Budget, failures, reproducers
# --------------------------------------------------------------------------
@attrs.define
class Run:
    """One fuzz test on one case: its clock, counts and failures."""

    test: str
    game: Game[Any]
    scenario: str
    seconds: float
    only_seed: int | None
    stats: Counter[str]
    started: float = attrs.field(factory=time.monotonic)
    failures: dict[str, str] = attrs.field(factory=dict)

    def seeds(self) -> Iterator[int]:
        if self.only_seed is not None:
            yield self.only_seed
            return
        for seed in itertools.count():
            if self.expired():
                return
            yield seed

    def expired(self) -> bool:
        return self.only_seed is None and time.monotonic() - self.started > self.seconds

    def fail(self, key: str, seed: int, step: int, what: str, problem: str) -> None:
        """Note a problem once per kind (``key``), with its reproducer."""
        if key in self.failures:
            return
        self.failures[key] = (
            f"{self.game.name}/{self.scenario} seed={seed} step={step}: {what}: {problem} "
            f"[rerun: pytest tests/conformance/test_fuzz.py -k '{self.test} and "
            f"{self.game.name}-{self.scenario}' --fuzz-seed {seed}]"
        )

    def finish(self) -> None:
        self.stats[f"{self.test} failures"] += len(self.failures)
        if self.failures:
            lines = list(self.failures.values())
            pytest.fail(f"{len(lines)} problem(s) found:\n" + "\n".join(lines), pytrace=False)


class Overrun(Exception):
    """A hostile input made the code under test run too long."""


#: What one hostile input may cost before it counts as a failure (a tampered count of
#: a billion must not take the machine down with it).
GUARD_SECONDS = 3.0
GUARD_BYTES = 2 * 1024**3


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """Run a block with a time limit (Overrun) and a memory limit (MemoryError)."""

    def overrun(signum: int, frame: Any) -> None:
        raise Overrun(f"still running after {GUARD_SECONDS:g} s")

    old_handler = signal.signal(signal.SIGALRM, overrun)
    old_limit = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        in_use = int(statm.read().split()[0]) * resource.getpagesize()
    cap = in_use + GUARD_BYTES
    if old_limit[1] != resource.RLIM_INFINITY:
        cap = min(cap, old_limit[1])
    resource.setrlimit(resource.RLIMIT_AS, (cap, old_limit[1]))
    signal.setitimer(signal.ITIMER_REAL, GUARD_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        resource.setrlimit(resource.RLIMIT_AS, old_limit)
        signal.signal(signal.SIGALRM, old_handler)


def shown(value: object, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def problem(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {shown(str(exc), 160)}"


def bots_for(game: Game[Any], seed: int) -> dict[str, Any]:
    return {p: game.bots["random"](seed=seed * 7919 + i + 1) for i, p in enumerate(game.players)}


def attacked(step: int, rng: random.Random) -> bool:
    return step < ATTACK_ALL or rng.random() < ATTACK_ALL / step


# --------------------------------------------------------------------------
# Hostile actions
# --------------------------------------------------------------------------
@attrs.frozen
class Alien(Action):
    notation = "alien {x}"
    x: int


#: Kinds of hostile action that must always be refused; the others (a text that
#: happens to parse to a sound whole plan, an old plan that is still sound) may be accepted.
MUST_REFUSE = frozenset({"mistyped", "foreign", "not an action"})

BAD_STRINGS = (
    "Z99", "", " ", "A0", "\x00", "K" + "9" * 30, "x" * 500, "\u03a912", "K\u0664",
    "-", "[]", '"', "none", "1/A/116 ", "\n",
)  # fmt: skip
BAD_INTS = (-1, 0, 7, 99, 2**63, -(2**63), 10**100)


def fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` is of the declared field type (independent of the kernel's check)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, a) for a in args)
    if hint is type(None):
        return value is None
    if origin is tuple:
        return isinstance(value, tuple) and all(fits(v, args[0]) for v in value)
    if hint is int:
        return type(value) is int
    if hint in (str, bool):
        return type(value) is hint
    return True


WRONG_TYPED: tuple[Any, ...] = (
    None, 1, -1, 2**70, 1.5, math.nan, True, False, b"K4", bytearray(b"K4"), ["K4"], {"K4": 1},
    ("K4",), (1, 2), ("K4", 1), (None,), (b"K4",), "K4", "", object(), 1j, frozenset({"K4"}),
)  # fmt: skip


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def field_names(action: Action) -> list[str]:
    return [f.name for f in attrs.fields(type(action))]  # type: ignore[arg-type]


def right_typed_wrong_values(value: Any, hint: Any, pool: list[str]) -> list[Any]:
    """Values of the declared type that are most likely not legal here."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        out = [None] if type(None) in args else []
        for a in args:
            if a is not type(None):
                out += right_typed_wrong_values(value, a, pool)
        return out
    if origin is tuple:
        inner = args[0]
        items: tuple[Any, ...] = value if isinstance(value, tuple) else ()
        bad = list(BAD_STRINGS[:4]) if inner is str else list(BAD_INTS[:3])
        return [
            (),
            (bad[0],),
            (*items, bad[0]),
            items + items,
            items[::-1],
            items[:-1],
            (bad[1],) * 3,
            tuple(pool[:300]) if inner is str else tuple(range(300)),
        ]
    if hint is str:
        return [*BAD_STRINGS, *pool[:5], str(value).lower(), f" {value} "]
    if hint is int:
        return list(BAD_INTS)
    if hint is bool:
        return [not value] if isinstance(value, bool) else [True, False]
    return []


def evolve(action: Action, **changes: Any) -> Action:
    return attrs.evolve(action, **changes)  # type: ignore[misc]


def same_name_impostor(action: Action) -> Action:
    """An instance of a subclass that carries the same class name and fields."""
    cls = type(action)
    impostor = type(cls.__name__, (cls,), {"__module__": __name__})
    values = {name: getattr(action, name) for name in field_names(action)}
    made: Action = impostor(**values)
    return made


def mutate_text(text: str, rng: random.Random) -> str:
    tokens = text.split(" ")
    choice = rng.randrange(8)
    if choice == 0 and text:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1 :]
    if choice == 1:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(['"', "-", ",", "9", "Z", " ", "\x00", "\u00e9"]) + text[i:]
    if choice == 2:
        tokens[rng.randrange(len(tokens))] = rng.choice(
            ["Z99", "-", "[]", "yes", "no", "0", "-1", "9" * 25, '"', '"x"', "K4", '""', "a,b,"]
        )
        return " ".join(tokens)
    if choice == 3:
        i = rng.randrange(len(tokens))
        return " ".join(tokens[: i + 1] + tokens[i:])
    if choice == 4:
        return " ".join(tokens[: rng.randrange(len(tokens) + 1)])
    if choice == 5:
        return text + " extra"
    if choice == 6:
        return text.upper() if rng.random() < 0.5 else text.replace(" ", "  ")
    return rng.choice(["", " ", "\x00", "\U0001f642", '"', 'x "y', "x" * 5000, "end", "?"])


@attrs.define
class Volley:
    """The hostile actions thrown at one state, each with its kind."""

    items: list[tuple[str, Any]] = attrs.field(factory=list)
    texts: list[tuple[str, str]] = attrs.field(factory=list)  # (kind, text) for parse_action

    def add(self, kind: str, action: Any) -> None:
        self.items.append((kind, action))


def volley(
    state: State[Any],
    rng: random.Random,
    stale: list[Action],
    strangers: list[Action],
    labels: list[str],
) -> Volley:
    """Hostile actions for ``state``: a few of every kind."""
    out = Volley()
    legal = state.legal_actions()
    templates = rng.sample(list(legal), min(3, len(legal)))
    for template in templates:
        hints = _hints(type(template))
        names = field_names(template)
        for name in rng.sample(names, min(2, len(names))):
            hint = hints[name]
            wrong = [v for v in WRONG_TYPED if not fits(v, hint)]
            for value in rng.sample(wrong, min(4, len(wrong))):
                out.add("mistyped", evolve(template, **{name: value}))
            pool = labels if rng.random() < 0.7 else [str(a) for a in legal]
            right = right_typed_wrong_values(getattr(template, name), hint, pool)
            for value in rng.sample(right, min(5, len(right))):
                out.add("wrong value", evolve(template, **{name: value}))
        out.add("foreign", same_name_impostor(template))
        out.texts.append(("parsed", mutate_text(str(template), rng)))
        out.texts.append(("parsed", mutate_text(str(template), rng)))
    for action in rng.sample(stale, min(6, len(stale))):
        out.add("stale", action)
    out.add("foreign", Alien(1))
    for action in rng.sample(strangers, min(2, len(strangers))):
        out.add("foreign", action)
    nothing: list[Any] = [None, 0, "end phase", b"", [], {}, object(), Action, Ellipsis]
    if legal:
        sample = rng.choice(legal)
        nothing += [sample.to_data(), str(sample), type(sample), (sample,), [sample]]
    for thing in rng.sample(nothing, 4):
        out.add("not an action", thing)
    out.texts.append(("parsed", mutate_text("", rng)))
    return out


def strangers_for(game: Game[Any]) -> list[Action]:
    """One legal action from the start of every other game: foreign to ``game``."""
    out: list[Action] = []
    for other in GAMES:
        if other.name != game.name:
            out.extend(other.new_state(seed=1).legal_actions()[:2])
    return out


def board_labels(state: State[Any], rng: random.Random) -> list[str]:
    labels = list(state.board.labels)
    return rng.sample(labels, min(12, len(labels)))


# --------------------------------------------------------------------------
# test_fuzz_actions
# --------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "scenario"), cases("actions"))
def test_fuzz_actions(game: Game[Any], scenario: str, fuzz_budget: Any, fuzz_stats: Any) -> None:
    run = Run("actions", game, scenario, fuzz_budget.seconds, fuzz_budget.seed, fuzz_stats)
    strangers = strangers_for(game)
    for seed in run.seeds():
        fuzz_episode(run, seed, strangers)
    run.finish()


def fuzz_episode(run: Run, seed: int, strangers: list[Action]) -> None:
    game = run.game
    state = game.new_state(run.scenario, seed=seed)
    bots = bots_for(game, seed)
    schedule = random.Random(seed)
    stale: list[Action] = []
    check_invariants(run, state, seed, 0, "new_state")
    rounds = 0
    for step in itertools.count():
        if run.expired() or step >= STEP_CAP:
            return
        attack = attacked(step, schedule) or state.is_terminal()
        if attack:
            rng = random.Random(seed * 1_000_003 + step)
            state = attack_state(run, state, seed, step, rng, stale, strangers)
            rounds += 1
        if state.is_terminal():
            run.stats["episodes"] += 1
            return
        legal = state.legal_actions()
        stale.extend(legal[step % 3 :: 7][:3])
        del stale[:-200]
        action = bots[state.current_player() or ""].choose(state)
        if attack and rounds % ROUND_TRIP_EVERY == 1:
            state = round_trips(run, state, seed, step, action)
        else:
            try:
                state.apply(action)
            except Exception as exc:
                run.fail(f"legal {type(exc).__name__}", seed, step, f"legal {action}", problem(exc))
                return
        run.stats["legal actions played"] += 1
        check_invariants(run, state, seed, step + 1, f"after {action}")


def check_invariants(run: Run, state: State[Any], seed: int, step: int, where: str) -> None:
    try:
        problems = state.invariants()
    except Exception as exc:
        run.fail("invariants raised", seed, step, f"invariants() {where}", problem(exc))
        return
    if problems:
        run.fail(f"invariant {problems[0][:40]}", seed, step, where, "; ".join(problems))


def attack_state(
    run: Run,
    state: State[Any],
    seed: int,
    step: int,
    rng: random.Random,
    stale: list[Action],
    strangers: list[Action],
) -> State[Any]:
    """Throw a volley at ``state``; returns the state to go on with (a restored copy
    when something was accepted or went wrong)."""
    game = run.game
    before = state.to_json()
    counts = (state.dice.count, len(state.log), len(state.actions))
    shots = volley(state, rng, stale, strangers, board_labels(state, rng))
    items = list(shots.items)
    for kind, text in shots.texts:
        try:
            with guarded():
                parsed = game.parse_action(text)
        except IllegalAction:
            run.stats["garbage texts refused by parse_action"] += 1
            continue
        except Exception as exc:
            run.fail(f"parse {type(exc).__name__}", seed, step, f"parse_action({shown(text)})",
                     problem(exc))  # fmt: skip
            continue
        items.append((kind, parsed))
    for kind, action in items:
        what = f"{kind} {shown(action)}"
        try:
            legal = state.is_legal(action)
        except Exception as exc:
            run.fail(
                f"is_legal {type(exc).__name__}", seed, step, what, f"is_legal: {problem(exc)}"
            )
            continue
        if legal and kind not in MUST_REFUSE:
            continue
        if legal:  # equal to a legal action (True == 1, 1.0 == 1): see test_is_legal_checks_types
            run.stats["mistyped actions is_legal took for legal ones"] += 1
        try:
            with guarded():
                state.apply(action)
        except IllegalAction as exc:
            run.stats["hostile actions refused"] += 1
            if not str(exc).strip():
                run.fail(f"silent {kind}", seed, step, what, "IllegalAction without a message")
        except Exception as exc:
            run.fail(f"apply {kind} {type(exc).__name__}", seed, step, what, problem(exc))
            return game.state_from_json(before)
        else:
            if kind in MUST_REFUSE:
                run.fail(f"accepted {kind}", seed, step, what, "was accepted")
            run.stats["hostile texts accepted as sound plans"] += 1
            return game.state_from_json(before)
        now = (state.dice.count, len(state.log), len(state.actions))
        if now != counts:
            run.fail(f"consumed {kind}", seed, step, what,
                     f"refused, but dice/log/actions went {counts} -> {now}")  # fmt: skip
            return game.state_from_json(before)
    if state.to_json() != before:
        culprit = find_culprit(game, before, items)
        run.fail(f"changed {culprit[0]}", seed, step, f"{culprit[0]} {shown(culprit[1])}",
                 "refused, but the snapshot changed")  # fmt: skip
        return game.state_from_json(before)
    return state


def find_culprit(game: Game[Any], before: str, items: list[tuple[str, Any]]) -> tuple[str, Any]:
    for kind, action in items:
        probe = game.state_from_json(before)
        with contextlib.suppress(Exception):
            probe.apply(action)
        if probe.to_json() != before:
            return kind, action
    return "?", None


def round_trips(run: Run, state: State[Any], seed: int, step: int, action: Action) -> State[Any]:
    """Snapshot and clone of ``state`` play ``action`` exactly as the state does."""
    game = run.game
    text = state.to_json()
    try:
        restored = game.state_from_json(text)
    except Exception as exc:
        run.fail("restore", seed, step, "state_from_json(to_json())", problem(exc))
        state.apply(action)
        return state
    twin = state.clone()
    if restored.to_json() != text or twin.to_json() != text:
        run.fail("round trip", seed, step, "snapshot/clone", "differs from the original")
    for copy in (state, restored, twin):
        copy.apply(action)
    after = state.to_json()
    if restored.to_json() != after or twin.to_json() != after:
        run.fail("future", seed, step, f"{action} on a copy", "restored or cloned copy diverged")
    run.stats["round trips"] += 1
    return state


# --------------------------------------------------------------------------
# test_fuzz_snapshots
# --------------------------------------------------------------------------
def tamper(data: Any, rng: random.Random, strings: list[str]) -> tuple[Any, str]:
    """A copy of JSON ``data`` with one change somewhere inside; and where."""
    data = json.loads(json.dumps(data))
    root: dict[str, Any] = {"": data}
    parent: Any = root
    key: Any = ""
    path = ""
    while True:
        node = parent[key]
        children = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) \
            if isinstance(node, list) else []  # fmt: skip
        if not children or rng.random() < 0.2:
            break
        parent = node
        key, _ = rng.choice(children)
        path += f"[{key}]" if isinstance(key, int) else f".{key}"
    node = parent[key]
    new, how = changed(node, rng, strings)
    if new is DELETE:
        del parent[key]
    else:
        parent[key] = new
    return root.get(""), f"{path or '.'} {how}"


DELETE = object()


def changed(value: Any, rng: random.Random, strings: list[str]) -> tuple[Any, str]:
    if isinstance(value, bool):
        options: list[Any] = [not value, 1, None, "yes"]
    elif isinstance(value, int):
        options = [value + 1, value - 1, -1, 0, 99, 10**9, -(10**9), 2**64, str(value), None, 1.5]
    elif isinstance(value, float):
        options = [value + 1, -value, math.nan, math.inf, 0, None, str(value)]
    elif isinstance(value, str):
        options = ["Z99", "", "x" * 300, 1, None, *rng.sample(strings, min(3, len(strings)))]
    elif value is None:
        options = [0, "", [], {}, "Z99", -1]
    elif isinstance(value, list):
        options = [[], None, "x", {}]
        if value:
            i = rng.randrange(len(value))
            options += [value[:i] + value[i + 1 :], value[: i + 1] + value[i:], value[::-1]]
    else:
        options = [[], None, "x", DELETE]
        if value:
            k = rng.choice(sorted(value))
            options += [{kk: vv for kk, vv in value.items() if kk != k}, {**value, "zz": 1}]
    new = rng.choice(options)
    how = "deleted" if new is DELETE else f"{shown(value, 40)} -> {shown(new, 40)}"
    if rng.random() < 0.3 and not isinstance(value, dict | list):
        return DELETE, "deleted"
    return new, how


def leaf_strings(data: Any, out: list[str], limit: int = 200) -> list[str]:
    if len(out) >= limit:
        return out
    if isinstance(data, str):
        out.append(data)
    elif isinstance(data, dict):
        for v in data.values():
            leaf_strings(v, out, limit)
    elif isinstance(data, list):
        for v in data[:20]:
            leaf_strings(v, out, limit)
    return out


@pytest.mark.parametrize(("game", "scenario"), cases("snapshots"))
def test_fuzz_snapshots(game: Game[Any], scenario: str, fuzz_budget: Any, fuzz_stats: Any) -> None:
    run = Run("snapshots", game, scenario, fuzz_budget.seconds / 2, fuzz_budget.seed, fuzz_stats)
    for seed in run.seeds():
        state = game.new_state(scenario, seed=seed)
        bots = bots_for(game, seed)
        rng = random.Random(seed)
        for step in itertools.count():
            if run.expired() or step >= STEP_CAP:
                break
            if attacked(step, rng) or state.is_terminal():
                tampered_loads(run, state, seed, step, rng)
            if state.is_terminal():
                break
            state.apply(bots[state.current_player() or ""].choose(state))
    run.finish()


def tampered_loads(run: Run, state: State[Any], seed: int, step: int, rng: random.Random) -> None:
    data = json.loads(state.to_json())
    strings = leaf_strings(data["state"], [])
    for _ in range(3):
        inside = rng.random() < 0.8
        target = data["state"] if inside else data
        changed_data, where = tamper(target, rng, strings)
        env = dict(data, state=changed_data) if inside else changed_data
        where = f"snapshot{'.state' if inside else ''}{where}"
        try:
            text = json.dumps(env, sort_keys=True)
        except (TypeError, ValueError):
            continue
        try:
            with guarded():
                loaded = run.game.state_from_json(text, name="tampered.json")
        except RecordError as exc:
            run.stats["tampered snapshots refused"] += 1
            if not str(exc).startswith("tampered.json: "):
                run.fail("unnamed", seed, step, where, f"RecordError without the file: {exc}")
            continue
        except Exception as exc:
            run.fail(f"load {type(exc).__name__}", seed, step, where, problem(exc))
            continue
        run.stats["tampered snapshots loaded"] += 1
        try:
            with guarded():
                play_a_little(loaded, rng)
        except Exception as exc:
            run.fail(f"half-loaded {type(exc).__name__}", seed, step, where,
                     f"loaded, then {problem(exc)}")  # fmt: skip


def play_a_little(state: State[Any], rng: random.Random) -> None:
    """Use a loaded state the way a player would; anything unsound shows here."""
    for _ in range(3):
        state.to_json()
        state.view(None)
        for player in state.game.players:
            state.view(player)
        state.metrics()
        if state.is_terminal():
            state.outcome()
            return
        legal = state.legal_actions()
        if not legal:
            raise AssertionError("a non-terminal state without legal actions")
        state.apply(rng.choice(legal))
        problems = state.invariants()
        if problems:
            raise AssertionError("; ".join(problems))


# --------------------------------------------------------------------------
# test_fuzz_records
# --------------------------------------------------------------------------
def tamper_record(data: dict[str, Any], rng: random.Random, strings: list[str]) -> tuple[Any, str]:
    choice = rng.randrange(10)
    data = json.loads(json.dumps(data))
    if choice == 0 and data["actions"]:
        i = rng.randrange(len(data["actions"]))
        j = rng.randrange(len(data["actions"]))
        data["actions"][i], data["actions"][j] = data["actions"][j], data["actions"][i]
        return data, f"actions {i} and {j} swapped"
    if choice == 1:
        junk: Any = rng.choice(
            ["end phase", 1, None, [], {"type": "Nope"}, {"type": "Alien", "x": 1}]
        )
        i = rng.randrange(len(data["actions"]) + 1)
        data["actions"].insert(i, junk)
        return data, f"actions[{i}] = {shown(junk)} inserted"
    if choice == 2 and data["dice"]:
        cut = rng.randrange(len(data["dice"]))
        data["dice"] = data["dice"][:cut]
        return data, f"dice cut to {cut}"
    if choice == 3 and data["dice"]:
        i = rng.randrange(len(data["dice"]))
        data["dice"][i] = rng.choice([0, 7, -1, 2**64, "3", 1.5, None, data["dice"][i] % 6 + 1])
        return data, f"dice[{i}] = {shown(data['dice'][i])}"
    if choice == 4:
        data["seed"] = rng.choice([-1, 2**64, "1", 1.5, None, True, 12345])
        return data, f"seed = {shown(data['seed'])}"
    if choice == 5:
        key = rng.choice(sorted(data))
        del data[key]
        return data, f"{key} deleted"
    if choice == 6:
        data["dice"] = data["dice"] + [rng.randrange(1, 7) for _ in range(5)]
        return data, "dice extended"
    return tamper(data, rng, strings)


@pytest.mark.parametrize(("game", "scenario"), cases("records"))
def test_fuzz_records(game: Game[Any], scenario: str, fuzz_budget: Any, fuzz_stats: Any) -> None:
    run = Run("records", game, scenario, fuzz_budget.seconds / 2, fuzz_budget.seed, fuzz_stats)
    for seed in run.seeds():
        rng = random.Random(seed)
        state = game.new_state(scenario, seed=seed)
        bots = bots_for(game, seed)
        length = rng.choice([10, 40, 150, 600, STEP_CAP])
        for _ in range(length):
            if state.is_terminal():
                break
            state.apply(bots[state.current_player() or ""].choose(state))
        data = json.loads(state.record().to_json())
        if seed == (run.only_seed or 0):
            replayed = game.replay(GameRecord.from_json(json.dumps(data)))
            assert replayed.to_json() == state.to_json(), "a sound record replays exactly"
        strings = leaf_strings(data["actions"], [])
        for _ in range(4):
            if run.expired():
                break
            changed_data, where = tamper_record(data, rng, strings)
            scripted = rng.random() < 0.5
            where = f"record {where}{' (scripted)' if scripted else ''}"
            replay_tampered(run, changed_data, scripted, seed, len(state.actions), where)
    run.finish()


def replay_tampered(run: Run, data: Any, scripted: bool, seed: int, step: int, where: str) -> None:
    try:
        text = json.dumps(data)
    except (TypeError, ValueError):
        return
    try:
        with guarded():
            record = GameRecord.from_json(text, "tampered.json")
            run.game.replay(record, scripted=scripted, name="tampered.json")
    except RecordError as exc:
        run.stats["tampered records refused"] += 1
        if not str(exc).startswith("tampered.json: "):
            run.fail("unnamed", seed, step, where, f"RecordError without the file: {exc}")
    except Exception as exc:
        run.fail(f"replay {type(exc).__name__}", seed, step, where, problem(exc))
    else:
        run.stats["tampered records replayed"] += 1


def test_harness_catches_a_sloppy_game() -> None:
    """The harness itself: a state that takes whatever it is given is caught."""
    run = Run("actions", TOY, "beach", 0.5, 0, Counter())
    state = TOY.new_state("beach", seed=0)
    state.apply = lambda action: None  # type: ignore[method-assign]
    attack_state(run, state, 0, 0, random.Random(0), [], [])
    assert any("mistyped" in line and "was accepted" in line for line in run.failures.values())
    line = next(iter(run.failures.values()))
    assert line.startswith("toy/beach seed=0 step=0: ") and "--fuzz-seed 0" in line


def test_is_legal_checks_types() -> None:
    """is_legal refuses an action equal to a legal one only by Python's equality (1.0 or
    True for the 1 of an integer field), as apply does."""
    state = TOY.new_state("beach", seed=0)
    legal = state.legal_actions()
    assert all(state.is_legal(a) for a in legal)
    assert TOY.new_state("beach", seed=0).is_legal(Alien(1)) is False
    seen = []
    for game in GAMES:
        state = game.new_state(seed=1)
        bot = game.bots["random"](seed=1)
        for _ in range(400):  # look along a game for actions with integer fields
            if state.is_terminal():
                break
            for action in state.legal_actions():
                hints = _hints(type(action))
                for name in field_names(action):
                    if hints[name] is int:
                        value = getattr(action, name)
                        twins = [float(value)] + ([bool(value)] if value in (0, 1) else [])
                        for twin in twins:
                            seen.append(state.is_legal(evolve(action, **{name: twin})))
            state.apply(bot.choose(state))
    assert seen and not any(seen)


@pytest.mark.parametrize("change", ["dice cut", "die out of range", "unknown scenario"])
def test_replay_refuses_bad_records_with_record_error(change: str) -> None:
    state = TOY.new_state("beach", seed=3)
    bots = bots_for(TOY, 3)
    while not state.is_terminal():
        state.apply(bots[state.current_player() or ""].choose(state))
    data = json.loads(state.record().to_json())
    if change == "dice cut":
        data["dice"] = data["dice"][:3]
    elif change == "die out of range":
        data["dice"][2] = 9
    else:
        data["scenario"]["id"] = "nowhere"
    record = GameRecord.from_json(json.dumps(data), "bad.json")
    with pytest.raises(RecordError, match=r"^bad\.json: "):
        TOY.replay(record, scripted=True, name="bad.json")


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_an_overlong_scenario_name_is_a_scenario_error(game: Game[Any]) -> None:
    """A scenario name or path longer than the file system allows (a tampered record, a
    typo) is a ScenarioError like any missing scenario, not an OSError."""
    try:
        game.load_scenario("x" * 300)
    except ScenarioError:
        return
    pytest.fail("an overlong scenario name loaded")
