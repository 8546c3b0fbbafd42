"""The Clean-up Phase and the end of the game (victory).

At the end of each side's Action Phase its suppressed units recover and those
paralyzed become suppressed (series 17.0, reconstructed: a result lasts through
its owner's next Action Phase). The Clean-up Phase removes overwatch marks and the turn's records,
lets unassigned units fall back (2.3g), digs in units that held their fire-mode
positions, clears the LCT(R) smoke after the first turn (2.2a), records draw
exits opened, and enforces the 29th ID exit (2.7b). The game ends after the last
turn with the scenario's victory conditions, or with no winner.
"""

from __future__ import annotations

from omaha.kernel.events import register_templates
from omaha.kernel.protocol import Outcome
from omaha.tcs.core import EXITED, Status, TcsCore
from omaha.tcs.procedures.command import unassigned_retreats
from omaha.tcs.procedures.obstacles import check_exits, finish_breaches, open_breaches
from omaha.tcs.procedures.release import check_automatic

register_templates(
    {
        "tcs.lctr.smoke_gone": "the LCT(R) smoke clears ({hexes} hexes)",
        "tcs.division29.forfeit": "29th ID units still on the map: {units}",
        "tcs.division29.checked": "the 29th ID's exit is checked: {gone} of its units "
        "gone west, {left} still on the map",
        "tcs.end": "the {scenario} scenario ends: {result}",
    }
)


def end_of_phase(core: TcsCore, side: str) -> None:
    """A side's Action Phase is over: its units recover one level (17.0, reconstructed)."""
    units = core.scenario.units
    for i in range(len(units)):
        if units[i].side != side or core.where[i] < 0:
            continue
        if core.status[i] == Status.PARALYZED:
            core.set_status(i, Status.SUPPRESSED)
        elif core.status[i] == Status.SUPPRESSED:
            core.set_status(i, Status.OK)
    core.touch()


def step_us_phase_end(core: TcsCore) -> bool:
    """End of the US Action Phase: breaches made (2.4b), shingle breaches opened (2.5a),
    automatic German releases (3.1), recovery and modes."""
    finish_breaches(core)
    open_breaches(core)
    check_automatic(core)
    end_of_phase(core, "US")
    return True


def step_german_phase_end(core: TcsCore) -> bool:
    end_of_phase(core, "German")
    return True


def step_cleanup(core: TcsCore) -> bool:
    """The Clean-up Phase (see the module docstring)."""
    unassigned_retreats(core)
    for i, c in enumerate(core.where):
        if c >= 0 and core.fire_mode[i] and core.unit(i).type.kind != "pillbox":
            core.set_dug_in(i, True)
    core.clear_marks()
    core.revealed = set()
    core.road_moved, core.tested = set(), set()
    core.breach_traffic, core.missions = {}, set()
    core.illuminated = set()  # the night's illumination lasts the turn
    core.touch()
    german = core.scenario.german
    core.german_sheets = {
        f for f in core.german_sheets if any(core.where[i] >= 0 for i in german.formation(f).units)
    }
    if core.turn == 0 and core.smoke:
        core.note("tcs.lctr.smoke_gone", "2.2a", hexes=len(core.smoke))
        core.clear_smoke()
    check_exits(core)
    return True


def step_end(core: TcsCore) -> bool:
    """TCS Omaha 2.7b: the US forfeits if any 29th ID unit is still on the map at the end
    of the 1200 7 June turn."""
    if core.turn_label == core.scenario.tables.exit29_by:
        left = [
            core.uid(i)
            for i in core.us_units()
            if core.where[i] >= 0 and core.scenario.oob.units[i].is_29th
        ]
        gone = sum(
            1
            for i in core.us_units()
            if core.scenario.oob.units[i].is_29th and core.where[i] == EXITED
        )
        core.note("tcs.division29.checked", "2.7b", gone=gone, left=len(left))
        if left:
            core.note("tcs.division29.forfeit", "2.7b", units=left)
            core.result = Outcome(
                "German",
                "US forfeit",
                detail=f"{len(left)} 29th ID units still on the map (2.7b)",
            )
    return True


def victory_points(core: TcsCore) -> dict[str, int]:
    """The scenario's victory points by kind (reconstructed conditions)."""
    scen = core.scenario
    v = scen.victory
    assert v is not None
    turns = [t.label for t in scen.turns]
    early = turns.index(v.early_by)
    exits = sum(
        v.exit_points + (v.early_exit_points if turns.index(label) <= early else 0)
        for label in core.exits.values()
    )
    villages = 0
    for cells in scen.beach.villages.values():
        us = any(core.side_units_at(c, "US") for c in cells)
        if us and not any(core.side_units_at(c, "German") for c in cells):
            villages += v.village_points
    strongpoints = sum(
        v.strongpoint_points
        for name, cells in scen.beach.strongpoints.items()
        if core.stats.get(f"held {name}")
        and not any(core.side_units_at(c, "German") for c in cells)
    )
    lost = sum(val for k, val in core.stats.items() if k.startswith("steps_lost_"))
    return {
        "exits": exits,
        "villages": villages,
        "strongpoints": strongpoints,
        "losses": -(lost // v.us_loss_steps),
    }


def finish(core: TcsCore) -> None:
    """The last turn is over: the victory level of the scenario's conditions, or (the
    landing scenario) no winner."""
    scen = core.scenario
    lost = sum(v for k, v in core.stats.items() if k.startswith("steps_lost_"))
    if scen.victory is None:
        landed = sum(v for k, v in core.stats.items() if k.startswith("steps_landed_"))
        ashore = sum(core.steps[i] for i in core.us_units() if core.where[i] >= 0)
        core.result = Outcome(
            None,
            "landing over",
            points=(("steps ashore", float(ashore)), ("steps lost", float(lost))),
            detail=f"{landed} steps landed, {lost} lost; exits opened: "
            + (", ".join(sorted(core.exits)) or "none"),
        )
    else:
        points = victory_points(core)
        total = sum(points.values())
        level = next(x for x in scen.victory.levels if total >= x.points)
        core.result = Outcome(
            level.winner,
            level.level,
            points=(("victory points", float(total)), *((k, float(v)) for k, v in points.items())),
            detail="exits opened: "
            + (", ".join(f"{k} at {v}" for k, v in sorted(core.exits.items())) or "none"),
        )
    core.note("tcs.end", "", scenario=scen.name, result=str(core.result))
