"""Victory (2.2-2.4), the end of the game, outcome and metrics."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from bloody_helpers import GAME, cell, staged, unit

from omaha.bloody import rules
from omaha.bloody.core import DEAD


def test_2_3_score_breakdown() -> None:
    sc = rules.score(
        gaps=3,
        strongpoint_tokens=4,
        encounter_tokens=5,
        towns_exits_cleared=2,
        southern_cleared=1,
        in_reinforcements=2,
    )
    assert (sc.gaps, sc.strongpoints, sc.encounters, sc.towns_exits, sc.hedgerows) == (
        3,
        8,
        5,
        2,
        1,
    )
    assert sc.total == 3 + 8 + 5 + 2 + 1 + 2


def test_2_3_from_the_state() -> None:
    st = staged(units={"A/116": "B2"}, gaps=["B1", "B2"])
    with st.edit():
        for label in ("S5", "T1", "H31", "H32"):  # S5 is Town and Exit: +1 once (2.3.d)
            st.tokens[cell(st, label)] = []
        st.sp_removed, st.enc_removed = 1, 4
    in_box = sum(1 for w in st.where if w == -1)
    sc = st.score()
    assert sc.gaps == 2
    assert sc.strongpoints == 2 and sc.encounters == 4
    assert sc.towns_exits == 2  # S5 (Les Moulins and D3) and T1
    assert sc.hedgerows == 2
    assert sc.reinforcements == in_box
    assert st.exits_cleared() == 1


def test_2_4_a_square_with_mines_left_is_not_cleared() -> None:
    st = staged(units={"A/116": "B2"}, tokens={"T1": [("mines", True)]})
    assert not st.cleared(cell(st, "T1"))
    assert st.score().towns_exits == 0


@pytest.mark.parametrize(
    ("exits", "vp", "level"),
    [
        (0, 60, rules.DEFEAT),
        (1, 45, rules.DEFEAT),
        (2, 45, rules.DRAW),  # Reading: exactly two exits
        (3, 29, rules.DRAW),  # Reading: three exits, under 30 VP
        (3, 30, rules.HISTORICAL),
        (4, 40, rules.HISTORICAL),
        (4, 50, rules.HISTORICAL),  # Reading: over 40 VP without every exit
        (5, 40, rules.HISTORICAL),
        (5, 41, rules.MAJOR),
    ],
)
def test_2_2_victory_levels(exits: int, vp: int, level: str) -> None:
    assert rules.victory_level(exits, 5, vp) == level


def test_the_game_ends_after_the_last_landing_phase() -> None:
    st = GAME.new_state(seed=12)
    bot = GAME.bots["random"](seed=12)
    while not st.is_terminal():
        st.apply(bot.choose(st))
    assert st.turn == st.scen.turns == 8
    assert st.log[-1].kind == "bloody.end"
    out = st.outcome()
    assert out is not None
    sc = st.score()
    assert dict(out.points) == {"VP": sc.total, "exits": st.exits_cleared()}
    assert out.level == rules.victory_level(st.exits_cleared(), 5, sc.total)
    assert (out.winner == "US") == (out.level in (rules.HISTORICAL, rules.MAJOR))


def test_the_game_ends_early_when_no_unit_is_left() -> None:
    st = staged(turn=4, units={"A/116": "C2"})
    with st.edit():
        for u in range(len(st.where)):
            if st.where[u] == -1:
                st.where[u] = DEAD
        st.where[unit(st, "A/116")] = DEAD
        st.end_turn()
    assert st.is_terminal() and st.outcome() is not None


def test_metrics_are_declared_and_measured() -> None:
    st = GAME.new_state(seed=4)
    bot = GAME.bots["heuristic"](seed=4)
    while not st.is_terminal():
        st.apply(bot.choose(st))
    m = st.metrics()
    assert {x.name for x in GAME.metrics} <= set(m)
    for name in ("us_win", "exits_opened", "first_wave_ashore", "landed_off_target", "us_losses",
                 "turns_played", "vp", "gaps_made", "strongpoints_cleared"):  # fmt: skip
        assert name in m
    assert m["vp"] == sum(
        m[k]
        for k in (
            "vp_gaps",
            "vp_strongpoints",
            "vp_encounters",
            "vp_towns_exits",
            "vp_hedgerows",
            "vp_reinforcements",
        )
    )
    assert 0 <= m["first_wave_ashore"] <= 1 and 0 <= m["landed_off_target"] <= 1
    assert m["turns_played"] == 8
    assert m["gaps_made"] == m["vp_gaps"]
    assert m["first_exit_hours"] == (m["first_exit_turn"] - 1) * 1.5


def test_first_exit_hours_is_nan_without_an_exit_and_follows_the_scenarios_clock(
    tmp_path: Path,
) -> None:
    st = GAME.new_state(seed=4)
    assert st.exits_cleared() == 0 and st.metrics()["first_exit_hours"] == math.inf
    (tmp_path / "hourly.toml").write_text(
        '[scenario]\ngame = "bloody"\nextends = "solo"\nid = "hourly"\ntitle = "hourly"\n'
        'source = "reconstructed: a test"\nturn_minutes = 60\n'
        'turn_minutes_source = "reconstructed: a test of the clock"\n'
    )
    st = GAME.new_state(tmp_path / "hourly.toml", seed=4)
    bot = GAME.bots["heuristic"](seed=4)
    while not st.is_terminal():
        st.apply(bot.choose(st))
    m = st.metrics()
    assert m["first_exit_turn"] >= 1 and m["first_exit_hours"] == m["first_exit_turn"] - 1


def test_first_wave_and_off_target_metrics() -> None:
    st = staged(
        turn=1,
        units={"A/116": "C2", "G/116": "C3"},
        clear_tokens=True,
        dice=[6, 1, 1, 1, 0],
        step="landing_cards",
        phase="Drift",
    )
    st.aim[unit(st, "A/116")] = 2
    st.aim[unit(st, "G/116")] = 3
    st.apply(GAME.parse_action("continue"))
    m = st.metrics()
    # A/116 drifted two squares (6 +1 = 7) and landed on B4; G/116 landed on target
    assert st.ashore[unit(st, "A/116")] == 4
    assert m["landed_off_target"] == 0.5
    assert m["first_wave_ashore"] == 2 / 9
