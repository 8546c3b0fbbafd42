"""Set-up and plan building through the protocol, illegal actions, views, bots, CLI."""

from __future__ import annotations

import pytest
from planbuild import full

import omaha
from omaha.cli import main as cli_main
from omaha.tcs import GAME
from omaha.tcs.actions import (
    AddLca,
    CloseBoat,
    CommitPlan,
    CommitSetup,
    EndPlan,
    Load,
    LoadSteps,
    OpenBoat,
    PlacePillbox,
    PlaceRocketPit,
    UsePlan,
    UseSetup,
)
from omaha.tcs.bots import HeuristicGerman, HeuristicUS
from omaha.tcs.components.oob import Oob
from omaha.tcs.components.plan import Plan
from omaha.tcs.scenario import TcsScenario
from omaha.tcs.state import TcsState


def fresh(seed: int = 0) -> TcsState:
    state = GAME.new_state("landing", seed=seed)
    assert isinstance(state, TcsState)
    return state


def refuse(state: TcsState, action: omaha.Action, words: str) -> None:
    before, drawn = state.to_json(), state.dice.count
    with pytest.raises(omaha.IllegalAction, match=words):
        state.apply(action)
    assert state.to_json() == before and state.dice.count == drawn


def test_german_setup_limits(landing: TcsScenario) -> None:
    """3.3g, 3.4: placement one piece at a time within the limits, or a whole set-up."""
    state = fresh()
    assert state.current_player() == "German" and state.phase == "set-up"
    legal = set(state.legal_actions())
    assert UseSetup("historical") in legal
    assert PlacePillbox("A15.11") in legal
    refuse(state, PlacePillbox("A14.13"), r"landward of the beach obstacle line.*3\.3g")
    refuse(state, PlacePillbox("Q1.01"), "not on the map")
    setup = landing.setups["historical"]
    refuse(state, CommitSetup(("A15.11",) * 24, ()), "0 rocket pits; the German sets up 10")
    refuse(state, CommitSetup(("A15.11",) * 24, setup.rocket_pits), r"two German .* in A15\.11")
    refuse(state, CommitSetup(setup.pillboxes[:-1], setup.rocket_pits), "23 pill boxes")
    bad_pits = (*setup.rocket_pits[:-1], "A15.20")
    refuse(state, CommitSetup(setup.pillboxes, bad_pits), r"rocket pit in A15\.20.*3\.4")
    state.apply(PlacePillbox("A15.11"))
    refuse(state, PlacePillbox("A15.11"), "already holds a German piece")
    refuse(state, CommitSetup(setup.pillboxes, setup.rocket_pits), "before any piece")
    for _ in range(23):
        state.apply(state.legal_actions()[0])
    assert state.wait is not None and state.wait[0] == "rocket pit"
    refuse(state, PlaceRocketPit("A15.16"), r"3\.4")


def test_whole_plan_by_tokens_equals_shipped_plan(landing: TcsScenario) -> None:
    """2.1: a plan is one validated action, by name or as tokens; bad ones are refused."""
    a, b = fresh(3), fresh(3)
    for s in (a, b):
        s.apply(UseSetup("historical"))
    a.apply(UsePlan("historical"))
    b.apply(CommitPlan(landing.plans["historical"].tokens()))
    assert a.plan == b.plan
    assert [e.text for e in a.log[2:]] == [
        e.text.replace("'historical'", "'historical'") for e in b.log[2:]
    ]
    c = fresh(3)
    c.apply(UseSetup("historical"))
    bad = Plan("bad", lctr=("A1.03",) * 5)
    refuse(c, CommitPlan(bad.tokens()), r"landing plan: 5 LCT\(R\) targets")
    refuse(c, CommitPlan(("nonsense",)), "malformed")


def test_plan_built_step_by_step(oob: Oob) -> None:
    """2.1d-2.1h by small actions: an LCA group, a split battery across Dukws (2.1j),
    the Dukw-before-LCT/Rhino order (2.1f), DD tanks (2.1e); fixed once committed (2.1a)."""
    state = fresh(5)
    state.apply(UseSetup("historical"))
    state.apply(OpenBoat(1, "LCA", "EasyRed"))
    state.apply(AddLca())
    for u, _ in full(oob, "E/2/16"):
        state.apply(Load(u))
    refuse(state, Load("Sv/16.trk1"), r"load class 3, above the LCA's 1")
    state.apply(CloseBoat())
    group = state.draft_groups[0]
    assert [b.points for b in state.draft_boats] == [9, 8] and group.pooled
    refuse(state, OpenBoat(2, "Rhino", "EasyRed"), r"every Dukw of wave 2 must carry 4\+")
    refuse(state, OpenBoat(2, "LCT", "EasyRed"), "wave 2 has no LCTs")
    refuse(state, OpenBoat(1, "LCI", "EasyRed"), "LCIs land only in transport landings")
    state.apply(OpenBoat(2, "DUKW", "EasyRed"))
    assert LoadSteps("A/7FA.guns", 1) in state.legal_actions()
    refuse(state, Load("A/7FA.guns"), "does not fit")
    state.apply(LoadSteps("A/7FA.guns", 1))
    # the battery must be completed: the Dukw closes itself, then only Dukws open
    assert state.open_boat is None and state.partial == "A/7FA.guns"
    assert {type(a) for a in state.legal_actions()} == {OpenBoat}
    assert EndPlan() not in state.legal_actions()
    for _ in range(3):  # each Dukw then loads and closes itself: the only legal actions
        state.apply(OpenBoat(2, "DUKW", "EasyRed"))
    assert state.partial is None
    assert sum(1 for e in state.log if e.kind == "kernel.forced") == 7
    state.apply(OpenBoat(1, "DD", "FoxGreen"))
    state.apply(Load("C/741.1"))
    state.apply(Load("C/741.2"))
    state.apply(CloseBoat())
    state.apply(EndPlan())
    plan = state.plan
    assert plan is not None
    assert sorted(b.kind for b in plan.boats) == [
        "DD",
        "DD",
        "DUKW",
        "DUKW",
        "DUKW",
        "DUKW",
        "LCA",
        "LCA",
    ]
    assert plan.units_aboard()["A/7FA.guns"] == 4
    # the plan is fixed once play begins (2.1a)
    refuse(state, OpenBoat(3, "LCA", "EasyRed"), "not a legal action now")
    refuse(state, UsePlan("historical"), "not a legal action now")


def test_views_hide_the_plan_from_the_german() -> None:
    state = fresh(2)
    state.apply(UseSetup("historical"))
    state.apply(UsePlan("historical"))
    us, german = state.view("US"), state.view("German")
    assert any(n.startswith("wave 1") for n in us.notes)
    assert german.notes == ("US landing plan: secret",)
    assert any(m.kind == "target" for m in us.marks)
    assert not any(m.kind == "target" for m in german.marks)
    assert sum(1 for p in german.pieces if p.name == "Pill Box") == 24
    assert ("tide line", "0600") in us.tracks


def test_heuristic_bots_land_the_historical_plan() -> None:
    """omaha play tcs --bot heuristic: the historical plan, waves and transports."""
    assert GAME.lineup("heuristic") == {"US": "heuristic", "German": "heuristic"}
    us, german = HeuristicUS(seed=1), HeuristicGerman(seed=2)
    state = fresh(11)
    with pytest.raises(omaha.IllegalAction):
        us.choose(state)  # the German sets up first
    while not state.is_terminal():
        bot = us if state.current_player() == "US" else german
        state.apply(bot.choose(state))
    texts = [e.kind for e in state.log]
    assert "tcs.plan.commit" in texts and texts.count("tcs.wave.begin") == 3
    assert texts.count("tcs.transport.begin") == 4  # 1000, 1100, 1200, 1300
    m = state.metrics()
    assert m["dd_tanks_launched"] == 32 and m["dukw_guns_loaded"] == 24
    assert m["turns_played"] == 20
    assert 0 < m["first_wave_ashore"] <= 1 and m["steps_landed"] > 500
    assert {x.name for x in GAME.metrics} <= set(m)
    outcome = state.outcome()
    assert outcome is not None and outcome.level == "landing over"


def test_survival_events_follow_the_table() -> None:
    """Every logged survival roll matches 2.1i for its boat type and the pill boxes."""
    tables = GAME.load_scenario("landing")
    assert isinstance(tables, TcsScenario)
    highs = dict(tables.tables.survival)
    bots = {p: GAME.bots["random"](seed=i) for i, p in enumerate(GAME.players)}
    for seed in range(3):
        state = fresh(seed)
        while not state.is_terminal():
            state.apply(bots[state.current_player() or "US"].choose(state))
        for e in state.log:
            if e.kind != "tcs.boat.survival":
                continue
            d = e.details
            assert d["roll"] == sum(e.dice)
            assert d["total"] == d["roll"] + int(str(d["modifier"]))
            if d["boat_type"] in ("DD", "DUKW"):
                assert d["modifier"] == "+0"
            if d["boat_type"] != "DUKW":  # a Dukw's line depends on its load class
                high = highs[str(d["boat_type"])][1]
                assert (d["result"] == "survives") == (int(str(d["total"])) <= high)


def test_cli_plays_the_historical_landing(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["play", "tcs", "--bot", "heuristic", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "US landing plan 'historical' committed" in out
    assert "assault wave 1: 48 boats" in out and "transport landing" in out
    assert "Result: landing over" in out and "dd_tanks_ashore=" in out
    assert cli_main(["provenance", "tcs"]) == 0
    prov = capsys.readouterr().out
    assert "RECONSTRUCTED map cells" in prov and "RECONSTRUCTED landing plan historical" in prov


def test_end_plan_only_for_a_valid_plan_and_clear_plan() -> None:
    """2.7a in a strictly historical game: a plan leaving out the 116th cannot end; the
    schematic can be cleared and laid out again (never a dead end)."""
    from pathlib import Path

    from omaha.tcs.actions import ClearPlan

    path = Path(__file__).parent / "data" / "mini-hist.toml"
    state = GAME.new_state(str(path), seed=1)
    assert isinstance(state, TcsState)
    state.apply(UseSetup("historical"))
    assert EndPlan() not in state.legal_actions()
    refuse(state, EndPlan(), r"116th lands in assault waves 1-2")
    state.apply(OpenBoat(1, "LCA", "EasyRed"))
    state.apply(Load("E/2/16.1"))
    state.apply(CloseBoat())
    assert ClearPlan() in state.legal_actions()
    state.apply(ClearPlan())
    assert state.draft_boats == [] and state.draft_groups == []
    assert OpenBoat(1, "LCA", "EasyRed") in state.legal_actions()
