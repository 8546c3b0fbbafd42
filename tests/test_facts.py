"""``state.facts``: the chances a choice shows are the rules' own.

For each game a fire (or attack) is found in a seeded random game; the facts'
chance of each result is compared with how often the state itself, reseeded many
times, gives that result when the action is applied (a seeded simulation: within
4.5 standard errors). D-Day's attack chart rolls no die: its one result is checked
exactly. The chances always sum to 1 and every listed result can happen.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import omaha
from omaha.kernel.actions import Action
from omaha.kernel.events import Event
from omaha.kernel.protocol import State
from omaha.session import Session

RUNS = 500


def find(
    game: str, scenario: str | None, wanted: Callable[[State[Any], Action], bool], seeds: int = 12
) -> tuple[State[Any], Action]:
    """A state of a seeded random game where ``wanted`` holds for a legal action."""
    for seed in range(seeds):
        s = Session(game, scenario, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if s.state.is_terminal():
                break
            for a in s.state.legal_actions():
                if wanted(s.state, a):
                    return s.state, a
            choices = s.choices()
            ends = [c for c in choices if c.text.startswith("end")]
            pick = ends[0] if ends and rng.random() < 0.2 else rng.choice(choices)
            s.choose(pick.number)
    raise AssertionError(f"no such decision in {seeds} {game} games")


def simulated(
    state: State[Any], action: Action, result: Callable[[list[Event]], str]
) -> Counter[str]:
    seen: Counter[str] = Counter()
    for k in range(RUNS):
        twin = state.clone(seed=1000 + k)
        start = len(twin.log)
        twin.apply(action)
        seen[result(twin.log[start:])] += 1
    return seen


def assert_matches(chances: tuple[tuple[str, Fraction], ...], seen: Counter[str]) -> None:
    assert sum(p for _, p in chances) == 1
    shown = dict(chances)
    assert set(seen) <= set(shown), (seen, shown)
    for res, p in shown.items():
        freq = seen[res] / RUNS
        sigma = (float(p) * (1 - float(p)) / RUNS) ** 0.5
        assert abs(freq - float(p)) <= 4.5 * sigma + 1e-9, (res, float(p), freq)


def two_results(state: State[Any], action: Action, kind: type[Action]) -> bool:
    return isinstance(action, kind) and len(state.facts(action).chances) >= 2


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def test_lnl_fire_chances_are_the_frt_over_the_cards_left() -> None:
    from omaha.lnl.actions import Resolve

    state, action = find(
        "lnl", None, lambda s, a: two_results(s, a, Resolve) and s.attack.mode != "assault"
    )
    facts = state.facts(action)
    assert any("FRT column" in line for line in facts.lines)
    seen = simulated(state, action, lambda ev: str(first(ev, "lnl.fire").details["result"]))
    assert_matches(facts.chances, seen)


def test_lnl_assault_chances_are_the_cat_over_the_cards_left() -> None:
    from omaha.lnl.actions import Resolve

    state, action = find(
        "lnl", None, lambda s, a: two_results(s, a, Resolve) and s.attack.mode == "assault"
    )
    seen = simulated(state, action, lambda ev: str(first(ev, "lnl.assault").details["result"]))
    assert_matches(state.facts(action).chances, seen)


def _tcs_result(events: list[Event]) -> str:
    e = first(events, "tcs.fire.area")
    text = str(e.details["results"])
    lost = sum(int(n) for n in re.findall(r" -(\d+)", text))
    if lost:
        return f"{lost} step{'s' if lost > 1 else ''} lost"
    return text  # "suppressed" or "no effect"


def test_tcs_area_fire_chances_are_the_area_fire_table_over_two_dice() -> None:
    from omaha.tcs.actions import Resolve

    def wanted(s: State[Any], a: Action) -> bool:
        if not two_results(s, a, Resolve):
            return False
        # every result the table can give must fit in the targets' steps
        target = s.board.cell(s.combat["target"])
        steps = sum(s.steps[i] for i in s.units_at(target) if s.unit(i).side != s.combat["side"])
        return steps >= 3

    state, action = find("tcs", "e1-draw", wanted)
    seen = simulated(state, action, _tcs_result)
    assert_matches(state.facts(action).chances, seen)


def test_bloody_attack_chances_are_the_8_4_d_thresholds_over_one_die() -> None:
    from omaha.bloody.actions import Attack, ResolveAttack

    state, action = find("bloody", None, lambda s, a: two_results(s, a, Attack), seeds=40)
    seen: Counter[str] = Counter()
    for k in range(RUNS):  # attack from the one square, then resolve at once
        twin = state.clone(seed=1000 + k)
        start = len(twin.log)
        twin.apply(action)
        if ResolveAttack() in twin.legal_actions():
            twin.apply(ResolveAttack())
        seen[str(first(twin.log[start:], "bloody.attack").details["result"])] += 1
    assert_matches(state.facts(action).chances, seen)


def test_bloody_cards_show_title_and_effect_and_are_not_squares() -> None:
    from omaha.bloody.actions import PlayCard, ReturnCard

    state = omaha.load("bloody").new_state(seed=1)
    action = next(a for a in state.legal_actions() if isinstance(a, ReturnCard))
    facts = state.facts(action)
    card = state.scen.cards[action.card]
    assert facts.label == card.title and card.title in facts.lines[0]
    assert state.names(action).cells == ()  # "c11" is a card, not square C11
    play = PlayCard(action.card, 1)
    assert "option 1:" in state.facts(play).lines[1]


def test_hidden_defences_stay_hidden() -> None:
    """D-Day: an attack on a face-down defender tells the US numbers only."""
    from omaha.landing_table.actions import Attack

    def wanted(s: State[Any], a: Action) -> bool:
        if not isinstance(a, Attack):
            return False
        gid = s.pos[a.target].unit
        return gid is not None and not s.ger[gid].revealed

    state, action = find("landing_table", None, wanted)
    facts = state.facts(action)
    assert not facts.chances and any("face down" in line for line in facts.lines)
    assert not any(line.startswith("defence ") for line in facts.lines)


def test_landing_table_attack_shows_the_charts_one_result() -> None:
    from omaha.landing_table.actions import Resolve

    state, action = find(
        "landing_table", None, lambda s, a: isinstance(a, Resolve) and bool(s.facts(a).chances), 40
    )
    ((text, p),) = state.facts(action).chances
    assert p == 1
    twin = state.clone(seed=5)
    start = len(twin.log)
    twin.apply(action)
    got = str(first(twin.log[start:], "ddob.attack").details["results"])
    assert text == (got or "no effect")


def test_an_lnl_step_shows_its_cost_and_what_is_left() -> None:
    from omaha.lnl.actions import Step

    state, action = find("lnl", None, lambda s, a: isinstance(a, Step))
    facts = state.facts(action)
    cost = int(facts.label.split()[0])
    left = int(facts.lines[1].split()[0])
    g = state.group
    twin = state.clone()
    twin.apply(action)
    moved = next(e for e in twin.log[len(state.log) :] if e.kind == "lnl.move")
    assert (moved.details["cost"], moved.details["left"]) == (cost, left)
    assert g is not None


def test_the_running_total_of_an_attack_being_built() -> None:
    """Each ``add`` shows the attack as it would stand after it (LnL: the NGFS packets)."""
    from omaha.lnl.actions import AddNgfs

    state, action = find("lnl", None, lambda s, a: isinstance(a, AddNgfs))
    before = state.attack.ngfs
    lines = state.facts(action).lines
    assert lines[0].startswith("after this:")
    assert f"NGFS {before + 1} x 6 HE" in lines[0]


def test_a_tcs_move_shows_the_mp_it_costs_as_the_move_logs_it() -> None:
    from omaha.tcs.actions import MoveTo

    state, action = find("tcs", "e1-draw", lambda s, a: isinstance(a, MoveTo))
    facts = state.facts(action)
    cost = int(facts.label.split()[0])
    twin = state.clone()
    start = len(twin.log)
    twin.apply(action)
    assert first(twin.log[start:], "tcs.move").details["mp"] == cost
    assert facts.lines[0].startswith(f"costs {cost} MP of ")
