"""A phase skipped by rule gets a log line citing the rule, in every game (seeded games)."""

from __future__ import annotations

import omaha
from omaha.kernel.protocol import State


def play(name: str, scenario: str, seed: int, *, until: int = 10_000) -> State:
    """A seeded heuristic game, to its end or its first ``until`` decisions."""
    game = omaha.load(name)
    state = game.new_state(scenario, seed=seed)
    bots = {p: game.bots["heuristic"](seed=i) for i, p in enumerate(game.players)}
    fallback = game.bots["random"](seed=seed)
    for _ in range(until):
        if state.is_terminal():
            break
        try:
            action = bots[state.current_player() or ""].choose(state)
        except omaha.IllegalAction:
            action = fallback.choose(state)
        state.apply(action)
    return state


def test_lnl_turn_one_says_why_the_us_neither_moves_nor_assaults() -> None:
    state = play("lnl", "beach", 1, until=400)
    turn1 = [e for e in state.log if e.turn == "Turn 1"]
    skipped = {e.phase: e for e in turn1 if e.kind == "lnl.skip"}
    move, assault = skipped["US movement"], skipped["US close assault"]
    # every US unit on the map landed on turn 1: none may move (Setting up the Game)
    assert str(move).startswith("[Turn 1 · US movement] US movement phase ends, nothing left")
    assert "21 landed this turn" in str(move) and move.rule == "LnL Omaha: Setting up the Game"
    assert assault.rule == "reading R26 (READINGS.md)"
    assert not [e for e in turn1 if e.kind in ("lnl.move", "lnl.assault") and e.player == "US"]
    # the German fire phase follows the two lines: nothing silent between US fire and it
    phases = [e.phase for e in turn1]
    assert phases.index("US movement") < phases.index("German fire")


def test_tcs_a_quiet_artillery_phase_is_said_so_with_its_rules() -> None:
    state = play("tcs", "e1-draw", 1, until=200)
    quiet = [e for e in state.log if e.kind == "tcs.skip"]
    assert quiet and all(e.phase == "Aircraft and Artillery Phase" for e in quiet[:3])
    assert quiet[0].turn == "1040 6 June" and quiet[0].rule == "2.2, 2.6, 2.10, 3.1"
    first_turn = [e for e in state.log if e.turn == "1040 6 June"]
    # the line is the only one of that phase: nothing was done in it
    assert [e.kind for e in first_turn if e.phase == "Aircraft and Artillery Phase"] == ["tcs.skip"]


def test_bloody_says_when_no_unit_is_at_sea_to_drift_or_land() -> None:
    state = play("bloody", "solo", 1)
    lines = [e for e in state.log if e.details.get("text", "").startswith("no US unit at sea")]
    assert lines and all(e.rule == "5.4, 5.5" for e in lines)
    quiet_turns = {e.turn for e in lines}
    assert "Turn 4" in quiet_turns  # seed 1: every boat is ashore after turn 3
    landed = {e.turn for e in state.log if e.phase in ("Landing",) and e.turn in quiet_turns}
    assert not landed  # no Landing phase line on those turns


def test_landing_table_says_when_no_unit_is_due_to_land() -> None:
    state = play("landing_table", "omaha", 1)
    lines = [e for e in state.log if e.kind == "ddob.no_landing"]
    assert [e.turn for e in lines[:2]] == ["Turn 11 (11:30)", "Turn 13 (12:30)"]
    assert lines[0].rule == "DDOB Amphibious Landing Table (order of battle)"
    for line in lines:
        landed = [e for e in state.log if e.turn == line.turn and e.kind == "ddob.landing"]
        assert not landed
