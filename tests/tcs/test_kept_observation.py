"""The observation TCS keeps from decision to decision (issue 15's speed) is exactly the
one built from nothing (``state.fresh_observation``, the reference): at every decision
of random and heuristic games of every shipped scenario, for both players; after a
clone (each copy going its own way), a restored snapshot, a position staged with
``edit()``, and each of the core's mutators (which write the journal the kept planes
follow). And the legal action numbers are the encoded ones."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import numpy as np
import pytest

from omaha.tcs import GAME
from omaha.tcs.core import LOST, Status
from omaha.tcs.state import TcsState

SCENARIOS = GAME.scenarios()


def same_as_fresh(state: TcsState, where: object = "") -> None:
    """Both players' observations equal the reference built from nothing."""
    for player in GAME.players:
        kept = state.observation(player)
        fresh = state.fresh_observation(player)
        differ = np.flatnonzero(kept != fresh)
        assert differ.size == 0, (where, player, differ[:10].tolist())


def decisions(state: TcsState, bot: str, seed: int) -> Iterator[int]:
    """Play ``state`` to the end with ``bot`` on both sides, yielding before each decision."""
    bots = {p: GAME.bots[bot](seed=seed * 11 + k) for k, p in enumerate(GAME.players)}
    n = 0
    while not state.is_terminal():
        yield n
        state.apply(bots[state.current_player() or "US"].choose(state))
        n += 1


def new(scenario: str, seed: int) -> TcsState:
    state = GAME.new_state(scenario, seed=seed)
    assert isinstance(state, TcsState)
    return state


def check_game(scenario: str, bot: str, seed: int) -> int:
    state = new(scenario, seed)
    space = GAME.action_space(scenario)
    n = 0
    for n in decisions(state, bot, seed):
        same_as_fresh(state, (scenario, bot, seed, n))
        legal = state.legal_actions()
        assert state.legal_codes() == tuple(sorted(space.encode(a) for a in legal))
    same_as_fresh(state, (scenario, bot, seed, "end"))
    return n


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_random_game_observes_as_fresh_at_every_decision(scenario: str) -> None:
    assert check_game(scenario, "random", seed=3) > 100


def test_a_heuristic_teaching_game_observes_as_fresh_at_every_decision() -> None:
    assert check_game("e1-draw", "heuristic", seed=1) > 100


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_games_observe_as_fresh_at_every_decision(scenario: str, bot: str) -> None:
    """Several whole games a scenario and bot (the heuristic d-day game is long)."""
    seeds = (1, 2) if bot == "heuristic" else (4, 5, 6)
    for seed in seeds:
        check_game(scenario, bot, seed)


def test_a_clone_and_its_original_each_keep_their_own_observation() -> None:
    """Clones taken along a game (each holding a copy of the kept planes) are played on
    with other dice and choices: every copy observes its own position, as fresh."""
    state = new("landing", 7)
    for n in decisions(state, "random", 7):
        if n % 150 != 75:
            continue
        state.observation("US")  # a kept observation the clone copies
        twin = state.clone(seed=n)
        assert isinstance(twin, TcsState)
        before = state.observation("German")
        for m in decisions(twin, "random", n):
            if m % 5 == 0:
                same_as_fresh(twin, ("twin", n, m))
            if m == 60:
                break
        assert np.array_equal(state.observation("German"), before)
        same_as_fresh(state, ("original", n))
        if n > 700:
            break


def test_a_restored_snapshot_observes_as_its_original() -> None:
    state = new("d-day", 2)
    for n in decisions(state, "random", 2):
        if n % 97 == 13:
            state.observation("US")
            restored = GAME.state_from_json(state.to_json())
            assert isinstance(restored, TcsState)
            for player in GAME.players:
                assert np.array_equal(restored.observation(player), state.observation(player))
            same_as_fresh(restored, n)
        if n > 600:
            break


def battle() -> TcsState:
    """The landing scenario some way in: units of both sides on the map."""
    state = new("landing", 5)
    for n in decisions(state, "random", 5):
        if n == 400:
            break
    state.observation("US")
    assert sum(1 for w in state.where if w >= 0) > 50
    return state


def test_positions_staged_with_edit_observe_as_fresh() -> None:
    """Every field the observation shows, changed in ``edit()``."""
    state = battle()
    scen = state.scenario
    beach = scen.beach
    on_map = [i for i, w in enumerate(state.where) if w >= 0]
    us = next(i for i in on_map if state.side(i) == "US" and state.steps[i] > 1)  # loses one
    german = next(i for i in on_map if state.side(i) == "German")
    off = next(i for i, w in enumerate(state.where) if w < 0 and state.side(i) == "US")
    target = state.where[german]
    elsewhere = next(w for w in state.where if w >= 0 and w != target)
    ashore = next(k for k, st in enumerate(state.leader_status) if st != "map")
    edits = [
        lambda: state.place(us, target),
        lambda: state.place(off, target),
        lambda: state.place(german, LOST),
        lambda: state.steps.__setitem__(us, 1),
        lambda: state.status.__setitem__(us, Status.PARALYZED),
        lambda: state.fire_mode.__setitem__(us, not state.fire_mode[us]),
        lambda: state.dug_in.__setitem__(us, not state.dug_in[us]),
        lambda: state.marked.add(us),
        lambda: state.marked_point.update(on_map[:3]),
        lambda: state.released.update(f.id for f in scen.german.formations),
        lambda: state.smoke.update({target, state.where[off]}),
        lambda: state.obstacles.update({c: "wire" for c in sorted(beach.obstacles)[:4]}),
        lambda: state.breaches.update({sorted(beach.breach_by_name)[0]: state.turn_label}),
        lambda: state.exits.update({sorted(beach.exits)[0]: state.turn_label}),
        lambda: setattr(state, "tide_hour", sorted(beach.tide_lines)[-1]),
        lambda: state.lctr_targets.extend([target]),
        lambda: (
            state.leader_cell.__setitem__(ashore, target),
            state.leader_status.__setitem__(ashore, "map"),
        ),
        lambda: state.leader_cell.__setitem__(ashore, elsewhere),
    ]
    for k, change in enumerate(edits):
        before = state.observation("US")
        with state.edit():
            change()
        assert not np.array_equal(state.observation("US"), before), k
        same_as_fresh(state, k)


def test_each_mutator_of_the_core_is_seen_without_edit() -> None:
    """The kept planes follow the journal the core's mutators write: each mutator,
    called between two observations with no ``edit()``, shows in the next, exactly as
    the observation built from nothing."""
    state = battle()
    scen = state.scenario
    beach = scen.beach
    on_map = [i for i, w in enumerate(state.where) if w >= 0]
    us = [i for i in on_map if state.side(i) == "US"]
    german = [i for i in on_map if state.side(i) == "German"]
    off = next(i for i, w in enumerate(state.where) if w < 0 and state.side(i) == "US")
    target = state.where[german[0]]
    ashore = next(k for k, st in enumerate(state.leader_status) if st != "map")
    waiting = [f for f in scen.german.formations if f.id not in state.released]
    tide = next(h for h in sorted(beach.tide_lines) if h != state.tide_hour)
    obstacle = next(c for c in sorted(beach.obstacles) if state.obstacles.get(c) != "wire")
    breach = next(b for b in sorted(beach.breach_by_name) if b not in state.breaches)
    draw = next(d for d in sorted(beach.exits) if d not in state.exits)
    mover = next(i for i in us[5:] if not (state.fire_mode[i] and state.dug_in[i]))
    calibre = scen.tables.batteries[0].calibre
    battery = scen.german.batteries[0]
    land = "2300"  # no transports land then
    assert state.plan is not None
    boat = state.plan.boats[0]
    formation = next(f for f, _ in scen.oob.formations if f not in state.us_implemented)
    changes = [
        lambda: state.place(off, target),
        lambda: state.place(us[0], state.where[us[1]]),
        lambda: state.set_steps(us[1], state.steps[us[1]] + 1),
        lambda: state.set_status(us[2], Status.PARALYZED),
        lambda: state.set_status(us[2], Status.SUPPRESSED),
        lambda: state.set_fire_mode(us[3], not state.fire_mode[us[3]]),
        lambda: state.set_dug_in(us[4], not state.dug_in[us[4]]),
        lambda: (state.set_fire_mode(mover, True), state.set_dug_in(mover, True)),
        lambda: state.set_moving(mover),
        lambda: state.mark(german[0]),
        lambda: state.mark(german[1], point=True),
        lambda: state.clear_marks(),
        lambda: state.release_formation(waiting[0].id),
        lambda: (state.set_leader_status(ashore, "map"), state.set_leader_cell(ashore, target)),
        lambda: state.set_leader_cell(ashore, state.where[us[0]]),
        lambda: state.set_leader_status(ashore, "dead"),
        lambda: state.set_tide(tide),
        lambda: state.add_smoke(target),
        lambda: state.clear_smoke(),
        lambda: state.set_obstacle(obstacle, "wire"),
        lambda: state.open_breach(breach),
        lambda: state.open_exit(draw),
        lambda: state.add_ammo(calibre, 2, 1, 1),
        lambda: state.add_ammo(calibre, -1),
        lambda: state.set_battery_fires(battery.id, battery.fires + 1),
        lambda: state.board_transport(land, boat),
        lambda: state.land_transports(land),
        lambda: state.implement_sheet(formation),
    ]
    for k, change in enumerate(changes):
        before = [state.observation(p) for p in GAME.players]
        change()
        after = [state.observation(p) for p in GAME.players]
        assert not all(map(np.array_equal, before, after)), k
        same_as_fresh(state, k)


def test_each_observation_is_a_new_array_and_each_player_sees_their_own() -> None:
    state = battle()
    with state.edit():
        state.lctr_targets.append(state.where[0] if state.where[0] >= 0 else 0)
    us = state.observation("US")
    us.fill(-7.0)
    german = state.observation("German")
    assert not np.array_equal(german, us)
    layout = GAME.observation_layout("landing")
    assert layout.plane(german, "lctr_target").sum() == 0  # secret to the German (2.2a)
    assert layout.plane(state.observation("US"), "lctr_target").sum() > 0
    same_as_fresh(state)


def test_a_pickled_state_leaves_its_kept_observation_behind_and_observes_as_fresh() -> None:
    state = battle()
    assert state.journal is not None and state.journal.boards
    thawed = pickle.loads(pickle.dumps(state))
    assert isinstance(thawed, TcsState)
    assert thawed.journal is not None and not thawed.journal.boards  # built again
    for player in GAME.players:
        assert np.array_equal(thawed.observation(player), state.observation(player))
    for n in decisions(thawed, "random", 9):
        same_as_fresh(thawed, n)
        if n == 40:
            break
