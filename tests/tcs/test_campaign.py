"""The campaign (0640 6 June - 1700 8 June) and its time-gated rules, with pinned dice:
TRPs (2.8), the destroyers' night designator (2.6b), the release tables over two days
(3.1), German vehicles through US shingle breaches (2.5c), and a d-day game continued
into the campaign."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from routine import answer, play_until
from stage import place, to_act

from omaha import IllegalAction, testing
from omaha.errors import RecordError
from omaha.tcs import GAME
from omaha.tcs.actions import (
    AssignTrp,
    EndMissions,
    EndTrps,
    Illuminate,
    Mission,
    MoveMenu,
    MoveTo,
    Naval,
    RollVariable,
    SelectStack,
    UseSetup,
)
from omaha.tcs.bots import field
from omaha.tcs.core import AWAIT
from omaha.tcs.procedures import continuation
from omaha.tcs.procedures.action import sighting_of
from omaha.tcs.procedures.continuation import continue_into
from omaha.tcs.procedures.inland import CampaignUS, InlandGoals, walkable_field
from omaha.tcs.scenario import load_scenario
from omaha.tcs.state import TcsState
from omaha.testing import pin_dice

DATA = Path(__file__).parent / "data"
NIGHT = DATA / "campaign-night.toml"
RELEASE = DATA / "campaign-release.toml"
DUSK = DATA / "campaign-dusk.toml"


def night_game() -> TcsState:
    state = testing.start(GAME, NIGHT, seed=1)
    assert isinstance(state, TcsState)
    return state


def kinds(state: TcsState, since: int) -> list[tuple[str, str]]:
    return [(e.kind, e.rule) for e in state.log[since:]]


# ----------------------------------------------------------------------------- 2.8
def test_trps_are_assigned_before_any_unit_is_placed() -> None:
    """2.8: the US assigns its TRPs first, before the German places a pill box (3.3g);
    a hex once, never at sea; the assignment is logged."""
    state = night_game()
    assert state.wait is not None and state.wait[:2] == ("trps", "US")
    assert state.where[state.unit_index("PB-01")] == AWAIT  # nothing set up yet
    assert EndTrps() in state.legal_actions() and AssignTrp("A1.20") not in state.legal_actions()
    state.apply(AssignTrp("C7.11"))
    testing.assert_illegal(state, AssignTrp("C7.11"))
    state.apply(AssignTrp("A20.16"))
    assert state.trps == [state.cell("C7.11"), state.cell("A20.16")]
    assert ("tcs.trp.assigned", "2.8") in kinds(state, 0)
    assert state.wait is not None and state.wait[0] == "pillbox"


def staged_battery(state: TcsState) -> None:
    """A battery with ammunition, a German unit in Formigny and an observer beside it."""
    state.apply(AssignTrp("C7.11"))
    state.apply(EndTrps())
    state.apply(UseSetup("test"))
    place(state, {"5./916.1": "C7.11", "E/2/16.1": "C8.11", "A/7FA.guns": "C9.16"})
    with state.edit():
        state.ammo["105mm"] = [5, 0, 0]


def test_a_trp_works_from_0100_7_june_without_a_designator_round() -> None:
    """2.8: before 0100 7 June a mission on a TRP hex is an ordinary one (designator
    direction and distance dice, then adjustment); from 0100 it needs no designator
    round (reconstructed: the series' TRP, READINGS.md): the first dice it rolls are
    the Miller roll of the fire for effect."""
    state = night_game()
    staged_battery(state)
    play_until(state, "missions", "0000 7 June")
    mark = len(state.log)
    pin_dice(state, [1] * 60)
    state.apply(Mission("A/7FA", "C7.11"))
    got = kinds(state, mark)
    assert ("tcs.mission", "2.9") in got and ("tcs.trp.fire", "2.8") not in got
    first = next(e for e in state.log[mark:] if e.kind == "tcs.mission")
    assert first.dice[:2] == (1, 1)  # designator: direction 1, distance 1
    if state.wait is not None and state.wait[0] == "missions":
        state.apply(EndMissions())
    play_until(state, "missions", "0100 7 June")
    mark, before = len(state.log), state.ammo["105mm"][0]
    pin_dice(state, [6, 6] + [1] * 60)
    state.apply(Mission("A/7FA", "C7.11"))
    got = kinds(state, mark)
    assert got[0] == ("tcs.trp.fire", "2.8")
    assert ("tcs.mission", "2.9") not in got  # no designator round, no adjustment
    assert ("tcs.mission.ffe", "2.8") in got
    assert state.ammo["105mm"][0] == before - 1  # the battery fire is spent


def test_destroyers_never_use_trps_and_fire_x3_at_night() -> None:
    """2.6b: a destroyer mission on a TRP hex still fires its designator round (TRPs are
    for the batteries, 2.8), its distance die x3 at night (x2 by day); at night the ships
    see only a hex an illumination round lights (the series' night, reconstructed)."""
    state = night_game()
    state.apply(AssignTrp("A20.16"))
    state.apply(EndTrps())
    state.apply(UseSetup("test"))
    place(state, {"5./916.1": "A20.16", "A/7FA.guns": "C9.16"})
    with state.edit():
        state.ammo["105mm"] = [0, 0, 1]  # one illumination round, no HE
    play_until(state, "missions", "0100 7 June")
    assert Naval("A20.16") not in state.legal_actions()  # dark: the ships see nothing
    assert Illuminate("A20.16") in state.legal_actions()
    state.apply(Illuminate("A20.16"))
    assert state.ammo["105mm"] == [0, 0, 0] and state.cell("A20.16") in state.illuminated
    assert Naval("A20.16") in state.legal_actions()
    assert Illuminate("A20.16") not in state.legal_actions()  # lit already, no round left
    mark = len(state.log)
    pin_dice(state, [1, 2] + [1] * 60)  # direction N, distance 2 x3
    state.apply(Naval("A20.16"))
    got = kinds(state, mark)
    assert got[0] == ("tcs.mission", "2.6b") and ("tcs.trp.fire", "2.8") not in got
    event = state.log[mark]
    assert event.details["battery"] == "destroyer" and event.details["distance"] == 6


# ----------------------------------------------------------------------------- night
def test_an_illumination_round_lights_hexes_for_the_turn() -> None:
    """The series' night (reconstructed): a German unit 4 hexes off is not seen at night
    (series 7.0: night visibility 2); an illumination round over it (2.9's illum pool)
    lights its hex and those within 2, seen as by day, until the end of the turn."""
    state = night_game()
    state.apply(EndTrps())
    state.apply(UseSetup("test"))
    place(state, {"5./916.1": "A20.16", "E/2/16.1": "A16.16", "A/7FA.guns": "C9.16"})
    with state.edit():
        state.ammo["105mm"] = [0, 0, 2]
    play_until(state, "missions", "2300 6 June")
    target = state.cell("A20.16")
    assert not sighting_of(state, "US").spotted(target)
    code = GAME.encode(Illuminate("A20.16"), NIGHT)  # numbered like every action
    assert GAME.decode(code, NIGHT) == Illuminate("A20.16")
    mark = len(state.log)
    state.apply(Illuminate("A20.16"))
    lit = state.log[mark]
    assert (lit.kind, lit.rule) == ("tcs.illum", "2.9") and lit.details["battery"] == "A/7FA"
    assert lit.details["hexes"] == 19  # the hex and the two rings around it
    assert sighting_of(state, "US").spotted(target)
    assert state.ammo["105mm"] == [0, 0, 1]
    assert Illuminate("A20.16") not in state.legal_actions()  # the battery has fired
    play_until(state, "missions", "0000 7 June")
    assert state.illuminated == set() and not sighting_of(state, "US").spotted(target)


def test_no_a20s_fly_at_night() -> None:
    """2.10 by day only (the series' night, reconstructed): the 2140 turn rolls for the
    A-20s, the 2200 night turn logs that none fly and asks nothing."""
    state = testing.start(GAME, DUSK, seed=1)
    assert isinstance(state, TcsState)
    state.apply(EndTrps())
    state.apply(UseSetup("test"))
    while not state.is_terminal():
        assert state.wait is not None
        assert not (state.wait[0] == "air" and state.night)
        answer(state)
    air = [(e.turn, e.kind) for e in state.log if e.kind.startswith("tcs.air")]
    assert ("2200 6 June", "tcs.air.night") in air
    assert all(t == "2140 6 June" for t, k in air if k != "tcs.air.night")
    assert any(t == "2140 6 June" for t, _ in air)


# ----------------------------------------------------------------------------- 3.1
def test_the_later_release_tables_replace_the_first_from_their_turn() -> None:
    """3.1 over two days (reconstructed tables): a roll of 2 is nothing on the first
    table and a variable reinforcement on the later one, whose second table brings
    another company."""
    state = testing.start(GAME, RELEASE, dice=[])
    assert isinstance(state, TcsState)
    pin_dice(state, [2])
    state.apply(UseSetup("test"))  # 2300 6 June: the first table
    roll = next(e for e in state.log if e.kind == "tcs.release.roll")
    assert roll.details["result"] == "none" and roll.turn == "2300 6 June"
    pin_dice(state, [2, 3, 4] + [1] * 40)
    play_until(state, "release", "0000 7 June", "German")
    assert RollVariable() in state.legal_actions()
    state.apply(RollVariable())
    released = [e for e in state.log if e.kind == "tcs.release"]
    assert released[-1].details["formation"] == "6./915"


def test_the_campaign_scenario_names_its_days_and_tables() -> None:
    """The campaign runs 0640 6 June to 1700 8 June (the introduction), hour turns at
    night; the later tables start with 7 June; TRPs from 0100 7 June (2.8)."""
    scen = load_scenario("campaign")
    labels = [t.label for t in scen.turns]
    assert labels[0] == "0640 6 June" and labels[-1] == "1700 8 June"
    assert "0100 7 June" in labels and "0120 7 June" not in labels
    assert "night" in scen.turns[labels.index("0300 8 June")].flags
    assert scen.release_later is not None and labels[scen.release_later[0]] == "0500 7 June"
    assert scen.trps == 6 and labels[scen.trps_from] == "0100 7 June"
    assert {"StuG/352", "1./915", "1./Fues352"} <= scen.german_formations
    assert scen.units[scen.unit_ids["StuG/352.1"]].type.vehicle


# ----------------------------------------------------------------------------- 2.5c
def test_german_vehicles_use_an_open_us_breach() -> None:
    """2.5c: a German vehicle drives through an established US shingle breach onto the
    beach (the only way it gets seaward of the shingle); the crossing is logged; 2.5b:
    it is the breach's vehicle traffic of the turn, and it has road moved."""
    campaign = testing.start(GAME, "campaign", seed=3)
    assert isinstance(campaign, TcsState)
    while campaign.in_setup:
        campaign.apply(campaign.legal_actions()[0])
    b = campaign.scenario.beach.breach_by_name["E-1"]
    land, strand = campaign.label(b.land), campaign.label(b.strand)
    place(campaign, {"StuG/352.1": land})
    with campaign.edit():
        campaign.breaches["E-1"] = "0640 6 June"
        campaign.released.add("StuG/352")
        campaign.entered["StuG/352"] = campaign.turn
    to_act(campaign, "German")
    campaign.apply(MoveMenu())
    campaign.apply(SelectStack(land))
    assert MoveTo(strand) in campaign.legal_actions()
    mark = len(campaign.log)
    campaign.apply(MoveTo(strand))
    got = kinds(campaign, mark)
    assert ("tcs.breach.german", "2.5c") in got and ("tcs.breach.pass", "2.5b") in got
    assert campaign.label(campaign.where[campaign.unit_index("StuG/352.1")]) == strand
    assert campaign.breach_traffic == {"E-1": 1}
    assert campaign.unit_index("StuG/352.1") in campaign.road_moved


def test_the_inland_german_drives_for_a_breach_only_when_the_us_left_it_weakly_held() -> None:
    """2.5c in the German heuristic: an assault gun near the open E-1 breach keeps to its
    company's place while a US tank is within its point range of the breach (a careful
    player does not drive one-step assault guns onto US tanks), and drives for the
    strand beyond the breach once none is."""
    campaign = testing.start(GAME, "campaign", seed=3)
    assert isinstance(campaign, TcsState)
    while campaign.in_setup:
        campaign.apply(campaign.legal_actions()[0])
    b = campaign.scenario.beach.breach_by_name["E-1"]
    place(campaign, {"StuG/352.1": "A14.11", "A/741.1": "A14.09"})
    with campaign.edit():
        campaign.breaches["E-1"] = "0640 6 June"
        campaign.released.add("StuG/352")
        campaign.entered["StuG/352"] = campaign.turn
    stug = campaign.unit_index("StuG/352.1")
    held = InlandGoals(campaign)
    assert not held.weakly_held("E-1") and held.breach_field() is None
    assert b.strand not in held.of(campaign, stug)  # its company's place instead
    place(campaign, {"A/741.1": "C40.05"})
    weak = InlandGoals(campaign)
    assert weak.weakly_held("E-1")
    way = weak.of(campaign, stug)
    assert way[b.strand] == 0 and way[b.land] == 1 and way[campaign.where[stug]] > 1


def test_the_inland_german_walks_only_steps_it_can_take() -> None:
    """The German heuristic's way inland counts only steps within a unit's allowance: from
    the entry hex C29.01 the cheapest way on (a hedgerow into the flooded Aure meadows,
    5 MP) is dearer than a rifle company's 4 MP, so a way through it held companies at
    the south edge all day; the walkable way leads off along the edge."""
    campaign = testing.start(GAME, "campaign", seed=3)
    assert isinstance(campaign, TcsState)
    while campaign.in_setup:
        campaign.apply(campaign.legal_actions()[0])
    start, goal = campaign.cell("C29.01"), [campaign.cell("C6.11")]
    steps = campaign.scenario.beach.foot_graph.steps(start)
    legal = [n for n, cost in steps if cost <= 4]
    assert len(legal) < len(steps)  # the flooded meadows are out of reach in one step
    anyway = field(campaign, goal, vehicle=False, side="German")
    assert min(anyway[n] for n in legal) >= anyway[start]  # it would stay where it is
    way = walkable_field(campaign, goal, vehicle=False, side="German", ma=4)
    assert min(way[n] for n in legal) < way[start]


# ----------------------------------------------------------------------------- continuation
def test_a_d_day_game_continues_into_the_campaign() -> None:
    """A finished d-day game is the campaign's position at the end of 2140 6 June: the
    same units in the same hexes with the same steps, pools and exits; play goes on at
    2200 6 June to the campaign's end."""
    dday = testing.start(GAME, "d-day", seed=5)
    bot = GAME.bots["random"](seed=5)
    while not dday.is_terminal():
        dday.apply(bot.choose(dday))
    assert isinstance(dday, TcsState)
    state = continue_into(dday, "campaign")
    assert not state.is_terminal() and state.turn_label == "2200 6 June"
    for u in dday.scenario.units:
        i, j = u.index, state.unit_index(u.id)
        a, b = dday.where[i], state.where[j]
        assert (dday.label(a) if a >= 0 else a) == (state.label(b) if b >= 0 else b)
        assert dday.steps[i] == state.steps[j]
    assert state.exits == dday.exits and state.ammo == dday.ammo
    bot = GAME.bots["random"](seed=6)
    steps = 0
    while not state.is_terminal() and state.turn_label == "2200 6 June" and steps < 2000:
        state.apply(bot.choose(state))
        steps += 1
    assert state.turn_label != "2200 6 June" or state.is_terminal()


# ----------------------------------------------------------------------------- june7
def test_the_june7_scenario_starts_from_the_evening_of_6_june() -> None:
    """2.8, 2.3f, 2.7b: the one-day scenario of 7 June starts with its TRPs (assigned
    first, working from its first turn), no leaders (gone since 1300 6 June) and no 29th
    ID unit (gone west); the US holds the strip at Colleville, II./915 stands south of it."""
    state = testing.start(GAME, "june7", seed=2)
    assert isinstance(state, TcsState)
    assert state.wait is not None and state.wait[:2] == ("trps", "US")
    scen = state.scenario
    assert scen.trps == 6 and scen.trps_from == 0 and not scen.landing
    assert scen.us_leaders == () and not any(scen.oob.units[i].is_29th for i, _ in scen.us_setup)
    state.apply(EndTrps())
    assert state.label(state.where[state.unit_index("E/2/16.1")]) == "A29.08"
    assert state.label(state.where[state.unit_index("5./915.1")]) == "C29.23"
    assert scen.n_pillboxes == 0 and scen.n_rocket_pits == 0


def test_a_continued_game_keeps_the_d_day_record() -> None:
    """A d-day game continued into the campaign keeps its record: the d-day record and
    the actions after; replayed (d-day from its seed, continued, the later actions
    played) it gives the same state, snapshot for snapshot. A game not continued has no
    such record; a changed action does not replay."""
    dday = testing.start(GAME, "d-day", seed=5)
    bot = GAME.bots["random"](seed=5)
    while not dday.is_terminal():
        dday.apply(bot.choose(dday))
    assert isinstance(dday, TcsState)
    with pytest.raises(IllegalAction):
        continuation.record(dday)
    state = continue_into(dday, "campaign")
    bot = GAME.bots["random"](seed=6)
    for _ in range(300):
        state.apply(bot.choose(state))
    rec = continuation.record(state)
    assert rec.before.scenario == "d-day" and rec.scenario == "campaign"
    assert len(rec.before.actions) == len(dday.actions) and len(rec.actions) == 300
    assert rec.before.result == str(dday.outcome())
    again = continuation.replay(GAME, continuation.ContinuedRecord.from_json(rec.to_json()))
    assert again.to_json() == state.to_json()
    wrong = attrs.evolve(rec, actions=("end trps", *rec.actions[1:]))
    with pytest.raises(RecordError):
        continuation.replay(GAME, wrong)


def test_the_campaign_us_lights_a_hex_for_the_destroyers_at_night() -> None:
    """2.6b, 2.6c at night (the series' night, reconstructed): the campaign's US
    heuristic fires an illumination round over a German hex the ships could see with no
    US unit within 8 hexes, then calls the destroyer mission on it."""
    state = night_game()
    state.apply(EndTrps())
    state.apply(UseSetup("test"))
    place(state, {"5./916.1": "A20.16", "A/7FA.guns": "C9.16"})
    with state.edit():
        state.ammo["105mm"] = [3, 0, 1]
    play_until(state, "missions", "2300 6 June")
    bot = CampaignUS(seed=1)
    assert bot.choose(state) == Illuminate("A20.16")
    state.apply(Illuminate("A20.16"))
    assert bot.choose(state) == Naval("A20.16")
