"""What each side of TCS Omaha has seen, and resamples from it (READINGS.md,
"Information"): the German release (3.1) is the German's alone, the US landing plan,
LCT(R) targets (2.2a) and transports (2.1m) the US's until they land; a resample
draws the other side's part anew within the rules."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from planbuild import company_plan
from routine import play_until
from stage import RELEASE, staged

from omaha import testing
from omaha.kernel.events import Event
from omaha.tcs import GAME
from omaha.tcs.actions import CommitPlan, EndRockets, NoRelease, ReleaseBattery, UseSetup
from omaha.tcs.components.plan import TRANSPORT, PlannedBoat, check_plan
from omaha.tcs.core import ABOARD, AWAIT
from omaha.tcs.procedures.information import HIDDEN
from omaha.tcs.scenario import TcsScenario
from omaha.tcs.state import TcsState
from omaha.testing import pin_dice

SEEDS = range(8)
DATA = Path(__file__).parent / "data"


def after_release_roll(roll: int) -> TcsState:
    """The release fixture at the US Mode Determination of 1100, the 1100 Variable
    Reinforcement Table roll pinned (1-4: no release, nothing else rolled)."""
    state = staged({}, scenario=RELEASE)
    pin_dice(state, [roll])
    play_until(state, "modes", "1100 6 June", "US")
    return state


def at_release_choice() -> TcsState:
    """The German choosing his 1100 release (a roll of 5: a company or a battery)."""
    state = staged({}, scenario=RELEASE)
    pin_dice(state, [5])
    play_until(state, "release", "1100 6 June", "German")
    return state


def observed_alike(twin: TcsState, state: TcsState, player: str) -> None:
    """The resample's kept observation is the one built from nothing, for both sides;
    the player it was drawn for sees it as the original (observation and view)."""
    for side in GAME.players:
        assert np.array_equal(twin.observation(side), twin.fresh_observation(side))
    assert np.array_equal(twin.observation(player), state.observation(player))
    assert twin.view(player) == state.view(player)


# ------------------------------------------------------------------ the German release
def test_a_release_roll_is_seen_by_the_german_alone() -> None:
    """TCS Omaha 3.1: two games that differ only in the Variable Reinforcement Table
    roll (1 and 2: no release either way) look the same to the US, not to the German."""
    one, two = after_release_roll(1), after_release_roll(2)
    rolls = [[e.details["roll"] for e in s.log if e.kind == "tcs.release.roll"] for s in (one, two)]
    assert rolls[0][-1] == 1 and rolls[1][-1] == 2 and rolls[0][:-1] == rolls[1][:-1]
    rest = [[e for e in s.log if e.kind != "tcs.release.roll"] for s in (one, two)]
    assert rest[0] == rest[1]  # nothing else differs
    assert one.information_state("US") == two.information_state("US")
    assert one.information_state("German") != two.information_state("German")


def test_what_the_german_releases_is_his_alone() -> None:
    """3.1: a battery released or nothing taken: the same to the US (its view and
    observation too), not to the German."""
    state = at_release_choice()
    battery, nothing = state.clone(), state.clone()
    battery.apply(ReleaseBattery("1./AR352"))
    nothing.apply(NoRelease())
    assert battery.batteries == {"1./AR352": 8} and nothing.batteries == {}
    assert battery.information_state("US") == nothing.information_state("US")
    assert np.array_equal(battery.observation("US"), nothing.observation("US"))
    assert battery.view("US") == nothing.view("US")
    assert battery.information_state("German") != nothing.information_state("German")


def test_a_us_resample_redraws_the_german_release() -> None:
    """The US's resamples roll the two release steps it has not seen (1040, 1100) anew:
    batteries released or not, each with its full battery fires (3.1); the German's
    resample keeps what he released."""
    state = at_release_choice()
    state.apply(ReleaseBattery("1./AR352"))
    fires = {b.id: b.fires for b in state.scenario.german.batteries}
    drawn = []
    for seed in SEEDS:
        twin = state.resample("US", seed)
        assert twin.information_state("US") == state.information_state("US")
        assert twin.invariants() == []
        assert all(fires[b] == n for b, n in twin.batteries.items())
        assert len(twin.batteries) <= 2  # at most one a release step
        drawn.append(tuple(sorted(twin.batteries)))
        observed_alike(twin, state, "US")
    assert len(set(drawn)) > 2 and () in drawn  # the true one is not kept
    for seed in SEEDS:
        assert state.resample("German", seed).batteries == {"1./AR352": 8}


def test_a_us_resample_at_the_german_choice_keeps_a_release_to_choose() -> None:
    """While the German chooses his release, the US's resample draws the roll anew among
    those that give a choice (3.1: release or variable), and the decision stays sound."""
    state = at_release_choice()
    results = {state.resample("US", seed).sd["result"] for seed in range(12)}
    assert results == {"release", "variable"}
    for seed in SEEDS:
        assert state.resample("US", seed).invariants() == []


def test_a_battery_seen_firing_is_kept() -> None:
    """A German battery that fired where the US saw it is released in every US
    resample, with the fires it has left (3.1)."""
    state = at_release_choice()
    state.apply(ReleaseBattery("1./AR352"))
    with state.edit():
        state.batteries["1./AR352"] = 7
    state.note("tcs.mission", "3.1", player="German", battery="1./AR352", result="miss")
    for seed in SEEDS:
        assert state.resample("US", seed).batteries.get("1./AR352") == 7


# ------------------------------------------------------------------ the US plan
def landing_set_up() -> TcsState:
    """The landing scenario after set-up: the historical plan committed, the LCT(R)
    targets chosen, before the first turn's fires."""
    state = GAME.new_state("landing", seed=3)
    assert isinstance(state, TcsState)
    bots = {p: GAME.bots["heuristic"](seed=3 + k) for k, p in enumerate(GAME.players)}
    while state.in_setup or not state.lctr_done:
        state.apply(bots[state.current_player() or "US"].choose(state))
    assert state.plan is not None and state.lctr_targets and not state.stats.get("lctr_fired")
    return state


def test_the_german_sees_that_the_plan_is_committed_not_what_it_holds() -> None:
    """2.1a, 2.2a, 2.3f: the German's log holds the plan's commitment, the LCT(R)
    targets and the leader selection without their content; he sees no schematic."""
    state = landing_set_up()
    seen = {
        e.kind: e
        for e in (testing.seen_event(state, e, "German") for e in state.log)
        if e is not None
    }
    assert seen["tcs.plan.commit"].details["waves"] == HIDDEN
    assert seen["tcs.lctr.targets"].details["targets"] == HIDDEN
    assert seen["tcs.leaders.selection"].details["drawn"] == HIDDEN
    for event in state.log:  # masking is idempotent (a resample's log holds the masks)
        once = testing.seen_event(state, event, "German")
        assert once is None or testing.seen_event(state, once, "German") == once
    us = [k for k, (_, who) in enumerate(state.decisions) if who == "US"]
    assert us and all(testing.seen_action(state, k, "German") is None for k in us)


def test_a_german_resample_redraws_the_targets_and_boxes_within_the_plan_rules() -> None:
    """The German's resamples draw the LCT(R) targets anew among the hexes 2.2a allows,
    send each boat (or LCA group) of the waves at sea to a box the plan rules allow and
    each op sheet to a sector of its beach: the plan still passes check_plan, its loads
    are the same, each unit is planned for its boat's beach; the US's resample keeps
    its own plan."""
    state = landing_set_up()
    plan = state.plan
    assert plan is not None
    beach, rules = state.scenario.beach, state.scenario.rules
    targets, boxes, sheets = set(), set(), set()
    for seed in SEEDS:
        twin = state.resample("German", seed)
        assert twin.information_state("German") == state.information_state("German")
        assert twin.invariants() == []
        observed_alike(twin, state, "German")
        assert len(twin.lctr_targets) == len(state.lctr_targets)
        assert all(beach.lctr_target_allowed(c) for c in twin.lctr_targets)
        targets.add(tuple(twin.lctr_targets))
        drawn = twin.plan
        assert drawn is not None
        check_plan(drawn, rules)
        assert [b.load for b in drawn.boats] == [b.load for b in plan.boats]
        assert drawn.lctr == tuple(twin.label(c) for c in twin.lctr_targets)
        planned = {}  # as the commitment plans them: the last boat of a split unit
        for b in drawn.boats:
            pool = beach.transport_boxes if b.wave == TRANSPORT else beach.assault_boxes
            planned.update((u, pool[b.box]) for u, _ in b.load)
        planned.update((u, beach.assault_boxes[g.box]) for g in drawn.groups for u, _ in g.pool)
        assert all(twin.planned_beach[twin.unit_index(u)] == p for u, p in planned.items())
        boxes.add(tuple(b.box for b in drawn.boats))
        for mine, theirs in zip(drawn.opsheets, plan.opsheets, strict=True):  # 2.3a
            assert beach.sector(mine.sector).beach == beach.sector(theirs.sector).beach
            assert mine.units == theirs.units
        sheets.add(tuple(o.sector for o in drawn.opsheets))
        us = state.resample("US", seed)
        assert us.plan == plan and us.lctr_targets == state.lctr_targets
    assert len(targets) == len(SEEDS) and tuple(state.lctr_targets) not in targets
    assert len(boxes) == len(SEEDS) and plan.opsheets and len(sheets) > 1


def test_a_german_resample_redraws_where_the_transports_land() -> None:
    """2.1m: the transports assigned for a landing still to come head for a transport
    box drawn anew; their loads stay, their units are planned for the new beach."""
    state = landing_set_up()
    scen = state.scenario
    spare = next(
        u
        for u in scen.oob.units
        if state.where[state.unit_index(u.id)] == AWAIT
        and state.planned_beach[state.unit_index(u.id)] is None
        and u.type.load_class <= 2
    )
    box = sorted(scen.beach.transport_boxes)[0]
    land = "1000 6 June"
    boat = PlannedBoat("T1000.1", TRANSPORT, "LCT", box, None, ((spare.id, spare.steps),), 1)
    with state.edit():
        state.transports[land] = [boat]
        state.where[state.unit_index(spare.id)] = ABOARD
        state.planned_beach[state.unit_index(spare.id)] = scen.beach.transport_boxes[box]
    drawn = set()
    for seed in SEEDS:
        twin = state.resample("German", seed)
        (moved,) = twin.transports[land]
        assert moved.load == boat.load and moved.box in scen.beach.transport_boxes
        beach_of = scen.beach.transport_boxes[moved.box]
        assert twin.planned_beach[twin.unit_index(spare.id)] == beach_of
        drawn.add(moved.box)
        observed_alike(twin, state, "German")
    assert len(drawn) > 1
    assert all(state.resample("US", s).transports[land] == [boat] for s in SEEDS)


def test_a_german_resample_redraws_the_leaders_aboard() -> None:
    """2.3f: as many leaders aboard as were drawn, each on a boat of the plan carrying
    units of his command."""
    state = landing_set_up()
    plan = state.plan
    assert plan is not None
    oob = state.scenario.oob
    aboard = state.leader_status.count("aboard")
    assert aboard > 0
    commands = plan.unit_boats()
    drawn = set()
    for seed in SEEDS:
        twin = state.resample("German", seed)
        assert twin.invariants() == []
        assert twin.leader_status.count("aboard") == aboard
        for k, st in enumerate(twin.leader_status):
            if st == "aboard":
                carried = [u for u, boats in commands.items() if twin.leader_boat[k] in boats]
                assert any(oob.leaders[k].commands_unit(oob.unit(u)) for u in carried)
        drawn.add(tuple(twin.leader_boat))
    assert len(drawn) == len(SEEDS)


def test_a_german_resample_redraws_the_nfsts() -> None:
    """2.6d: each NFST not yet landed rides an infantry unit of its battalion not yet
    ashore, drawn anew."""
    scenario = GAME.load_scenario("landing")
    assert isinstance(scenario, TcsScenario)
    oob = scenario.oob
    plan = company_plan(oob, "E/2/116", "EasyRed", nfst=(("2/116", "E/2/116.3"),))
    state = testing.start(GAME, DATA / "mini-nfst.toml", seed=4)
    assert isinstance(state, TcsState)
    state.apply(UseSetup("historical"))
    state.apply(CommitPlan(plan.tokens()))
    state.apply(EndRockets())
    while state.wait is not None and state.wait[0] == "nfst":
        state.apply(state.legal_actions()[0])
    assert state.nfst["2/116"] == ["E/2/116.3", "assigned"]
    drawn = set()
    for seed in SEEDS:
        twin = state.resample("German", seed)
        assert twin.invariants() == []
        unit, status = twin.nfst["2/116"]
        assert status == "assigned"
        assert oob.unit(unit).battalion == "2/116" and oob.unit(unit).type.name == "infantry"
        drawn.add(unit)
        assert state.resample("US", seed).nfst == state.nfst
    assert len(drawn) > 1


def test_a_decision_resolved_alone_is_hidden_as_its_action() -> None:
    """The kernel logs a decision with one choice (kernel.forced) naming the action:
    the other side sees it only where it would see the action."""
    state = at_release_choice()

    def forced(player: str, action: str) -> Event:
        return Event("kernel.forced", "1100 6 June", "", player, "", (), {"action": action})

    assert testing.seen_event(state, forced("German", "no release"), "US") is None
    assert testing.seen_event(state, forced("German", "no release"), "German") is not None
    assert testing.seen_event(state, forced("US", "end transports"), "German") is None
    assert testing.seen_event(state, forced("US", "end missions"), "German") is not None
    assert testing.seen_event(state, forced("German", "end modes"), "US") is not None
