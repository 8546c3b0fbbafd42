"""TCS Omaha part 2, the battle: fire, morale, retreats, pill boxes, assault, rocket
pits, overwatch, modes and movement, each rule played with pinned dice on a staged
position (stage.py), or its table read directly.

The series tables are reconstructed (data/series.toml); the expected values below
are worked out by hand from those tables and the Omaha modifiers, in each comment.
"""

from __future__ import annotations

import pytest
from stage import hexes, place, staged, to_act

from omaha.tcs.actions import (
    Assault,
    AssaultMenu,
    Back,
    Convert,
    EndAction,
    FireMenu,
    MoveMenu,
    MoveTo,
    NoOverwatch,
    Overwatch,
    OverwatchAt,
    PointFire,
    PointMenu,
    Resolve,
    Retreat,
    RetreatMenu,
    SelectStack,
    SetMode,
    Target,
    With,
    WithAll,
)
from omaha.tcs.components.series import Series
from omaha.tcs.core import Status
from omaha.tcs.procedures import combat
from omaha.tcs.procedures.movement import allowance, may_move, unit_destinations
from omaha.tcs.procedures.sight import spot_range
from omaha.tcs.rules import (
    area_column,
    area_result,
    assault_won,
    at_roll_needed,
    conversion_steps,
    morale_result,
    point_kill,
    rocket_hits,
)
from omaha.tcs.state import TcsState
from omaha.testing import pin_dice


@pytest.fixture(scope="module")
def series() -> Series:
    from omaha.tcs import GAME

    scen = GAME.load_scenario("d-day")
    return scen.series  # type: ignore[attr-defined, no-any-return]


def events(state: TcsState, kind: str) -> list[dict[str, object]]:
    return [dict(e.details) for e in state.log if e.kind == kind]


def unit(state: TcsState, uid: str) -> int:
    return state.unit_index(uid)


# ----------------------------------------------------------------------------- the tables
def test_area_fire_table(series: Series) -> None:
    """Series 11.0 (reconstructed): the firepower column, then the modified roll: a
    suppression, or one, two, three steps (each a suppression too)."""
    assert [area_column(fp, series) for fp in (1, 2, 4, 5, 9, 10, 29, 30, 99)] == [
        0,
        1,
        2,
        3,
        4,
        5,
        7,
        8,
        8,
    ]
    # column 5 (firepower 5-6): suppress 8, one step 11, two 14
    assert area_result(5, 7, series) == (False, 0)
    assert area_result(5, 8, series) == (True, 0)
    assert area_result(5, 11, series) == (True, 1)
    assert area_result(5, 14, series) == (True, 2)
    # column 30+: three steps from 11
    assert area_result(30, 11, series) == (True, 3)


def test_point_and_assault_tables(series: Series) -> None:
    """Series 12.0, 16.0, 17.0, 22.0 (reconstructed numbers): point kill at 7; AT rolls
    7/11/12 at range 0/1/2, one better a further infantry unit (at most 2); morale
    over the unit's morale by 1 suppressed, 3 SYR, 5 broken; assault wins at 9."""
    assert point_kill(8, 5, 6, 0, series) and not point_kill(7, 5, 6, 0, series)
    assert [at_roll_needed(d, 1, series) for d in (0, 1, 2)] == [7, 11, 12]
    assert at_roll_needed(0, 2, series) == 6 and at_roll_needed(0, 9, series) == 5
    with pytest.raises(ValueError):
        at_roll_needed(3, 1, series)
    assert [morale_result(r, 8, 0, series) for r in (8, 9, 11, 13)] == [
        "ok",
        "suppressed",
        "retreat",
        "broken",
    ]
    assert assault_won(7, 4, 2, 0, series) and not assault_won(6, 4, 2, 0, series)


def test_omaha_tables_of_part_two(state_tables: object) -> None:
    """TCS Omaha 3.3f conversion (1-2 full squad, 3-4 one step, 5-6 none) and 3.4b
    rocket targeting (1-3 on target)."""
    from omaha.tcs.components.tables import Tables

    assert isinstance(state_tables, Tables)
    assert [conversion_steps(d, state_tables) for d in range(1, 7)] == [2, 2, 1, 1, 0, 0]
    assert [rocket_hits(d, state_tables) for d in range(1, 7)] == [True] * 3 + [False] * 3


@pytest.fixture
def state_tables(tables: object) -> object:
    return tables


# ----------------------------------------------------------------------------- area fire
def test_area_fire_combat(series: Series) -> None:
    """11.0 in play: E/2/16.1 (5 steps, 1 a step) opens a fire combat on a grenadier
    platoon two hexes off in the open: column 5, no modifier (fire mode, in range
    2 <= 4/2, open ground); roll 11: suppressed and one step; morale 4+1 (one step
    lost) against 8: holds."""
    state = staged(
        {"E/2/16.1": "A16.07", "5./916.1": "A16.05", "F/2/16.1": "A22.15"},
        fire=["E/2/16.1", "5./916.1"],
    )  # F/2/16.1 on the beach keeps the phase open
    to_act(state)
    assert FireMenu() in state.legal_actions()
    state.apply(FireMenu())
    assert state.legal_actions() == (Back(), Target("A16.05"))
    pin_dice(state, [5, 6, 2, 2])
    state.apply(Target("A16.05"))  # one stack can fire: it joins and fires at once
    forced = [e.details["action"] for e in state.log if e.kind == "kernel.forced"]
    assert forced[-2:] == ["with A16.07", "resolve fire"]
    g = unit(state, "5./916.1")
    assert state.steps[g] == 2 and state.status[g] == Status.SUPPRESSED
    fire = events(state, "tcs.fire.area")[-1]
    assert fire["firepower"] == 5 and fire["roll"] == 11 and fire["modifier"] == ""
    assert fire["results"] == "5./916.1 -1"
    morale = events(state, "tcs.morale")[-1]
    assert morale["roll"] == 4 and morale["modifier"] == "+1" and morale["result"] == "ok"
    i = unit(state, "E/2/16.1")
    assert i in state.acted and i in state.revealed and state.fire_mode[i]


def test_move_mode_dense_and_position_modifiers() -> None:
    """11.0 (reconstructed): a target in move mode +1 (the most exposed unit's), four
    units in a hex +1, a defensive zone -2 (1.6), terrain (forest -2)."""
    state = staged(
        {
            "5./916.1": "A16.05",
            "5./916.2": "A16.05",
            "5./916.mg": "A16.05",
            "5./916.mtr": "A16.05",
        },
        fire=["5./916.1", "5./916.2", "5./916.mg"],
    )
    c = state.cell("A16.05")
    assert combat.area_hex_modifier(state, c, forest=False, shingle=False) == 1  # dense
    assert combat.area_hex_modifier(state, c, forest=True, shingle=False) == 1 - 2
    assert max(combat.area_unit_modifier(state, i) for i in state.units_at(c)) == 1
    dz = state.cell("A12.12")  # a defensive zone on the beach flat (1.6)
    assert dz in state.scenario.beach.dz
    assert combat.area_hex_modifier(state, dz, forest=False, shingle=False) == -2


def test_shingle_modifier_only_across_the_shingle() -> None:
    """TCS Omaha 1.13: a unit next to the shingle fired on across it gets -2; fired on
    along the flat behind it, nothing."""
    state = staged({"5./916.1": "A16.13", "E/2/16.1": "A16.15", "E/2/16.2": "A18.13"})
    target = state.cell("A16.13")
    assert target in state.scenario.beach.next_to_shingle
    across = combat.direct_modifiers(state, [state.cell("A16.15")], target)
    along = combat.direct_modifiers(state, [state.cell("A18.13")], target)
    assert across == (True, False) and along == (False, False)
    assert combat.area_hex_modifier(state, target, forest=False, shingle=True) == -2


# ----------------------------------------------------------------------------- morale, SYR
def test_broken_unit_retreats_and_its_company_worsens() -> None:
    """17.0: a grenadier platoon loses a step (roll 11 on column 5) and rolls 12+1
    against morale 8: over by 5, broken: its company's morale worsens (1.13a levels),
    it loses another step and retreats up to two hexes farther from the enemy."""
    state = staged({"E/2/16.1": "A16.07", "5./916.1": "A16.05"}, fire=["E/2/16.1", "5./916.1"])
    to_act(state)
    pin_dice(state, [5, 6, 6, 6])
    state.apply(FireMenu())
    state.apply(Target("A16.05"))
    g = unit(state, "5./916.1")
    assert events(state, "tcs.morale")[-1]["result"] == "broken"
    assert state.company_morale["5./916"] == 1
    assert state.steps[g] == 1 and state.status[g] == Status.SUPPRESSED
    end = state.where[g]
    assert state.dist(end, state.cell("A16.07")) == 4  # two hexes farther (2 -> 4)
    assert not state.fire_mode[g]


def test_required_retreat_at_the_shingle_paralyzes() -> None:
    """TCS Omaha 1.13a: a unit on the beach side of the shingle that must retreat is
    paralyzed instead, and its company's morale worsens by one."""
    state = staged({"E/2/16.1": "A16.14", "5./916.1": "A16.12"})
    i = unit(state, "E/2/16.1")
    assert state.cell("A16.14") in state.scenario.beach.strand_by_shingle
    combat.retreat(state, i, "17.0")
    assert hexes(state, "E/2/16.1") == ["A16.14"]
    assert state.status[i] == Status.PARALYZED and state.company_morale["E/2/16"] == 1
    assert events(state, "tcs.retreat.shingle")[0]["level"] == 1


def test_voluntary_retreat_never_toward_the_shingle() -> None:
    """TCS Omaha 1.13a, 2.3d: a voluntary SYR on the beach may not end nearer the
    shingle; a required one may go along it."""
    state = staged({"E/2/16.1": "A16.15", "5./916.1": "A16.13"})  # row 16 is sea at 1040
    i = unit(state, "E/2/16.1")
    gap = state.scenario.beach.shingle_gap
    start = state.cell("A16.15")
    free = combat.retreat_options(state, i, voluntary=True)
    assert free and all(gap[c] >= gap[start] for c in free)
    forced = combat.retreat_options(state, i, voluntary=False)
    assert set(free) <= set(forced)


def test_a_suppressed_unit_in_contact_may_retreat_voluntarily() -> None:
    """17.0 (reading): a suppressed unit within two hexes of the enemy may take a
    voluntary SYR instead of crawling; it ends farther from the enemy, suppressed."""
    state = staged({"E/2/16.1": "A16.07", "5./916.1": "A16.05", "F/2/16.1": "A22.15"})
    to_act(state)
    i = unit(state, "E/2/16.1")
    with state.edit():
        state.status[i] = Status.SUPPRESSED
    assert RetreatMenu() in state.legal_actions()
    state.apply(RetreatMenu())
    state.apply(Retreat("E/2/16.1"))
    assert state.dist(state.where[i], state.cell("A16.05")) > 2
    assert events(state, "tcs.retreat")[0]["start"] == "A16.07"
    assert state.status[i] == Status.SUPPRESSED and i in state.acted
    assert RetreatMenu() not in state.legal_actions()
    state.apply(EndAction())  # the phase ends: the unit recovers a level (17.0)
    assert state.status[i] == Status.OK


# ----------------------------------------------------------------------------- pill boxes
def test_point_fire_destroys_a_pill_box_which_converts(series: Series) -> None:
    """12.0 and 3.3f: a Sherman (point 5) shoots at a pill box (defence 6) three hexes
    off in the open: 8 + 5 - 6 = 7 kills it; the conversion roll 2 leaves a full PB
    squad (2 steps) in the hex, suppressed, in fire mode."""
    state = staged(
        {"A/741.1": "A16.08", "PB-01": "A16.05", "F/2/16.1": "A22.15"}, fire=["A/741.1"]
    )  # F/2/16.1 on the beach keeps the phase open
    to_act(state)
    state.apply(PointMenu())
    assert PointFire("A/741.1", "PB-01") in state.legal_actions()
    pin_dice(state, [4, 4, 2])
    state.apply(PointFire("A/741.1", "PB-01"))
    assert hexes(state, "PB-01") == ["off"]
    squad = state.scenario.german.squads[0]
    assert state.where[squad] == state.cell("A16.05") and state.steps[squad] == 2
    assert state.status[squad] == Status.SUPPRESSED and state.fire_mode[squad]
    assert squad in state.spared  # not fired on again this phase (3.3f)
    shot = events(state, "tcs.fire.point")[0]
    assert shot["roll"] == 8 and shot["result"] == "hit" and shot["defense"] == 6
    assert events(state, "tcs.pillbox.destroyed")[0]["roll"] == 2
    assert state.metrics()["pillboxes_destroyed"] == 1


def test_a_missed_shot_leaves_the_pill_box() -> None:
    """12.0: 7 + 5 - 6 = 6 < 7 misses; the tank has fired (fire mode, revealed)."""
    state = staged({"A/741.1": "A16.08", "PB-01": "A16.05"}, fire=["A/741.1"])
    to_act(state)
    pin_dice(state, [3, 4])
    state.apply(PointMenu())
    state.apply(PointFire("A/741.1", "PB-01"))
    assert hexes(state, "PB-01") == ["A16.05"]
    t = unit(state, "A/741.1")
    assert t in state.fired_point and t in state.revealed
    assert PointMenu() not in state.legal_actions()  # one shot a phase


def test_voluntary_conversion() -> None:
    """TCS Omaha 3.3e: at the start of the Mode Determination Phase the German may
    convert a pill box into its PB squad, placed in either mode."""
    state = staged({"PB-01": "A16.05"}, kind="convert", player="German")
    assert Convert("PB-01", "move") in state.legal_actions()
    state.apply(Convert("PB-01", "move"))
    squad = state.scenario.german.squads[0]
    assert hexes(state, "PB-01") == ["off"]
    assert state.where[squad] == state.cell("A16.05")
    assert state.steps[squad] == 2 and not state.fire_mode[squad]
    assert state.metrics()["pillboxes_destroyed"] == 0


def test_assault_on_a_pill_box(series: Series) -> None:
    """22.0 with 3.3d: two rifle platoons assault an adjacent pill box. Defensive fire
    first: 6 firepower (column 5) +2, roll 2: nothing. Assault: 10 steps against 2
    (a point target), roll 6: 6 + 10 - 2 = 14 >= 9 wins. AT roll inside the hex: 6
    needed (7, one better for the second platoon), roll 6 destroys it; conversion 5:
    no squad; the attackers take the hex."""
    state = staged(
        {"E/2/16.1": "A16.07", "E/2/16.2": "A16.07", "PB-01": "A16.06"},
        fire=["E/2/16.1", "E/2/16.2"],
    )
    with state.edit():  # beyond the shingle the company needs its op sheet (2.3d)
        state.us_implemented.add("E/2/16")
    to_act(state)
    state.apply(AssaultMenu())
    assert Assault("A16.06", "A16.07") in state.legal_actions()
    pin_dice(state, [1, 1, 3, 3, 3, 3, 5])
    state.apply(Assault("A16.06", "A16.07"))
    assault = events(state, "tcs.assault")[0]
    assert (assault["attack"], assault["defense"], assault["roll"]) == (10, 2, 6)
    at = events(state, "tcs.at_roll")[0]
    assert at["needed"] == 6 and at["result"] == "destroyed"
    assert hexes(state, "PB-01", "E/2/16.1", "E/2/16.2") == ["off", "A16.06", "A16.06"]
    assert events(state, "tcs.fire.area")[0]["results"] == "no effect"


def test_a_failed_assault_costs_the_attackers(series: Series) -> None:
    """22.0: 2 + 5 - 3 = 4 < 9: the attackers are suppressed, the strongest loses a
    step (defensive fire roll 2 did nothing)."""
    state = staged(
        {"E/2/16.1": "A16.07", "5./916.1": "A16.06", "F/2/16.1": "A22.15"},
        fire=["E/2/16.1", "5./916.1"],
    )  # F/2/16.1 on the beach keeps the phase open (it may still move)
    with state.edit():
        state.us_implemented.add("E/2/16")
    to_act(state)
    pin_dice(state, [1, 1, 1, 1])
    state.apply(AssaultMenu())
    state.apply(Assault("A16.06", "A16.07"))
    i = unit(state, "E/2/16.1")
    assert state.steps[i] == 4 and state.status[i] == Status.SUPPRESSED
    assert hexes(state, "E/2/16.1", "5./916.1") == ["A16.07", "A16.06"]


# ----------------------------------------------------------------------------- overwatch
def moved_stack(state: TcsState, start: str, end: str) -> None:
    """The US moves the stack in ``start`` to ``end`` (through the Action Phase menu)."""
    state.apply(MoveMenu())
    state.apply(SelectStack(start))
    state.apply(MoveTo(end))


def test_overwatch_one_stack_and_the_permission_roll() -> None:
    """15.0 ([op7] single-stack overwatch): a US stack moving in sight of a German
    stack in fire mode triggers it; the German fires with one stack: 3 firepower
    (column 3) at a target in move mode (+1) beyond half its range (-1): roll 9
    suppresses. The stack
    is then marked: at the next trigger it fires only on a permission roll of 6;
    a 5 denies it."""
    state = staged(
        {
            "5./916.1": "A16.05",
            "E/2/16.1": "A16.09",
            "E/2/16.2": "A18.09",
        },
        fire=["5./916.1"],
    )
    with state.edit():
        state.us_implemented.add("E/2/16")  # free to move beyond the shingle (2.3a)
    to_act(state)
    moved_stack(state, "A16.09", "A16.08")
    assert state.wait is not None and state.wait[:2] == ("overwatch", "German")
    assert state.legal_actions() == (NoOverwatch(), Overwatch("A16.05"))
    pin_dice(state, [4, 5])
    state.apply(Overwatch("A16.05"))
    i = unit(state, "E/2/16.1")
    assert state.status[i] == Status.SUPPRESSED and state.steps[i] == 5
    g = unit(state, "5./916.1")
    assert g in state.marked and g in state.revealed
    moved_stack(state, "A18.09", "A17.08")
    pin_dice(state, [5])
    state.apply(Overwatch("A16.05"))
    denied = events(state, "tcs.overwatch.denied")
    assert denied and denied[0]["roll"] == 5 and denied[0]["at"] == "A17.08"
    assert state.status[unit(state, "E/2/16.2")] == Status.OK


def test_overwatch_of_a_fire_from_two_hexes_picks_the_hex_then_the_stack() -> None:
    """15.0: two US stacks fire together (their fire combat misses: 1+1); each of their
    hexes is a trigger the German may answer with one stack. The hex is chosen first,
    then the stack that fires at it (two small steps: READINGS.md, "Agents")."""
    state = staged(
        {"E/2/16.1": "A16.07", "F/2/16.1": "A17.07", "5./916.1": "A16.05", "5./916.2": "A17.04"},
        fire=["E/2/16.1", "F/2/16.1", "5./916.1", "5./916.2"],
    )
    with state.edit():
        state.us_implemented.update({"E/2/16", "F/2/16"})
    to_act(state)
    state.apply(FireMenu())
    state.apply(Target("A16.05"))
    pin_dice(state, [1, 1])
    state.apply(WithAll())
    assert state.legal_actions() == (
        NoOverwatch(),
        OverwatchAt("A16.07"),
        OverwatchAt("A17.07"),
    )
    state.apply(OverwatchAt("A17.07"))
    assert state.wait is not None and state.wait[:2] == ("overwatch", "German")
    assert NoOverwatch() in state.legal_actions()  # still free to hold fire
    assert Overwatch("A17.04") in state.legal_actions()
    pin_dice(state, [6, 6, 1, 1])
    state.apply(Overwatch("A17.04"))
    fired = events(state, "tcs.overwatch")[-1]
    assert fired["start"] == "A17.04" and fired["at"] == "A17.07"
    assert events(state, "tcs.fire.area")[-1]["roll"] == 12


def test_no_overwatch_without_fire_mode_or_sight() -> None:
    """15.0: a stack in move mode does not overwatch; nor does one that cannot see the
    moving stack (here: over the crest of the bluff, 8.0)."""
    state = staged(
        {"5./916.1": "A16.05", "5./916.2": "A20.12", "E/2/16.1": "A16.09"},
        fire=["5./916.2"],
    )
    with state.edit():
        state.us_implemented.add("E/2/16")
    to_act(state)
    moved_stack(state, "A16.09", "A16.08")
    assert state.wait is not None and state.wait[:2] == ("action", "US")  # no overwatch


# ----------------------------------------------------------------------------- modes, moving
def test_mode_determination() -> None:
    """4.0 (reconstructed): each stack may change mode once, for free, in the Mode
    Determination Phase; a stack in fire mode pays half its allowance to move
    ([op16]); in move mode it has all of it."""
    state = staged({"E/2/16.1": "A16.09", "E/2/16.2": "A18.09"}, fire=["E/2/16.1"])
    legal = state.legal_actions()
    assert SetMode("A16.09", "move") in legal and SetMode("A18.09", "fire") in legal
    state.apply(SetMode("A18.09", "fire"))
    assert SetMode("A18.09", "move") not in state.legal_actions()  # once a phase
    i, j = unit(state, "E/2/16.1"), unit(state, "E/2/16.2")
    assert state.fire_mode[j] and allowance(state, j) == 2 and allowance(state, i) == 2
    state.apply(SetMode("A16.09", "move"))
    assert not state.fire_mode[i] and allowance(state, i) == 4


def test_a_suppressed_unit_crawls_at_half_allowance() -> None:
    """Reading of 17.0 (READINGS.md): a suppressed unit moves with half of what it has."""
    state = staged({"E/2/16.1": "A16.15"})
    i = unit(state, "E/2/16.1")
    assert allowance(state, i) == 4
    with state.edit():
        state.status[i] = Status.SUPPRESSED
    assert allowance(state, i) == 2
    assert max(unit_destinations(state, i).values()) <= 2
    with state.edit():
        state.status[i] = Status.PARALYZED
    assert not may_move(state, i)


def test_beyond_the_shingle_a_us_unit_needs_a_leader_or_an_op_sheet() -> None:
    """TCS Omaha 2.3d, 2.3f: a US unit landward of the shingle moves only under a
    leader (within 3 hexes at the start of the Action Phase) or on an implemented op
    sheet; on the beach it moves freely along the strand."""
    state = staged({"E/2/16.1": "A16.12", "E/2/16.2": "A18.15"})
    i, j = unit(state, "E/2/16.1"), unit(state, "E/2/16.2")
    to_act(state)
    assert not may_move(state, i) and may_move(state, j)
    state.apply(MoveMenu())
    assert SelectStack("A16.12") not in state.legal_actions()
    leader = state.scenario.oob.leader("Ldr-2/16").index
    with state.edit():  # a leader three hexes off at the start of the next phase
        state.leader_cell[leader] = state.cell("A16.15")
        state.leader_status[leader] = "map"
    state.apply(Back())  # the move list left, nothing else to do: the phase ends by itself
    assert state.wait is not None and state.wait[0] != "action"
    to_act(state)
    assert i in state.free and may_move(state, i)


# ----------------------------------------------------------------------------- rocket pits
def german_fire_with(state: TcsState, target: str, stack: str) -> None:
    """The German opens a fire combat on ``target`` and fires with ``stack`` alone."""
    state.apply(FireMenu())
    state.apply(Target(target))
    state.apply(With(stack))
    state.apply(Resolve())


def test_rocket_pit_fires_as_a_mortar_and_is_spent() -> None:
    """TCS Omaha 3.4a, 3.4b: a rocket pit fires like a mortar with a spotter: targeting
    roll 2 (1-3 on target): 10 firepower (column 10) on a stack in move mode (+1):
    roll 8 + 1 = 9, one step; morale with the mortar modifier (+1 step, +1 mortar,
    +1 move mode): 2 + 3 = 5 holds. The pit is eliminated on firing."""
    state = staged(
        {"RP-01": "A16.03", "5./916.1": "A16.05", "E/2/16.1": "A16.08", "E/2/16.2": "A22.15"},
        fire=["5./916.1"],
    )
    to_act(state, "German")
    pin_dice(state, [2, 4, 4, 1, 1])
    german_fire_with(state, "A16.08", "A16.03")
    assert events(state, "tcs.rocket.roll")[0]["result"] == "on target"
    fire = events(state, "tcs.fire.area")[-1]
    assert fire["firepower"] == 10 and fire["roll"] == 8 and fire["modifier"] == "+1"
    assert state.steps[unit(state, "E/2/16.1")] == 4
    assert events(state, "tcs.morale")[-1]["modifier"] == "+3"
    assert hexes(state, "RP-01") == ["off"] and state.stats["rocket_pits_fired"] == 1


def test_a_rocket_pit_needs_a_spotter() -> None:
    """3.4a: with no German unit seeing the target, the pit cannot fire at it."""
    state = staged({"RP-01": "A16.03", "E/2/16.1": "A16.08", "E/2/16.2": "A22.15"})
    from omaha.tcs.procedures.action import fire_targets

    assert fire_targets(state, "German") == []


def test_a_missing_rocket_pit_strays() -> None:
    """TCS Omaha 3.4b: targeting roll 5 misses; the rounds go astray like a designator
    round: direction 4 (south), distance 2 (reading: they attack what stands there,
    friend or foe, with the pit's firepower)."""
    from omaha.kernel.hexes import Hex
    from omaha.tcs.components.beach import COMPASS

    state = staged(
        {"RP-01": "A16.03", "5./916.1": "A16.05", "E/2/16.1": "A16.08", "E/2/16.2": "A22.15"},
        fire=["5./916.1"],
    )
    h = state.scenario.board.hex(state.cell("A16.08"))
    dq, dr = COMPASS[state.scenario.tables.directions[3]]
    stray = state.scenario.board.at(Hex(h.q + 2 * dq, h.r + 2 * dr))
    assert stray is not None
    place(state, {"E/2/16.3": state.label(stray)})
    to_act(state, "German")
    pin_dice(state, [5, 4, 2, 1, 1])
    german_fire_with(state, "A16.08", "A16.03")
    astray = events(state, "tcs.rocket.stray")[0]
    assert astray["distance"] == 2 and astray["hex"] == state.label(stray)
    assert events(state, "tcs.fire.area")[-1]["hex"] == state.label(stray)
    assert state.steps[unit(state, "E/2/16.1")] == 5  # the target itself is spared


def test_a_pill_box_fires_its_gun_and_its_machine_guns_apart() -> None:
    """TCS Omaha 3.3b: a pill box's 75mm gun (point 5) and machine guns (area 6) fire at
    different targets in one phase: the gun at a tank (8 + 5 - 4 = 9 kills it), then the
    machine guns at a rifle platoon (column 5, move mode +1: 10 + 1 = 11, one step)."""
    state = staged(
        {"PB-01": "A16.05", "A/741.1": "A16.08", "E/2/16.1": "A17.07", "E/2/16.2": "A22.15"}
    )
    to_act(state, "German")
    pin_dice(state, [4, 4])
    state.apply(PointMenu())
    state.apply(PointFire("PB-01", "A/741.1"))
    assert hexes(state, "A/741.1") == ["off"]
    pb = unit(state, "PB-01")
    assert pb in state.fired_point and pb not in state.acted
    pin_dice(state, [5, 5, 1, 1])
    state.apply(FireMenu())
    state.apply(Target("A17.07"))
    assert state.steps[unit(state, "E/2/16.1")] == 4
    assert pb in state.acted
    assert PointMenu() not in state.legal_actions()  # each ability once a phase


def test_bursts_in_the_sea_hurt_nobody() -> None:
    """TCS Omaha 1.11: HE rounds landing in a sea hex affect no unit there (no die is
    rolled); the same rounds on the beach roll the fire tables."""
    state = staged({"E/2/16.1": "A16.16", "5./916.1": "A16.13"})  # row 16 is sea at 1040
    sea = state.cell("A16.16")
    assert sea in state.scenario.beach.sea(state.tide_hour)
    drawn, logged = state.dice.count, len(state.log)
    with state.edit():
        combat.he_rounds(state, sea, 6, "155mm", source="test", rule="1.11")
    assert (state.dice.count, len(state.log)) == (drawn, logged)
    assert state.steps[unit(state, "E/2/16.1")] == 5
    with state.edit():
        combat.he_rounds(state, state.cell("A16.13"), 6, "155mm", source="test", rule="1.11")
    assert state.dice.count > drawn


def test_a_woods_hex_conceals_its_units() -> None:
    """TCS Omaha 1.1 with series 7.0: a hex with any woods is a woods hex, and units in
    it are spotted only at the woods range; in open ground at the day range."""
    state = staged({"E/2/16.1": "A16.15"})
    board, series = state.scenario.board, state.scenario.series
    woods = next(c for c in range(len(board)) if board.terrain[c] == "woods")
    open_ = next(c for c in range(len(board)) if board.terrain[c] == "open")
    assert spot_range(state, woods, []) == series.spot_concealed["woods"]
    assert spot_range(state, open_, []) == series.spot_day > series.spot_concealed["woods"]


def test_a_unit_cornered_on_the_map_edge_is_destroyed_by_its_retreat() -> None:
    """TCS Omaha 1.8: no movement off the map; a unit whose retreat would take it off the
    map edge (here the south-west corner, the US on its two open sides) is destroyed."""
    state = staged({"5./916.1": "A1.01", "E/2/16.1": "A2.02", "F/2/16.1": "A1.03"})
    i = unit(state, "5./916.1")
    assert combat.retreat_options(state, i, voluntary=False) == []
    mark = len(state.log)
    with state.edit():
        combat.retreat(state, i, "1.8")
    assert state.steps[i] == 0 and state.where[i] < 0
    assert [(e.kind, e.rule) for e in state.log[mark:]] == [("tcs.retreat.none", "1.8")]
