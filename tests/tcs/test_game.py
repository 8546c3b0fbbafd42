"""TCS Omaha through the protocol, with pinned dice: landings, tide, transports,
leaders, LCT(R) fires, airpower, NFSTs, overdraft and the 29th ID exit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from planbuild import boat, company_plan, full, pooled
from routine import answer, play_until, settle

from omaha.tcs.actions import (
    AirLoadout,
    BombUnit,
    CloseBoat,
    CommitPlan,
    EndAction,
    EndRockets,
    EndSmoke,
    EndTransports,
    ExitWest,
    HoldStrike,
    LandAt,
    Load,
    MoveMenu,
    MoveTo,
    OpenTransport,
    Overdraft,
    Select,
    SelectStack,
    SmokeCheck,
    Strike,
    UseSetup,
)
from omaha.tcs.components.oob import Oob
from omaha.tcs.components.plan import Plan
from omaha.tcs.core import ABOARD, EXITED, LOST
from omaha.tcs.game import TcsGame
from omaha.tcs.procedures.fire import Attack, AttackResult
from omaha.tcs.state import TcsState
from omaha.testing import pin_dice
from omaha.testing import start as start_game

DATA = Path(__file__).parent / "data"
Starter = Callable[..., TcsState]


def kinds(state: TcsState) -> list[str]:
    return [e.kind for e in state.log]


def events(state: TcsState, kind: str) -> list[dict[str, object]]:
    return [dict(e.details) for e in state.log if e.kind == kind]


def at(state: TcsState, uid: str) -> str:
    w = state.where[state.unit_index(uid)]
    return state.label(w) if w >= 0 else {LOST: "lost", EXITED: "exited", ABOARD: "aboard"}[w]


# ----------------------------------------------------------------------------- landings
def test_assault_landing_with_random_losses(start: Starter, oob: Oob) -> None:
    """2.1i-2.1l in play: E/2/116 in two LCAs; the 9-point LCA sinks (13) and takes 9
    random steps (2.1j); the other lands on path 2 (Easy Red 3), hex 4 of the 0600 line."""
    plan = company_plan(oob, "E/2/116", "EasyRed")
    state = start(plan, [6, 6, 0, 0, 1, 1, 2, 4])
    assert state.wait is not None and state.wait[0] == "action"
    assert state.turn_label == "0640 6 June" and state.phase == "US Action Phase"
    assert at(state, "E/2/116.1") == "lost"
    assert at(state, "E/2/116.2") == "A15.18"
    assert state.steps[state.unit_index("E/2/116.2")] == 1
    assert {at(state, f"E/2/116.{s}") for s in ("3", "mg", "mtr")} == {"A15.18"}
    survival = events(state, "tcs.boat.survival")
    assert [(e["boat"], e["total"], e["result"]) for e in survival] == [
        ("g.0", 13, "lost"),
        ("g.1", 3, "survives"),
    ]
    assert events(state, "tcs.boat.losses")[0]["losses"] == [
        "E/2/116.1 -5 (eliminated)",
        "E/2/116.2 -4",
    ]
    assert events(state, "tcs.boat.scatter")[0]["sector"] == "Easy Red 3"
    m = state.metrics()
    assert m["boats_sent_LCA"] == 2 and m["boats_lost_LCA"] == 1
    assert m["steps_lost_infantry"] == 9 and m["steps_landed"] == 8
    assert m["first_wave_ashore"] == pytest.approx(8 / 17)
    assert m["landed_off_target"] == 0.0 and m["units_correct_beach"] == 4


def test_dog_red_minor_sector_choice_and_off_map(start: Starter, oob: Oob) -> None:
    """2.1l: Dog Red 1 roll 3 is a minor sector of two hexes (the US picks); roll 1 sends
    the boat off the west edge and its share of the group is removed."""
    plan = company_plan(oob, "F/2/116", "DogRed")
    state = start(plan, [1, 1, 1, 1, 1, 3, 1])
    assert state.wait is not None and state.wait[0] == "land"
    assert [str(a) for a in state.legal_actions()] == ["land g.0 at A1.18", "land g.0 at A2.18"]
    state.apply(LandAt("g.0", "A2.18"))
    assert at(state, "F/2/116.1") == "A2.18"
    assert at(state, "F/2/116.2") == "A2.18"  # 4 of its 5 steps rode g.0
    assert state.steps[state.unit_index("F/2/116.2")] == 4
    assert {at(state, f"F/2/116.{s}") for s in ("3", "mg", "mtr")} == {"lost"}
    hexes = events(state, "tcs.boat.hex")
    assert hexes[1]["where"] == "off the map (removed)"


def test_tide_advance_and_tow_only_units(start: Starter, oob: Oob) -> None:
    """1.12a: at the 0700 hour turn the 0600 line hexes become sea: pieces there advance
    one hex; a tow-only gun with no carrier is destroyed, a Dukw-landed gun keeps its
    Dukw as carrier (reading) and advances."""
    plan = company_plan(oob, "E/2/116", "EasyRed")
    state = start(plan, [1, 1, 1, 1, 2, 4, 4])
    cell = state.cell("A15.18")
    towed, dukw = state.unit_index("Cn/115.guns"), state.unit_index("Cn/18.guns")
    with state.edit():
        state.where[towed] = state.where[dukw] = cell
        state.carried[dukw] = True
    play_until(state, "action", "0700 6 June")
    assert [e["new"] for e in events(state, "tcs.tide.move")] == ["0700"]
    assert events(state, "tcs.tide.drowned")[0]["unit"] == "Cn/115.guns"
    assert at(state, "Cn/115.guns") == "lost"
    assert at(state, "Cn/18.guns") == "A15.17"
    assert at(state, "E/2/116.1") == "A15.17"
    assert state.tide_hour == "0700"


def test_transport_landing(start: Starter, oob: Oob) -> None:
    """2.1m: assigned on the 0900 turn (1 LCI, 5 LCT), they land at 1000 without scatter;
    each rolls for survival; the US picks the hex on any sector line of the beach."""
    state = start(Plan("none"))
    play_until(state, "transports", "0900 6 June")
    opens = [str(a) for a in state.legal_actions() if isinstance(a, OpenTransport)]
    assert len(opens) == 10  # LCI and LCT to each of the five beaches
    state.apply(OpenTransport("LCI", "EasyRed-T"))
    for u, _ in full(oob, "E/2/115"):
        state.apply(Load(u))
    state.apply(CloseBoat())
    state.apply(OpenTransport("LCT", "FoxGreen-T"))
    state.apply(Load("Sv/115.trk1"))
    state.apply(CloseBoat())
    assert not any(a.kind == "LCI" for a in state.legal_actions() if isinstance(a, OpenTransport))
    state.apply(EndTransports())
    assert at(state, "E/2/115.1") == "aboard" and at(state, "Sv/115.trk1") == "aboard"
    pin_dice(state, [6, 6, 2, 2])
    play_until(state, "transports", "1000 6 June")
    # unused capacity is not saved: the 1000 turn offers one LCI and five LCTs again
    assert len([a for a in state.legal_actions() if isinstance(a, OpenTransport)]) == 10
    state.apply(EndTransports())
    settle(state)
    assert state.wait is not None and state.wait[0] == "land"
    options = [a.hex for a in state.legal_actions() if isinstance(a, LandAt)]
    assert len(options) == 11  # Fox Green 6 and 7 on the 1000 line
    state.apply(LandAt("T1000.02", options[3]))
    assert at(state, "Sv/115.trk1") == options[3]
    assert at(state, "E/2/115.1") == "lost"  # the LCI rolled 12+1
    assert state.metrics()["boats_lost_LCI"] == 1


# ----------------------------------------------------------------------------- leaders
LEADER_DICE = [1, 1, 0, 0, 0, 1, 0, 0]  # 3 leaders; Ldr-16 -> g.0, Ldr-2/16 -> g.1, ADC -> g.0


def test_leader_selection_landing_and_loss(start: Starter, oob: Oob) -> None:
    """2.3f: leaders of the assault units go in a cup; 2-4 draws 3; each lands with a boat
    of its command and dies if it sinks; an exposed leader dies on a 12."""
    plan = company_plan(oob, "E/2/16", "EasyRed")
    state = start(plan, [*LEADER_DICE, 6, 6, 0, 0, 1, 1, 2, 4, 6, 6])
    sel = events(state, "tcs.leaders.selection")[0]
    assert sel["eligible"] == 3 and sel["available"] == 3
    assert sel["drawn"] == [
        "Ldr-16 (Taylor) with boat g.0",
        "Ldr-2/16 (Hicks) with boat g.1",
        "Ldr-ADC (Wyman) with boat g.0",
    ]
    statuses = dict(zip((ld.id for ld in oob.leaders), state.leader_status, strict=True))
    assert statuses["Ldr-16"] == statuses["Ldr-ADC"] == "lost"  # went down with g.0
    assert statuses["Ldr-2/16"] == "map"
    play_until(state, "action", "0700 6 June")
    k = oob.leader("Ldr-2/16").index
    assert state.leader_status[k] == "dead" and state.label(state.leader_cell[k]) == "A15.17"
    assert events(state, "tcs.leaders.loss")[0]["result"] == "killed"
    assert state.metrics()["leaders_landed"] == 1 and state.metrics()["leaders_alive"] == 0


def test_leaders_command_radius_and_removal(start: Starter, oob: Oob) -> None:
    """2.3, 2.3f: units within 3 hexes of a leader are free; leaders leave at 1300 6 June."""
    plan = company_plan(oob, "E/2/16", "EasyRed")
    state = start(plan, [*LEADER_DICE, 1, 1, 1, 1, 2, 4, 4], scenario=DATA / "mini-1300.toml")
    assert events(state, "tcs.leaders.command")[0]["units"] == 5
    assert all(state.leader_status[oob.leader(x).index] == "map" for x in ("Ldr-16", "Ldr-ADC"))
    # keep the company above the 1300 tide line (the test track jumps from 0640)
    with state.edit():
        for i in state.us_units():
            if state.where[i] >= 0:
                state.where[i] = state.cell("A15.14")
        for k, s in enumerate(state.leader_status):
            if s == "map":
                state.leader_cell[k] = state.cell("A15.14")
    pin_dice(state, [1, 1] * 3)  # leader loss rolls at 1240
    play_until(state, "action", "1300 6 June")
    assert set(state.leader_status) <= {"removed", "unselected"}
    assert events(state, "tcs.leaders.removed")[0]["leaders"] == ["Ldr-16", "Ldr-2/16", "Ldr-ADC"]


# ----------------------------------------------------------------------------- fires
class Recorder:
    def __init__(self) -> None:
        self.attacks: list[Attack] = []

    def resolve(self, state: TcsState, attack: Attack) -> AttackResult:
        self.attacks.append(attack)
        return AttackResult(True, "recorded")


def test_lctr_fire_area_c_miller_and_smoke() -> None:
    """2.2: designator 1 (north) distance 1 x3 from A3.05 lands on A3.08; every enemy hex
    within 10 rolls the Miller table; hits use smoke markers; the US checks for the rest;
    each rocket hex goes to the fire resolver."""
    recorder = Recorder()
    game = TcsGame(resolver=recorder)
    state = start_game(game, DATA / "mini.toml", dice=[])
    assert isinstance(state, TcsState)
    state.apply(UseSetup("historical"))
    board = state.board
    impact = board.cell("A3.08")
    area = [c for c in sorted(state.german_cells()) if board.distance(c, impact) <= 10]
    first = area[0]
    dice = [1, 1, 6, 6] + [1, 1] * (len(area) - 1)
    pin_dice(state, [*dice, 1, 1, 2, 2])
    state.apply(CommitPlan(Plan("fire", lctr=("A3.05",)).tokens()))
    assert events(state, "tcs.lctr.designator")[0]["impact"] == "A3.08"
    rounds = events(state, "tcs.lctr.rounds")[0]
    assert rounds["hexes"][0] == f"{board.label(first)} 7"  # type: ignore[index]
    assert [a.target for a in recorder.attacks] == [board.label(first)]
    assert recorder.attacks[0].rounds == 7 and recorder.attacks[0].weapon == "155mm HE"
    assert state.smoke == {first}
    assert state.wait is not None and state.wait[0] == "smoke"
    assert "9 markers left" in state.wait[2]
    state.apply(SmokeCheck("A5.05"))  # 11: no smoke
    state.apply(SmokeCheck("A6.05"))  # 22: smoke
    assert state.smoke == {first, board.cell("A6.05")}
    state.apply(EndSmoke())
    checks = events(state, "tcs.lctr.check")
    assert [c["result"] for c in checks] == ["no smoke", "smoke"]


def test_airpower_german_sortie_and_bomb_kill(oob: Oob) -> None:
    """2.10: A-20s on 8+; the German uses the sortie on 7+1 on 6 June; a bomb against a
    point target kills on a hit roll of 8+ (2.10a); strafes go to the fire resolver."""
    recorder = Recorder()
    game = TcsGame(resolver=recorder)
    state = start_game(game, DATA / "mini-clear.toml", dice=[])
    assert isinstance(state, TcsState)
    state.apply(UseSetup("historical"))
    lct = boat("t", 1, "LCT", "EasyRed", full(oob, "Sv/115"), oob)
    state.apply(CommitPlan(Plan("air", (lct,)).tokens()))
    state.apply(EndRockets())
    assert state.wait is not None and state.wait[0] == "air"
    # 0640: no aircraft (2); the LCT lands (survival 2, path 2, hex 1)
    pin_dice(state, [1, 1, 1, 1, 2, 1])
    state.apply(AirLoadout(0))
    # 0700: the strikes come before the turn's action phases (Aircraft and Artillery Phase)
    play_until(state, "air", "0700 6 June")
    pin_dice(state, [4, 4, 3, 4, 4, 4])
    state.apply(AirLoadout(1))
    assert events(state, "tcs.air.arrive")[0]["controller"] == "German"
    assert state.current_player() == "German" and state.wait[0] == "strike"
    state.apply(Strike(at(state, "Sv/115.trk1")))
    for _ in range(2):
        state.apply(HoldStrike())
    assert BombUnit("Sv/115.trk1") in state.legal_actions()
    state.apply(BombUnit("Sv/115.trk1"))
    assert at(state, "Sv/115.trk1") == "lost"
    assert events(state, "tcs.air.bomb")[0]["result"] == "destroyed"
    assert recorder.attacks[0].weapon == "strafe" and recorder.attacks[0].firepower == 5
    assert events(state, "tcs.air.attack")[0]["result"] == "recorded"


def test_nfst_option(start: Starter, oob: Oob) -> None:
    """2.6d: one NFST per battalion on an infantry unit; its radio works on a 6."""
    plan = company_plan(oob, "E/2/116", "EasyRed", nfst=(("2/116", "E/2/116.3"),))
    state = GAME_NFST(plan, [1, 1, 1, 1, 2, 4, 5, 6])
    assert state.nfst["2/116"] == ["E/2/116.3", "working"]
    assert events(state, "tcs.nfst.roll")[0]["result"] == "working"
    assert state.metrics()["nfst_working"] == 1


def GAME_NFST(plan: Plan, dice: list[int]) -> TcsState:
    from omaha.tcs import GAME

    state = start_game(GAME, DATA / "mini-nfst.toml", dice=dice)
    assert isinstance(state, TcsState)
    state.apply(UseSetup("historical"))
    state.apply(CommitPlan(plan.tokens()))
    state.apply(EndRockets())
    while state.wait is not None and state.wait[0] == "nfst":
        state.apply(state.legal_actions()[0])
    settle(state)
    return state


# ----------------------------------------------------------------------------- 2.9, 2.11, 2.7b
def test_overdraft_ammunition_and_29th_exit(start: Starter, oob: Oob) -> None:
    """2.9 additions at 0600 7 June; 2.11 overdraft at 1200 7 June (up to 5 steps a line
    company of the 16th, never above full strength); 2.7, 2.7b: a 29th ID unit still on the
    map at the end of 1200 7 June makes the US forfeit; units may exit west."""
    b1, g1 = pooled("g", 1, "EasyRed", [9, 8], full(oob, "E/2/16"))
    b2, g2 = pooled("h", 1, "EasyRed", [9, 8], full(oob, "F/2/116"))
    plan = Plan("days", (*b1, *b2), (g1, g2))
    dice = [*LEADER_DICE, 6, 6, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 4, 5, 5]
    state = start(plan, dice, scenario=DATA / "mini-days.toml")
    assert state.steps[state.unit_index("E/2/16.2")] == 1
    with state.edit():
        for i in state.us_units():  # above the tide of the sparse test track
            if state.where[i] >= 0:
                state.where[i] = state.cell("A15.14")
        state.leader_cell[oob.leader("Ldr-2/16").index] = state.cell("A15.14")
    pin_dice(state, [1, 1, 1, 1])  # Hicks's loss rolls at 0600 and 1200 7 June
    play_until(state, "overdraft", "1200 7 June")
    assert state.ammo["105mm"] == [50, 10, 5] and state.ammo["155mm"] == [35, 7, 2]
    assert [str(a) for a in state.legal_actions()] == ["end overdraft", "overdraft E/2/16.2"]
    for _ in range(4):
        state.apply(Overdraft("E/2/16.2"))
    assert state.steps[state.unit_index("E/2/16.2")] == 5
    assert state.overdraft_added == {"E/2/16": 4}
    play_until(state, "action", "1200 7 June")
    edge = state.cell("A1.14")
    with state.edit():
        state.where[state.unit_index("F/2/116.1")] = edge
    state.apply(MoveMenu())
    state.apply(SelectStack("A1.14"))
    assert ExitWest() in state.legal_actions()
    state.apply(ExitWest())
    assert at(state, "F/2/116.1") == "exited"
    state.apply(EndAction())
    while not state.is_terminal():  # the rest of the turn passes
        answer(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == "German" and outcome.level == "US forfeit"
    assert "4 29th ID units" in outcome.detail


# ----------------------------------------------------------------------------- more landing
def test_fixed_contents_group_loses_exactly_its_boat(start: Starter, oob: Oob) -> None:
    """2.1j: a group whose boat contents were fixed beforehand loses exactly what the
    sunk boat carried (no random draw)."""
    from omaha.tcs.components.plan import PlannedGroup

    b0 = boat("f.0", 1, "LCA", "EasyRed", (("E/2/116.1", 5), ("E/2/116.3", 4)), oob)
    b1 = boat(
        "f.1",
        1,
        "LCA",
        "EasyRed",
        (("E/2/116.2", 5), ("E/2/116.3", 1), ("E/2/116.mg", 1), ("E/2/116.mtr", 1)),
        oob,
    )
    b0, b1 = (attrs_evolve(b0, group="f"), attrs_evolve(b1, group="f"))
    plan = Plan("fixed", (b0, b1), (PlannedGroup("f", 1, "EasyRed", ("f.0", "f.1"), False, ()),))
    state = start(plan, [6, 6, 1, 1, 2, 4])
    assert not events(state, "tcs.boat.losses")  # nothing drawn at random
    assert at(state, "E/2/116.1") == "lost"
    assert state.steps[state.unit_index("E/2/116.3")] == 1  # 4 of its 5 steps went down
    assert at(state, "E/2/116.2") == "A15.18"


def attrs_evolve(b: object, **changes: object) -> object:
    import attrs

    return attrs.evolve(b, **changes)  # type: ignore[misc]


def test_dukw_guns_battery_fires_and_carrier(start: Starter, oob: Oob) -> None:
    """2.1f/2.1i: a 4-gun battery in four Dukws (class II: 2-5, unmodified); three
    survive; 2.9: the battery lands with 20 x 3 / 4 = 15 HE, 9 / 4 = 2 smoke, 1 illum;
    the guns keep their Dukws as carriers when the 0800 tide comes (reading)."""
    dukws = [boat(f"d{k}", 2, "DUKW", "EasyRed", (("A/7FA.guns", 1),), oob) for k in range(4)]
    # the ADC rides d3; nothing to decide before the 0740 landing, so all dice go in now
    landing = [1, 1, 2, 3, 1, 4, 6, 6, 2, 2, 2, 1, 1, 2]
    state = start(Plan("guns", tuple(dukws)), [1, 1, 0, 3, *landing])
    assert state.turn_label == "0740 6 June" and state.wait is not None
    assert [e["result"] for e in events(state, "tcs.boat.survival")] == [
        "survives",
        "survives",
        "survives",
        "lost",
    ]
    i = state.unit_index("A/7FA.guns")
    assert state.steps[i] == 3 and state.carried[i]
    assert at(state, "A/7FA.guns") == "A12.17"  # 1 step each: the first boat's hex
    assert state.ammo["105mm"] == [15, 2, 1]
    m = state.metrics()
    assert m["dukw_guns_loaded"] == 4 and m["dukw_guns_landed"] == 3
    assert m["dukw_guns_lost"] == pytest.approx(0.25)
    assert m["battery_fires_he"] == 15
    assert state.leader_status[oob.leader("Ldr-ADC").index] == "lost"
    play_until(state, "action", "0800 6 June")
    assert at(state, "A/7FA.guns") in ("A11.16", "A12.16", "A13.16")  # advanced, not lost


def test_landed_units_move_with_full_allowance(start: Starter, oob: Oob) -> None:
    """2.1n: landing comes first in the US Action Phase; the landed units then move with
    their whole allowance, along the beach seaward of the shingle (2.3d)."""
    plan = company_plan(oob, "E/2/116", "EasyRed")
    state = start(plan, [1, 1, 1, 1, 2, 4, 4])
    state.apply(MoveMenu())
    state.apply(SelectStack(at(state, "E/2/116.3")))
    state.apply(Select("E/2/116.3"))
    dests = {a.hex for a in state.legal_actions() if hasattr(a, "hex")}
    beach = state.scenario.beach
    here = state.cell("A15.18")
    cells = {state.cell(x) for x in dests}
    assert max(state.board.distance(here, c) for c in cells) == 4  # 4 MP of foot movement
    assert all(c in beach.strand and c not in beach.sea("0600") for c in cells)
    state.apply(MoveTo("A11.18"))
    assert at(state, "E/2/116.3") == "A11.18"
    assert events(state, "tcs.move")[0]["mp"] == 4


def test_op_sheet_starts_only_on_its_sector(start: Starter, oob: Oob) -> None:
    """2.3a: a landing op sheet is carried out only once its unit is on the correct
    sector; a unit landing elsewhere may walk there along the beach (2.3e)."""
    from omaha.tcs.components.plan import OpSheet

    units = tuple(u for u, _ in full(oob, "E/2/116"))
    plan = company_plan(oob, "E/2/116", "EasyRed", opsheets=(OpSheet("s", "Easy Red 4", units),))
    state = start(plan, [1, 1, 1, 1, 2, 4, 4])  # lands in Easy Red 3
    assert not any(state.on_task)
    state.apply(MoveMenu())
    state.apply(SelectStack(at(state, "E/2/116.3")))
    state.apply(Select("E/2/116.3"))
    state.apply(MoveTo("A18.18"))  # first hex of Easy Red 4
    assert state.on_task[state.unit_index("E/2/116.3")]
    assert events(state, "tcs.opsheet.start")[0]["sector"] == "Easy Red 4"


def test_transports_are_not_bound_by_the_dukw_rule(oob: Oob, rules: object) -> None:
    """Reading of 2.1f: the Dukw condition binds assault waves; a first transport landing
    of LCTs needs no Dukws."""
    from omaha.tcs.components.plan import PlannedBoat, check_plan

    lct = PlannedBoat("T1", 0, "LCT", "EasyRed-T", None, (("A/745.1", 1),), 6)
    check_plan(Plan("t", (lct,), transport_hour="1000"), rules)  # type: ignore[arg-type]
