"""The tables kept between decisions equal a fresh computation at every decision of
seeded games: US steps per hex (``LandingTableCore.steps_in``, an entry dropped when a
unit enters, leaves or loses steps in its hex), the move orders made once per reach
(``LandingTableCore.move_orders``) and the heuristic's distance fields
(``bots.DistanceFields``, rows made once per movement graph)."""

from __future__ import annotations

import heapq

import pytest

from omaha.landing_table.actions import Move
from omaha.landing_table.bots import INF, distance_fields
from omaha.landing_table.state import LandingTableState

from .helpers import GAME

SCENARIOS = GAME.scenarios()


def fresh_steps(state: LandingTableState) -> dict[int, int]:
    """US steps per hex (leaders not counted), from the unit records alone."""
    leaders = {u.id for u in state.scen.us if u.kind.leader}
    out: dict[int, int] = {}
    for s in state.us.values():
        if s.status == "ashore" and s.id not in leaders:
            out[s.where] = out.get(s.where, 0) + s.steps
    return out


def kept_steps_agree(state: LandingTableState) -> None:
    """Every hex is asked: entries kept since the last decision are checked (a missed
    drop shows), and every hex is kept from here."""
    fresh = fresh_steps(state)
    for cell in range(len(state.scen.board)):
        assert state.steps_in(cell) == fresh.get(cell, 0), (state.turn_label, cell)


def kept_moves_agree(state: LandingTableState) -> None:
    """Every unit ashore: the kept move orders are those of its reach worked out anew."""
    kept = {uid: state.move_orders(uid) for uid in state.ashore()}
    state.lookup.reach_memo.clear()
    labels = state.scen.board.labels
    for uid, moves in kept.items():
        here = state.us[uid].where
        fresh = [Move(uid, labels[c]) for c in sorted(state.reachable(uid)) if c != here]
        assert list(moves) == fresh, (state.turn_label, uid)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_kept_move_orders_equal_fresh_ones(scenario: str) -> None:
    decisions = 0
    for bot in ("random", "heuristic"):
        state = GAME.new_state(scenario, seed=3)
        assert isinstance(state, LandingTableState)
        player = GAME.bots[bot](seed=3)
        while not state.is_terminal():
            if decisions % 4 == 0:
                kept_moves_agree(state)
            state.apply(player.choose(state))
            decisions += 1
    assert decisions > 300


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_kept_steps_per_hex_equal_fresh_ones_at_every_decision(scenario: str) -> None:
    decisions = 0
    for bot in ("random", "heuristic"):
        for seed in range(2):
            state = GAME.new_state(scenario, seed=seed)
            assert isinstance(state, LandingTableState)
            player = GAME.bots[bot](seed=seed)
            while not state.is_terminal():
                kept_steps_agree(state)
                state.apply(player.choose(state))
                decisions += 1
    assert decisions > 500


def test_clones_keep_their_own_steps_per_hex() -> None:
    """A clone copies the kept entries: each side, moved on its own way, agrees."""
    state = GAME.new_state("first_wave", seed=4)
    assert isinstance(state, LandingTableState)
    a, b = GAME.bots["heuristic"](seed=1), GAME.bots["random"](seed=2)
    steps = 0
    while not state.is_terminal() and steps < 400:
        twin = state.clone(seed=steps)
        assert isinstance(twin, LandingTableState)
        for _ in range(5):
            if twin.is_terminal():
                break
            twin.apply(b.choose(twin))
        kept_steps_agree(twin)
        kept_steps_agree(state)
        state.apply(a.choose(state))
        steps += 1


def reverse_dijkstra(state: LandingTableState, move: str, goal: int) -> list[int]:
    graph = state.scen.moves[move]
    best = [INF] * len(state.scen.board)
    best[goal] = 0
    heap = [(0, goal)]
    while heap:
        d, b = heapq.heappop(heap)
        if d > best[b]:
            continue
        for a in range(len(best)):
            for to, cost in graph.steps(a):
                if to == b and d + cost < best[a]:
                    best[a] = d + cost
                    heapq.heappush(heap, (d + cost, a))
    return best


def test_distance_fields_equal_the_nearest_goal_by_fresh_dijkstra() -> None:
    state = GAME.new_state("omaha", seed=1)
    assert isinstance(state, LandingTableState)
    fields = distance_fields(state.scen.moves["foot"])
    rows = {g: reverse_dijkstra(state, "foot", g) for g in (3, 40, 41, 200)}
    for goals in ((3,), (40, 41), (3, 200, 41), (200, 3)):
        want = [min(rows[g][c] for g in goals) for c in range(len(state.scen.board))]
        assert fields.to(goals) == want
        assert fields.to(list(reversed(goals))) == want
