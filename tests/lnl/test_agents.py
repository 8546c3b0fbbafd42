"""The agent surface of LnL Omaha (issue 15): the action numbering and its routes,
the bounds, the observation, the graded returns and the listed set-up plans."""

from __future__ import annotations

import json

import numpy as np
import pytest

from omaha import testing
from omaha.kernel.encoding import EncodingError
from omaha.lnl.actions import Deploy, Place
from omaha.lnl.core import MAX_CANCELS
from omaha.lnl.state import LnlState

from .helpers import GAME, play, position


def new(scenario: str = "beach", seed: int = 3) -> LnlState:
    st = GAME.new_state(scenario, seed=seed)
    assert isinstance(st, LnlState)
    return st


# --------------------------------------------------------------------------
# Action numbers
# --------------------------------------------------------------------------
def test_the_numbering_is_small_and_fixed() -> None:
    beach = GAME.action_space("beach")
    assert 0 < beach.size <= 100_000
    code = GAME.encode(Place("1/1/916", "J7"), "beach")
    assert GAME.decode(code, "beach") == Place("1/1/916", "J7")
    assert GAME.action_space("beach") is beach  # one numbering per scenario
    assert GAME.action_size("vierville") < beach.size  # its own 17 counters


def test_ocean_hexes_and_whole_plans_have_no_number() -> None:
    with pytest.raises(EncodingError, match="outside its domain"):
        GAME.encode(Place("1/1/916", "A0"), "beach")
    with pytest.raises(EncodingError, match="Deploy actions are not encoded"):
        GAME.encode(Deploy(("1/1/916@J7",)), "beach")


@pytest.mark.parametrize("scenario", ["beach", "vierville"])
def test_bot_games_stay_within_the_limits_and_every_action_has_a_number(scenario: str) -> None:
    limits = GAME.limits(scenario)
    space = GAME.action_space(scenario)
    st = new(scenario, seed=1)
    bots = {side: GAME.bots[name](seed=1) for side, name in GAME.lineup("heuristic").items()}
    decisions = 0
    while not st.is_terminal():
        legal = st.legal_actions()
        assert len(legal) <= limits.max_legal_actions
        assert st.legal_codes() == tuple(sorted(space.encode(a) for a in legal))
        player = st.current_player()
        assert player is not None
        action = bots[player].choose(st)
        if not isinstance(action, Deploy):
            assert space.decode(space.encode(action)) == action
        st.apply(action)
        decisions += 1
    assert decisions <= limits.max_decisions


def test_the_limits_count_the_scenario() -> None:
    beach, vierville = GAME.limits("beach"), GAME.limits("vierville")
    assert beach.max_chance_outcomes == 54  # the action deck (LnL Omaha: Action Cards)
    assert vierville.max_chance_outcomes == 45  # its air and movement cards removed
    assert GAME.limits("beach+turn11").max_decisions > beach.max_decisions
    assert vierville.max_decisions < beach.max_decisions  # 17 counters, not 47


# --------------------------------------------------------------------------
# The numbered route to a whole set-up, and the listed plan
# --------------------------------------------------------------------------
def test_the_shipped_set_up_is_listed_as_a_plan() -> None:
    st = new()
    plans = st.plans()
    assert list(plans) == ["shipped German set-up"]
    assert isinstance(plans["shipped German set-up"], Deploy)
    st.apply(plans["shipped German set-up"])
    assert list(st.plans()) == ["shipped US set-up"]
    st.apply(st.plans()["shipped US set-up"])
    assert st.plans() == {}  # the landings have begun


def test_placing_one_by_one_reaches_the_same_position_as_the_whole_plan() -> None:
    """The numbered route: ``place`` each unit where the plan puts it."""
    whole, steps = new(), new()
    for side in ("German", "US"):
        (plan,) = whole.plans().values()
        assert isinstance(plan, Deploy)
        where = dict(item.split("@") for item in plan.placements)
        whole.apply(plan)
        while steps.current_phase == "setup" and steps.u(steps.place_queue[0]).side == side:
            uid = steps.uid(steps.place_queue[0])
            steps.apply(GAME.parse_action(f"place {uid} at {where[uid]}"))
    assert json.loads(steps.to_json())["state"] == json.loads(whole.to_json())["state"]


# --------------------------------------------------------------------------
# Reading R34: cancelled attacks
# --------------------------------------------------------------------------
def test_after_too_many_cancelled_attacks_no_other_may_be_opened() -> None:
    st = position({"1/B/116": "H3", "2/B/116": "H4", "1/1/916": "H5"})
    for _ in range(MAX_CANCELS):
        play(st, "fire with 1/B/116", "cancel")
    assert st.cancels == MAX_CANCELS
    assert [str(a) for a in st.legal_actions()] == ["end phase"]
    testing.assert_illegal(st, "fire with 2/B/116", match="50 attacks were cancelled")
    play(st, "end phase")  # the movement phase begins with a fresh count
    assert st.cancels == 0


# --------------------------------------------------------------------------
# Observations
# --------------------------------------------------------------------------
def plane(st: LnlState, name: str) -> np.ndarray:
    layout = GAME.observation_layout(st.scen.id)
    return layout.plane(st.observation("US"), name)


def track(st: LnlState, name: str, player: str = "US") -> float:
    layout = GAME.observation_layout(st.scen.id)
    return float(st.observation(player)[layout.track_index(name)])


def test_the_observation_shows_counters_markers_and_tracks() -> None:
    st = position({"1/B/116": "H3", "2/B/116": "H3", "1/1/916": "H5"}, ngfs=4)
    h3, h5 = st.cell_of("H3"), st.cell_of("H5")
    with st.edit():
        st.dis[st.unit_index("2/B/116")] = True
        st.steps[st.unit_index("1/1/916")] = 1
        st.steps_lost["German"] = 1
    assert plane(st, "us_counters")[h3] == 2 and plane(st, "us_steps")[h3] == 4
    assert plane(st, "us_infantry")[h3] == 2 and plane(st, "us_disrupted")[h3] == 1
    assert plane(st, "german_counters")[h5] == 1 and plane(st, "german_steps")[h5] == 1
    assert plane(st, "us_counters").sum() == 2 and plane(st, "german_counters").sum() == 1
    assert track(st, "turn") == 2 and track(st, "ngfs_left") == 4
    assert track(st, "phase_fire") == 1 and track(st, "decision_phase") == 1
    assert track(st, "1/B/116 where") == h3 + 1 and track(st, "3/B/116 where") == 0
    assert track(st, "2/B/116 disrupted") == 1 and track(st, "1/1/916 steps") == 1
    assert track(st, "observer_us") == 1 and track(st, "observer_us", "German") == 0


def test_the_observation_shows_the_attack_being_put_together() -> None:
    st = position({"1/B/116": "H3", "2/B/116": "H4", "1/1/916": "H5"}, ngfs=4)
    play(st, "fire with 1/B/116", "at H5 soft", "add ngfs")
    assert plane(st, "attack_target")[st.cell_of("H5")] == 1
    assert plane(st, "attack_firers")[st.cell_of("H3")] == 1
    assert track(st, "decision_attack") == 1 and track(st, "attack_ngfs") == 1
    assert track(st, "attack_hard") == -1  # soft targets
    assert track(st, "1/B/116 selected") == 1 and track(st, "2/B/116 selected") == 0
    play(st, "add 2/B/116")
    assert plane(st, "attack_firers")[st.cell_of("H4")] == 1
    assert track(st, "2/B/116 selected") == 1


def test_both_players_see_the_same_board() -> None:
    """Nothing is hidden on the map in LnL Omaha; only the observer's own track differs."""
    st = new(seed=5)
    bot = GAME.bots["random"](seed=5)
    for _ in range(200):
        st.apply(bot.choose(st))
    layout = GAME.observation_layout("beach")
    us, german = st.observation("US"), st.observation("German")
    differ = np.flatnonzero(us != german)
    assert list(differ) == [layout.track_index("observer_us")]


# --------------------------------------------------------------------------
# Returns graded by victory level (LnL Omaha: Winning)
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("held", "level", "us_return"),
    [
        (["H5"], "German victory", -1.0),
        (["H5", "H17", "J11"], "draw", 0.0),
        (["H5", "H17", "J11", "F6"], "minor US victory", 0.5),
        (["H5", "H17", "J11", "F6", "F8", "A7"], "significant US victory", 1.0),
    ],
)
def test_returns_grade_the_victory_level(held: list[str], level: str, us_return: float) -> None:
    st = position({"1/B/116": "K9"}, side="German", phase="assault", turn=10)
    with st.edit():
        for label in held:
            st.control[st.cell_of(label)] = "US"
    play(st, "end phase")
    outcome = st.outcome()
    assert outcome is not None and outcome.level == level
    assert st.returns() == {"US": us_return, "German": -us_return}
