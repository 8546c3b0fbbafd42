"""What the rules keep between calls, against the same worked out afresh, at every
decision of seeded games (random and heuristic, both scenarios).

Kept: the position's queries in ``memo`` (fire plan, candidates, movers, ...) across
the decisions that change nothing they read; each side's fire plan across positions
in ``fire_plans``, brought up to date for what changed, with the columns worked out for
its hexes; fire groups by everything
they depend on in ``groups_cache``; and what the heuristic reads from the fire plan's candidates
(:func:`omaha.lnl.procedures.fire.plan_column`) instead of each firer's reach.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import omaha
from omaha.lnl.core import SIDES, Attack, LnlCore
from omaha.lnl.procedures import fire

GAME = omaha.load("lnl")


def decisions(scenario: str, lineup: dict[str, str], seed: int) -> Iterator[LnlCore]:
    """Each position of a seeded game where a player decides."""
    state = GAME.new_state(scenario, seed=seed)
    assert isinstance(state, LnlCore)
    bots = {p: GAME.bots[lineup[p]](seed=seed * 11 + i) for i, p in enumerate(GAME.players)}
    while not state.is_terminal():
        yield state
        state.apply(bots[state.current_player() or ""].choose(state))


def fresh(state: LnlCore) -> LnlCore:
    """A copy that keeps nothing: every query worked out again on first use."""
    twin = state.clone()
    assert isinstance(twin, LnlCore)
    with twin.edit():  # drops the legal actions and the position's queries
        twin.groups_cache = {}
        twin.fire_plans = {}
    return twin


LINEUPS = [
    ("beach", {"US": "random", "German": "random"}, 3),
    ("vierville", {"US": "random", "German": "random"}, 4),
    ("beach", {"US": "heuristic", "German": "heuristic"}, 1),
    ("vierville", {"US": "heuristic", "German": "solitaire"}, 2),
]


@pytest.mark.parametrize(("scenario", "lineup", "seed"), LINEUPS)
def test_kept_queries_are_the_fresh_ones_at_every_decision(
    scenario: str, lineup: dict[str, str], seed: int
) -> None:
    checked = columns = 0
    for state in decisions(scenario, lineup, seed):
        kept = state.legal_actions()
        plans = {side: fire.fire_plan(state, side) for side in SIDES}
        twin = fresh(state)
        assert twin.legal_actions() == kept
        assert {side: fire.fire_plan(twin, side) for side in SIDES} == plans
        for side in SIDES:
            # the kept plan brought up to date, against the same worked out from scratch
            up, scratch = fire.kept_plan(state, side), fire.fresh_plan(state, side)
            assert up.cands == scratch.cands
            assert list(up.plan.items()) == list(scratch.plan.items())
            # the targets an attack led by a unit may take: those it reaches with a group
            if state.current_phase == "fire" and side == state.side:
                for u in fire.shooters(twin, side):
                    assert fire.fire_targets(state, u) == [
                        (c, kind)
                        for c in fire.enemy_cells(twin, side)
                        if fire.reach(twin, u, c)
                        for kind in fire.KINDS
                        if any(
                            u in g for g in fire.feasible_groups(twin, side, c, kind, "fire", None)
                        )
                    ]
            # the columns kept with the plan (some from earlier positions) are the fresh ones
            for (c, kind), cols in up.columns.items():
                for (firers, ngfs, bonus), col in cols.items():
                    a = Attack(side, "fire", list(firers), c, kind, ngfs, bonus)
                    assert col == fire.column(twin, a)
                    columns += 1
        for side in SIDES:
            for c in fire.enemy_cells(state, side):
                for kind in fire.KINDS:
                    joiners = [x[0] for x in fire.fire_candidates(state, side, c, kind)]
                    assert joiners == [
                        x
                        for x in fire.shooters(twin, side)
                        if fire.firer_reach(twin, x, side, c, kind, "fire")
                    ]
        checked += 1
    assert checked > 100
    if lineup["US"] == "heuristic":  # the heuristic reads the plan's columns
        assert columns > 100


@pytest.mark.parametrize(("scenario", "lineup", "seed"), LINEUPS)
def test_the_plan_column_is_the_column_of_each_group(
    scenario: str, lineup: dict[str, str], seed: int
) -> None:
    """Every feasible group of the fire plan, and each of its leading parts, with and
    without NGFS and the +6 HE card: the column from the plan's candidates is the
    column worked out firer by firer."""
    checked = 0
    for state in decisions(scenario, lineup, seed):
        if state.current_phase != "fire":
            continue
        for side in SIDES:
            for (c, kind), groups in fire.fire_plan(state, side).items():
                for g in groups:
                    for n in range(1, len(g) + 1):
                        for ngfs, bonus in ((0, False), (1, False), (2, True)):
                            a = Attack(side, "fire", g[:n], c, kind, ngfs, bonus)
                            assert fire.plan_column(state, a) == fire.column(state, a)
                            checked += 1
    assert checked > 100
