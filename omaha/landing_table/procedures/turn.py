"""The start of a turn and the end phase (reconstructed: READINGS.md, "sequence of play").

Start: the turn is announced with the tide; from turn 23 every obstacle hex
counts as cleared (Amphibious Landing Table, note *). End phase: on a turn when
the tide rises, units still on a flooded row are eliminated (landing table
note on tide changes); disrupted US units recover unless they stand in the
intense field of fire of an occupied position; exits open or close again;
the exits open at 12:00 and 17:00 are noted; after the last turn, victory.
"""

from __future__ import annotations

from omaha.kernel.protocol import Outcome
from omaha.landing_table import rules
from omaha.landing_table.core import LandingTableCore, Phase

END = "end phase (reconstructed)"
#: The clock times at which the open exits are counted (metrics).
MARKS = (("exits_by_1200", 12 * 60), ("exits_by_1700", 17 * 60))


def new_game(core: LandingTableCore) -> None:
    """The statistics a new game starts with."""
    core.stats["first_wave_planned"] = float(
        sum(u.kind.steps for u in core.scen.us if u.first_wave)
    )
    for key, _ in MARKS:
        core.stats[key] = -1.0


def start_turn(core: LandingTableCore) -> None:
    """Turn ``core.turn`` begins (its landing phase comes next)."""
    core.current_phase = Phase.LANDING
    core.note(
        "ddob.turn",
        "sequence of play (reconstructed)",
        time=core.time_of(core.turn),
        turn=core.turn,
        tide=core.tide(),
    )
    scen = core.scen
    if rules.obstacles_all_cleared(core.turn) and not scen.obstacle_cells <= core.cleared:
        core.clear_obstacles(set(scen.obstacle_cells))
        core.note("ddob.cleared_all", "DDOB Amphibious Landing Table, Notes *")


def end_turn(core: LandingTableCore) -> None:
    """The end phase; then the turn marker advances, or after the last turn the game ends."""
    core.current_phase = Phase.END
    if core.tide_rising():
        drowned = [u for u in core.ashore() if core.flooded(core.us[u].where)]
        if drowned:
            rows = "".join(sorted(core.flooded_rows()))
            core.note(
                "ddob.tide",
                "DDOB Amphibious Landing Table, Notes (tide change)",
                row=rows,
                units=drowned,
            )
            for u in drowned:
                core.eliminate(
                    u, "caught by the rising tide", "DDOB Amphibious Landing Table, Notes"
                )
    intense = core.lookup.intense
    pinned = [intense[pid] for cell, pid in core.german_by_cell()]
    recovered = [
        u
        for u in core.ashore()
        if core.us[u].disrupted and not any(core.us[u].where in cells for cells in pinned)
    ]
    for u in recovered:
        core.set_disrupted(u, False)
    if recovered:
        core.note("ddob.recover", END, units=recovered)
    update_exits(core)
    end_minutes = core.scen.start_minutes + core.scen.minutes * core.turn
    for key, mark in MARKS:
        if core.stats[key] < 0 and end_minutes >= mark:
            core.stats[key] = float(len(core.exits_open))
    if core.turn >= core.scen.turns:
        _finish(core)
        return
    core.next_turn()


def update_exits(core: LandingTableCore) -> None:
    """An exit opens when none of its covering positions is occupied and a US unit
    stands in its exit hex; it closes again if one of them is re-occupied."""
    us_cells = core.us_at()
    for e in core.scen.exits:
        clear = all(not core.occupied(pid) for pid in e.covered_by)
        if e.id in core.exits_open:
            if not clear:
                del core.exits_open[e.id]
                core.exits_changed()
                core.note("ddob.exit", END, exit=e.id, name=e.name, state="is closed again")
        elif clear and e.cell in us_cells:
            core.exits_open[e.id] = core.turn
            core.exits_first.setdefault(e.id, core.turn)
            core.exits_changed()
            core.note("ddob.exit", END, exit=e.id, name=e.name, state="is open")


def _finish(core: LandingTableCore) -> None:
    """Victory (reconstructed): the VP total against the scenario's levels."""
    vp, held, total = core.victory_points()
    for key, _ in MARKS:
        if core.stats[key] < 0:
            core.stats[key] = float(len(core.exits_open))
    level = next(lv for lv in core.scen.levels if vp >= lv.min)
    exits = ", ".join(sorted(core.exits_open)) or "none"
    core.result = Outcome(
        level.winner,
        level.level,
        points=(("US VP", float(vp)),),
        detail=f"exits open: {exits}; VP positions held {held} of {total}",
    )
    core.decision = None
    core.set_queue([])
    core.note(
        "ddob.end",
        "victory (reconstructed)",
        time=core.time_of(core.turn + 1),
        result=str(core.result),
    )
