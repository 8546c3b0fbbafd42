"""The API test every game must pass (in the spirit of OpenSpiel's and PettingZoo's).

Parametrized over every registered game and the toy fixture game. Each game has
a file ``golden/<game>.json`` with its stored log hashes and, optionally,
``playout_seeds`` (default 200 random playouts per scenario; the environment
variable ``OMAHA_PLAYOUT_SEEDS`` overrides every game). Refresh the stored
hashes with ``OMAHA_UPDATE_GOLDEN=1`` after a deliberate change.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from toygame import GAME as TOY

import omaha
from omaha.kernel.actions import Action, sort_key
from omaha.kernel.protocol import Game, State
from omaha.kernel.svg import render_view

GOLDEN = Path(__file__).parent / "golden"
STEP_CAP = int(os.environ.get("OMAHA_STEP_CAP", "20000"))


def all_games() -> list[Game]:
    return [TOY, *(omaha.load(n) for n in omaha.games())]


CASES = [(g, s) for g in all_games() for s in g.scenarios()]
IDS = [f"{g.name}-{s}" for g, s in CASES]

#: Options of the bots these tests can afford, by name: the search agent reads states at
#: a tiny budget here, and plays whole games at budget 0 (the heuristic's game);
#: tests/test_search.py plays it whole at a real budget.
READING = {"search": {"iterations": 2, "depth": 4}}
WHOLE = {"search": {"iterations": 0}}


def playout(game: Game, scenario: str, seed: int, bot_seed: int | None = None) -> State:
    state = game.new_state(scenario, seed=seed)
    bots = {
        p: game.bots["random"](seed=(bot_seed if bot_seed is not None else seed) * 7 + i)
        for i, p in enumerate(game.players)
    }
    steps = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions, f"non-terminal state without legal actions at step {steps}"
        player = state.current_player()
        assert player in game.players
        assert state.pending is not None and player == state.pending.player
        state.apply(bots[player].choose(state))
        steps += 1
        assert steps < STEP_CAP, f"no end after {STEP_CAP} actions"
    return state


def log_hash(state: State) -> str:
    text = "\n".join(str(e) for e in state.log) + "\n" + str(state.outcome())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_random_playouts_terminate(game: Game, scenario: str) -> None:
    seeds = os.environ.get("OMAHA_PLAYOUT_SEEDS") or _golden(game).get("playout_seeds", 200)
    for seed in range(int(seeds)):
        state = playout(game, scenario, seed)
        assert state.is_terminal()
        assert state.current_player() is None
        assert state.legal_actions() == ()
        outcome = state.outcome()
        assert isinstance(outcome, omaha.Outcome)
        metrics = state.metrics()
        assert {m.name for m in game.metrics} <= set(metrics)


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_every_listed_action_applies(game: Game, scenario: str) -> None:
    for seed in range(3):
        state = game.new_state(scenario, seed=seed)
        bot = game.bots["random"](seed=seed)
        steps = 0
        while not state.is_terminal() and steps < 400:
            actions = state.legal_actions()
            assert list(actions) == sorted(actions, key=sort_key), "legal actions are not sorted"
            assert len(set(actions)) == len(actions), "duplicate legal actions"
            for action in actions[:25]:
                twin = state.clone()
                twin.apply(action)
            state.apply(bot.choose(state))
            steps += 1


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_same_inputs_same_log(game: Game, scenario: str) -> None:
    for seed in range(3):
        a = playout(game, scenario, seed)
        b = playout(game, scenario, seed)
        assert [str(e) for e in a.log] == [str(e) for e in b.log]
        assert a.outcome() == b.outcome()
        assert a.to_json() == b.to_json()


_CHILD = """
import hashlib, sys
sys.path.insert(0, {tests!r})
import omaha
from toygame import GAME as TOY
game = TOY if {name!r} == "toy" else omaha.load({name!r})
state = game.new_state({scenario!r}, seed={seed})
bots = {{p: game.bots["random"](seed={seed} * 7 + i) for i, p in enumerate(game.players)}}
while not state.is_terminal():
    state.apply(bots[state.current_player()].choose(state))
print(hashlib.sha256(state.to_json().encode()).hexdigest())
"""


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_deterministic_across_hash_seeds(game: Game, scenario: str) -> None:
    code = _CHILD.format(
        tests=str(Path(__file__).parent), name=game.name, scenario=scenario, seed=5
    )
    digests = set()
    for hash_seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1, "snapshots differ between processes with different PYTHONHASHSEED"


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_snapshot_round_trip_every_step(game: Game, scenario: str) -> None:
    for seed in range(2):
        state = game.new_state(scenario, seed=seed)
        bot = game.bots["random"](seed=seed)
        steps = 0
        while not state.is_terminal() and steps < 300:
            text = state.to_json()
            restored = game.state_from_json(text)
            assert restored.to_json() == text
            assert restored.legal_actions() == state.legal_actions()
            action = bot.choose(state)
            state.apply(action)
            restored.apply(action)
            assert restored.to_json() == state.to_json(), "restored state has another future"
            steps += 1


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_restored_state_plays_the_same_game(game: Game, scenario: str) -> None:
    state = game.new_state(scenario, seed=11)
    bot = game.bots["random"](seed=3)
    for _ in range(10):
        if state.is_terminal():
            break
        state.apply(bot.choose(state))
    restored = game.state_from_json(state.to_json())
    bot_a, bot_b = game.bots["random"](seed=99), game.bots["random"](seed=99)
    steps = 0
    while not state.is_terminal() and steps < STEP_CAP:
        state.apply(bot_a.choose(state))
        restored.apply(bot_b.choose(restored))
        steps += 1
    assert restored.to_json() == state.to_json()


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_game_record_replays(game: Game, scenario: str) -> None:
    state = playout(game, scenario, seed=4)
    record = state.record()
    again = omaha.GameRecord.from_json(record.to_json())
    assert again == attrs.evolve(
        record, actions=tuple(json.loads(json.dumps(list(record.actions))))
    )
    replayed = game.replay(again)
    assert replayed.to_json() == state.to_json()
    scripted = game.replay(again, scripted=True)
    ours, theirs = json.loads(state.to_json()), json.loads(scripted.to_json())
    for key in ("state", "log", "actions"):
        assert ours[key] == theirs[key]


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_a_record_keeps_notation_and_reads_the_old_tagged_form(game: Game, scenario: str) -> None:
    state = playout(game, scenario, seed=5)
    record = state.record()
    assert list(record.actions) == [str(a) for a in state.actions]  # as a person writes them
    tagged = attrs.evolve(record, actions=tuple(a.to_data() for a in state.actions))
    mixed = attrs.evolve(
        record, actions=tuple(a.to_data() if i % 2 else str(a) for i, a in enumerate(state.actions))
    )
    for old in (tagged, mixed):  # records written before, or by hand
        again = omaha.GameRecord.from_json(old.to_json())
        assert game.replay(again).to_json() == state.to_json()


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_actions_round_trip(game: Game, scenario: str) -> None:
    seen = 0
    for seed in range(3):
        state = game.new_state(scenario, seed=seed)
        bot = game.bots["random"](seed=seed)
        steps = 0
        while not state.is_terminal() and steps < 300:
            for action in state.legal_actions():
                assert game.parse_action(str(action)) == action, str(action)
                assert game.action_from_data(json.loads(json.dumps(action.to_data()))) == action
                seen += 1
            state.apply(bot.choose(state))
            steps += 1
    assert seen > 0


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_clones_are_independent(game: Game, scenario: str) -> None:
    state = game.new_state(scenario, seed=2)
    bot = game.bots["random"](seed=2)
    for _ in range(5):
        if state.is_terminal():
            break
        state.apply(bot.choose(state))
    before = state.to_json()
    twin = state.clone()
    assert twin.to_json() == before
    steps = 0
    while not twin.is_terminal() and steps < STEP_CAP:
        twin.apply(bot.choose(twin))
        steps += 1
    assert state.to_json() == before, "playing a clone changed the original"
    for k in range(3):
        other = state.clone(seed=100 + k)
        other_bot = game.bots["random"](seed=k)
        steps = 0
        while not other.is_terminal() and steps < STEP_CAP:
            assert other.legal_actions()
            other.apply(other_bot.choose(other))
            steps += 1
        assert other.is_terminal()
    assert state.to_json() == before


@attrs.frozen
class Alien(Action):
    notation = "alien {x}"
    x: int


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_illegal_actions_change_nothing(game: Game, scenario: str) -> None:
    state = game.new_state(scenario, seed=3)
    bot = game.bots["random"](seed=3)
    pool: list[Action] = []
    steps = 0
    while not state.is_terminal() and steps < 300:
        legal = state.legal_actions()
        before = state.to_json()
        drawn, logged = state.dice.count, len(state.log)
        candidates = [a for a in pool[-40:] if a not in legal] + [Alien(1)]
        for action in candidates:
            with pytest.raises(omaha.IllegalAction):
                state.apply(action)
            assert (state.dice.count, len(state.log)) == (drawn, logged), f"illegal {action} acted"
        if state.to_json() != before:  # find the culprit on fresh copies of the state
            for action in candidates:
                probe = game.state_from_json(before)
                with pytest.raises(omaha.IllegalAction):
                    probe.apply(action)
                assert probe.to_json() == before, f"illegal {action} changed the state"
            pytest.fail("an illegal action changed the state")
        pool.extend(legal[:5])
        state.apply(bot.choose(state))
        steps += 1
    if state.is_terminal():
        before = state.to_json()
        for action in pool[:5]:
            with pytest.raises(omaha.IllegalAction):
                state.apply(action)
        assert state.to_json() == before


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_reading_consumes_no_dice(game: Game, scenario: str) -> None:
    state = game.new_state(scenario, seed=6)
    bots = {name: factory(seed=1, **READING.get(name, {})) for name, factory in game.bots.items()}
    steps = 0
    while not state.is_terminal() and steps < 200:
        drawn = state.dice.count
        before = state.to_json()
        fresh = game.state_from_json(before)  # no cached legal actions
        fresh.legal_actions()
        assert fresh.dice.count == drawn, "listing legal actions rolled dice"
        state.legal_actions()
        for player in (None, *game.players):
            state.view(player)
        if steps % 10 == 0:
            render_view(state.view(None))
        for bot in bots.values():
            with contextlib.suppress(omaha.IllegalAction):
                bot.choose(state)  # a one-sided bot may refuse the other side's decision
        assert state.dice.count == drawn, "reading the state rolled dice"
        assert state.to_json() == before, "reading the state changed it"
        state.apply(bots["random"].choose(state))
        steps += 1


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_every_bot_finishes_a_game(game: Game, scenario: str) -> None:
    for name, factory in sorted(game.bots.items()):
        state = game.new_state(scenario, seed=8)
        bot = factory(seed=8, **WHOLE.get(name, {}))
        fallback = game.bots["random"](seed=8)
        steps = 0
        while not state.is_terminal():
            try:
                action = bot.choose(state)
            except omaha.IllegalAction:
                action = fallback.choose(state)
            state.apply(action)
            steps += 1
            assert steps < STEP_CAP, f"bot {name} did not finish"


def _golden(game: Game) -> dict[str, Any]:
    path = GOLDEN / f"{game.name}.json"
    data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    return data


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_stored_log_hashes(game: Game, scenario: str) -> None:
    """A change to any game's dice stream or rules output must be deliberate."""
    got = {str(seed): log_hash(playout(game, scenario, seed)) for seed in (1, 2, 3)}
    if os.environ.get("OMAHA_UPDATE_GOLDEN"):
        data = _golden(game)
        data.setdefault("hashes", {})[scenario] = got
        GOLDEN.mkdir(exist_ok=True)
        (GOLDEN / f"{game.name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        return
    stored = _golden(game).get("hashes", {}).get(scenario)
    where = f"{game.name}/{scenario}"
    assert stored is not None, f"no stored hashes for {where}: run with OMAHA_UPDATE_GOLDEN=1"
    assert got == stored, (
        f"{where}: log hashes changed; if deliberate, run with OMAHA_UPDATE_GOLDEN=1"
    )


def bot_game(game: Game, scenario: str, bot: str, seed: int) -> State:
    """A seeded game between the bots ``game.lineup(bot)`` names."""
    lineup = game.lineup(bot)
    bots = {p: game.bots[lineup[p]](seed=seed * 11 + i) for i, p in enumerate(game.players)}
    state = game.new_state(scenario, seed=seed)
    steps = 0
    fallback = game.bots["random"](seed=seed)
    while not state.is_terminal():
        try:  # a one-sided bot refuses the other side's decisions
            action = bots[state.current_player() or ""].choose(state)
        except omaha.IllegalAction:
            action = fallback.choose(state)
        state.apply(action)
        steps += 1
        assert steps < STEP_CAP, f"{bot} did not finish"
    return state


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=IDS)
def test_stored_bot_game_hashes(game: Game, scenario: str) -> None:
    """Seeded games of every bot lineup keep their logs: a bot's choices in a given
    state may change only deliberately (speed work must not weaken or alter play)."""
    # the search agent's whole games at its default budget are minutes (TCS d-day); that
    # its choices are a function of its seed is tests/test_search.py's, at small budgets
    names = sorted(n for n in game.bots if n not in ("random", "search"))
    got = {
        f"{name}/{seed}": log_hash(bot_game(game, scenario, name, seed))
        for name in names
        for seed in (1, 2)
    }
    if os.environ.get("OMAHA_UPDATE_GOLDEN"):
        data = _golden(game)
        data.setdefault("bot_hashes", {})[scenario] = got
        (GOLDEN / f"{game.name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        return
    stored = _golden(game).get("bot_hashes", {}).get(scenario)
    where = f"{game.name}/{scenario}"
    assert stored is not None, f"no stored bot hashes for {where}: run with OMAHA_UPDATE_GOLDEN=1"
    assert got == stored, f"{where}: bot game logs changed; if deliberate, OMAHA_UPDATE_GOLDEN=1"
